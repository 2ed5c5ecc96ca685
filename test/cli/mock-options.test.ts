// `forecasting mock` for other languages, complete: its export lines reach `node`, `--host`,
// `--allow-loopback-receivers` (real signed calls to a receiver on 127.0.0.1), `--manual-clock`.
// Run against the built binary, as a user's shell would.
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { childEnv, ROOT, run, start, type Running } from './_cli.js';

interface Info {
  baseURL: string;
  apiKey: string;
  host: string;
  port: number;
  timeScale: number | null;
  control: string;
  loopbackReceivers: boolean;
}

const running: Running[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) {
    server.child.kill('SIGTERM');
    await server.done;
  }
});

async function mockServer(args: string[] = []): Promise<Info> {
  const server = start(['mock', '--json', ...args]);
  running.push(server);
  return JSON.parse(await server.waitFor('stdout', /^.*\n/)) as Info;
}

async function call(info: Info, method: string, path: string, body?: unknown) {
  const res = await fetch(`${info.baseURL}${path}`, {
    method,
    headers: { authorization: `Bearer ${info.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const hasIPv6Loopback = Object.values(networkInterfaces()).some((list) => list?.some((i) => i.address === '::1'));

describe('forecasting mock: the lines it prints', () => {
  it('work when pasted into a shell: node then finds the key and the address (no "Missing API key")', async () => {
    const server = start(['mock']);
    running.push(server);
    await server.waitFor('stdout', /FORECASTING_API_KEY=.*\n/);
    // Pasted as printed, then a program that reads only the environment.
    const pasted = (await server.waitFor('stdout', /[\s\S]*FORECASTING_API_KEY=.*\n/)).trim();
    const program = `import { ForecastingClient } from ${JSON.stringify(`${ROOT}dist/index.js`)};
const q = await new ForecastingClient({ logLevel: 'off' }).questions.create({ type: 'binary', title: 'Pasted?' });
console.log(q.title);`;
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('bash', ['-c', `${pasted}\nnode --input-type=module -e ${shellQuote(program)}`], { env: childEnv() });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(result).toEqual({ code: 0, stdout: 'Pasted?\n', stderr: '' });
  });

  it('quote an --api-key a shell would split', async () => {
    const server = start(['mock', '--api-key', "pre_it's mine"]);
    running.push(server);
    const line = await server.waitFor('stdout', /export FORECASTING_API_KEY=.*\n/);
    expect(line.trim()).toBe(`export FORECASTING_API_KEY='pre_it'\\''s mine'`);
  });
});

describe('forecasting mock --host', () => {
  it('listens on another loopback address and prints it', async () => {
    const info = await mockServer(['--host', '127.0.0.2']);
    expect(info.baseURL).toBe(`http://127.0.0.2:${info.port}/api/v1/external`);
    expect(info.host).toBe('127.0.0.2');
    expect((await call(info, 'POST', '/questions', { type: 'binary', title: 'Reached on 127.0.0.2?' })).status).toBe(201);
    await expect(fetch(`http://127.0.0.1:${info.port}/api/v1/external/questions`)).rejects.toThrow();
  });

  it('with 0.0.0.0 (every interface), prints the address a client here uses: 127.0.0.1', async () => {
    const info = await mockServer(['--host', '0.0.0.0']);
    expect(info.host).toBe('0.0.0.0');
    expect(info.baseURL).toBe(`http://127.0.0.1:${info.port}/api/v1/external`);
    expect((await call(info, 'GET', '/questions')).status).toBe(200);
  });

  it.skipIf(!hasIPv6Loopback)('listens on ::1 and prints the bracketed address', async () => {
    const info = await mockServer(['--host', '::1']);
    expect(info.baseURL).toBe(`http://[::1]:${info.port}/api/v1/external`);
    expect((await call(info, 'GET', '/questions')).status).toBe(200);
  });

  it.each([['not a host'], ['127.0.0.1:8080'], ['300.1.1.1'], ['']])('refuses --host %j with a usage error (exit 2)', async (host) => {
    const r = await run(['mock', '--host', host], { killAfter: 10_000 });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^UsageError: --host must be an IP address/);
  });
});

describe('forecasting mock --allow-loopback-receivers', () => {
  it('delivers real signed calls to a receiver on 127.0.0.1', async () => {
    const calls: Array<{ body: string; headers: IncomingMessage['headers'] }> = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        calls.push({ body, headers: req.headers });
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const info = await mockServer(['--allow-loopback-receivers']);
      expect(info.loopbackReceivers).toBe(true);
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const hook = await call(info, 'POST', '/webhooks', { url, eventKinds: ['forecast.completed'] });
      expect(hook.status).toBe(201);
      expect((await call(info, 'POST', `/webhooks/${hook.body['id']}/test`)).status).toBeLessThan(300);
      await expect.poll(() => calls.length, { timeout: 5_000 }).toBe(1);
      const event = await verifyWebhook(calls[0]!.body, calls[0]!.headers as Record<string, string>, hook.body['signingSecret'] as string);
      expect(event.type).toBe('webhook.test');
    } finally {
      receiver.close();
    }
  });

  it('without it, the 400 refusing a loopback receiver names the flag', async () => {
    const info = await mockServer();
    const hook = await call(info, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/hooks' });
    expect(hook.status).toBe(400);
    expect(hook.body['error'].message).toContain('--allow-loopback-receivers');
  });
});

describe('forecasting mock --manual-clock', () => {
  it('stands still until POST /__mock/clock/advance moves it', async () => {
    const info = await mockServer(['--manual-clock']);
    expect(info.timeScale).toBeNull();
    const q = await call(info, 'POST', '/questions', { type: 'binary', title: 'When the test says so?' });
    const task = await call(info, 'POST', '/forecasts', { questionId: q.body['id'], runMode: 'light' });
    expect((await call(info, 'GET', `/forecasts/${task.body['id']}`)).body['status']).toBe('queued');
    const advanced = await fetch(`${info.control}/clock/advance`, { method: 'POST', headers: { authorization: `Bearer ${info.apiKey}` }, body: JSON.stringify({ ms: 10 * 60_000 }) });
    expect(((await advanced.json()) as { kind: string }).kind).toBe('manual');
    expect((await call(info, 'GET', `/forecasts/${task.body['id']}`)).body['status']).toBe('completed');
  });

  it('refuses --manual-clock with --time-scale (exit 2)', async () => {
    const r = await run(['mock', '--manual-clock', '--time-scale', '10'], { killAfter: 10_000 });
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/^UsageError: --manual-clock and --time-scale exclude each other/)]);
  });
});

describe('forecasting mock --rate-limit', () => {
  it("answers 429 rate_limit_error past the given requests a minute, as the service does", async () => {
    const info = await mockServer(['--manual-clock', '--rate-limit', '2']);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(info, 'GET', '/questions')).status);
    expect(statuses).toEqual([200, 200, 429]);
    const limited = await call(info, 'GET', '/questions');
    expect(limited.body['error']).toMatchObject({ type: 'rate_limit_error' });
  });

  it('is bad usage (exit 2) unless a whole number of 1 or more', async () => {
    const r = await run(['mock', '--rate-limit', '0'], { killAfter: 10_000 });
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/--rate-limit must be a whole number of at least 1/)]);
  });
});

describe('forecasting mock --request-log-limit', () => {
  it('keeps the latest n requests in GET /__mock/requests, and counts those it dropped', async () => {
    const info = await mockServer(['--manual-clock', '--request-log-limit', '2']);
    for (const path of ['/questions?limit=1', '/questions?limit=2', '/questions?limit=3']) expect((await call(info, 'GET', path)).status).toBe(200);
    const origin = new URL(info.baseURL).origin;
    const log = (await (await fetch(`${origin}/__mock/requests`, { headers: { authorization: `Bearer ${info.apiKey}` } })).json()) as { requests: { path: string }[]; dropped: number };
    expect([log.requests.map((r) => r.path), log.dropped]).toEqual([['/questions?limit=2', '/questions?limit=3'], 1]);
  });

  it('is bad usage (exit 2) unless a whole number of 1 or more', async () => {
    const r = await run(['mock', '--request-log-limit', '0'], { killAfter: 10_000 });
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/--request-log-limit must be a whole number of at least 1/)]);
  });
});

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
