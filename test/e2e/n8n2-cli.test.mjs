/**
 * n8n 2.41.1 (Node 24), the package loaded as a custom extension (N8N_CUSTOM_EXTENSIONS=dist):
 * every Task and Event operation and their error paths, run by n8n's own CLI.
 */
import { cliSuite } from './support/cliSuite.mjs';

cliSuite({ title: 'n8n 2.41.1: workflows run by `n8n execute`', line: '2', prefix: 'CUSTOM' });
