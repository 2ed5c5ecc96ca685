// Many processes, one key (issue 22): child processes, each a client on a Redis coordinator, share
// the key's limits against one mock with its limits on; a process killed with SIGKILL while holding
// slots loses none for good. Every child runs test/fleet/_worker.ts, bundled here with esbuild.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { createRedisCoordinator } from '../../src/redis/index.js';
import { startMockServer, type MockServer } from '../../src/testing/index.js';
import { useRedis } from '../redis/_setup.js';
import { expectWithinLimits } from './_fleet.js';
import type { WorkerConfig } from './_worker.js';

const redis = useRedis();
const out = mkdtempSync(join(tmpdir(), 'fsdk-fleet-'));
const script = join(out, 'worker.mjs');
/** 60 times real time: a light forecast (5 mock minutes) takes 5 s, the mock's 60 requests a minute are 60 a second. */
const TIME_SCALE = 60;

beforeAll(async () => {
  const entry = fileURLToPath(new URL('./_worker.ts', import.meta.url));
  // Bundled whole (the SDK's source and node-redis), so the child needs nothing but node.
  await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', outfile: script, logLevel: 'error', banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" } });
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Worker {
  child: ChildProcess;
  stdout: () => string;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function startWorker(mock: MockServer, questionIds: string[], hang = false): Worker {
  const config: WorkerConfig = { baseURL: mock.baseURL, apiKey: mock.apiKey, redisURL: redis.url, questionIds, timeScale: TIME_SCALE, mockStart: mock.clock.now(), realStart: Date.now(), hang };
  const child = spawn(process.execPath, [script], { env: { PATH: process.env['PATH'], FLEET_WORKER: JSON.stringify(config) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
  return { child, stdout: () => stdout, done };
}

/** What a worker printed last, once it exits. */
async function resultOf(worker: Worker): Promise<{ rejected: number; statuses: string[] }> {
  const { code, stdout, stderr } = await worker.done;
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { rejected: number; statuses: string[] };
}

/** A mock with its limits on, and `count` questions made before they were. */
async function mockWithQuestions(count: number): Promise<{ mock: MockServer; questionIds: string[] }> {
  const mock = await startMockServer({ timeScale: TIME_SCALE });
  const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL });
  const questionIds: string[] = [];
  for (let i = 0; i < count; i++) questionIds.push((await client.questions.create({ type: 'binary', title: `Will it rain in city ${i} tomorrow?` })).id);
  mock.service.setRateLimit({ requestsPerMinute: 60 });
  return { mock, questionIds };
}

/** The coordinator's view from the test process (same Redis, same key: the same namespace). */
async function statsOf(mock: MockServer) {
  const connection = await redis.client();
  const coordinator = createRedisCoordinator(connection);
  new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, coordinator });
  try {
    return await coordinator.stats();
  } finally {
    await coordinator.close();
  }
}

describe('processes sharing one key through Redis', () => {
  it('four processes meet no rate_limit_error and no too_many_active_forecasts, and never run more than 50', { timeout: 180_000 }, async () => {
    const { mock, questionIds } = await mockWithQuestions(4 * 18);
    try {
      // 4 × 18 = 72 starts against 50 slots.
      const workers = [0, 1, 2, 3].map((i) => startWorker(mock, questionIds.slice(i * 18, (i + 1) * 18)));
      const results = await Promise.all(workers.map(resultOf));
      expect(results.map((r) => r.rejected)).toEqual([0, 0, 0, 0]);
      expect(results.flatMap((r) => r.statuses)).toEqual(Array(72).fill('completed'));
      expectWithinLimits(mock);
      expect(mock.service.forecastControls.activity().started).toBe(72);
      expect(await statsOf(mock)).toMatchObject({ activeSlots: 0, startsWaiting: 0 });
    } finally {
      await mock.close();
    }
  });

  it('a process killed with SIGKILL while holding slots: the others go on, and every slot is freed once its tasks end', { timeout: 180_000 }, async () => {
    const { mock, questionIds } = await mockWithQuestions(30 + 4 * 10);
    try {
      const doomed = startWorker(mock, questionIds.slice(0, 30), true);
      await vi.waitFor(() => expect(doomed.stdout()).toContain('held'), { timeout: 60_000, interval: 50 });
      doomed.child.kill('SIGKILL');
      await doomed.done;
      expect((await statsOf(mock)).activeSlots).toBe(30);

      // 30 slots stay held by the dead process's running tasks: the others wait their turn, reconcile
      // against the service once those tasks end, and take the freed slots.
      const workers = [0, 1, 2, 3].map((i) => startWorker(mock, questionIds.slice(30 + i * 10, 40 + i * 10)));
      const results = await Promise.all(workers.map(resultOf));
      expect(results.flatMap((r) => r.statuses)).toEqual(Array(40).fill('completed'));
      expectWithinLimits(mock);
      // No slot is lost for good: the dead process's slots that the waiting starts did not need to
      // free are of tasks already final at the service, which the next waiting start frees.
      const stats = await statsOf(mock);
      expect(stats).toMatchObject({ startsWaiting: 0 });
      const reader = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });
      for (const id of stats.activeTaskIds) expect((await reader.forecasts.retrieve(id)).status).toBe('completed');
      expect(stats.activeSlots).toBe(stats.activeTaskIds.length);
    } finally {
      await mock.close();
    }
  });

  it('a process SIGKILLed with starts waiting in the shared queue: the starts behind it go within 15 s (ALIVE_TTL_MS and a heartbeat)', { timeout: 120_000 }, async () => {
    const { mock, questionIds } = await mockWithQuestions(5);
    const connection = await redis.client();
    const coordinator = createRedisCoordinator(connection);
    new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, coordinator, logLevel: 'off' });
    try {
      // Every slot is taken: the doomed process's starts queue behind it.
      const all = await coordinator.hold(50);
      const doomed = startWorker(mock, questionIds);
      await vi.waitFor(async () => expect((await coordinator.stats()).startsWaiting).toBeGreaterThan(0), { timeout: 30_000, interval: 50 });
      doomed.child.kill('SIGKILL');
      await doomed.done;
      const killedAt = Date.now();
      // The slots are free again, but the dead process's entries are at the head of the queue.
      await all.release();
      const next = await coordinator.hold(1);
      expect(Date.now() - killedAt).toBeLessThan(15_000);
      await next.release();
      expect(mock.service.forecastControls.activity().started).toBe(0);
    } finally {
      await coordinator.close();
      await mock.close();
    }
  });
});
