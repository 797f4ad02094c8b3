import { createHash } from 'node:crypto';
import type {
	IExecuteFunctions,
	IExecuteSingleFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

export type CredentialType = 'ctsApi' | 'ctsSyncApi';

export type ServiceContext = IExecuteFunctions | IExecuteSingleFunctions | IPollFunctions | ILoadOptionsFunctions;

/** How long a credential's user key is reused before the credential is read again (it may be edited). */
const KEY_TTL_MS = 60_000;

const keys = new Map<string, { key: string; expiresAt: number }>();

/**
 * A key for the service user behind a node's credential: what the service's point budget, and
 * caches of what it lists, belong to. The same API key (or the same v1 token user) at the same
 * address gives the same key, whichever node, workflow or execution uses it. It is a hash: the
 * secret itself is never kept or shown.
 */
export async function credentialUserKey(context: ServiceContext, credentialType: CredentialType): Promise<string> {
	const reference = context.getNode().credentials?.[credentialType];
	const cacheKey = `${credentialType}:${reference?.id ?? reference?.name ?? ''}`;
	const cached = keys.get(cacheKey);
	if (cached && cached.expiresAt > Date.now()) return cached.key;
	const credentials = await context.getCredentials(credentialType);
	const address = String((credentialType === 'ctsApi' ? credentials.baseUrl : credentials.syncUrl) ?? '').replace(/\/+$/, '');
	const identity = credentialType === 'ctsApi' ? `key:${String(credentials.apiKey)}` : tokenUser(String(credentials.token ?? ''));
	const key = createHash('sha256').update(`${address}\n${identity}`).digest('base64url');
	keys.set(cacheKey, { key, expiresAt: Date.now() + KEY_TTL_MS });
	return key;
}

/** The user a v1 bearer token (a JWT) names in its `sub` claim, so a renewed token keeps the key; else the token. */
function tokenUser(token: string): string {
	const payload = token.split('.')[1];
	try {
		const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as { sub?: unknown };
		if (typeof claims.sub === 'string' && claims.sub !== '') return `sub:${claims.sub}`;
	} catch {
		// Not a JWT: the token itself identifies the user.
	}
	return `token:${token}`;
}
