// Loaded into every Node process a test starts (test/_setup/loopback-only.ts puts it in
// NODE_OPTIONS): a connection beyond loopback is refused and written to the test process's log, so
// the test that started the process fails. npm alone may reach the npm registry it is set to use.
import { appendFileSync, realpathSync } from 'node:fs';
import { basename } from 'node:path';
import { guardConnections } from './loopback-guard.mjs';

const log = process.env.FORECASTING_TEST_LOOPBACK_LOG;
/** Whether this process is npm: started as `npm` (a link to npm-cli.js) or as npm-cli.js. */
const isNpm = (() => {
  try {
    return basename(realpathSync(process.argv[1] ?? '')) === 'npm-cli.js';
  } catch {
    return false;
  }
})();
let registry = 'registry.npmjs.org';
try {
  registry = new URL(process.env.npm_config_registry ?? 'https://registry.npmjs.org/').hostname.toLowerCase();
} catch {
  // A registry that is no URL: npm fails on it by itself.
}
guardConnections(
  (where) => {
    const what = process.argv.slice(1, 3).join(' ');
    if (log) appendFileSync(log, `${where}${what ? ` (node ${what})` : ''}\n`);
  },
  (host) => isNpm && host === registry,
);
