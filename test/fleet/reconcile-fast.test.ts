// The fleet's check of held slots against the service, on startMockServer()'s defaults: it runs in
// the service's time (reconcileIntervalMs's 30 s is 50 ms at 600x, and a waiting start looks as
// often), and a held task the service does not know (the mock was reset, the task deleted) is
// freed, not held for ever.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { createRedisCoordinator, type RedisCoordinator } from '../../src/redis/index.js';
import { mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';
import { useRedis } from '../redis/_setup.js';

const redis = useRedis();
let mock: MockServer;
let coordinator: RedisCoordinator;
let client: ForecastingClient;

beforeAll(async () => {
  mock = await startMockServer();
  coordinator = createRedisCoordinator(await redis.client(), { prefix: 'reconcile-fast', maxActive: 4 });
  client = new ForecastingClient({ ...mockClientOptions(mock), coordinator, logLevel: 'off' });
});
afterAll(async () => {
  await coordinator.close();
  await mock.close();
});

const questionIds = async (n: number, title: string) => (await Promise.all(Array.from({ length: n }, (_, i) => client.questions.create({ type: 'binary', title: `${title} ${i}` })))).map((q) => q.id);

describe('the check of held slots on the fast clock', () => {
  it('frees the slots of tasks that ended unread within seconds: 10 starts through 4 slots, nothing waited on', { timeout: 30_000 }, async () => {
    const ids = await questionIds(10, 'Unread');
    const began = performance.now();
    // One at a time: each start past the fourth waits for a slot that only the check can free.
    for (const questionId of ids) await client.forecasts.create({ questionId, runMode: 'light' });
    expect(mock.service.requests.count({ operation: 'forecasts.create', status: 202 })).toBe(10);
    // 30 s of the service's time is 50 ms here, and a waiting start looks as often: each start goes
    // within a light forecast's run of the one that frees its slot (it waited seconds for its next look before).
    expect(performance.now() - began).toBeLessThan(4_500);
  });

  it('frees a slot held for a task the service no longer knows (a mock reset), and the next start goes', { timeout: 30_000 }, async () => {
    const held = await coordinator.stats();
    expect(held.activeSlots).toBeGreaterThan(0);
    mock.service.reset();
    const [questionId] = await questionIds(1, 'After reset');
    // Hold every slot for tasks of the reset mock, then start one more. The first test's last
    // starts may hold all four already (no check has run since): those tasks are the reset mock's too.
    const free = 4 - (await coordinator.stats()).activeSlots;
    if (free > 0) {
      const fill = await coordinator.hold(free);
      await fill.bind(Array.from({ length: fill.count }, (_, i) => `gone-${i}`));
    }
    const unknown = (await coordinator.stats()).activeTaskIds;
    expect(unknown).toHaveLength(4);
    const began = performance.now();
    const task = await client.forecasts.create({ questionId: questionId!, runMode: 'light' });
    // Found by the next check, 50 ms of real time away (3 s before, the waiting start's look).
    expect(performance.now() - began).toBeLessThan(2_000);
    expect(task.id).toEqual(expect.any(String));
    const after = (await coordinator.stats()).activeTaskIds;
    expect(after).toContain(task.id);
    expect(unknown.filter((id) => after.includes(id))).toEqual([]);
  });
});
