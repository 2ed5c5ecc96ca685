// `forecasting mock`: the mock as a long-lived server any HTTP client can use, on scaled time.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, start, type Running } from './_cli.js';

interface Info {
  baseURL: string;
  apiKey: string;
  port: number;
  timeScale: number;
  seed: string | null;
  openapi: string | null;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'forecasting-mock-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `forecasting mock --json …` and reads its one line. */
async function mockServer(args: string[] = []): Promise<{ server: Running; info: Info }> {
  const server = start(['mock', '--json', ...args]);
  const line = await server.waitFor('stdout', /^.*\n/);
  return { server, info: JSON.parse(line) as Info };
}

/** A request as any HTTP client sends it. */
async function call(info: Info, method: string, path: string, body?: unknown) {
  const res = await fetch(`${info.baseURL}${path}`, {
    method,
    headers: { authorization: `Bearer ${info.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> };
}

async function stop(server: Running, signal: NodeJS.Signals = 'SIGTERM') {
  server.child.kill(signal);
  return server.done;
}

describe('forecasting mock', () => {
  it('prints its address and a key, serves the API, and stops cleanly on SIGTERM (exit 0)', async () => {
    const { server, info } = await mockServer();
    expect(info).toMatchObject({ timeScale: 600, seed: null, openapi: `http://127.0.0.1:${info.port}/openapi.json`, host: '127.0.0.1', control: `http://127.0.0.1:${info.port}/__mock`, loopbackReceivers: false });
    expect(info.baseURL).toBe(`http://127.0.0.1:${info.port}/api/v1/external`);
    const document = await fetch(String(info.openapi));
    const served = (await document.json()) as { openapi: string; tags: Array<{ name: string }>; paths: Record<string, unknown> };
    expect([document.status, served.openapi]).toEqual([200, '3.1.0']);
    // The control routes, under their own tag: in the document the mock serves only.
    expect([served.tags.at(-1)?.name, '/__mock/clock' in served.paths]).toEqual(['Mock control', true]);
    expect(info.apiKey).toMatch(/^pre_mock_/);
    const created = await call(info, 'POST', '/questions', { type: 'binary', title: 'Will any language do?' });
    expect(created.status).toBe(201);
    const unauthorized = await fetch(`${info.baseURL}/questions`);
    expect(unauthorized.status).toBe(401);

    const r = await stop(server, 'SIGTERM');
    expect(r.code).toBe(0);
    await expect(fetch(`${info.baseURL}/questions`)).rejects.toThrow();
  });

  it('stops cleanly on Ctrl-C (SIGINT) too', async () => {
    const { server } = await mockServer();
    const r = await stop(server, 'SIGINT');
    expect([r.code, r.signal]).toEqual([0, null]);
  });

  it('states Retry-After in real seconds: mock seconds / --time-scale, rounded up, at least 1', async () => {
    // A queued task asks to be read again in 15 mock seconds.
    for (const [scale, expected] of [['1', '15'], ['10', '2'], ['3600', '1']] as const) {
      const { server, info } = await mockServer(['--time-scale', scale]);
      const q = await call(info, 'POST', '/questions', { type: 'binary', title: 'How long to wait?' });
      const task = await call(info, 'POST', '/forecasts', { questionId: q.body['id'], runMode: 'light' });
      const read = await call(info, 'GET', `/forecasts/${String(task.body['id'])}`);
      expect([scale, read.retryAfter]).toEqual([scale, expected]);
      // At 3600x the 15 s queue lasts 4 ms, so a busy machine may read the task running (120 s: 1 real s too).
      if (scale !== '3600') expect(read.body['status']).toBe('queued');
      await stop(server);
    }
  });

  it('prints export lines for FORECASTING_BASE_URL and FORECASTING_API_KEY without --json, with the key of --api-key', async () => {
    const server = start(['mock', '--api-key', 'pre_fixed_for_ci', '--port', '0']);
    await server.waitFor('stdout', /FORECASTING_API_KEY=.*\n/);
    const r = await stop(server);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^export FORECASTING_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/api\/v1\/external$/);
    expect(lines[1]).toBe('export FORECASTING_API_KEY=pre_fixed_for_ci');
    expect(r.stderr).toContain('Stopping (SIGTERM).');
  });

  it('gives the same forecast numbers for the same --seed, run after run', async () => {
    const numbers: unknown[] = [];
    for (const seed of ['42', '42', '43']) {
      const { server, info } = await mockServer(['--seed', seed, '--time-scale', '36000']);
      expect(info.seed).toBe(seed);
      const r = await run(['forecast', '--from-file', file('seeded.jsonl', [{ type: 'binary', title: 'Will the seed hold?' }]), '--run-mode', 'light', '--wait', '--json', '--progress', 'none'], {
        env: { FORECASTING_API_KEY: info.apiKey, FORECASTING_BASE_URL: info.baseURL },
      });
      expect(r.code).toBe(0);
      numbers.push((JSON.parse(r.stdout) as Array<{ task: { forecast: { forecastData: unknown } } }>)[0]!.task.forecast.forecastData);
      await stop(server);
    }
    expect(numbers[1]).toEqual(numbers[0]);
    expect(numbers[2]).not.toEqual(numbers[0]);
  });

  it('serves an OpenAPI document at /openapi.json when the build has one (or --openapi names one), and 404 otherwise', async () => {
    const document = { openapi: '3.1.0', info: { title: 'Forecasting Service', version: 'test' }, paths: {} };
    const { server, info } = await mockServer(['--openapi', file('openapi.json', document)]);
    expect(info.openapi).toBe(`http://127.0.0.1:${info.port}/openapi.json`);
    const res = await fetch(info.openapi!);
    expect([res.status, res.headers.get('content-type'), await res.json()]).toEqual([200, 'application/json', document]);
    await stop(server);

    // This build may or may not ship forecasting-sdk/openapi.json: the mock says which, and answers accordingly.
    const plain = await mockServer();
    const served = await fetch(`http://127.0.0.1:${plain.info.port}/openapi.json`);
    expect(served.status).toBe(plain.info.openapi === null ? 404 : 200);
    await stop(plain.server);
  });

  it.each([
    [['--port', 'abc'], /^UsageError: --port must be a whole number/],
    [['--time-scale', '0'], /^UsageError: --time-scale must be a positive number/],
    [['--openapi', '/no/such/file.json'], /^UsageError: cannot read --openapi \/no\/such\/file\.json: ENOENT/],
  ])('refuses %j (exit 2) and does not start', async (args, message) => {
    const r = await run(['mock', ...args], { killAfter: 10_000 });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });
});

/** Writes a file in the test folder: JSON lines for an array of lines, JSON otherwise. */
function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, Array.isArray(content) ? content.map((c) => JSON.stringify(c)).join('\n') : JSON.stringify(content));
  return path;
}
