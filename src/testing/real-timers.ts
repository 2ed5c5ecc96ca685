/**
 * The timer functions and `Date.now` as they were when this module loaded. A test that turns on fake
 * timers (`vi.useFakeTimers()`, sinon's `useFakeTimers`) replaces the globals; read at call time,
 * they would stall the mock (a scaled clock's callbacks, a `delayMs` fault, a webhook call's answer
 * limit) and the client clocks of `mockClientOptions` / `clientClockFor`, which then never move on.
 * Captured here, as timer-aware libraries do, they stay real whatever the test fakes.
 * @module
 * @internal
 */
import { sleep } from '../core/sleep.js';

const g = globalThis;

/** `setTimeout` as loaded. @internal */
export const realSetTimeout: typeof setTimeout = g.setTimeout.bind(g) as typeof setTimeout;

/** `clearTimeout` as loaded. @internal */
export const realClearTimeout: (timer: ReturnType<typeof setTimeout> | undefined) => void = g.clearTimeout.bind(g);

/** `setImmediate` as loaded, where the runtime has one (Node); a browser has none. */
const immediate = typeof g.setImmediate === 'function' ? g.setImmediate.bind(g) : undefined;

/** `Date.now` as loaded. @internal */
export const realNow: () => number = Date.now.bind(Date);

/**
 * Runs `fn` after pending I/O: `setImmediate` on Node, a zero timeout in a browser (which has none).
 * @internal
 */
export const soon = (fn: () => void): void => void (immediate ? immediate(fn) : realSetTimeout(fn, 0));

/**
 * Waits `ms` of real time, or rejects with the signal's reason the moment it aborts: the core's
 * `sleep` on the timers as loaded. A wait longer than one timer holds runs on successive timers.
 * @internal
 */
export const realSleep = (ms: number, signal?: AbortSignal): Promise<void> => sleep(ms, signal, realSetTimeout, realClearTimeout);
