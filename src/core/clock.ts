/**
 * The client's time source, used by the wait loops (`forecasts.wait`, `waitMany`) and the request
 * budget, and the sleep on real timers behind it (and behind retries). Real time by default; a test
 * can pass a clock that moves a simulated service's time instead of sleeping (see `clientClockFor`
 * in `forecasting-sdk/testing`).
 * @module
 */
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

/**
 * A time source: `now()` in ms, and `sleep(ms, signal)` that rejects with the signal's reason the
 * moment it aborts. A sleep of yours removes its abort listener when it ends: the SDK may hand one
 * signal to many sleeps, and listeners left on it make Node warn of a leak past ten.
 * @example
 * ```ts
 * const clock: ClientClock = { now: () => Date.now(), sleep: (ms, signal) => mySleep(ms, signal) };
 * new ForecastingClient({ clock });
 * ```
 */
export interface ClientClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * `true` for a clock that does not follow real time: a test's manual clock (as `clientClockFor`
   * gives for a manual mock clock), or a scaled one that runs faster. A Redis coordinator then counts its shared limits on this clock,
   * and every process of the fleet must share it; otherwise it counts them on Redis's own time, so
   * that a machine whose clock is off spends nothing the fleet cannot see. Default `false`.
   */
  readonly simulated?: boolean;
  /**
   * How many times faster than this clock the service's time runs: 600 for a client of a mock sped
   * up 600 times (`clientClockFor` of a `ScaledClock` sets it; the mock states its `Retry-After` in
   * real seconds, so the clock stays real time), 1 for the real service (the default). The
   * per-minute limits the SDK counts itself (`rateLimit`, a coordinator's shared windows) last a
   * minute of the service's time, that many times less on this clock, and so does the interval of a
   * coordinator's check of held slots (`reconcileIntervalMs`).
   */
  readonly serviceTimeScale?: number;
}

/** Real time. @internal */
export const realClock: ClientClock = { now: () => Date.now(), sleep };

/**
 * `ms` as a wait's timeout message says it: on a clock of the caller's own (a mock's manual clock),
 * a timeout counts that clock's milliseconds, which may pass in no real time at all. @internal
 */
export const waited = (clock: ClientClock, ms: number | undefined): string => `${ms} ms${clock === realClock ? '' : ' of the client clock'}`;

/**
 * The longest minute of the service on a clock: a day (a service 1,440 times slower than the clock).
 * A longer one (`serviceTimeScale: 1e-9`, or one so small the minute is `Infinity`) is no wait a
 * timer holds: past 2^31-1 ms Node fires it after 1 ms, and a clock's `sleep` on a bare `setTimeout`
 * would hand out the next slot at once.
 */
const MAX_SERVICE_MINUTE_MS = 24 * 60 * 60_000;

/** `ms` of the service's time, in ms of `clock` (see {@link ClientClock.serviceTimeScale}). @internal */
export const serviceMs = (clock: ClientClock, ms: number): number => (ms * serviceMinuteMs(clock)) / 60_000;

/** A minute of the service's time, in ms of `clock` (see {@link ClientClock.serviceTimeScale}). @internal */
export function serviceMinuteMs(clock: ClientClock): number {
  let scale: unknown;
  try {
    scale = clock.serviceTimeScale;
  } catch {
    // A getter that throws is no scale: read on a timer too, it would otherwise end the process.
    return 60_000;
  }
  // Anything but a positive finite number is no scale: a limit counted on real minutes is never exceeded.
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0) return 60_000;
  return Math.min(60_000 / scale, MAX_SERVICE_MINUTE_MS);
}

/**
 * Reads `Retry-After`: delta seconds or an HTTP date. Returns milliseconds, at most {@link MAX_TIMER_MS}
 * (about 24.8 days), or `undefined` when absent or unreadable.
 * @internal
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  // Capped at what one timer holds: a wait of years (a date in 2099) handed to setTimeout would fire after 1 ms.
  if (/^\d+(\.\d+)?$/.test(text)) return Math.min(MAX_TIMER_MS, Math.round(Number(text) * 1000));
  // The header sent twice reaches fetch as one list (`120, 120`): the longest wait it asks for.
  if (/^\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?)+$/.test(text)) return Math.min(MAX_TIMER_MS, Math.round(text.split(',').reduce((most, n) => Math.max(most, Number(n)), 0) * 1000));
  // An HTTP date names its month; Date.parse would also read `-3` or `1.5.2` as a day in 2001.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.min(MAX_TIMER_MS, Math.max(0, at - now));
}
