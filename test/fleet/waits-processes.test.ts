// Pinned by the issue: a waiter in one process woken by a webhook received in another, with no
// polling in between. The mock (its default fast clock) calls a receiver process on loopback; the
// receiver verifies each call and publishes it through Redis; the waiter process reads the task
// once before the event and once after it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { startMockServer, type MockServer } from '../../src/testing/index.js';
import { useRedis } from '../redis/_setup.js';
import { readsOf } from './_waits.js';

const redis = useRedis();
const dir = mkdtempSync(join(tmpdir(), 'fsdk-waits-'));
const children: ChildProcess[] = [];
let mock: MockServer | undefined;

/** Bundles a child's TypeScript source (the SDK from src/ and its packages, in one file). */
async function bundle(name: string): Promise<string> {
  const outfile = join(dir, `${name}.mjs`);
  await build({ entryPoints: [fileURLToPath(new URL(`./${name}.ts`, import.meta.url))], outfile, bundle: true, platform: 'node', format: 'esm', logLevel: 'silent',
    // The bundled CommonJS packages (node-redis) require Node's built-ins.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return outfile;
}

function run(file: string, env: Record<string, string>): { child: ChildProcess; output: Promise<string>; line: Promise<string> } {
  const child = spawn(process.execPath, [file], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'], cwd: fileURLToPath(new URL('../..', import.meta.url)) });
  children.push(child);
  let out = '';
  let err = '';
  let onLine: (line: string) => void = () => undefined;
  const line = new Promise<string>((resolve) => (onLine = resolve));
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
    if (out.includes('\n')) onLine(out.split('\n')[0]!);
  });
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const output = new Promise<string>((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited ${String(code)}: ${err}`)))));
  // A receiver is killed after the test: its exit is no failure unless awaited.
  output.catch(() => undefined);
  return { child, output, line };
}

let receiverFile = '';
let waiterFile = '';
beforeAll(async () => {
  [receiverFile, waiterFile] = await Promise.all([bundle('_waits-receiver'), bundle('_waits-waiter')]);
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a waiter process woken by a webhook received in another process', () => {
  it('reads the task before the event and once after it, with no polling in between', async () => {
    mock = await startMockServer({ webhooks: { allowLoopbackReceivers: true } });
    const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });
    const prefix = 'waits-processes';
    const receiver = run(receiverFile, { REDIS_URL: redis.url, PREFIX: prefix });
    // Every final kind, as docs/fleet.md advises: only then do waits trust the events between their reads.
    const hook = await client.webhooks.create({ url: `http://127.0.0.1:${await receiver.line}/hooks`, eventKinds: ['forecast.completed', 'forecast.failed', 'forecast.cancelled'] });
    receiver.child.stdin?.end(`${hook.signingSecret}\n`);
    await client.webhooks.test(hook.id);
    await mock.service.webhooks.idle();

    const question = await client.questions.create({ type: 'binary', title: 'Waited for in another process' });
    // The waiter first sets up (slow on a busy machine), then is given the task as it starts.
    const waiter = run(waiterFile, { BASE_URL: mock.baseURL, API_KEY: mock.apiKey, REDIS_URL: redis.url, PREFIX: prefix });
    expect(await waiter.line).toBe('ready');
    // A standard forecast: 30 mock-minutes, 3 real seconds at the default 600x, where polling reads it every second.
    const task = await client.forecasts.create({ questionId: question.id, runMode: 'standard' });
    mock.service.requests.clear();
    waiter.child.stdin?.end(`${task.id}\n`);
    expect(JSON.parse((await waiter.output).trim().split('\n').at(-1)!)).toEqual({ status: 'completed' });
    expect(readsOf(mock.service, task.id)).toBe(2);
    // The completion reached the receiver process by webhook.
    const calls = mock.service.webhooks.calls().filter((c) => c.headers['x-service-event-type'] === 'forecast.completed' && c.body.includes(task.id));
    expect(calls.map((c) => c.sent)).toEqual([true]);
  }, 30_000);
});
