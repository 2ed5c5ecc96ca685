// Loaded into every Node process a test starts (test/_setup/loopback-only.ts puts it in
// NODE_OPTIONS): a connection beyond loopback is refused and written to the test process's log, so
// the test that started the process fails. npm itself is let through: it reaches the registry it is
// configured for (the runtimes the tests fetch), and the scripts it runs are guarded processes too.
import { appendFileSync, realpathSync } from 'node:fs';
import { basename } from 'node:path';
import { guardConnections } from './loopback-guard.mjs';

/** Whether this process is npm: started as `npm` (a link to npm-cli.js) or as npm-cli.js. */
const isNpm = (() => {
  try {
    return basename(realpathSync(process.argv[1] ?? '')) === 'npm-cli.js';
  } catch {
    return false;
  }
})();

if (!isNpm) {
  const log = process.env.FORECASTING_TEST_LOOPBACK_LOG;
  guardConnections((where) => {
    const what = process.argv.slice(1, 3).join(' ');
    if (log) appendFileSync(log, `${where}${what ? ` (node ${what})` : ''}\n`);
  });
}
