// A shared clock the test moves by hand: sleeps resolve when the test advances past their time.
import type { ClientClock } from '../../src/core/clock.js';

export interface TestClock extends ClientClock {
  /** Sleeps not yet due. */
  readonly sleepers: number;
  /** The earliest wake-up, or undefined when nobody sleeps. */
  nextWake(): number | undefined;
  /** Moves time to `to` (never back) and wakes every sleeper due by then. */
  advanceTo(to: number): void;
  advance(ms: number): void;
}

export function testClock(start = 1_000_000): TestClock {
  let now = start;
  const sleeping = new Set<{ at: number; wake: () => void }>();
  const clock: TestClock = {
    // A manual clock: the coordinator counts on it, not on Redis's real time.
    simulated: true,
    get sleepers() {
      return sleeping.size;
    },
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        signal?.throwIfAborted();
        const entry = {
          at: now + Math.max(0, ms),
          wake: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          sleeping.delete(entry);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        sleeping.add(entry);
      }),
    nextWake: () => (sleeping.size === 0 ? undefined : Math.min(...[...sleeping].map((s) => s.at))),
    advanceTo(to) {
      now = Math.max(now, to);
      for (const entry of [...sleeping]) {
        if (entry.at > now) continue;
        sleeping.delete(entry);
        entry.wake();
      }
    },
    advance: (ms) => clock.advanceTo(now + ms),
  };
  return clock;
}
