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
