/**
 * The in-process limits a Redis coordinator falls back to while Redis does not answer: the same
 * windows and `maxActive`, held by this process alone.
 * @module
 */
import type { ClientClock } from '../core/clock.js';
import type { CoordinatedWindow } from '../core/coordination.js';
import { ValidationError } from '../core/errors.js';
import { RequestBudget } from '../core/request-budget.js';

/**
 * Refuses a hold of anything but a whole number of slots from 1 to `maxActive`, before any command:
 * a huge count would block a shared Redis while its slots are written and fill it, and `NaN` or a
 * negative count would be granted as nothing. @internal
 */
export function holdCount(count: number, maxActive: number): number {
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new ValidationError(`must be a whole number of slots, 1 or more, got ${String(count)}`, 'count');
  }
  // A start may ask for more than the fleet may run (a decision's start names no count): it waits for
  // every slot, and never makes one hold large enough to stall a shared Redis.
  return Math.min(count, maxActive);
}

interface Waiter {
  count: number;
  grant: () => void;
}

/** @internal */
export class LocalLimits {
  readonly #windows = new Map<CoordinatedWindow, RequestBudget>();
  readonly #tasks = new Set<string>();
  #pending = 0;
  readonly #queue: Waiter[] = [];

  constructor(
    private readonly limits: Readonly<Record<CoordinatedWindow, number>> & { readonly maxActive: number },
    private readonly clock: () => ClientClock,
  ) {}

  take(window: CoordinatedWindow, signal?: AbortSignal): Promise<void> {
    let budget = this.#windows.get(window);
    if (budget === undefined) this.#windows.set(window, (budget = new RequestBudget(this.limits[window], this.clock())));
    return budget.acquire(signal);
  }

  /** Resolves once `count` slots are free for this hold, first come, first served within the process. */
  hold(count: number, signal?: AbortSignal): Promise<void> {
    count = holdCount(count, this.limits.maxActive);
    signal?.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.#queue.splice(this.#queue.indexOf(waiter), 1);
        reject(signal?.reason);
        this.#pump();
      };
      const waiter: Waiter = {
        count,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
      this.#pump();
    });
  }

  /** Turns `count` pending slots into the tasks' slots (at most `count`); the rest are given back. */
  bind(count: number, taskIds: readonly string[]): void {
    this.#pending -= count;
    for (const id of taskIds.slice(0, count)) this.#tasks.add(id);
    this.#pump();
  }

  settle(taskIds: readonly string[]): void {
    for (const id of taskIds) this.#tasks.delete(id);
    this.#pump();
  }

  get held(): number {
    return this.#pending + this.#tasks.size;
  }

  get taskIds(): string[] {
    return [...this.#tasks];
  }

  get waiting(): number {
    return this.#queue.length;
  }

  /** Requests started within the window, as the local budget counts them (a take aborted while it waits is none). */
  requestsInWindow(): number {
    return this.#windows.get('requests')?.inWindow ?? 0;
  }

  // Strict FIFO as in Redis (a hold is never larger than maxActive: holdCount).
  #pump(): void {
    for (let head = this.#queue[0]; head !== undefined; head = this.#queue[0]) {
      if (this.held + head.count > this.limits.maxActive && this.held > 0) return;
      this.#queue.shift();
      this.#pending += head.count;
      head.grant();
    }
  }
}
