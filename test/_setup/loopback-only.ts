// Every test file runs with this guard (vitest.config.ts, `setupFiles`): nothing the tests run
// connects beyond loopback. In the test's own process a connection elsewhere is refused
// (loopback-guard.mjs); every Node process it starts loads loopback-child.mjs (through
// NODE_OPTIONS), which refuses the same and writes it to a log read here. Either way the test that
// made it fails, even when the code under test turned the refusal into an error the test expected.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, expect } from 'vitest';
import { guardConnections } from './loopback-guard.mjs';

const record = guardConnections();
const log = join(tmpdir(), `forecasting-sdk-beyond-loopback-${process.pid}.log`);
const preload = `--import=${pathToFileURL(fileURLToPath(new URL('loopback-child.mjs', import.meta.url))).href}`;
process.env['FORECASTING_TEST_LOOPBACK_LOG'] = log;
if (!process.env['NODE_OPTIONS']?.includes(preload)) process.env['NODE_OPTIONS'] = `${process.env['NODE_OPTIONS'] ?? ''} ${preload}`.trim();

const noneRefused = () => {
  const refused = record.refused.splice(0);
  if (existsSync(log)) {
    refused.push(...readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => `${line} in a process the test started`));
    rmSync(log, { force: true });
  }
  expect(refused, 'connections beyond loopback (the tests reach 127.0.0.1 only)').toEqual([]);
};
afterEach(noneRefused);
// What a file's `beforeAll` opened fails its first test; what its `afterAll` opened fails it here.
afterAll(noneRefused);
