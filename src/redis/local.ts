/**
 * The in-process limits a Redis coordinator falls back to while Redis does not answer: the same
 * windows and `maxActive`, held by this process alone.
 * @module
 */
import { whenAborted } from '../core/abort.js';
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
  grant: (pending: LocalPending) => void;
}

/**
 * Slots granted on local limits and not yet bound: kept while the start goes on, and once it ended
 * without an answer (abandoned), until `expiresAt` on the client's clock. @internal
 */
export interface LocalPending {
  readonly count: number;
  expiresAt: number;
}

/** @internal */
export class LocalLimits {
  readonly #windows = new Map<CoordinatedWindow, RequestBudget>();
  readonly #tasks = new Set<string>();
  readonly #pending = new Set<LocalPending>();
  readonly #queue: Waiter[] = [];
  /** Ends the sleep until the next pending grant expires (only kept while a hold waits). */
  #expiry: AbortController | undefined;

  constructor(
    private readonly limits: Readonly<Record<CoordinatedWindow, number>> & { readonly maxActive: number; readonly pendingHoldTtlMs: number },
    private readonly clock: () => ClientClock,
  ) {}

  take(window: CoordinatedWindow, signal?: AbortSignal): Promise<void> {
    let budget = this.#windows.get(window);
    if (budget === undefined) this.#windows.set(window, (budget = new RequestBudget(this.limits[window], this.clock())));
    return budget.acquire(signal);
  }

  /**
   * Resolves once `count` slots are free for this hold, first come, first served within the process.
   * The grant is pending until {@link bind}; a start whose answer never came (a 5xx, a timeout) is
   * {@link abandon}ed, and its grant goes back `pendingHoldTtlMs` later, as in Redis.
   */
  hold(count: number, signal?: AbortSignal): Promise<LocalPending> {
    count = holdCount(count, this.limits.maxActive);
    signal?.throwIfAborted();
    return new Promise<LocalPending>((resolve, reject) => {
      const stop = signal
        ? whenAborted(signal, () => {
            this.#queue.splice(this.#queue.indexOf(waiter), 1);
            reject(signal.reason);
            this.#pump();
          })
        : undefined;
      const waiter: Waiter = {
        count,
        grant: (pending) => {
          stop?.();
          resolve(pending);
        },
      };
      this.#queue.push(waiter);
      this.#pump();
    });
  }

  /** A start that ended without an answer: its grant goes back `pendingHoldTtlMs` from now. */
  abandon(pending: LocalPending): void {
    if (!this.#pending.has(pending)) return;
    pending.expiresAt = this.clock().now() + this.limits.pendingHoldTtlMs;
    this.#pump();
  }

  /** Turns a pending grant into the tasks' slots (at most its count); the rest are given back. */
  bind(pending: LocalPending, taskIds: readonly string[]): void {
    this.#pending.delete(pending);
    for (const id of taskIds.slice(0, pending.count)) this.#tasks.add(id);
    this.#pump();
  }

  /**
   * The tasks this process runs, as it knows them when Redis stops answering: the local limits start
   * from them, not from zero (a process running `maxActive` must not start as many again).
   */
  startFrom(taskIds: Iterable<string>): void {
    this.#tasks.clear();
    for (const id of taskIds) this.#tasks.add(id);
  }

  settle(taskIds: readonly string[]): void {
    for (const id of taskIds) this.#tasks.delete(id);
    this.#pump();
  }

  get held(): number {
    this.#dropExpired();
    let pending = 0;
    for (const grant of this.#pending) pending += grant.count;
    return pending + this.#tasks.size;
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

  #dropExpired(): void {
    const now = this.clock().now();
    for (const grant of this.#pending) if (grant.expiresAt <= now) this.#pending.delete(grant);
  }

  // Strict FIFO as in Redis (a hold is never larger than maxActive: holdCount).
  #pump(): void {
    for (let head = this.#queue[0]; head !== undefined; head = this.#queue[0]) {
      const held = this.held;
      if (held + head.count > this.limits.maxActive && held > 0) return this.#wakeAtExpiry();
      this.#queue.shift();
      const pending: LocalPending = { count: head.count, expiresAt: Infinity };
      this.#pending.add(pending);
      head.grant(pending);
    }
    this.#expiry?.abort();
    this.#expiry = undefined;
  }

  /** While a hold waits, sleeps on the client's clock until the first pending grant expires, then serves the queue again. */
  #wakeAtExpiry(): void {
    const first = Math.min(...[...this.#pending].map((grant) => grant.expiresAt));
    // Nothing abandoned: no grant goes back by time (bind, release or settle wake the queue).
    if (this.#expiry !== undefined || !Number.isFinite(first)) return;
    const controller = (this.#expiry = new AbortController());
    this.clock()
      .sleep(Math.max(0, first - this.clock().now()), controller.signal)
      .then(
        () => {
          if (this.#expiry !== controller) return;
          this.#expiry = undefined;
          this.#pump();
        },
        () => undefined,
      );
  }
}
