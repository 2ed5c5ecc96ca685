// Exactly once across processes (issue 22, pinned): the same event delivered to two receiver
// PROCESSES (one Express app with webhookMiddleware, one node:http server with createWebhookHandler,
// each with its own coordinator on one real Redis) and once more to the first: the handler runs once
// in all. The processes run the built package, as a user's replicas do.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../../src/webhooks/index.js';
import { useRedis } from '../redis/_setup.js';

const redis = useRedis();
const SECRET = 'whsec_fleet_receivers_secret';
const SCRIPT = fileURLToPath(new URL('./_receiver-process.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface ReceiverProcess {
  url: string;
  child: ChildProcess;
  /** What it printed on stdout and stderr. */
  output: { stdout: string; stderr: string };
}

const children: ChildProcess[] = [];

/** Starts a receiver process and waits until it serves. */
function receiverProcess(kind: 'express' | 'fetch'): Promise<ReceiverProcess> {
  const child = spawn(process.execPath, [SCRIPT], {
    cwd: ROOT,
    env: { ...process.env, REDIS_URL: redis.url, PREFIX: 'fleet-receivers', WEBHOOK_SECRET: SECRET, RECEIVER: kind },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const output = { stdout: '', stderr: '' };
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output.stderr += d));
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      output.stdout += d;
      const port = /^listening (\d+)$/m.exec(output.stdout)?.[1];
      if (port) resolve({ url: `http://127.0.0.1:${port}/hooks`, child, output });
    });
    child.once('exit', (code) => reject(new Error(`the ${kind} receiver exited (${String(code)}) before it served:\n${output.stderr}`)));
  });
}

/** One delivery attempt, signed anew as the service does: its status and answer. */
async function deliver(url: string, body: string): Promise<string> {
  const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-service-signature': await signWebhook(body, SECRET) } });
  return `${response.status} ${await response.text()}`;
}

describe('webhook receivers in separate processes, one Redis', () => {
  let express: ReceiverProcess;
  let fetchStyle: ReceiverProcess;

  beforeAll(async () => {
    [express, fetchStyle] = await Promise.all([receiverProcess('express'), receiverProcess('fetch')]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all(
      children.map((child) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM'))))),
    );
  });

  it.each([
    ['the Express process first', () => [express, fetchStyle, express] as const],
    ['the fetch-style process first', () => [fetchStyle, express, fetchStyle] as const],
  ])('runs the handler once in all for an event delivered to two processes and once more to the first (%s)', async (_name, order) => {
    const [first, second, again] = order();
    const id = `svc:forecast.completed:task_${first === express ? 'x' : 'f'}`;
    const body = JSON.stringify({ createdAt: new Date().toISOString(), data: { forecastId: 'fc_1', forecastUrl: 'https://service.example/f', questionId: 'q_1', taskId: 't_1' }, id, type: 'forecast.completed' });
    expect(await deliver(first.url, body)).toBe(first === express ? '200 OK' : '200 ');
    expect(await deliver(second.url, body)).toBe('200 repeat');
    expect(await deliver(again.url, body)).toBe('200 repeat');
    const client = await redis.client();
    expect(await client.get(`handled:${id}`)).toBe('1');
    const printed = `${express.output.stdout}${fetchStyle.output.stdout}`.split('\n').filter((line) => line === `handled ${id}`);
    expect(printed).toHaveLength(1);
    expect(`${express.output.stderr}${fetchStyle.output.stderr}`).toBe('');
  });
});
