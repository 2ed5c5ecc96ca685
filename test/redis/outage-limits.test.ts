// Local limits across outages: what a process knows it runs, what it started on local limits that
// never answered, what ended in between; and an abort that wins over a stalled Redis.
import { describe, expect, it, vi } from 'vitest';
import { testClock } from './_clock.js';
import { processOn, useRedis } from './_setup.js';

const redis = useRedis();

/** Stops the server and waits until `client` has seen it go. */
async function outage(client: { isReady: boolean }): Promise<void> {
  await redis.stop();
  await vi.waitFor(() => expect(client.isReady).toBe(false));
}

/** Whether `promise` is still pending once the event loop has turned a few times. */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true), () => (settled = true));
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  return !settled;
}

describe('local limits across outages', () => {
  it('starts local limits from the tasks the process runs: with maxActive running, a start waits for one to end', async () => {
    const clock = testClock();
    const { coordinator, client } = await processOn(redis, clock, { prefix: 'ol-from', maxActive: 3, probeIntervalMs: 20 });
    await (await coordinator.hold(3)).bind(['t1', 't2', 't3']);
    await outage(client);
    const fourth = coordinator.hold(1);
    expect(await pending(fourth)).toBe(true);
    expect(await coordinator.stats()).toMatchObject({ mode: 'local', activeSlots: 3 });
    await coordinator.settle([{ taskId: 't1', status: 'completed' }]);
    await (await fourth).bind(['t4']);
    expect((await coordinator.stats()).activeTaskIds.sort()).toEqual(['t2', 't3', 't4']);
    await redis.start();
    await vi.waitFor(() => expect(coordinator.mode).toBe('shared'), { timeout: 5_000 });
  });

  it('keeps each per-minute window in the process while Redis is down: drafting, chat messages, webhook tests', async () => {
    const clock = testClock();
    const limits = { draftingPerMinute: 1, chatMessagesPerMinute: 2, webhookTestsPerMinute: 1 };
    const { coordinator, client } = await processOn(redis, clock, { prefix: 'ol-windows', probeIntervalMs: 20, ...limits });
    await outage(client);
    for (const [window, limit] of [['drafting', 1], ['chatMessages', 2], ['webhookTests', 1]] as const) {
      for (let i = 0; i < limit; i++) await coordinator.take(window);
      const over = coordinator.take(window);
      expect(await pending(over)).toBe(true);
      // It waits for its own window's oldest entry to leave (a minute and a margin later), on the client's clock.
      await vi.waitFor(() => expect(clock.sleepers).toBe(1));
      clock.advanceTo(clock.nextWake()!);
      await over;
    }
    expect(coordinator.mode).toBe('local');
    await redis.start();
    await vi.waitFor(() => expect(coordinator.mode).toBe('shared'), { timeout: 5_000 });
  });

  it('gives back a slot of a start answered 500 on local limits after pendingHoldTtlMs', async () => {
    const clock = testClock();
    const { coordinator, client } = await processOn(redis, clock, { prefix: 'ol-pending', maxActive: 1, pendingHoldTtlMs: 60_000, probeIntervalMs: 20 });
    await outage(client);
    // Answered 500: neither bound nor released, abandoned (the service may have started it), as the client does.
    await (await coordinator.hold(1)).abandon!();
    const next = coordinator.hold(1);
    expect(await pending(next)).toBe(true);
    clock.advance(59_999);
    expect(await pending(next)).toBe(true);
    clock.advance(1);
    await (await next).release();
    await redis.start();
    await vi.waitFor(() => expect(coordinator.mode).toBe('shared'), { timeout: 5_000 });
  });

  it('does not count in the next outage a task that ended after the last one (told by another process)', async () => {
    const clock = testClock();
    const options = { prefix: 'ol-ended', maxActive: 1, probeIntervalMs: 20 };
    const [a, b] = await Promise.all([processOn(redis, clock, options), processOn(redis, clock, options)]);
    await outage(a.client);
    await (await a.coordinator.hold(1)).bind(['t1']);
    await redis.start();
    await vi.waitFor(() => expect([a.coordinator.mode, a.client.isReady, b.client.isReady]).toEqual(['shared', true, true]), { timeout: 5_000 });
    // a listens (it runs a task): b's receiver hears t1 end, and a hears it on the channel.
    await vi.waitFor(async () => expect(await b.client.pubSubNumSub('{ol-ended}:events')).toEqual({ '{ol-ended}:events': 1 }));
    await b.coordinator.publish({ id: 'e1', type: 'forecast.completed', taskId: 't1', status: 'completed', final: true });
    await vi.waitFor(async () => expect((await a.coordinator.stats()).activeSlots).toBe(0));
    await outage(a.client);
    const next = a.coordinator.hold(1);
    expect(await pending(next)).toBe(false);
    await (await next).release();
    await redis.start();
    await vi.waitFor(() => expect(a.coordinator.mode).toBe('shared'), { timeout: 5_000 });
  });
});

describe('an abort while Redis is stalled', () => {
  it('ends a take and a hold at once, not after commandTimeoutMs', async () => {
    const clock = testClock();
    const { coordinator } = await processOn(redis, clock, { prefix: 'ol-abort', maxActive: 1, commandTimeoutMs: 5_000 });
    // Redis knows the scripts (a first take and start), then holds every command for a second.
    (await coordinator.take('requests'))?.();
    await (await coordinator.hold(1)).release();
    // A second process's take waits for its reserved place: an abort of it gives the place back, not waiting for Redis.
    const other = await processOn(redis, clock, { prefix: 'ol-abort-window', requestsPerMinute: 1, commandTimeoutMs: 5_000 });
    (await other.coordinator.take('requests'))?.();
    const sleeping = new AbortController();
    const reserved = other.coordinator.take('requests', sleeping.signal);
    await vi.waitFor(() => expect(clock.sleepers).toBe(1));
    const admin = await redis.client();
    await admin.sendCommand(['CLIENT', 'PAUSE', '1000', 'ALL']);
    const abortedAt = Date.now();
    sleeping.abort(new Error('caller gave up'));
    await expect(reserved).rejects.toThrow('caller gave up');
    expect(Date.now() - abortedAt).toBeLessThan(500);
    for (const call of [(signal: AbortSignal) => coordinator.take('requests', signal), (signal: AbortSignal) => coordinator.hold(1, { signal })]) {
      const controller = new AbortController();
      const started = Date.now();
      const result = call(controller.signal);
      setTimeout(() => controller.abort(new Error('caller gave up')), 50);
      await expect(result).rejects.toThrow('caller gave up');
      expect(Date.now() - started).toBeLessThan(500);
    }
    // The caller's abort is not Redis's failure.
    expect(coordinator.mode).toBe('shared');
  });
});

describe('many calls on local limits', () => {
  it('waits without a leak warning from Node however many calls wait for Redis to come back', async () => {
    const clock = testClock();
    const { coordinator, client } = await processOn(redis, clock, { prefix: 'ol-many', requestsPerMinute: 5, probeIntervalMs: 20 });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      await outage(client);
      // No signal of the caller's (the client passes none unless given one): each waits on local limits until Redis is back.
      let done = 0;
      const takes = Array.from({ length: 30 }, () => coordinator.take('requests').then(() => void done++));
      await pending(Promise.all(takes));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
      await redis.start();
      await vi.waitFor(() => expect(coordinator.mode).toBe('shared'), { timeout: 5_000 });
      // Back on the shared window: five a minute, each at its reserved place.
      while (done < 30) {
        await vi.waitFor(() => expect(clock.sleepers + done).toBe(30));
        clock.advanceTo(clock.nextWake() ?? clock.now());
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      process.off('warning', onWarning);
    }
  });
});
