// `forecasting console` as a command: the address first on stdout, --port, a bad port refused, and a
// clean stop on SIGTERM.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/testing/index.js';
import { envFor, run, start } from '../cli/_cli.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ timeScale: 3600 });
});
afterAll(async () => {
  await mock.close();
});

/** A port free a moment ago. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe('forecasting console', () => {
  it('prints its address with the token as the first line, listens on --port, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const cli = start(['console', '--port', String(port)], { env: envFor(mock) });
    const first = (await cli.waitFor('stdout', /^http:\/\/\S+\n/)).split('\n')[0]!;
    expect(first).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/\\?token=[A-Za-z0-9_-]{32}$`));
    const answer = await fetch(first, { redirect: 'manual' });
    expect(answer.status).toBe(303);
    cli.child.kill('SIGTERM');
    const done = await cli.done;
    expect(done.code).toBe(0);
    expect(done.stderr).toMatch(/^The Forecasting console: open the address above/);
    expect(`${done.stdout}${done.stderr}`).not.toContain(mock.apiKey);
  });

  it('refuses a port that is not one (exit 2), and needs the environment', async () => {
    const bad = await run(['console', '--port', '70000'], { env: envFor(mock) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--port must be a whole number from 0 to 65535/);
    const noEnv = await run(['console'], {});
    expect(noEnv.code).toBe(2);
    expect(noEnv.stderr).toMatch(/FORECASTING_API_KEY is not set/);
  });
});
