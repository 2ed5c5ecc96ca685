// Waits across processes on a real Redis: a wait, waitMany, createAndWait and runMany in one process
// wake on the final events a webhook receiver publishes in another (here: another coordinator on
// its own connection, fed by the mock's events), read each final task once, and skip the
// Retry-After polling in between; with no receiver seen they poll as before, and a lost event costs
// one read at the safety cadence, never the result.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ForecastingClient } from '../../src/index.js';
import { ValidationError, type SubscribableEventKind } from '../../src/index.js';
import { ManualClock, mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';
import type { RedisCoordinator } from '../../src/redis/index.js';
import { useRedis } from '../redis/_setup.js';
import { closeCoordinators, coordinatedClient, coordinatorOn, forwardEvents, readsOf, receiverSeen, steppedClientOptions, subscribed } from './_waits.js';

const redis = useRedis();
afterAll(closeCoordinators);

const mocks: MockServer[] = [];
afterEach(async () => {
  await Promise.all(mocks.splice(0).map((m) => m.close()));
});

let prefixes = 0;
const ALL_FINAL: SubscribableEventKind[] = ['forecast.completed', 'forecast.failed', 'forecast.cancelled'];

interface Fleet {
  mock: MockServer & { clock: ManualClock };
  client: ForecastingClient;
  waiter: RedisCoordinator;
  receiver: RedisCoordinator;
  questionIds: string[];
}

/**
 * A mock on its manual clock, a waiting client on one coordinator and a receiver on another (same
 * prefix, own connections). With `receiver: 'live'` the receiver has published (a test event) and
 * forwards the mock's events, but for the tasks of `lose`; with `'silent'` it has published once and
 * forwards nothing; with `'none'` it never publishes.
 */
async function fleet(o: { receiver: 'live' | 'silent' | 'none'; questions?: number; coordinated?: boolean; lose?: Set<string>; extra?: object; eventKinds?: SubscribableEventKind[] }): Promise<Fleet> {
  const clock = new ManualClock();
  const m = (await startMockServer({ clock })) as MockServer & { clock: ManualClock };
  mocks.push(m);
  const prefix = `waits-${++prefixes}`;
  let pending = () => 0;
  const options = steppedClientOptions(m, () => pending() > 0);
  const waiter = await coordinatorOn(redis, prefix, m.apiKey, options.clock);
  const receiver = await coordinatorOn(redis, prefix, m.apiKey, options.clock);
  const client = coordinatedClient({ ...options, ...o.extra }, o.coordinated === false ? undefined : waiter);
  const questionIds = [];
  for (let i = 0; i < (o.questions ?? 1); i++) questionIds.push((await client.questions.create({ type: 'binary', title: `Waits question ${i}` })).id);
  if (o.receiver !== 'none') {
    // The receiver's webhook (at a public address: the mock records its deliveries, never sends them).
    // Every final kind by default: the set-up in which waits trust the events.
    await client.webhooks.create({ url: 'https://hooks.example.com/forecasting', eventKinds: o.eventKinds ?? [...ALL_FINAL] });
    if (o.receiver === 'live') pending = (await forwardEvents(redis, prefix, m.service, receiver, o.lose)).pending;
    await receiver.publish({ id: 'evt_hello', type: 'webhook.test', final: false });
    await receiverSeen(waiter);
    await subscribed(redis, prefix, o.receiver === 'live' ? 2 : 1);
  } else {
    waiter.receiving();
    await subscribed(redis, prefix, 1);
  }
  m.service.requests.clear();
  return { mock: m, client, waiter, receiver, questionIds };
}

describe('a wait woken by a final event published in another process', () => {
  it('reads the task once after the event and not in between (forecasts.wait)', async () => {
    const f = await fleet({ receiver: 'live' });
    const task = await f.client.forecasts.create({ questionId: f.questionIds[0]!, runMode: 'light' });
    const began = f.mock.clock.now();
    const done = await f.client.forecasts.wait(task.id);
    expect(done.status).toBe('completed');
    // The first read (queued), then one read after the event: none of the Retry-After polls (15 s, then 2 min).
    expect(readsOf(f.mock.service, task.id)).toBe(2);
    const completedAt = f.mock.service.requests.list({ operation: 'forecasts.retrieve' }).at(-1)!.at;
    // Woken by the event (a light forecast takes 5 minutes; the clock may step on while the event
    // crosses Redis), before the safety cadence's read at 10 minutes.
    expect(completedAt - began).toBeLessThan(10 * 60_000);
  });

  it('createAndWait reads the task once in all: the start answers for the first read', async () => {
    const f = await fleet({ receiver: 'live' });
    const done = await f.client.forecasts.createAndWait({ questionId: f.questionIds[0]!, runMode: 'light' });
    expect(done.status).toBe('completed');
    expect(f.mock.service.requests.count({ operation: 'forecasts.create' })).toBe(1);
    expect(readsOf(f.mock.service, done.id)).toBe(1);
  });

  it('waitMany reads the tasks told final in one list, and each in full once', async () => {
    const f = await fleet({ receiver: 'live', questions: 3 });
    const tasks = await Promise.all(f.questionIds.map((questionId) => f.client.forecasts.create({ questionId, runMode: 'light' })));
    const done = await f.client.forecasts.waitMany(tasks.map((t) => t.id));
    expect(done.map((t) => t.status)).toEqual(['completed', 'completed', 'completed']);
    // A first round (one list), a round after the events (one list: they come at once), one full read each.
    const lists = f.mock.service.requests.count({ operation: 'forecasts.list' });
    expect(lists).toBe(2);
    expect(f.mock.service.requests.count({ operation: 'forecasts.retrieve' })).toBe(3);
  });

  it('frees the task’s slot for every process once it is seen final', async () => {
    const f = await fleet({ receiver: 'silent' });
    const task = await f.client.forecasts.create({ questionId: f.questionIds[0]!, runMode: 'light' });
    await (await f.waiter.hold(1)).bind([task.id]);
    expect((await f.receiver.stats()).activeTaskIds).toEqual([task.id]);
    await f.client.forecasts.wait(task.id);
    expect((await f.receiver.stats()).activeTaskIds).toEqual([]);
  });
});

describe('the polling fallback', () => {
  it('polls by Retry-After, read for read as a client without a coordinator, when no receiver was seen', async () => {
    const reads: number[] = [];
    for (const coordinated of [false, true]) {
      const f = await fleet({ receiver: 'none', coordinated });
      const task = await f.client.forecasts.create({ questionId: f.questionIds[0]!, runMode: 'light' });
      expect((await f.client.forecasts.wait(task.id)).status).toBe('completed');
      reads.push(readsOf(f.mock.service, task.id));
    }
    expect(reads[1]).toBe(reads[0]);
    expect(reads[0]).toBeGreaterThan(2);
  });

  it('ends a wait whose final event was lost by the safety cadence (mock time), with the result', async () => {
    const lost = new Set<string>();
    const f = await fleet({ receiver: 'live', lose: lost });
    const task = await f.client.forecasts.create({ questionId: f.questionIds[0]!, runMode: 'light' });
    lost.add(task.id);
    const began = f.mock.clock.now();
    const done = await f.client.forecasts.wait(task.id);
    expect(done.status).toBe('completed');
    expect(readsOf(f.mock.service, task.id)).toBe(2);
    const at = f.mock.service.requests.list({ operation: 'forecasts.retrieve' }).at(-1)!.at;
    expect(at - began).toBe(600_000);
  });

  it("polls a failed forecast's wait at Retry-After when the webhooks are subscribed to forecast.completed only (no event comes for a failure)", async () => {
    const f = await fleet({ receiver: 'live', eventKinds: ['forecast.completed'] });
    f.mock.service.forecastControls.setOutcome(f.questionIds[0]!, { task: 'failed' });
    const task = await f.client.forecasts.create({ questionId: f.questionIds[0]!, runMode: 'light' });
    const began = f.mock.clock.now();
    const done = await f.client.forecasts.wait(task.id);
    expect(done.status).toBe('failed');
    // Read at the service's pace (15 s queued, then 2 min running), not once at the 10-minute safety cadence.
    const at = f.mock.service.requests.list({ operation: 'forecasts.retrieve' }).at(-1)!.at;
    expect(at - began).toBeLessThan(10 * 60_000);
    expect(readsOf(f.mock.service, task.id)).toBeGreaterThan(2);
    // The key's webhooks were read once for the wait, not once per read.
    expect(f.mock.service.requests.count({ operation: 'webhooks.list' })).toBe(1);
  });

  it('trusts the events of a webhook subscribed to every final kind: a failed forecast wakes its wait', async () => {
    const f = await fleet({ receiver: 'live' });
    f.mock.service.forecastControls.setOutcome(f.questionIds[0]!, { task: 'failed' });
    const task = await f.client.forecasts.create({ questionId: f.questionIds[0]!, runMode: 'light' });
    expect((await f.client.forecasts.wait(task.id)).status).toBe('failed');
    expect(readsOf(f.mock.service, task.id)).toBe(2);
  });

  it('reads at the coordinatedPollInterval given', async () => {
    const lost = new Set<string>();
    const f = await fleet({ receiver: 'live', lose: lost, extra: { coordinatedPollInterval: 7 * 60_000 } });
    const task = await f.client.forecasts.create({ questionId: f.questionIds[0]!, runMode: 'light' });
    lost.add(task.id);
    const began = f.mock.clock.now();
    await f.client.forecasts.wait(task.id);
    expect(f.mock.service.requests.list({ operation: 'forecasts.retrieve' }).at(-1)!.at - began).toBe(7 * 60_000);
  });
});

describe('runMany with a coordinator and a receiver', () => {
  it('sends fewer requests per forecast than without', async () => {
    const perForecast: number[] = [];
    for (const receiver of ['none', 'live'] as const) {
      const f = await fleet({ receiver, questions: 30 });
      const results = [];
      for await (const r of f.client.forecasts.runMany(f.questionIds.map((questionId) => ({ questionId, runMode: 'standard' as const })), { maxActive: 10 })) results.push(r);
      expect(results.filter((r) => r.status === 'completed')).toHaveLength(30);
      perForecast.push(f.mock.service.requests.length / 30);
    }
    expect(perForecast[1]).toBeLessThan(perForecast[0]!);
  });
});

describe('on startMockServer() with its defaults (the fast clock, real time in the client)', () => {
  it('wakes a wait on the event as fast as the mock goes, with two reads', async () => {
    const m = await startMockServer();
    mocks.push(m);
    const prefix = `waits-${++prefixes}`;
    const options = mockClientOptions(m);
    const [waiter, receiver] = [await coordinatorOn(redis, prefix, m.apiKey, options.clock), await coordinatorOn(redis, prefix, m.apiKey, options.clock)];
    // A safety cadence of an hour of the mock's time (6 s here): the default 10 minutes is a second,
    // no longer than the mock's shortest Retry-After, so only the event can end this wait in two reads.
    const client = coordinatedClient({ ...options, coordinatedPollInterval: 3_600_000 }, waiter);
    await client.webhooks.create({ url: 'https://hooks.example.com/forecasting', eventKinds: ALL_FINAL });
    await forwardEvents(redis, prefix, m.service, receiver);
    await receiver.publish({ id: 'evt_hello', type: 'webhook.test', final: false });
    await receiverSeen(waiter);
    await subscribed(redis, prefix, 2);
    const question = await client.questions.create({ type: 'binary', title: 'Fast clock' });
    // A standard forecast: 3 real seconds; polling would read it every second.
    const task = await client.forecasts.create({ questionId: question.id, runMode: 'standard' });
    const began = performance.now();
    expect((await client.forecasts.wait(task.id)).status).toBe('completed');
    expect(performance.now() - began).toBeLessThan(5_000);
    expect(readsOf(m.service, task.id)).toBe(2);
  });
});

describe('coordinatedPollInterval', () => {
  it('must be a number of milliseconds (a ValidationError naming it)', async () => {
    const mock = await startMockServer({ clock: new ManualClock() });
    mocks.push(mock);
    const make = (value: unknown) => () => coordinatedClient({ ...mockClientOptions(mock), coordinatedPollInterval: value as number }, undefined);
    for (const bad of [-1, Number.NaN, '600000', 2 ** 31]) {
      expect(make(bad)).toThrow(ValidationError);
      expect(make(bad)).toThrow(/coordinatedPollInterval/);
    }
    expect(make(60_000)).not.toThrow();
  });
});
