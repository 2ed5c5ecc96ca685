/**
 * A repeating timer on the client's clock, for the renewals of what the scripts count on that
 * clock: a pending slot's time to live, an in-flight request's minute. On a simulated clock (a
 * test's scaled or manual mock clock) a minute may pass in a real second, or only when the test
 * advances it, so a real-time interval would renew too late, or for nothing.
 * @module
 */
import type { ClientClock } from '../core/clock.js';

/** Real ms between two looks at a simulated clock: 5 s of a 100x clock's time. */
const SIMULATED_LOOK_MS = 50;

/**
 * Calls `tick` each time `ms` of `clock`'s time has passed since the last call, until the returned
 * function is called. A real-time interval (unref'd: it never keeps a process alive) that, on a
 * simulated clock, looks at the clock's time often rather than sleeping on it: a sleep would be a
 * wake-up that a manual clock's driver moves time to, again and again.
 * @internal
 */
export function every(clock: ClientClock, ms: number, tick: () => void): () => void {
  let last = clock.now();
  const timer =
    clock.simulated === true
      ? setInterval(() => {
          const now = clock.now();
          // A clock stepped back counts from where it went.
          if (now < last) last = now;
          if (now - last < ms) return;
          last = now;
          tick();
        }, Math.min(ms, SIMULATED_LOOK_MS))
      : setInterval(tick, ms);
  timer.unref?.();
  return () => clearInterval(timer);
}
