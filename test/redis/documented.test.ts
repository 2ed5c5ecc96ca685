// Documented behaviours of the Redis fleet coordinator (docs/fleet.md) that no other test pins: the
// defaults of its timing options, `rateLimit` left unused beside a coordinator, generic requests that
// take no slot, reconcile's list requests of 100 tasks, a start aborted after it was sent keeping its
// slot pending, and nothing opened after close(). One redis-server and one mock (on a manual clock)
// for the file; each test has a prefix of its own.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ForecastingClient, type ClientOptions } from '../../src/index.js';
import { createRedisCoordinator, type RedisCoordinator, type RedisCoordinatorOptions } from '../../src/redis/index.js';
import { resolveOptions } from '../../src/redis/options.js';
import { RETRY_MS } from '../../src/redis/slots.js';
import type { ClientClock } from '../../src/core/clock.js';
import { ManualClock, mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';
import { countingRedis } from '../fleet/_fleet.js';
import { testClock } from './_clock.js';
import { processOn, useRedis } from './_setup.js';
import { runClockUntil } from './_slots.js';

const redis = useRedis();
let server: MockServer | undefined;

beforeAll(async () => {
  server = await startMockServer({ clock: new ManualClock() });
});
afterAll(async () => {
  await server?.close();
});

const mock = (): MockServer => {
  if (!server) throw new Error('the mock starts in beforeAll');
  return server;
};

interface FleetClient {
  client: ForecastingClient;
  coordinator: RedisCoordinator;
  /** The client's clock: the mock's manual clock, moved to the next wake-up whenever nothing is in flight. */
  clock: ClientClock;
}

const opened: RedisCoordinator[] = [];
afterAll(async () => {
  await Promise.all(opened.splice(0).map((c) => c.close()));
});

/** A client of the mock on a new Redis connection's coordinator; the clock holds while a request or a Redis command is in flight. */
async function fleetClient(options: RedisCoordinatorOptions, extra: Partial<ClientOptions> = {}): Promise<FleetClient> {
  const shared = countingRedis(await redis.client());
  const coordinator = createRedisCoordinator(shared, options);
  opened.push(coordinator);
  const base = mockClientOptions(mock(), { busy: shared.busy });
  const client = new ForecastingClient({ ...base, coordinator, logLevel: 'off', ...extra });
  return { client, coordinator, clock: base.clock };
}

const questionId = async (client: ForecastingClient, title: string): Promise<string> => (await client.questions.create({ type: 'binary', title })).id;

describe('defaults of the coordinator options', () => {
  it('resolves pendingHoldTtlMs to 5 min, reconcileIntervalMs to 30 s, commandTimeoutMs to 2 s, probeIntervalMs to 1 s and receiverTtlMs to 15 min', () => {
    expect(resolveOptions({})).toMatchObject({
      pendingHoldTtlMs: 5 * 60_000,
      reconcileIntervalMs: 30_000,
      commandTimeoutMs: 2_000,
      probeIntervalMs: 1_000,
      receiverTtlMs: 15 * 60_000,
    });
  });

  it('gives a granted slot not yet bound an expiry of 5 minutes in Redis', async () => {
    const clock = testClock();
    const { coordinator, client } = await processOn(redis, clock, { prefix: 'documented-ttl' });
    const hold = await coordinator.hold(1);
    const [member] = await client.zRange('{documented-ttl}:slots', 0, 0);
    expect(await client.zScore('{documented-ttl}:slots', member!)).toBe(clock.now() + 5 * 60_000);
    await hold.release();
  });

  it('sets the gap to the next check of held tasks to 30 s after a check that freed a slot', async () => {
    const clock = testClock();
    const [dead, alive] = await Promise.all([1, 2].map(() => processOn(redis, clock, { prefix: 'documented-gap', maxActive: 1 })));
    await (await dead!.coordinator.hold(1)).bind(['t_dead']);
    const asked: string[][] = [];
    const reconcile = async (taskIds: readonly string[]) => (asked.push([...taskIds]), [...taskIds]);
    const hold = await runClockUntil(clock, alive!.coordinator.hold(1, { reconcile }));
    expect(asked).toEqual([['t_dead']]);
    await vi.waitFor(async () => expect(await alive!.client.get('{documented-gap}:reconcileGap')).toBe('30000'));
    await hold.release();
  });

  it('counts a webhook receiver as seen for 15 minutes after its last event, in its process and in the shared record', async () => {
    const clock = testClock();
    const [receiver, other] = await Promise.all([1, 2].map(() => processOn(redis, clock, { prefix: 'documented-receivers' })));
    await receiver!.coordinator.publish({ id: 'evt_r1', type: 'forecast.completed', taskId: 't_r1', status: 'completed', final: true });
    clock.advance(15 * 60_000 - 1);
    expect(receiver!.coordinator.receiving()).toBe(true);
    expect((await other!.coordinator.stats()).receiversSeen).toBe(1);
    clock.advance(1);
    expect(receiver!.coordinator.receiving()).toBe(false);
    expect((await other!.coordinator.stats()).receiversSeen).toBe(0);
  });
});

describe('a client with both rateLimit and a coordinator', () => {
  it("spends the coordinator's shared window, not its own rateLimit of 1 request a minute", async () => {
    const { client, coordinator } = await fleetClient({ prefix: 'documented-ratelimit', requestsPerMinute: 3 }, { rateLimit: { requestsPerMinute: 1 } });
    mock().service.requests.clear();
    const began = mock().clock.now();
    await Promise.all(Array.from({ length: 5 }, () => client.questions.list()));
    const at = mock()
      .service.requests.list({ operation: 'questions.list' })
      .map((r) => r.at - began);
    expect(at).toHaveLength(5);
    // Three at once (the shared window's 3, where rateLimit alone would send one), the others a minute on.
    expect(at.filter((ms) => ms === 0)).toHaveLength(3);
    for (const ms of at.filter((ms) => ms !== 0)) expect(ms).toBeGreaterThanOrEqual(60_000);
    expect((await coordinator.stats()).mode).toBe('shared');
  });
});

/** Whether `promise` settles before `coordinator` counts a start waiting for slots (asked of Redis until one or the other). */
async function answeredBeforeWaiting(promise: Promise<unknown>, coordinator: RedisCoordinator): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (;;) {
    if (settled) return true;
    if ((await coordinator.stats()).startsWaiting > 0) return false;
  }
}

describe('a generic request', () => {
  it('client.post("/forecasts") is sent while every slot is held, taking none, where a declared start waits', async () => {
    const { client, coordinator } = await fleetClient({ prefix: 'documented-generic', maxActive: 1 });
    const id = await questionId(client, 'Will the generic post be sent?');
    // Every slot held by a real task that runs on (a check of held slots frees one the service does not show).
    const running = await new ForecastingClient({ ...mockClientOptions(mock()), logLevel: 'off' }).forecasts.create({ questionId: await questionId(client, 'Will the held slot stay held?'), runMode: 'max' });
    await (await coordinator.hold(1)).bind([running.id]);
    mock().service.requests.clear();
    const posting = new AbortController();
    const post = client.post<{ id: string }>('/forecasts', { body: { questionId: id }, signal: posting.signal });
    try {
      expect(await answeredBeforeWaiting(post, coordinator)).toBe(true);
    } finally {
      // Only a post that waits for a slot is still going here.
      posting.abort(new Error('the generic post waited for a slot'));
    }
    expect((await post).id).not.toBe(running.id);
    expect(mock().service.requests.list({ operation: 'forecasts.create' }).map((r) => r.status)).toEqual([202]);
    expect(await coordinator.stats()).toMatchObject({ activeSlots: 1, activeTaskIds: [running.id], startsWaiting: 0 });
    // The same start declared waits for the held slot: all slots were indeed taken.
    const controller = new AbortController();
    const declared = client.forecasts.create({ questionId: id }, { signal: controller.signal });
    await vi.waitFor(async () => expect((await coordinator.stats()).startsWaiting).toBe(1));
    controller.abort(new Error('enough'));
    await expect(declared).rejects.toThrow('enough');
    expect(mock().service.requests.count({ operation: 'forecasts.create' })).toBe(1);
  });
});

describe('the check of held tasks', () => {
  it('asks the service about 250 held tasks with three list requests: 100, 100 and 50 task ids, and frees those it does not show', async () => {
    // An interval of a day: the manual clock runs on while the start waits, and one check is counted.
    const options = { prefix: 'documented-reconcile', maxActive: 250, reconcileIntervalMs: 24 * 3_600_000 };
    const { client, clock } = await fleetClient(options);
    const dead = await processOn(redis, clock, options);
    const ids = Array.from({ length: 250 }, (_, i) => `task_held_${String(i).padStart(3, '0')}`);
    await (await dead.coordinator.hold(250)).bind(ids);
    const id = await questionId(client, 'Will the held tasks be listed?');
    mock().service.requests.clear();
    // The mock knows none of them (a dead process's tasks of a mock since reset): the check frees them all, and the start goes.
    const task = await client.forecasts.create({ questionId: id });
    const lists = mock().service.requests.list({ operation: 'forecasts.list' });
    expect(lists.map((r) => r.status)).toEqual([200, 200, 200]);
    const asked = lists.map((r) => new URLSearchParams(r.path.split('?')[1]).get('taskId')?.split(',') ?? []);
    expect(asked.map((taskIds) => taskIds.length)).toEqual([100, 100, 50]);
    expect(asked.flat().sort()).toEqual(ids);
    expect(mock().service.requests.count({ operation: 'forecasts.create' })).toBe(1);
    expect((await dead.coordinator.stats()).activeTaskIds).toEqual([task.id]);
  });
});

describe('a start aborted after it was sent', () => {
  it('keeps its slot pending: the next start gets it only 5 minutes (pendingHoldTtlMs) later', async () => {
    const { client, coordinator } = await fleetClient({ prefix: 'documented-aborted', maxActive: 1 });
    const id = await questionId(client, 'Will the aborted start keep its slot?');
    mock().service.requests.clear();
    // The mock holds the start (real time) until the client goes away.
    mock().service.faults.add({ operation: 'forecasts.create', delayMs: 30_000 });
    const controller = new AbortController();
    const start = client.forecasts.create({ questionId: id }, { signal: controller.signal });
    await vi.waitFor(() => expect(mock().service.requests.count({ operation: 'forecasts.create' })).toBe(1));
    controller.abort(new Error('gave up'));
    await expect(start).rejects.toThrow('gave up');
    const abortedAt = mock().clock.now();
    expect(await coordinator.stats()).toMatchObject({ activeSlots: 1, activeTaskIds: [] });
    // The next start's tries move the manual clock on; it is granted once the pending slot expires.
    const next = await coordinator.hold(1);
    const waited = mock().clock.now() - abortedAt;
    expect(waited).toBeGreaterThanOrEqual(5 * 60_000);
    expect(waited).toBeLessThanOrEqual(5 * 60_000 + RETRY_MS);
    await next.release();
  });
});

type Admin = { sendCommand(args: string[]): Promise<unknown> };

/** The ids of the connections Redis has now, in order. */
async function connectionIds(admin: Admin): Promise<number[]> {
  const list = String(await admin.sendCommand(['CLIENT', 'LIST']));
  return [...list.matchAll(/(?:^|\s)id=(\d+)/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
}

/** How many connections Redis has accepted since it started: one opened and closed at once counts too. */
async function accepted(admin: Admin): Promise<number> {
  const info = String(await admin.sendCommand(['INFO', 'stats']));
  return Number(/total_connections_received:(\d+)/.exec(info)?.[1]);
}

describe('after close()', () => {
  it('opens no connection for a call made afterwards, while a live coordinator opens its subscriber', async () => {
    const admin = await redis.client();
    const { client, coordinator } = await fleetClient({ prefix: 'documented-closed', maxActive: 1 });
    // A live coordinator on a connection of its own, made now so that its only connection to come is its subscriber.
    const live = await processOn(redis, testClock(), { prefix: 'documented-live' });
    const before = await connectionIds(admin);
    const acceptedBefore = await accepted(admin);
    // Its subscriber, opened by a watch, is one connection more; close() ends it.
    coordinator.watch(['t_watched'], () => undefined);
    await vi.waitFor(async () => expect((await connectionIds(admin)).length).toBe(before.length + 1));
    expect(await accepted(admin)).toBe(acceptedBefore + 1);
    await (await coordinator.hold(1)).bind(['t_bound']);
    await coordinator.close();
    await vi.waitFor(async () => expect(await connectionIds(admin)).toEqual(before));
    const acceptedAtClose = await accepted(admin);
    // Calls after close(): each answers, none subscribes (a watch, receiving(), a start waiting for a slot).
    coordinator.watch(['t_after'], () => undefined);
    expect(coordinator.receiving()).toBe(false);
    await client.questions.list();
    const controller = new AbortController();
    const waiting = coordinator.hold(1, { signal: controller.signal });
    await vi.waitFor(async () => expect((await coordinator.stats()).startsWaiting).toBe(1));
    controller.abort(new Error('done'));
    await expect(waiting).rejects.toThrow('done');
    // A live coordinator's watch, made after them, opens its subscriber: by then theirs would have been accepted too.
    live.coordinator.watch(['t_live'], () => undefined);
    await vi.waitFor(async () => expect((await connectionIds(admin)).length).toBe(before.length + 1));
    for (let i = 0; i < 5; i++) await admin.ping();
    expect(await accepted(admin)).toBe(acceptedAtClose + 1);
  });
});
