// Several clients of one process on one Redis coordinator, against one mock with its limits on:
// together they stay within the key's request budget and its 50 active forecasts, and every slot
// is freed once its task ends. The mock runs on a manual clock: a minute's wait takes no real time.
import { describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { createRedisCoordinator } from '../../src/redis/index.js';
import { ManualClock, mockClientOptions, startMockServer } from '../../src/testing/index.js';
import { useRedis } from '../redis/_setup.js';
import { countingRedis, expectWithinLimits } from './_fleet.js';

const redis = useRedis();

describe('clients sharing a coordinator in one process', () => {
  it('never meet a rate_limit_error or too_many_active_forecasts, never run more than 50, and free every slot', { timeout: 120_000 }, async () => {
    const mock = await startMockServer({ clock: new ManualClock(), rateLimit: { requestsPerMinute: 60 } });
    const shared = countingRedis(await redis.client());
    const coordinator = createRedisCoordinator(shared);
    try {
      // One set of client options, so the manual clock moves only when no client has a request (or a Redis command) in flight.
      const options = { ...mockClientOptions(mock, { busy: shared.busy }), coordinator, logLevel: 'off' as const };
      const clients = [new ForecastingClient(options), new ForecastingClient(options), new ForecastingClient(options)];
      const began = mock.clock.now();
      // 3 × 25 starts (75 > 50) and 75 question creations (more than a minute's 60 requests).
      const runs = clients.map(async (client) => {
        const questions = [];
        for (let i = 0; i < 25; i++) questions.push(await client.questions.create({ type: 'binary', title: `Will it rain in city ${i}?` }));
        const started = await client.forecasts.createMany(questions.map((q) => ({ questionId: q.id, runMode: 'light' })));
        const taskIds = started.flatMap((r) => (r.status === 'accepted' ? [r.taskId] : []));
        expect(taskIds).toHaveLength(25);
        const tasks = await client.forecasts.waitMany(taskIds, { full: false });
        return tasks.map((t) => t.status);
      });
      const statuses = (await Promise.all(runs)).flat();
      expect(statuses).toEqual(Array(75).fill('completed'));
      expectWithinLimits(mock);
      // 75 starts: some waited for slots, so the most running was the limit itself.
      expect(mock.service.forecastControls.activity().maxActive).toBe(50);
      // The budget waited: over 60 requests took more than a minute of mock time.
      expect(mock.service.requests.length).toBeGreaterThan(60);
      expect(mock.clock.now() - began).toBeGreaterThan(60_000);
      expect(await coordinator.stats()).toMatchObject({ mode: 'shared', activeSlots: 0, activeTaskIds: [], startsWaiting: 0 });
    } finally {
      await coordinator.close();
      await mock.close();
    }
  });

  it('runMany, createAndWait and questions.forecasts.create of three clients share the 50 slots', { timeout: 120_000 }, async () => {
    const mock = await startMockServer({ clock: new ManualClock(), rateLimit: { requestsPerMinute: 60 } });
    const shared = countingRedis(await redis.client());
    const coordinator = createRedisCoordinator(shared);
    try {
      const options = { ...mockClientOptions(mock, { busy: shared.busy }), coordinator, logLevel: 'off' as const };
      const [a, b, c] = [new ForecastingClient(options), new ForecastingClient(options), new ForecastingClient(options)];
      const questionIds = async (client: ForecastingClient, n: number) => {
        const ids: string[] = [];
        for (let i = 0; i < n; i++) ids.push((await client.questions.create({ type: 'binary', title: `Will it snow in town ${i}?` })).id);
        return ids;
      };
      // 40 + 10 + 10 = 60 starts against 50 slots.
      const viaRunMany = async () => {
        const statuses: string[] = [];
        for await (const r of a.forecasts.runMany((await questionIds(a, 40)).map((questionId) => ({ questionId, runMode: 'light' as const })))) statuses.push(r.status);
        return statuses;
      };
      const viaCreateAndWait = async () => Promise.all((await questionIds(b, 10)).map(async (questionId) => (await b.forecasts.createAndWait({ questionId, runMode: 'light' })).status));
      const viaQuestion = async () => {
        const tasks = await Promise.all((await questionIds(c, 10)).map((id) => c.questions.forecasts.create(id, { runMode: 'light' })));
        return (await c.forecasts.waitMany(tasks.map((t) => t.id), { full: false })).map((t) => t.status);
      };
      const statuses = (await Promise.all([viaRunMany(), viaCreateAndWait(), viaQuestion()])).flat();
      expect(statuses).toEqual(Array(60).fill('completed'));
      expectWithinLimits(mock);
      expect(await coordinator.stats()).toMatchObject({ activeSlots: 0, startsWaiting: 0 });
    } finally {
      await coordinator.close();
      await mock.close();
    }
  });

  it("keeps a fleet's maxActive below the service's: runMany sends batches that fit, a larger createBatch is refused unsent", { timeout: 60_000 }, async () => {
    const mock = await startMockServer({ clock: new ManualClock() });
    const shared = countingRedis(await redis.client());
    const coordinator = createRedisCoordinator(shared, { maxActive: 5 });
    try {
      const client = new ForecastingClient({ ...mockClientOptions(mock, { busy: shared.busy }), coordinator, logLevel: 'off' });
      const questionIds: string[] = [];
      for (let i = 0; i < 12; i++) questionIds.push((await client.questions.create({ type: 'binary', title: `Will the ferry run on day ${i}?` })).id);
      const items = questionIds.map((questionId) => ({ questionId, runMode: 'light' as const }));
      const statuses: string[] = [];
      // runMany's own maxActive is the service's 50: the coordinator's 5 wins.
      for await (const r of client.forecasts.runMany(items)) statuses.push(r.status);
      expect(statuses).toEqual(Array(12).fill('completed'));
      expect(mock.service.forecastControls.activity().maxActive).toBe(5);
      const batches = mock.service.requests.list({ operation: 'forecasts.createBatch' });
      expect(batches.length).toBeGreaterThanOrEqual(3);
      for (const r of batches) expect((r.body as { items: unknown[] }).items.length).toBeLessThanOrEqual(5);

      await expect(client.forecasts.createBatch({ items: items.slice(0, 6) })).rejects.toMatchObject({ name: 'ValidationError', field: 'items' });
      expect(mock.service.requests.list({ operation: 'forecasts.createBatch' })).toHaveLength(batches.length);
      expect(await coordinator.stats()).toMatchObject({ activeSlots: 0, startsWaiting: 0 });
    } finally {
      await coordinator.close();
      await mock.close();
    }
  });

  it("counts decisions' model calls in one shared window: no rate_limit_error past 10 a minute", { timeout: 60_000 }, async () => {
    const mock = await startMockServer({ clock: new ManualClock() });
    const shared = countingRedis(await redis.client());
    const coordinator = createRedisCoordinator(shared);
    try {
      const options = { ...mockClientOptions(mock, { busy: shared.busy }), coordinator, logLevel: 'off' as const };
      const [a, b] = [new ForecastingClient(options), new ForecastingClient(options)];
      const began = mock.clock.now();
      // 2 × 8 decisions: 16 model calls, over the service's 10 a minute.
      const made = await Promise.all([a, b].map((client) => Promise.all(Array.from({ length: 8 }, (_, i) => client.decisions.create({ title: `Where to open shop ${i}?`, options: ['Paris', 'Lyon'] })))));
      expect(made.flat()).toHaveLength(16);
      expect(mock.service.requests.count({ status: 429 })).toBe(0);
      expect(mock.clock.now() - began).toBeGreaterThanOrEqual(60_000);
    } finally {
      await coordinator.close();
      await mock.close();
    }
  });
});
