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
  /** Reserved times whose waiter was aborted, by time: they go once nothing later is reserved. */
  readonly #cancelled = new Map<number, number>();

  constructor(
    readonly perMinute: number,
    private readonly clock: ClientClock,
  ) {}

  /**
   * Resolves when a request may start; the slot is reserved at once, so concurrent callers queue.
   * A caller aborted while it waits gives its slot back when no later slot is reserved (taking a
   * slot out of the middle would let a newcomer pass those already waiting); otherwise it is given
   * back with the later ones, so aborting a queue of calls frees the window.
   */
  acquire(signal?: AbortSignal): Promise<void> {
    const now = this.clock.now();
    const starts = this.#starts;
    while (starts.length > 0 && starts[0]! <= now - WINDOW_MS) this.#forget(starts.shift()!);
    const full = starts.length >= this.perMinute;
    const at = full ? Math.max(now, starts[starts.length - this.perMinute]! + WINDOW_MS + MARGIN_MS) : now;
    starts.push(at);
    if (at <= now) return Promise.resolve();
    return this.clock.sleep(at - now, signal).catch((err: unknown) => {
      this.#cancel(at);
      throw err;
    });
  }

  #cancel(at: number): void {
    this.#cancelled.set(at, (this.#cancelled.get(at) ?? 0) + 1);
    const starts = this.#starts;
    // Equal times are interchangeable: any one of them stands for the aborted caller's slot.
    while (starts.length > 0 && this.#cancelled.has(starts[starts.length - 1]!)) this.#forget(starts.pop()!);
  }

  /** Drops one cancelled mark of `at`, if any (its entry just left the window). */
  #forget(at: number): void {
    const count = this.#cancelled.get(at);
    if (count === undefined) return;
    if (count <= 1) this.#cancelled.delete(at);
    else this.#cancelled.set(at, count - 1);
  }
}
