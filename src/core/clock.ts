/**
 * The client's time source, used by the wait loops (`forecasts.wait`, `waitMany`) and the request
 * budget. Real time by default; a test can pass a clock that moves a simulated service's time instead
 * of sleeping (see `clientClockFor` in `forecasting-sdk/testing`).
 * @module
 */
import { sleep } from './sleep.js';

/**
 * A time source: `now()` in ms, and `sleep(ms, signal)` that rejects with the signal's reason the
 * moment it aborts.
 * @example
 * ```ts
 * const clock: ClientClock = { now: () => Date.now(), sleep: (ms, signal) => mySleep(ms, signal) };
 * new ForecastingClient({ clock });
 * ```
 */
export interface ClientClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Real time. @internal */
export const realClock: ClientClock = { now: () => Date.now(), sleep };
