// A wait asleep on the safety cadence (a receiver seen, its task's event lost) whose events stop
// coming mid-sleep: Redis stops, or its coordinator is closed. The docs promise that waits then go
// back to polling: the sleep looks at the task's own pace whether events can still come, so the next
// read is one `Retry-After` after the loss, not at the end of the 10-minute cadence, and its trace
// counts a poll, not an event. On a real redis-server, the mock on its manual clock.
import diagnostics from 'node:diagnostics_channel';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { WaitMessage } from '../../src/index.js';
import { ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';
import { useRedis } from '../redis/_setup.js';
import { closeCoordinators, coordinatedClient, coordinatorOn, forwardEvents, readsOf, receiverSeen, steppedClientOptions, subscribed } from './_waits.js';

const redis = useRedis();
afterAll(closeCoordinators);

const mocks: MockServer[] = [];
const stops: Array<() => void> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await Promise.all(mocks.splice(0).map((m) => m.close()));
});

/** The waits that end, as the `forecasting-sdk:wait` channel tells them. */
function endedWaits(): WaitMessage[] {
  const seen: WaitMessage[] = [];
  const ignore = () => undefined;
  const handlers: diagnostics.TracingChannelSubscribers<object> = { start: ignore, end: ignore, asyncStart: ignore, error: ignore, asyncEnd: (m) => void seen.push(m as WaitMessage) };
  diagnostics.tracingChannel('forecasting-sdk:wait').subscribe(handlers);
  stops.push(() => diagnostics.tracingChannel('forecasting-sdk:wait').unsubscribe(handlers));
  return seen;
}

let prefixes = 0;

/**
 * A client waiting through a coordinator whose fleet has a live receiver that loses every event
 * (so the wait sleeps on the safety cadence), and `lose` to run at mock time `lossAt` after the
 * start (the clock held until it has ended).
 */
async function sleepingWait(lose: (waiter: Awaited<ReturnType<typeof coordinatorOn>>) => Promise<void>, lossAt: number, o: { timeout?: number; receiverTtlMs?: number } = {}) {
  const clock = new ManualClock();
  const mock = (await startMockServer({ clock })) as MockServer & { clock: ManualClock };
  mocks.push(mock);
  const prefix = `lost-receiving-${++prefixes}`;
  let holding = false;
  const options = steppedClientOptions(mock, () => holding);
  const waiter = await coordinatorOn(redis, prefix, mock.apiKey, options.clock, o.receiverTtlMs === undefined ? {} : { receiverTtlMs: o.receiverTtlMs });
  const receiver = await coordinatorOn(redis, prefix, mock.apiKey, options.clock);
  const client = coordinatedClient(options, waiter);
  const question = await client.questions.create({ type: 'binary', title: 'Will the receiver stay up?' });
  await client.webhooks.create({ url: 'https://hooks.example.com/forecasting', eventKinds: ['forecast.completed', 'forecast.failed', 'forecast.cancelled'] });
  const lost = new Set<string>();
  stops.push((await forwardEvents(redis, prefix, mock.service, receiver, lost)).stop);
  await receiver.publish({ id: 'evt_hello', type: 'webhook.test', final: false });
  await receiverSeen(waiter);
  await subscribed(redis, prefix, 2);
  const task = await client.forecasts.create({ questionId: question.id, runMode: 'light' });
  lost.add(task.id);
  const began = mock.clock.now();
  mock.clock.schedule(began + lossAt, () => {
    holding = true;
    void lose(waiter).finally(() => (holding = false));
  });
  const waits = endedWaits();
  const done = await client.forecasts.wait(task.id, o.timeout === undefined ? {} : { timeout: o.timeout });
  const readAt = mock.service.requests
    .list({ operation: 'forecasts.retrieve' })
    .filter((r) => r.path.startsWith(`/forecasts/${task.id}`))
    .map((r) => r.at - began);
  return { done, readAt, reads: readsOf(mock.service, task.id), wait: waits.at(-1)! };
}

describe('a wait asleep on the safety cadence when its events stop coming', () => {
  it('reads one Retry-After after its coordinator is closed, then polls by Retry-After to the result', async () => {
    const { done, readAt, wait } = await sleepingWait((waiter) => waiter.close(), 60_000);
    expect(done.status).toBe('completed');
    // Read at the start (queued: Retry-After 15 s), then within 15 s of the close, not at 10 minutes.
    expect(readAt[0]).toBe(0);
    expect(readAt[1]).toBeGreaterThanOrEqual(60_000);
    expect(readAt[1]).toBeLessThanOrEqual(75_000);
    expect(readAt.at(-1)!).toBeLessThan(600_000);
    expect(readAt.length).toBeGreaterThan(2);
    expect(wait.wakes.event).toBe(0);
    expect(wait.endedBy).toBe('poll');
  });

  it('reads one Retry-After after Redis stops, within a timeout shorter than the cadence (not timed out early)', { timeout: 60_000 }, async () => {
    try {
      const { done, readAt, reads, wait } = await sleepingWait(async (waiter) => {
        await redis.stop();
        await vi.waitFor(() => expect(waiter.receiving()).toBe(false), { timeout: 10_000 });
      }, 60_000, { timeout: 9 * 60_000 });
      expect(done.status).toBe('completed');
      expect(readAt[1]).toBeGreaterThanOrEqual(60_000);
      expect(readAt[1]).toBeLessThanOrEqual(75_000);
      expect(reads).toBeGreaterThan(2);
      expect(wait.wakes.event).toBe(0);
      expect(wait.endedBy).toBe('poll');
    } finally {
      await redis.start();
    }
  });

  it('reads one Retry-After after no receiver has been seen for receiverTtlMs (the receivers gone)', async () => {
    // The receiver's last publish is its hello, before the start: with receiverTtlMs 90 s of the
    // service's time it is no longer seen from 90 s on (the loss below changes nothing).
    const { done, readAt, wait } = await sleepingWait(async () => undefined, 0, { receiverTtlMs: 90_000 });
    expect(done.status).toBe('completed');
    expect(readAt[1]).toBeGreaterThanOrEqual(75_000);
    expect(readAt[1]).toBeLessThanOrEqual(105_000);
    expect(wait.wakes.event).toBe(0);
  });
});
