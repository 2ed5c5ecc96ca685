// A granted slot not yet bound stays taken while its process lives, however long its start waits for
// the request budget: it expires pendingHoldTtlMs after the process stopped renewing it (died), or
// after the start ended without an answer (abandon). The renewal runs on the client's clock, as the
// expiry is counted: real time, or a test's simulated clock (a minute of mock time may take a second).
import { describe, expect, it } from 'vitest';
import { testClock } from './_clock.js';
import type { ClientClock } from '../../src/core/clock.js';
import { sleep } from '../../src/core/clock.js';
import { processOn, useRedis } from './_setup.js';

const redis = useRedis();
const real: ClientClock = { now: () => Date.now(), sleep };

/** Whether `promise` is still pending after `ms` of real time. */
const pendingAfter = async (promise: Promise<unknown>, ms: number): Promise<boolean> =>
  Promise.race([promise.then(() => false, () => false), sleep(ms).then(() => true)]);

describe('a granted slot not yet bound', () => {
  it('stays taken past pendingHoldTtlMs while its process lives, and goes back pendingHoldTtlMs after abandon', async () => {
    const options = { prefix: 'pending-live', maxActive: 1, pendingHoldTtlMs: 2_000 };
    const [a, b] = await Promise.all([processOn(redis, real, options), processOn(redis, real, options)]);
    const granted = await a.coordinator.hold(1);
    const controller = new AbortController();
    const next = b.coordinator.hold(1, { signal: controller.signal });
    // Twice the time to live: a's start is still on its way (waiting for the budget, say).
    expect(await pendingAfter(next, 4_000)).toBe(true);
    await granted.abandon!();
    expect(await pendingAfter(next, 1_000)).toBe(true);
    expect(await pendingAfter(next, 5_000)).toBe(false);
    await (await next).release();
  }, 20_000);

  it('goes back pendingHoldTtlMs after its process closed (died) without binding it', async () => {
    const options = { prefix: 'pending-dead', maxActive: 1, pendingHoldTtlMs: 1_500 };
    const [a, b] = await Promise.all([processOn(redis, real, options), processOn(redis, real, options)]);
    await a.coordinator.hold(1);
    await a.coordinator.close();
    const next = b.coordinator.hold(1);
    expect(await pendingAfter(next, 6_000)).toBe(false);
    await (await next).release();
  }, 20_000);

  it("on a simulated clock, is renewed on that clock: a start that waits five times pendingHoldTtlMs of the clock's time keeps it", async () => {
    const clock = testClock();
    const options = { prefix: 'pending-clock', maxActive: 1, pendingHoldTtlMs: 60_000 };
    const [a, b] = await Promise.all([processOn(redis, clock, options), processOn(redis, clock, options)]);
    const granted = await a.coordinator.hold(1);
    const expiry = async () => Number(await a.client.zScore('{pending-clock}:slots', (await a.client.zRange('{pending-clock}:slots', 0, 0))[0]!));
    const until = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 200 && !(await check()); i++) await sleep(10);
      expect(await check()).toBe(true);
    };
    expect(await expiry()).toBe(clock.now() + 60_000);
    // A third of the time to live on the clock, fifteen times: each renewal moves the expiry to then.
    for (let i = 0; i < 15; i++) {
      clock.advance(20_000);
      await until(async () => (await expiry()) === clock.now() + 60_000);
    }
    let settled = false;
    const next = b.coordinator.hold(1);
    void next.then(() => (settled = true));
    await until(async () => (await b.coordinator.stats()).startsWaiting === 1);
    expect(settled).toBe(false);
    // Abandoned: it goes back a time to live later, on the same clock (b's next try is due by then).
    await granted.abandon!();
    clock.advance(60_001);
    await (await next).release();
  }, 20_000);
});
