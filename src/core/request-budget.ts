/**
 * The opt-in client-side request budget (`rateLimit: { requestsPerMinute }`): every attempt of every
 * call of one client takes a slot, so the client never sends more than the budget in any minute and
 * never meets the service's 429 for it.
 * @module
 */
import type { ClientClock } from './clock.js';

const WINDOW_MS = 60_000;
/** Slack for network jitter: a request may arrive a little later than it left. */
const MARGIN_MS = 250;

/**
 * A sliding one-minute window of request start times, the same rule the service counts by.
 * @internal
 */
export class RequestBudget {
  // Start times, ascending; a future entry is a reserved slot (only exists while the window is full).
  readonly #starts: Array<{ at: number; aborted?: true }> = [];

  constructor(
    readonly perMinute: number,
    private readonly clock: ClientClock,
  ) {}

  /**
   * Resolves when a request may start; the slot is reserved at once, so concurrent callers queue.
   * A caller aborted while it waits gives its slot back once no later slot is reserved (taking a
   * slot out of the middle would let a newcomer pass those already waiting), so aborting a whole
   * queue of calls frees the window.
   */
  acquire(signal?: AbortSignal): Promise<void> {
    const now = this.clock.now();
    const starts = this.#starts;
    while (starts.length > 0 && starts[0]!.at <= now - WINDOW_MS) starts.shift();
    const full = starts.length >= this.perMinute;
    const entry: { at: number; aborted?: true } = { at: full ? Math.max(now, starts[starts.length - this.perMinute]!.at + WINDOW_MS + MARGIN_MS) : now };
    starts.push(entry);
    if (entry.at <= now) return Promise.resolve();
    return this.clock.sleep(entry.at - now, signal).catch((err: unknown) => {
      entry.aborted = true;
      while (starts.length > 0 && starts[starts.length - 1]!.aborted) starts.pop();
      throw err;
    });
  }
}
