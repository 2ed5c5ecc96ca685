// `forecasting console` as a command: the address first on stdout, --port, a bad port refused, and a
// clean stop on SIGTERM.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cappedText, mockControlFor } from '../../src/cli/console/mock-control.js';
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
  it('prints its address (its secret base, the token) as the first line, listens on --port, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const cli = start(['console', '--port', String(port)], { env: envFor(mock) });
    const first = (await cli.waitFor('stdout', /^http:\/\/\S+\n/)).split('\n')[0]!;
    expect(first).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/[A-Za-z0-9_-]{22}/\\?token=[A-Za-z0-9_-]{32}$`));
    const answer = await fetch(first, { redirect: 'manual' });
    expect(answer.status).toBe(200);
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
    const taken = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => taken.once('listening', resolve));
    const busy = (taken.address() as { port: number }).port;
    const inUse = await run(['console', '--port', String(busy)], { env: envFor(mock) });
    taken.close();
    expect(inUse.code).toBe(2);
    expect(inUse.stderr).toBe(`UsageError: --port ${busy} is in use on 127.0.0.1: choose another, or leave --port out for a free one\n`);
    const noEnv = await run(['console'], {});
    expect(noEnv.code).toBe(2);
    expect(noEnv.stderr).toMatch(/FORECASTING_API_KEY is not set/);
  });

  it('with --open, hands the browser a file only this user can read, so the token never shows in the process list', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'fake-browser-'));
    let cli: ReturnType<typeof start> | undefined;
    try {
      // A stand-in for xdg-open: it records what it was given, and what the file it was given holds.
      const log = join(bin, 'opened.txt');
      writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$1" > '${log}.tmp'\ncat "\${1#file://}" >> '${log}.tmp'\necho >> '${log}.tmp'\nstat -c %a "\${1#file://}" >> '${log}.tmp'\nmv '${log}.tmp' '${log}'\n`);
      chmodSync(join(bin, 'xdg-open'), 0o755);
      cli = start(['console', '--open'], { env: { ...envFor(mock), PATH: `${bin}:${process.env['PATH']}` } });
      const url = (await cli.waitFor('stdout', /^http:\/\/\S+\n/)).split('\n')[0]!;
      await vi.waitFor(() => expect(existsSync(log)).toBe(true), { timeout: 10_000 });
      const [arg, html, mode] = readFileSync(log, 'utf8').trim().split('\n');
      expect(arg).toMatch(/^file:\/\/\/.*\/open\.html$/);
      expect(arg).not.toContain(new URL(url).searchParams.get('token'));
      expect(html).toContain(`content="0;url=${url}"`);
      expect(mode).toBe('600');
      expect(statSync(new URL(arg!).pathname.replace(/\/open\.html$/, '')).mode & 0o777).toBe(0o700);
      cli.child.kill('SIGTERM');
      expect((await cli.done).code).toBe(0);
      // Gone once the console stops.
      expect(existsSync(new URL(arg!).pathname)).toBe(false);
    } finally {
      // A failed expectation must not leave the console running.
      cli?.child.kill('SIGTERM');
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('looks for the mock only on a loopback service: the key goes to no other path of a remote one', async () => {
    const sent = vi.spyOn(globalThis, 'fetch');
    try {
      expect(await mockControlFor('https://gateway.example/tenant-a/api/v1/external', 'pre_secret')).toBeUndefined();
      expect(sent).not.toHaveBeenCalled();
      const withControls = await startMockServer({ timeScale: 3600, httpControls: true });
      try {
        expect(await mockControlFor(withControls.baseURL.replace('127.0.0.1', 'localhost'), withControls.apiKey)).toBeDefined();
      } finally {
        await withControls.close();
      }
      // The mock without its control routes: no panel.
      expect(await mockControlFor(mock.baseURL, mock.apiKey)).toBeUndefined();
    } finally {
      sent.mockRestore();
    }
  });

  it('shows a page’s error within about 25 s when the service never answers: 10 s an attempt, one retry', async () => {
    // A service that takes every call and answers none (its /__mock root: 404 at once, no panel).
    const silent = createHttpServer((req, res) => {
      if (req.url?.startsWith('/__mock')) res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const cli = start(['console'], { env: { FORECASTING_API_KEY: 'pre_silent_key', FORECASTING_BASE_URL: `http://127.0.0.1:${port}/api/v1/external` } });
    try {
      const first = (await cli.waitFor('stdout', /^http:\/\/\S+\n/)).split('\n')[0]!;
      const entry = await fetch(first, { redirect: 'manual' });
      const cookie = entry.headers.get('set-cookie')!.split(';')[0]!;
      const began = performance.now();
      const page = await fetch(new URL('questions', first), { headers: { cookie } });
      const waited = performance.now() - began;
      expect(page.status).toBe(502);
      expect(await page.text()).toMatch(/timed out/i);
      // Two attempts of 10 s and the backoff between them: not the SDK's 60 s an attempt, three times.
      expect(waited).toBeGreaterThan(19_000);
      expect(waited).toBeLessThan(30_000);
    } finally {
      cli.child.kill('SIGTERM');
      await cli.done;
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 60_000);

  it('reads a loopback service’s answer no further than 64 KB: an endless one ends, and no panel is shown', async () => {
    let written = 0;
    const endless = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      const more = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = endless.address() as { port: number };
      expect(await mockControlFor(`http://127.0.0.1:${port}/api/v1/external`, 'pre_secret')).toBeUndefined();
      // Whatever the socket buffered, far less than the whole answer: it was stopped, not read to the end.
      expect(written).toBeLessThan(16 * 1024 * 1024);
      const text = await cappedText(new Response('x'.repeat(200_000)), 64 * 1024);
      expect(text).toHaveLength(64 * 1024);
      expect(await cappedText(new Response(null), 10)).toBe('');
    } finally {
      endless.closeAllConnections();
      await new Promise((resolve) => endless.close(resolve));
    }
  });
});
