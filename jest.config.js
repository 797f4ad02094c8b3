/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	setupFiles: ['<rootDir>/test/harness/env.ts'],
	// Generous: a timeout only catches a hung test, and CI runs jest beside end-to-end files on two cores.
	testTimeout: 120000,
	maxWorkers: 2,
};
