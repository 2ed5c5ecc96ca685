// What the slot tests share: processes on a fresh prefix each, a check that a hold still waits, and
// a driver of the manual clock from wake-up to wake-up.
import { expect, vi } from 'vitest';
import type { SlotHold } from '../../src/redis/index.js';
import type { TestClock } from './_clock.js';
import type { TestRedis } from './_redis.js';
import { processOn, type Process } from './_setup.js';

/** Fleets of processes on `redis`, each on a prefix of its own (`<name>-1`, `<name>-2`, …). */
export function slotFleets(redis: TestRedis, name: string) {
  let n = 0;
  return {
    /** The latest fleet's prefix (its keys are `{<prefix>}:…`). */
    prefix: () => `${name}-${n}`,
    /** `count` processes on one fresh prefix. */
    fleet(clock: TestClock, count: number, maxActive: number, extra = {}): Promise<Process[]> {
      const prefix = `${name}-${++n}`;
      return Promise.all(Array.from({ length: count }, () => processOn(redis, clock, { prefix, maxActive, ...extra })));
    },
    /** Whether `promise` is still pending once a few Redis round trips (a waiter's retry included) have had their turn. */
    async isPending(promise: Promise<unknown>): Promise<boolean> {
      let done = false;
      void promise.then(
        () => (done = true),
        () => (done = true),
      );
      const client = await redis.client();
      for (let i = 0; i < 5; i++) await client.ping();
      return !done;
    },
  };
}

/** Moves the clock from wake-up to wake-up until `promise` settles. */
export async function runClockUntil(clock: TestClock, promise: Promise<SlotHold>): Promise<SlotHold> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    await vi.waitFor(() => expect(done || clock.sleepers > 0).toBe(true));
    const next = clock.nextWake();
    if (!done && next !== undefined) clock.advanceTo(next);
  }
  return promise;
}
