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
  readonly #starts: number[] = [];

  constructor(
    readonly perMinute: number,
    private readonly clock: ClientClock,
  ) {}

  /** Resolves when a request may start; the slot is reserved at once, so concurrent callers queue. */
  acquire(signal?: AbortSignal): Promise<void> {
    const now = this.clock.now();
    const starts = this.#starts;
    while (starts.length > 0 && starts[0]! <= now - WINDOW_MS) starts.shift();
    const full = starts.length >= this.perMinute;
    const at = full ? Math.max(now, starts[starts.length - this.perMinute]! + WINDOW_MS + MARGIN_MS) : now;
    starts.push(at);
    return at > now ? this.clock.sleep(at - now, signal) : Promise.resolve();
  }
}
