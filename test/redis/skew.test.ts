// Clock skew: processes whose clocks are minutes apart share one window and one set of slots, because
// the scripts count on Redis's own time (a clock that is not `simulated` never scores anything).
import { describe, expect, it, vi } from 'vitest';
import type { ClientClock } from '../../src/core/clock.js';
import { sleep } from '../../src/core/clock.js';
import { processOn, useRedis } from './_setup.js';

const redis = useRedis();
const MINUTE = 60_000;

/** Real time, off by `offset` ms, as on a machine whose clock is wrong. */
const skewed = (offset: number): ClientClock => ({ now: () => Date.now() + offset, sleep });

/** Whether `promise` is still pending after `ms` of real time. */
const pendingAfter = async (promise: Promise<unknown>, ms: number): Promise<boolean> =>
  Promise.race([promise.then(() => false, () => false), sleep(ms).then(() => true)]);

describe('clock skew', () => {
  it('keeps processes 10 minutes slow and 6 minutes fast within one requestsPerMinute', async () => {
    const options = { prefix: 'skew-window', requestsPerMinute: 6 };
    const [right, slow, fast] = await Promise.all([processOn(redis, skewed(0), options), processOn(redis, skewed(-10 * MINUTE), options), processOn(redis, skewed(6 * MINUTE), options)]);
    for (const process of [right, slow, fast, right, slow, fast]) await process.coordinator.take('requests');
    expect((await right.coordinator.stats()).requestsInWindow).toBe(6);
    // The budget is spent, whoever's clock says what: the seventh waits for the first to leave the window.
    for (const process of [slow, fast]) {
      const controller = new AbortController();
      const seventh = process.coordinator.take('requests', controller.signal);
      expect(await pendingAfter(seventh, 300)).toBe(true);
      controller.abort();
      await expect(seventh).rejects.toThrow();
    }
  });

  it("never drops another process's pending slots as expired from a clock 6 minutes fast", async () => {
    const options = { prefix: 'skew-slots', maxActive: 2, pendingHoldTtlMs: MINUTE };
    const [right, fast] = await Promise.all([processOn(redis, skewed(0), options), processOn(redis, skewed(6 * MINUTE), options)]);
    const held = await right.coordinator.hold(2);
    const controller = new AbortController();
    const third = fast.coordinator.hold(1, { signal: controller.signal });
    expect(await pendingAfter(third, 300)).toBe(true);
    expect((await fast.coordinator.stats()).activeSlots).toBe(2);
    controller.abort();
    await expect(third).rejects.toThrow();
    await held.release();
  });

  it('keeps a process 10 minutes slow from holding slots another process is still starting', async () => {
    const options = { prefix: 'skew-slots-slow', maxActive: 1, pendingHoldTtlMs: MINUTE };
    const [slow, right] = await Promise.all([processOn(redis, skewed(-10 * MINUTE), options), processOn(redis, skewed(0), options)]);
    // The slow process's pending slot would have "expired" ten minutes ago on the right clock.
    const held = await slow.coordinator.hold(1);
    const controller = new AbortController();
    const second = right.coordinator.hold(1, { signal: controller.signal });
    expect(await pendingAfter(second, 300)).toBe(true);
    controller.abort();
    await expect(second).rejects.toThrow();
    await held.bind(['task-1']);
    expect((await right.coordinator.stats()).activeTaskIds).toEqual(['task-1']);
  });

  it('checks held tasks against the service again after its wall clock stepped back an hour', async () => {
    let offset = 0;
    const stepping: ClientClock = { now: () => Date.now() + offset, sleep };
    const options = { prefix: 'skew-reconcile', maxActive: 1, reconcileIntervalMs: 1_000 };
    const [dead, waiter] = await Promise.all([processOn(redis, skewed(0), options), processOn(redis, stepping, options)]);
    await (await dead.coordinator.hold(1)).bind(['t-dead']);
    let asked = 0;
    const controller = new AbortController();
    const waiting = waiter.coordinator.hold(1, { signal: controller.signal, reconcile: async () => (asked++, []) });
    await vi.waitFor(() => expect(asked).toBe(1));
    offset = -3_600_000;
    // Its next try (a heartbeat, within seconds) checks again: the interval restarts, it does not wait an hour.
    await vi.waitFor(() => expect(asked).toBe(2), { timeout: 8_000 });
    controller.abort(new Error('done'));
    await expect(waiting).rejects.toThrow('done');
  }, 15_000);

  it("keeps moving its request in flight to now after its clock stepped back an hour, and counts a receiver seen only a TTL from the step", async () => {
    // A simulated clock the scripts count on (as a scaled test clock is), set back by hand mid-request.
    let now = 10_000_000;
    const stepping: ClientClock = { simulated: true, now: () => now, sleep };
    const process = await processOn(redis, stepping, { prefix: 'skew-flight', requestsPerMinute: 5 });
    const client = await redis.client();
    await process.coordinator.take('requests'); // never answered
    await process.coordinator.publish({ id: 'e1', type: 'webhook.test', final: false });
    expect(process.coordinator.receiving()).toBe(true);
    now -= 3_600_000;
    // The timer looks at a simulated clock every 50 ms of real time: let it see the step, then move on.
    await sleep(150);
    now += 25_000;
    // More than a third of a window after the step: the entry moves to the clock's now, not to an hour on.
    await vi.waitFor(async () => expect(await client.zRangeWithScores('{skew-flight}:requests', 0, -1)).toEqual([{ value: expect.any(String), score: now }]), { timeout: 3_000 });
    // Seen "in the future" now: it counts from the first look after the step, for a TTL, not an hour more.
    expect(process.coordinator.receiving()).toBe(true);
    now += 15 * MINUTE;
    expect(process.coordinator.receiving()).toBe(false);
  });
});
