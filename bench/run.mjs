// Runs every benchmark in bench/, one after another. `npm run bench` builds first.
// Each runs with the tests' guard (test/_setup/loopback-child.mjs): a connection beyond loopback
// is refused, and the run fails naming it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
const scratch = mkdtempSync(join(tmpdir(), 'bench-'));
const log = join(scratch, 'beyond-loopback.log');
const guard = `--import=${pathToFileURL(join(here, '../test/_setup/loopback-child.mjs')).href}`;
const env = { ...process.env, FORECASTING_TEST_LOOPBACK_LOG: log, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${guard}`.trim() };
try {
  for (const file of readdirSync(here).filter((f) => f.endsWith('.mjs') && f !== 'run.mjs').sort()) {
    if (only && !file.includes(only)) continue;
    console.log(`\n## ${file}`);
    execFileSync(process.execPath, [join(here, file)], { stdio: 'inherit', env });
  }
  const refused = readFileSync(log, { encoding: 'utf8', flag: 'a+' }).trim();
  if (refused) {
    console.error(`\nConnections beyond loopback, refused:\n${refused}`);
    process.exitCode = 1;
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
