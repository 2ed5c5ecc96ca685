// What the waits tests share: coordinators on the test Redis (one connection each, as separate
// processes would have), clients built on them, and the reads of a task in the mock's request log.
import { vi } from 'vitest';
import { ForecastingClient, type ClientOptions } from '../../src/index.js';
import type { ClientClock } from '../../src/core/clock.js';
import { createRedisCoordinator, type RedisCoordinator, type RedisCoordinatorOptions } from '../../src/redis/index.js';
import { mockClientOptions, type ManualClock, type MockClock, type MockService } from '../../src/testing/index.js';
import type { TestRedis } from '../redis/_redis.js';

const open: RedisCoordinator[] = [];

/** Closes the subscriber connection of every coordinator made here (before the server stops). */
export async function closeCoordinators(): Promise<void> {
  await Promise.all(open.splice(0).map((c) => c.close()));
}

/** A coordinator on its own connection (with `options`), attached as a client of `apiKey` on `clock` attaches it. */
export async function coordinatorOn(redis: TestRedis, prefix: string, apiKey: string, clock: Pick<ClientClock, 'now' | 'sleep'>, options: RedisCoordinatorOptions = {}): Promise<RedisCoordinator> {
  const coordinator = createRedisCoordinator(await redis.client(), { ...options, prefix });
  open.push(coordinator);
  coordinator.attach({ keyHash: (sha256Hex) => sha256Hex(apiKey), clock });
  return coordinator;
}

/** A client sharing `coordinator` (a client without one when it is `undefined`). */
export function coordinatedClient(options: ClientOptions, coordinator: RedisCoordinator | undefined): ForecastingClient {
  return new ForecastingClient({ logLevel: 'off', ...options, ...(coordinator ? { coordinator } : {}) });
}

/** Resolves once `count` connections listen on the prefix's event channel (subscribing runs in the background). */
export async function subscribed(redis: TestRedis, prefix: string, count: number): Promise<void> {
  const client = await redis.client();
  const channel = `{${prefix}}:events`;
  await vi.waitFor(async () => {
    const listening = (await client.pubSubNumSub(channel))[channel] ?? 0;
    if (listening < count) throw new Error(`${listening} of ${count} subscribed`);
  });
}

/** Resolves once `coordinator` has seen a webhook receiver (after a publish of one). */
export async function receiverSeen(coordinator: RedisCoordinator): Promise<void> {
  await vi.waitFor(() => {
    if (!coordinator.receiving()) throw new Error('no receiver seen yet');
  });
}

/** The requests that read `taskId`: alone, or in a list filtered by task ids. */
export function readsOf(service: MockService, taskId: string): number {
  return service.requests.list().filter((r) => (r.operation === 'forecasts.retrieve' && r.path.startsWith(`/forecasts/${taskId}`)) || (r.operation === 'forecasts.list' && decodeURIComponent(r.path).includes(taskId))).length;
}

/**
 * Client options for a mock on a manual clock, as `mockClientOptions` gives, but whose clock moves
 * at most `stepMs` at a time and never while `busy()` (or a request of the client) says so: a
 * webhook event the mock emits on the way then reaches the waiters (through a receiver and Redis)
 * before time moves past it, as it would in real time.
 */
export function steppedClientOptions(mock: { apiKey: string; baseURL: string; clock: ManualClock }, busy: () => boolean, stepMs = 5_000): Required<Pick<ClientOptions, 'apiKey' | 'baseURL' | 'clock' | 'fetch'>> {
  const clock = mock.clock;
  // The client's clock moves the mock's to its next wake-up; this one goes there in steps.
  const stepped: MockClock = {
    now: () => clock.now(),
    advance: (ms) => clock.advance(ms),
    set: (ms) => clock.set(Math.min(ms, clock.now() + stepMs)),
    schedule: (at, callback) => clock.schedule(at, callback),
    realSeconds: (ms) => clock.realSeconds(ms),
  };
  return mockClientOptions({ ...mock, clock: stepped }, { busy });
}

/** The final event types a receiver publishes as ending their task. */
export const FINAL_EVENTS = new Set(['forecast.completed', 'forecast.failed', 'forecast.cancelled']);

/**
 * Stands for a webhook receiver process: every forecast event of the mock is published through
 * `receiver`, final ones as final. `pending()` counts events not yet seen on the channel, so a
 * stepped clock holds time until the waiters have them. `lose` drops the events of those tasks.
 */
export async function forwardEvents(redis: TestRedis, prefix: string, service: MockService, receiver: RedisCoordinator, lose: ReadonlySet<string> = new Set()): Promise<{ pending(): number; stop(): void }> {
  let pending = 0;
  const listener = await redis.client();
  await listener.subscribe(`{${prefix}}:events`, (text) => {
    const message = JSON.parse(text) as { receiver?: boolean };
    if (message.receiver) pending--;
  });
  let n = 0;
  const stop = service.events.on((e) => {
    if (lose.has(e.taskId)) return;
    pending++;
    const final = FINAL_EVENTS.has(e.type);
    void receiver.publish({ id: `evt_${++n}`, type: e.type, taskId: e.taskId, status: final ? e.type.slice('forecast.'.length) : undefined, final });
  });
  return { pending: () => pending, stop };
}
