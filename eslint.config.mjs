import { globalIgnores } from 'eslint/config';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { config as n8nNodeCliConfig } from '@n8n/node-cli/eslint';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

// `n8n-node lint`'s own config with n8n Cloud support, for all code: ESLint's and typescript-eslint's
// recommended rules, import-x, no-console, the community-nodes plugin's recommended set and
// n8n-nodes-base's community, credentials and nodes sets. It is not the CLI's default file, which
// strict mode requires: README, "Where the package departs from n8n-node's defaults".
// The CLI bundles eslint-plugin-n8n-nodes-base 1.16.7; the package's pinned 2.0.0 (the same rules,
// on ESLint 9's API) takes its place, since ESLint accepts one plugin object per name.
const cliConfig = n8nNodeCliConfig.map((block) =>
	block.plugins?.['n8n-nodes-base'] ? { ...block, plugins: { ...block.plugins, 'n8n-nodes-base': n8nNodesBase } } : block,
);

// Rules that keep a published node inside n8n's sandbox (no Node globals, no imports, no
// processes, no console). The sandbox, tests and benchmarks under test/ are Node programs
// by design and are never published.
const packageOnlyRules = Object.fromEntries(
	[...Object.keys(n8nCommunityNodesPlugin.configs.recommended.rules), 'no-console'].map((rule) => [rule, 'off']),
);

export default [
	globalIgnores(['dist', 'build', 'coverage', 'node_modules', '.n8n-runtime', '.bench', 'gulpfile.js', 'jest.config.js']),
	...cliConfig,
	{
		files: ['test/**/*.ts'],
		rules: {
			...packageOnlyRules,
			'@typescript-eslint/no-non-null-assertion': 'off',
			// Tests read parsed JSON answers freely.
			'@typescript-eslint/no-explicit-any': 'off',
		},
	},
];
