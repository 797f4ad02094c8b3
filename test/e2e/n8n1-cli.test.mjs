/**
 * The same workflows in the last n8n 1.x line (1.123.81 on Node 20), for users who have not
 * moved to n8n 2.x: the package loaded as a custom extension, run by n8n's own CLI.
 */
import { cliSuite } from './support/cliSuite.mjs';

cliSuite({ title: 'n8n 1.123.81: workflows run by `n8n execute`', line: '1', prefix: 'CUSTOM' });
