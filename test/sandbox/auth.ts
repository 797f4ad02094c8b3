/**
 * Authentication.
 *
 * - v3: `Authorization: ApiKey <key>`.
 * - v1: `Authorization: Bearer <JWT>`, HS256, claims `sub` (user id) and `exp` (seconds since the
 *   epoch, read against the sandbox clock). Tokens are minted by `POST /_sandbox/token`.
 *
 * A missing, malformed or invalid credential (unknown key, bad signature, expired token, unknown
 * user) answers 401; a valid credential of a user whose plan lacks API access answers 403.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

import { ApiError } from './errors';
import type { Store, User } from './store';

export type AuthScheme = 'apiKey' | 'bearer';

/** Secret the sandbox signs its tokens with. Fixed, so tokens outlive a restart with a data file. */
export const TOKEN_SECRET = 'cts-sandbox-token-secret';

const b64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

const JWT_HEADER = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

function sign(input: string): Buffer {
	return createHmac('sha256', TOKEN_SECRET).update(input).digest();
}

/** A v1 bearer token for `userId`, valid `ttlSeconds` from `nowMs` (negative: already expired). */
export function signToken(userId: string, ttlSeconds: number, nowMs: number): string {
	const iat = Math.floor(nowMs / 1000);
	const payload = b64url(JSON.stringify({ sub: userId, iat, exp: iat + Math.trunc(ttlSeconds) }));
	const input = `${JWT_HEADER}.${payload}`;
	return `${input}.${b64url(sign(input))}`;
}

/** The user id of a valid token, or a 401. */
export function verifyToken(token: string, nowMs: number): string {
	const parts = token.split('.');
	if (parts.length !== 3) throw unauthorized('Malformed bearer token');
	const [header, payload, signature] = parts;
	let head: { alg?: unknown };
	let claims: { sub?: unknown; exp?: unknown };
	try {
		head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown };
		claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown; exp?: unknown };
	} catch {
		throw unauthorized('Malformed bearer token');
	}
	if (!head || head.alg !== 'HS256') throw unauthorized('Unsupported token algorithm');
	const expected = Buffer.from(b64url(sign(`${header}.${payload}`)));
	const given = Buffer.from(signature);
	if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
		throw unauthorized('Invalid token signature');
	}
	if (!claims || typeof claims.sub !== 'string') throw unauthorized('Token has no subject');
	if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp)) throw unauthorized('Token has no expiry');
	if (claims.exp * 1000 <= nowMs) throw unauthorized('Token expired');
	return claims.sub;
}

function unauthorized(message: string): ApiError {
	return new ApiError(401, message);
}

const API_KEY = /^ApiKey +(\S+)$/i;
const BEARER = /^Bearer +(\S+)$/i;

/** Identifies the caller of an API route, or throws the 401 / 403 error. */
export function authenticate(
	store: Store,
	scheme: AuthScheme,
	header: string | undefined,
	nowMs: number,
): User {
	if (header === undefined || header.trim() === '') throw unauthorized('Missing Authorization header');
	let user: User | undefined;
	if (scheme === 'apiKey') {
		const match = API_KEY.exec(header.trim());
		if (!match) throw unauthorized('Malformed Authorization header: expected "ApiKey <key>"');
		user = store.userByApiKey(match[1]);
		if (!user) throw unauthorized('Invalid API key');
	} else {
		const match = BEARER.exec(header.trim());
		if (!match) throw unauthorized('Malformed Authorization header: expected "Bearer <token>"');
		user = store.users.get(verifyToken(match[1], nowMs));
		if (!user) throw unauthorized('Token subject is not a known user');
	}
	if (!user.apiAccess) throw new ApiError(403, 'The plan of this account does not include API access');
	return user;
}
