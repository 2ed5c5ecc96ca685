import { whenAborted } from './abort.js';

/** The longest delay one timer can take (2^31−1 ms, about 24.8 days); a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

type Timer = ReturnType<typeof setTimeout>;

/**
 * Waits `ms`, or rejects with the signal's reason the moment it aborts. A wait longer than one timer
 * can hold runs on successive timers (a bare `setTimeout` would fire after 1 ms); `Infinity` waits
 * until the signal aborts. The timers are the globals at call time (a test's fake timers drive it),
 * or those given (the mock's, taken as it loaded). @internal
 */
export function sleep(ms: number, signal?: AbortSignal, set: (fn: () => void, ms: number) => Timer = setTimeout, clear: (timer: Timer) => void = clearTimeout): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (!(ms > 0)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    let left = ms;
    let timer: Timer;
    let stop: (() => void) | undefined;
    const arm = () => {
      const step = Math.min(left, MAX_TIMER_MS);
      left -= step;
      timer = set(() => {
        if (left > 0) return arm();
        stop?.();
        resolve();
      }, step);
    };
    arm();
    stop =
      signal &&
      whenAborted(signal, () => {
        clear(timer);
        reject(signal.reason);
      });
  });
}
