/**
 * The real timer functions and `Date`, taken when this module loads. A test that turns on fake
 * timers (`vi.useFakeTimers()`, sinon's `useFakeTimers`, jest's modern timers) replaces the globals;
 * read at call time, they would stall the mock (a scaled clock's callbacks, a `delayMs` fault) and
 * the client clocks of `mockClientOptions` / `clientClockFor`, which then never move on. Timers
 * faked already when this module loads (a setup file's `vi.useFakeTimers()`) are seen through: the
 * fake-timers clock keeps each original as `clock._<name>`, and that is what is taken.
 * @module
 * @internal
 */
import { sleep } from '../core/clock.js';

const g = globalThis as unknown as Record<string, unknown>;

/** The global `name` as it was before a fake-timers clock replaced it (itself when none did). */
function original<T>(name: string): T {
  const now = g[name] as { clock?: Record<string, unknown> } | undefined;
  return (now?.clock?.[`_${name}`] ?? now) as T;
}

/** The real `setTimeout`. @internal */
export const realSetTimeout: typeof setTimeout = original<typeof setTimeout>('setTimeout').bind(globalThis) as typeof setTimeout;

/** The real `clearTimeout`. @internal */
export const realClearTimeout: (timer: ReturnType<typeof setTimeout> | undefined) => void = original<typeof clearTimeout>('clearTimeout').bind(globalThis);

/** The real `setImmediate`, where the runtime has one (Node); a browser has none. */
const setImmediateFound = original<typeof setImmediate | undefined>('setImmediate');
const immediate = typeof setImmediateFound === 'function' ? setImmediateFound.bind(globalThis) : undefined;

/** The real `Date.now`. @internal */
const RealDate = original<DateConstructor>('Date');
export const realNow: () => number = RealDate.now.bind(RealDate);

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
