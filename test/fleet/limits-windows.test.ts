// The spec's other per-minute limits, shared by clients on one Redis coordinator against the mock
// with its limits on: drafting questions (20 a minute per key), chat messages (30 per key), webhook
// tests and replays (20 per user). Past each, the calls wait their turn and none meets a 429. The
// mock runs on a manual clock: a minute's wait takes no real time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient, type ClientOptions } from '../../src/index.js';
import { createRedisCoordinator, type RedisCoordinator } from '../../src/redis/index.js';
import { ManualClock, mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';
import { useRedis } from '../redis/_setup.js';
import { countingRedis } from './_fleet.js';

const redis = useRedis();
let mock: MockServer;
let coordinator: RedisCoordinator;
let options: ClientOptions;

beforeAll(async () => {
  mock = await startMockServer({ clock: new ManualClock() });
  const shared = countingRedis(await redis.client());
  coordinator = createRedisCoordinator(shared);
  // One set of client options, so the manual clock moves only when no client has a request (or a Redis command) in flight.
  options = { ...mockClientOptions(mock, { busy: shared.busy }), coordinator, logLevel: 'off' };
});
afterAll(async () => {
  await coordinator.close();
  await mock.close();
});

/** Runs `each` for `count` items split across two clients, and how long it took on the mock's clock. */
async function acrossTwoClients(count: number, each: (client: ForecastingClient, i: number) => Promise<unknown>): Promise<number> {
  const clients = [new ForecastingClient(options), new ForecastingClient(options)];
  const began = mock.clock.now();
  await Promise.all(Array.from({ length: count }, (_, i) => each(clients[i % 2]!, i)));
  return mock.clock.now() - began;
}

describe("the spec's other per-minute limits, shared by a fleet", () => {
  it('keeps drafting within 20 a minute: 24 normalize calls wait their turn, none is refused', async () => {
    mock.service.requests.clear();
    const took = await acrossTwoClients(24, (client, i) => client.questions.normalize({ title: `Will city ${i} have a metro by 2030?` }));
    expect(mock.service.requests.count({ operation: 'questions.normalize', status: 200 })).toBe(24);
    expect(mock.service.requests.count({ status: 429 })).toBe(0);
    expect(took).toBeGreaterThanOrEqual(60_000);
  });

  it('keeps chat messages within 30 a minute across clients', { timeout: 60_000 }, async () => {
    const client = new ForecastingClient(options);
    const question = await client.questions.create({ type: 'binary', title: 'Will it rain in Paris tomorrow?' });
    const task = await client.forecasts.createAndWait({ questionId: question.id, runMode: 'light' });
    expect(task.status).toBe('completed');
    mock.service.requests.clear();
    const took = await acrossTwoClients(34, (c, i) => c.forecasts.chat.create(task.id, { message: `Why this number (${i})?` }));
    expect(mock.service.requests.count({ operation: 'forecasts.chat.create', status: 200 })).toBe(34);
    expect(mock.service.requests.count({ status: 429 })).toBe(0);
    expect(took).toBeGreaterThanOrEqual(60_000);
  });

  it('keeps webhook tests within 20 a minute (replays count in the same window)', async () => {
    const client = new ForecastingClient(options);
    // A public address: the mock records its deliveries and sends none.
    const webhook = await client.webhooks.create({ url: 'https://hooks.example.com/forecasts', eventKinds: ['forecast.completed'] });
    mock.service.requests.clear();
    const took = await acrossTwoClients(22, (c) => c.webhooks.test(webhook.id));
    expect(mock.service.requests.count({ operation: 'webhooks.test', status: 200 })).toBe(22);
    expect(mock.service.requests.count({ status: 429 })).toBe(0);
    expect(took).toBeGreaterThanOrEqual(60_000);
  });
});

describe('on startMockServer() with its defaults (the fast clock)', () => {
  it('keeps drafting within 20 a minute without a 429, a minute passing in a tenth of a second', async () => {
    const fast = await startMockServer();
    const own = createRedisCoordinator(await redis.client(), { prefix: 'windows-fast' });
    try {
      const clients = [0, 1].map(() => new ForecastingClient({ ...mockClientOptions(fast), coordinator: own, logLevel: 'off' }));
      const began = performance.now();
      await Promise.all(Array.from({ length: 24 }, (_, i) => clients[i % 2]!.questions.normalize({ title: `Will town ${i} get a tram by 2031?` })));
      expect(fast.service.requests.count({ operation: 'questions.normalize', status: 200 })).toBe(24);
      expect(fast.service.requests.count({ status: 429 })).toBe(0);
      expect(performance.now() - began).toBeLessThan(5_000);
    } finally {
      await own.close();
      await fast.close();
    }
  });
});
