// `mock.close()` with webhook calls in flight (an attacker's review of the mock's webhook sender):
// close resolved at once, but the calls went on to their 10 s answer limit and their retries were
// armed again on the stopped clock, so a receiver that never answers kept getting calls and the
// process stayed alive for about a minute. A child process starts the default mock, sends three
// test deliveries to a receiver here that takes each call and never answers, and closes the mock
// once they have all arrived: it must exit by itself, and no call comes after the close.
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { createMockService, ScaledClock, startMockServer } from '../../src/testing/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DELIVERIES = 3;

const program = `
  import { startMockServer } from './dist/testing/index.js';
  import { ForecastingClient } from './dist/index.js';
  const mock = await startMockServer({ webhooks: { allowLoopbackReceivers: true } });
  const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });
  const hook = await client.webhooks.create({ url: process.argv[1], eventKinds: ['forecast.completed'] });
  for (let i = 0; i < ${DELIVERIES}; i++) await client.webhooks.test(hook.id);
  // The receiver says when every call has arrived (a line on stdin).
  process.stdin.once('data', async () => {
    process.stdin.destroy();
    await mock.close();
    console.log('closed');
  });
`;

const calls: IncomingMessage[] = [];
let allArrived: () => void = () => undefined;
const arrived = new Promise<void>((resolve) => (allArrived = resolve));
const receiver = createServer((req) => {
  calls.push(req); // taken, never answered
  if (calls.length === DELIVERIES) allArrived();
});
let child: ReturnType<typeof spawn> | undefined;
afterAll(() => {
  child?.kill('SIGKILL');
  receiver.closeAllConnections();
  receiver.close();
});

describe("mock.close() with webhook calls in flight", () => {
  it('ends them, sends no retry, and lets the process exit by itself', async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    child = spawn(process.execPath, ['--input-type=module', '-e', program, url], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    if (!child.stdout || !child.stderr || !child.stdin) throw new Error('no pipes');
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const exited = new Promise<number | null>((resolve) => child!.on('close', resolve));
    await arrived;
    // Each call's connection closes when the mock ends it (not at its 10 s answer limit).
    const ended = Promise.all(calls.map((req) => new Promise((resolve) => (req.socket.destroyed ? resolve(undefined) : req.socket.once('close', resolve)))));
    child.stdin.write('go\n');
    // Within the test's limit, far below the 10 s a call waits for its answer: the child exits alone.
    expect(await exited).toBe(0);
    await ended;
    expect(out).toBe('closed\n');
    expect(calls).toHaveLength(DELIVERIES);
  }, 8_000);
});

describe('a closed server\'s service, served again', () => {
  it('runs on: its clock resumes, and a forecast started before the close completes after', async () => {
    const first = await startMockServer();
    const client = new ForecastingClient({ apiKey: first.apiKey, baseURL: first.baseURL, logLevel: 'off' });
    const question = await client.questions.create({ type: 'binary', title: 'Will the mock run on?' });
    const task = await client.forecasts.create({ questionId: question.id, runMode: 'light' });
    await first.close();
    const again = await startMockServer({ service: first.service });
    try {
      const done = await new ForecastingClient({ apiKey: again.apiKey, baseURL: again.baseURL, logLevel: 'off' }).forecasts.wait(task.id, { timeout: 8_000 });
      expect(done.status).toBe('completed');
    } finally {
      await again.close();
    }
  }, 15_000);
});

describe('a reset while a webhook call is being signed', () => {
  // The call's stop was read after signing: a reset (or a close) that came meanwhile let it out
  // unstopped, to the next test's receiver, for up to its 10 s answer limit. Two calls are signed at
  // once; the first to go out resets the service, while the other is still being signed.
  it('ends that call too: it goes out already stopped', async () => {
    let resetDone = false;
    const calls: Array<{ afterReset: boolean; stopped: boolean }> = [];
    const service = createMockService({
      webhooks: {
        allowLoopbackReceivers: true,
        fetch: (async (_url: string, init: RequestInit) => {
          calls.push({ afterReset: resetDone, stopped: init.signal!.aborted });
          if (!resetDone) {
            service.reset();
            resetDone = true;
          }
          throw new Error('refused');
        }) as typeof fetch,
      },
    });
    const headers = { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' };
    const post = (path: string, body?: unknown) => service.handle(new Request(`http://127.0.0.1/api/v1/external${path}`, { method: 'POST', headers, ...(body ? { body: JSON.stringify(body) } : {}) }));
    const ids: string[] = [];
    for (const n of [1, 2]) ids.push(((await (await post('/webhooks', { url: `http://127.0.0.1:9/hook${n}`, eventKinds: ['forecast.completed'] })).json()) as { id: string }).id);
    await Promise.all(ids.map((id) => post(`/webhooks/${id}/test`)));
    await service.webhooks.idle();
    expect(calls).toEqual([
      { afterReset: false, stopped: false },
      { afterReset: true, stopped: true },
    ]);
  });
});

describe('ScaledClock.resume()', () => {
  it('runs the timer again after stop(): what fell due meanwhile runs at once', async () => {
    const clock = new ScaledClock({ timeScale: 600 });
    clock.stop();
    let ran = false;
    clock.schedule(clock.now() - 1, () => (ran = true));
    expect(ran).toBe(false);
    clock.resume();
    expect(ran).toBe(true);
    clock.stop();
  });
});
