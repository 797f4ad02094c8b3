import { globalIgnores } from 'eslint/config';
import n8nCommunityNodes from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

// The rules n8n applies to community packages (its node-cli config and the verification
// scanner): n8n-nodes-base's community, credentials and nodes sets, and the community-nodes
// plugin's recommended set, plus typescript-eslint's recommended rules for all TypeScript.
export default tseslint.config(
	globalIgnores(['dist', 'build', 'coverage', 'node_modules', '.n8n-runtime', '.bench', 'gulpfile.js', 'jest.config.js']),
	{
		files: ['**/*.ts'],
		extends: [tseslint.configs.recommended],
	},
	{
		files: ['package.json'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{
		files: ['package.json', 'credentials/**/*.ts', 'nodes/**/*.ts'],
		...n8nCommunityNodes.configs.recommended,
	},
	{
		files: ['test/**/*.ts'],
		rules: {
			'@typescript-eslint/no-non-null-assertion': 'off',
			// Tests read parsed JSON answers freely.
			'@typescript-eslint/no-explicit-any': 'off',
		},
	},
);
