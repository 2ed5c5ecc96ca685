// The guard every test file runs with (test/_setup/loopback-only.ts): a connection beyond loopback
// is refused before a name is looked up, and recorded so that the test that opened it fails.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, Socket, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIConnectionError, ForecastingClient } from '../../src/index.js';
import { launchChromium } from '../_setup/chromium.js';
import { guardConnections } from '../_setup/loopback-guard.mjs';

const guard = guardConnections();
/** Takes what the guard recorded, so that the refusals these tests provoke on purpose fail nothing. */
const taken = () => guard.refused.splice(0);

describe('the tests reach loopback only', () => {
  const server = createServer((socket) => socket.end('hello'));
  let port = 0;
  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => void server.close());

  it.each(['192.0.2.1', '2001:db8::1', 'forecasting.invalid', 'example.com'])('refuses a socket to %s, with ECONNREFUSED, and records it', async (host) => {
    const socket = connect({ host, port: 443 });
    const [error] = (await once(socket, 'error').catch((e: unknown) => [e])) as [NodeJS.ErrnoException];
    expect(error.code).toBe('ECONNREFUSED');
    expect(error.message).toContain('loopback only');
    expect(taken()).toEqual([`${host}:443`]);
  });

  it('refuses a socket connected with (port, host) as well as with options', async () => {
    const socket = new Socket();
    socket.connect(443, '198.51.100.7');
    const [error] = (await once(socket, 'error').catch((e: unknown) => [e])) as [NodeJS.ErrnoException];
    expect(error.code).toBe('ECONNREFUSED');
    expect(taken()).toEqual(['198.51.100.7:443']);
  });

  it('refuses fetch to a public address: the client reports a connection error, and the test would fail', async () => {
    const client = new ForecastingClient({ apiKey: 'k', baseURL: 'https://forecasting.invalid/api/v1/external', maxRetries: 0 });
    await expect(client.credits.retrieve()).rejects.toBeInstanceOf(APIConnectionError);
    expect(taken()).toEqual(['forecasting.invalid:443']);
  });

  it.each(['127.0.0.1', 'localhost'])('lets a connection to %s through', async (host) => {
    const socket = connect({ host, port });
    const [data] = (await once(socket, 'data')) as [Buffer];
    expect(data.toString()).toBe('hello');
    socket.destroy();
    expect(taken()).toEqual([]);
  });

  it('refuses the same in a Node process a test starts, and writes it where the test reads it', async () => {
    const log = process.env['FORECASTING_TEST_LOOPBACK_LOG']!;
    // Not npm: even the npm registry is beyond loopback for it.
    const script = `const s = require('node:net').connect(443, process.argv[1]); s.on('error', (e) => console.log(e.code));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script, 'registry.npmjs.org'], { encoding: 'utf8' });
    expect(stdout.trim()).toBe('ECONNREFUSED');
    expect(existsSync(log) ? readFileSync(log, 'utf8') : '').toContain('registry.npmjs.org:443');
    rmSync(log, { force: true });
  });

  it('lets npm alone, started as npm or as npm-cli.js, reach beyond loopback (its registry)', async () => {
    const log = process.env['FORECASTING_TEST_LOOPBACK_LOG']!;
    const dir = mkdtempSync(join(tmpdir(), 'fake-npm-'));
    try {
      // A stand-in for npm reaching its registry: the name resolves to this loopback server without DNS.
      const script = `const s = require('node:net').connect({ host: 'registry.example.test', port: ${port}, lookup: (h, o, cb) => o.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4) });
        s.on('data', (d) => { console.log(String(d)); s.destroy(); }); s.on('error', (e) => console.log(e.code));`;
      writeFileSync(join(dir, 'npm-cli.js'), script);
      symlinkSync(join(dir, 'npm-cli.js'), join(dir, 'npm'));
      writeFileSync(join(dir, 'other.js'), script);
      const run = async (file: string) => (await promisify(execFile)(process.execPath, [join(dir, file)], { encoding: 'utf8' })).stdout.trim();
      expect(await run('npm-cli.js')).toBe('hello');
      expect(await run('npm')).toBe('hello');
      expect(await run('other.js')).toBe('ECONNREFUSED');
      expect(readFileSync(log, 'utf8')).toMatch(/^registry\.example\.test:\d+ \(node .*other\.js\)\n$/);
    } finally {
      rmSync(log, { force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the browser the tests drive on loopback: a page asking beyond it gets nothing, and the guard records it', async () => {
    const server = createHttpServer((_req, res) => res.end('<p>local</p>'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(await page.textContent('p')).toBe('local');
      expect(taken()).toEqual([]);
      // A public address, a public name, and an asset host of Google's (not one of chromium's own services).
      for (const url of ['http://192.0.2.1/', 'https://example.com/', 'https://fonts.googleapis.com/css']) await expect(page.goto(url)).rejects.toThrow();
      expect(new Set(taken())).toEqual(new Set(['http://192.0.2.1/ (from chromium)', 'example.com:443 (from chromium)', 'fonts.googleapis.com:443 (from chromium)']));
    } finally {
      await browser.close();
      server.close();
    }
  }, 30_000);

  it('installs itself once per process', () => {
    expect(guardConnections()).toBe(guard);
  });
});
