/**
 * The seam for sharing a key's limits and its tasks' events between clients in many processes. A
 * client without a coordinator keeps everything in its own memory; `forecasting-sdk/redis` gives one
 * on Redis. The core knows no operation: the client tells it which calls are starts or model calls.
 * @module
 */
import type { ClientClock } from './clock.js';

/**
 * A one-minute window the service counts: every attempt of every call (`requests`), decisions' model
 * calls (`modelCalls`), drafting questions with AI (`drafting`: normalize, revise, clarify), forecast
 * chat messages (`chatMessages`), all per key; webhook tests and replays (`webhookTests`), per user.
 * A custom coordinator that does not share a window resolves its take at once.
 * @example
 * ```ts
 * await coordinator.take('requests'); // before each attempt of a call
 * ```
 */
export type CoordinatedWindow = 'requests' | 'modelCalls' | 'drafting' | 'chatMessages' | 'webhookTests';

/**
 * What a {@link Coordinator.take} may give back: called once when the attempt it counted has ended.
 * @example
 * ```ts
 * const ended = await coordinator.take('requests');
 * try {
 *   await send();
 * } finally {
 *   ended?.();
 * }
 * ```
 */
export type WindowEnd = () => void;

/**
 * Active-forecast slots taken before a start is sent; bound to the started tasks once the service
 * answers, so each slot is freed when its task is final.
 * @example
 * ```ts
 * const hold = await coordinator.hold(1);
 * try {
 *   const task = await send();
 *   await hold.bind([task.taskId]);
 * } finally {
 *   await hold.release(); // a no-op once bound
 * }
 * ```
 */
export interface SlotHold {
  /** How many slots this hold took. */
  readonly count: number;
  /**
   * Binds slots to the tasks the start created (at most `count`); the slots not bound are given back.
   * Resolves once the shared state records it.
   */
  bind(taskIds: readonly string[]): Promise<void>;
  /** Gives every slot back (the start was refused or never sent). Safe to call after `bind`: then a no-op. */
  release(): Promise<void>;
  /**
   * The start may have reached the service, but its answer never came (a timeout, a broken
   * connection, a 5xx, an abort after sending): the slots stay taken for the coordinator's pending
   * time from now (the Redis one's `pendingHoldTtlMs`), by which time a task it did start shows in the
   * service's count, then go back. Until `bind`, `release` or this, a coordinator keeps them while
   * its process lives, however long the start waits for its turn. Optional for a custom coordinator.
   */
  abandon?(): Promise<void>;
}

/**
 * Options of {@link Coordinator.hold}.
 * @example
 * ```ts
 * const hold = await coordinator.hold(1, { signal, reconcile: async (ids) => finalTaskIds(ids) });
 * ```
 */
export interface HoldOptions {
  signal?: AbortSignal | undefined;
  /**
   * Asked, at a bounded rate, while this hold waits: which of these held task ids are final? The
   * client answers from the service (a list filtered by task ids), so slots of a process that died
   * are freed once their tasks end. `signal` aborts when the coordinator closes: the answer is no
   * longer wanted, and a request still running should stop.
   */
  reconcile?: ((taskIds: readonly string[], signal?: AbortSignal) => Promise<readonly string[]>) | undefined;
}

/**
 * A task's end, as told to every process that shares a coordinator.
 * @example
 * ```ts
 * await coordinator.settle([{ taskId: 'task_1', status: 'completed' }]);
 * ```
 */
export interface TaskFinalNotice {
  taskId: string;
  /** The final status (`completed`, `failed`, `cancelled`, …) when known. */
  status?: string | undefined;
  /** The W3C `traceparent` of the webhook receipt that told it, when a tracer observed that receipt. */
  traceparent?: string | undefined;
}

/**
 * What a client tells the coordinator it is built on, once, at construction.
 * @example
 * ```ts
 * coordinator.attach({ keyHash: (sha256Hex) => sha256Hex(apiKey), clock: { now: () => Date.now(), sleep }, warn: (m) => console.warn(m) });
 * ```
 */
export interface CoordinatorAttachment {
  /**
   * The SHA-256 hex digest of the client's API key, the default key namespace (never the key itself),
   * made with the hash function the coordinator brings: the core stays free of any platform's crypto
   * (Web Crypto's digest is asynchronous), and a coordinator that keeps only the digest never holds
   * the key (the Redis one does so).
   */
  keyHash(sha256Hex: (text: string) => string): string;
  /**
   * The client's time source: waits are slept on it; a coordinator shared by processes counts on a
   * time they all share (Redis's own, unless the clock is `simulated`).
   */
  clock: ClientClock;
  /** Where the one warning goes when the shared store becomes unreachable (and when it is back). */
  warn?: ((message: string) => void) | undefined;
  /** Where lines of the client's `info` level go (a long wait for the shared budget or a slot). */
  info?: ((message: string) => void) | undefined;
}

/**
 * What {@link Coordinator.stats} reports.
 * @example
 * ```ts
 * const { mode, requestsInWindow, activeSlots, startsWaiting } = await coordinator.stats();
 * ```
 */
export interface CoordinatorStats {
  /** `shared` when the shared store answers; `local` while it does not (then limits hold per process). */
  mode: 'shared' | 'local';
  /** Requests sent in the last minute (a request waiting its turn is not counted until it goes). */
  requestsInWindow: number;
  /** Active-forecast slots held, and by which tasks (pending starts have no task id yet). */
  activeSlots: number;
  activeTaskIds: string[];
  /** Start calls waiting for slots (a batch, or a `runMany` batch, is one start however many items it has). */
  startsWaiting: number;
  /** Webhook receivers that published an event recently. */
  receiversSeen: number;
  /**
   * Verified deliveries published to the fleet: one per delivery, not per event (a repeat, or a
   * delivery answered `503 running` while another one's handler ran, counts again).
   */
  eventsPublished: number;
  /** Repeats of an event already handled that a receiver did not hand to its handler again. */
  eventsDeduplicated: number;
}

/**
 * Shares limits and task events between every client built on it: one request budget, one set of
 * active-forecast slots, one model-call budget, and a fan-out of tasks' final events.
 *
 * @example
 * ```ts
 * import { createRedisCoordinator } from 'forecasting-sdk/redis';
 * const coordinator = createRedisCoordinator(redis);
 * const client = new ForecastingClient({ coordinator });
 * ```
 */
export interface Coordinator {
  /**
   * Called by each client built on the coordinator. Clients of one coordinator must share one API
   * key (another key throws a `ValidationError`: limits belong to the key).
   */
  attach(attachment: CoordinatorAttachment): void;
  /**
   * Resolves when one more call of `window` may be sent within its per-minute limit; the slot is taken
   * at once. It may resolve to a function the client calls when the attempt ends (an answer or a
   * failure): the service counts a request when it arrives, at the latest then, so a coordinator that
   * moves the entry to that time keeps every request in its window as long as the service does, however
   * slow the way there (an event loop, a proxy, a scaled clock).
   */
  take(window: CoordinatedWindow, signal?: AbortSignal): Promise<WindowEnd | void>;
  /**
   * Takes `count` active-forecast slots, waiting first come, first served across processes. `count`
   * must be a whole number of 1 or more (`NaN`, `-10`, `1.5` are refused with a `ValidationError`
   * naming `count` before anything is sent); a count above the coordinator's `maxActive` holds
   * `maxActive` (the hold's `count` says so), so no hold can be larger than the fleet.
   */
  hold(count: number, options?: HoldOptions): Promise<SlotHold>;
  /**
   * The most active-forecast slots the fleet holds at once, when the coordinator has such a cap:
   * `runMany` then sizes its batches and its active forecasts to fit, and a batch start larger than
   * it is refused before anything is sent. Optional for a custom coordinator; a getter that throws
   * is read as no cap (the holds' `count` then says how many a start got).
   */
  readonly maxActive?: number | undefined;
  /** Tasks seen final by this process (a read, a list, an event): frees their slots and tells every waiter. */
  settle(notices: readonly TaskFinalNotice[]): Promise<void>;
  /** Calls `onFinal` when any process reports one of `taskIds` final. Returns the function that stops watching. */
  watch(taskIds: readonly string[], onFinal: (notice: TaskFinalNotice) => void): () => void;
  /** Whether a webhook receiver published an event recently (waits then poll only as a safety net). */
  receiving(): boolean;
  /** The coordinator's counts and holders, for dashboards and `forecasting fleet status`. */
  stats(): Promise<CoordinatorStats>;
}

export type { EventClaim, EventCoordinator } from './event-coordination.js';

/**
 * Calls a custom coordinator's hook (a take's end, a watch's stop, its `maxActive` getter) and
 * returns what it gave, or `undefined`: its failure is its own, never the caller's. A throw, or a
 * promise that rejects (an `async` hook fits the type too), is dropped rather than left unhandled. @internal
 */
export function callTolerantly<T>(hook: () => T): T | undefined {
  try {
    const result = hook();
    if (result instanceof Promise) result.catch(() => undefined);
    return result;
  } catch {
    // A hook that throws changes nothing its caller returns.
    return undefined;
  }
}
