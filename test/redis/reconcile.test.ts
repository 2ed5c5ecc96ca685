// Checks of held tasks against the service (reconcile): how a dead process's bound slots are freed,
// at a bounded rate, and what a garbled key, a stepped clock or a closed coordinator do to them.
import { describe, expect, it, vi } from 'vitest';
import { RECONCILE_BACKOFF, RETRY_MS } from '../../src/redis/slots.js';
import { testClock } from './_clock.js';
import { useRedis } from './_setup.js';
import { runClockUntil, slotFleets } from './_slots.js';

const redis = useRedis();

const { fleet, isPending, prefix } = slotFleets(redis, 'reconcile');

describe('checks of held tasks', () => {
  it("frees a dead process's bound slots through another's reconcile, at a bounded rate", async () => {
    const clock = testClock();
    const [dead, alive] = await fleet(clock, 2, 2, { reconcileIntervalMs: 60_000 });
    await (await dead!.coordinator.hold(2)).bind(['t1', 't2']);
    const asked: string[][] = [];
    let finals: string[] = [];
    const reconcile = async (ids: readonly string[]) => {
      asked.push([...ids]);
      return finals;
    };
    const waiting = alive!.coordinator.hold(1, { reconcile });
    await vi.waitFor(() => expect(asked).toEqual([['t1', 't2']]));
    // Still running on the service: the hold waits; retries within the interval do not ask again.
    clock.advance(RETRY_MS);
    await vi.waitFor(() => expect(clock.sleepers).toBe(1));
    expect(asked).toHaveLength(1);
    finals = ['t2'];
    const hold = await runClockUntil(clock, waiting);
    expect(asked).toHaveLength(2);
    expect(hold.count).toBe(1);
    expect((await alive!.coordinator.stats()).activeTaskIds).toEqual(['t1']);
  });

  it('checks less often while checks find nothing ended (doubling, up to RECONCILE_BACKOFF times the interval), and at the interval again once one does', async () => {
    const clock = testClock();
    const [dead, alive] = await fleet(clock, 2, 2, { reconcileIntervalMs: 60_000 });
    await (await dead!.coordinator.hold(2)).bind(['t1', 't2']);
    const askedAt: number[] = [];
    let finals: string[] = [];
    const waiting = alive!.coordinator.hold(1, { reconcile: async () => (askedAt.push(clock.now()), finals) });
    const start = clock.now();
    await vi.waitFor(() => expect(askedAt).toHaveLength(1));
    // The waiting hold tries every RETRY_MS: a check is due at each try once the fleet's gap has passed.
    const tryUntil = async (to: number) => {
      while (clock.now() < to) {
        await vi.waitFor(() => expect(clock.sleepers).toBe(1));
        clock.advance(RETRY_MS);
      }
      await vi.waitFor(() => expect(clock.sleepers).toBe(1));
    };
    // Gaps of 2, 4 and then 8 minutes (the most) after checks that freed nothing: each check at the
    // hold's first try once its gap has passed. (A try is at most RETRY_MS after that: the hold's
    // real-time heartbeat may wake it between two steps of this clock, which shifts its tries.)
    const gaps = () => askedAt.slice(1).map((at, i) => at - askedAt[i]!);
    const within = (expected: number[]) => {
      expect(gaps()).toHaveLength(expected.length);
      gaps().forEach((gap, i) => {
        expect(gap).toBeGreaterThanOrEqual(expected[i]!);
        expect(gap).toBeLessThanOrEqual(expected[i]! + RETRY_MS);
      });
    };
    await tryUntil(start + 8 * 60_000);
    within([120_000, 240_000]);
    await tryUntil(start + 16 * 60_000);
    within([120_000, 240_000, 480_000]);
    finals = ['t2'];
    const hold = await runClockUntil(clock, waiting);
    expect(askedAt).toHaveLength(5);
    await hold.release();
    // A check that freed a slot brings the gap back to the interval.
    const gap = await (await redis.client()).get(`{${prefix()}}:reconcileGap`);
    expect(gap).toBe('60000');
  });

  it('checks at least every RECONCILE_BACKOFF intervals whatever the gap key holds (a huge number, or no number)', async () => {
    const clock = testClock();
    const [dead, alive] = await fleet(clock, 2, 1, { reconcileIntervalMs: 60_000 });
    await (await dead!.coordinator.hold(1)).bind(['t1']);
    const writer = await redis.client();
    await writer.set(`{${prefix()}}:reconcileGap`, '1e18');
    await writer.set(`{${prefix()}}:reconciled`, String(clock.now()));
    const askedAt: number[] = [];
    const controller = new AbortController();
    const waiting = alive!.coordinator.hold(1, { reconcile: async () => (askedAt.push(clock.now()), []), signal: controller.signal });
    const start = clock.now();
    for (let i = 0; i < 20; i++) {
      await vi.waitFor(() => expect(clock.sleepers).toBe(1));
      clock.advance(RETRY_MS);
    }
    await vi.waitFor(() => expect(askedAt.length).toBeGreaterThan(0));
    expect(askedAt[0]! - start).toBe(RECONCILE_BACKOFF * 60_000);
    // The empty check recorded the longest gap; then no number at all counts as the interval.
    await vi.waitFor(async () => expect(await writer.get(`{${prefix()}}:reconcileGap`)).toBe(String(RECONCILE_BACKOFF * 60_000)));
    await writer.set(`{${prefix()}}:reconcileGap`, 'x');
    const setAt = clock.now();
    await vi.waitFor(() => expect(clock.sleepers).toBe(1));
    clock.advance(RETRY_MS);
    // The last check is over an interval old: the next try checks (with the gap as written, 8 minutes,
    // it would not). That try is the clock's, or a heartbeat's already (every 3 s of real time).
    await vi.waitFor(() => expect(askedAt).toHaveLength(2));
    expect(setAt - askedAt[0]!).toBeLessThan(RECONCILE_BACKOFF * 60_000);
    expect(askedAt[1]).toBeGreaterThanOrEqual(setAt);
    expect(askedAt[1]).toBeLessThanOrEqual(setAt + RETRY_MS);
    controller.abort(new Error('done'));
    await expect(waiting).rejects.toThrow('done');
  });

  it('ends a hold aborted while its check of held tasks hangs on the service', async () => {
    const clock = testClock();
    const [dead, alive] = await fleet(clock, 2, 1);
    await (await dead!.coordinator.hold(1)).bind(['t1']);
    let asked = 0;
    const reconcile = () => {
      asked++;
      return new Promise<string[]>(() => undefined);
    };
    const controller = new AbortController();
    const waiting = alive!.coordinator.hold(1, { reconcile, signal: controller.signal });
    await vi.waitFor(() => expect(asked).toBe(1));
    controller.abort(new Error('no longer wanted'));
    await expect(waiting).rejects.toThrow('no longer wanted');
    await vi.waitFor(async () => expect((await alive!.coordinator.stats()).startsWaiting).toBe(0));
  });

  it('asks the service once per interval for the whole process, however many of its holds wait', async () => {
    const clock = testClock();
    const [dead, alive] = await fleet(clock, 2, 2, { reconcileIntervalMs: 60_000 });
    await (await dead!.coordinator.hold(2)).bind(['t1', 't2']);
    let asked = 0;
    const reconcile = async () => {
      asked++;
      return [];
    };
    const controller = new AbortController();
    const holds = [1, 2, 3].map(() => alive!.coordinator.hold(1, { reconcile, signal: controller.signal }));
    await vi.waitFor(async () => expect((await alive!.coordinator.stats()).startsWaiting).toBe(3));
    await vi.waitFor(() => expect(clock.sleepers).toBe(1));
    // The check runs in the background of the first hold's wait: once, not once per hold.
    await vi.waitFor(() => expect(asked).toBe(1));
    expect(await isPending(Promise.all(holds))).toBe(true);
    expect(asked).toBe(1);
    controller.abort(new Error('done'));
    for (const hold of holds) await expect(hold).rejects.toThrow('done');
  });

  it.each([
    ['a time far ahead', (now: number) => String(now + 3_600_000)],
    ['an infinity', () => 'inf'],
    ['not a number', () => 'nan'],
  ])('checks at the first try when the last turn is recorded as %s (with a gap of nan), and the record expires', async (_, last) => {
    const clock = testClock();
    const [dead, alive] = await fleet(clock, 2, 1, { reconcileIntervalMs: 60_000 });
    await (await dead!.coordinator.hold(1)).bind(['t1']);
    const writer = await redis.client();
    await writer.set(`{${prefix()}}:reconciled`, last(clock.now()));
    await writer.set(`{${prefix()}}:reconcileGap`, 'nan');
    const askedAt: number[] = [];
    const controller = new AbortController();
    const start = clock.now();
    const waiting = alive!.coordinator.hold(1, { reconcile: async () => (askedAt.push(clock.now()), []), signal: controller.signal });
    await vi.waitFor(() => expect(askedAt).toEqual([start]));
    // The turn's record expires (twice the longest gap): a key left behind never stops the checks.
    const ttl = await writer.pTTL(`{${prefix()}}:reconciled`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(2 * RECONCILE_BACKOFF * 60_000);
    await vi.waitFor(async () => expect(await writer.get(`{${prefix()}}:reconcileGap`)).toBe('120000'));
    controller.abort(new Error('done'));
    await expect(waiting).rejects.toThrow('done');
  });

  it('aborts the check still asking the service when the coordinator closes, and starts none after', async () => {
    const clock = testClock();
    const [dead, alive] = await fleet(clock, 2, 1, { reconcileIntervalMs: 60_000 });
    await (await dead!.coordinator.hold(1)).bind(['t1']);
    const signals: (AbortSignal | undefined)[] = [];
    const reconcile = (_: readonly string[], signal?: AbortSignal) => {
      signals.push(signal);
      return new Promise<string[]>((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
    };
    const controller = new AbortController();
    const waiting = alive!.coordinator.hold(1, { reconcile, signal: controller.signal });
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    expect(signals[0]?.aborted).toBe(false);
    await alive!.coordinator.close();
    expect(signals[0]?.aborted).toBe(true);
    // Later tries of the waiting hold (an interval on) ask no more.
    for (let i = 0; i < 5; i++) clock.advance(60_000);
    expect(await isPending(waiting)).toBe(true);
    expect(signals).toHaveLength(1);
    controller.abort(new Error('done'));
    await expect(waiting).rejects.toThrow('done');
  });
});
