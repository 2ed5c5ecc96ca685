/**
 * What the two receivers (the Express middleware and the fetch-style handler) do with a coordinator:
 * publish every verified event to the processes that share it, claim its id so the route's handler
 * runs once across them, mark the claim done when the handler succeeded and give it back when it
 * failed. A coordinator that fails or does not answer within `coordinatorTimeoutMs` never fails the
 * call: its event is handled as a first delivery, with one warning.
 * @module
 */
import type { EventClaim, EventCoordinator } from '../core/event-coordination.js';
import type { WebhookEvent } from './events.js';

/** The task status each event kind tells of; the first three end their task. */
const STATUS_OF: Readonly<Record<string, { status: string; final: boolean }>> = {
  'forecast.started': { status: 'queued', final: false },
  'forecast.completed': { status: 'completed', final: true },
  'forecast.failed': { status: 'failed', final: true },
  'forecast.cancelled': { status: 'cancelled', final: true },
};

/** What `EventCoordinator.publish` is told of an event. @internal */
export function eventNotice(event: WebhookEvent): Parameters<EventCoordinator['publish']>[0] {
  const taskId = (event.data as { taskId?: unknown } | null)?.taskId;
  const known = Object.hasOwn(STATUS_OF, event.type) ? STATUS_OF[event.type] : undefined;
  return {
    id: event.id,
    type: event.type,
    ...(typeof taskId === 'string' ? { taskId } : {}),
    ...(known ? { status: known.status } : {}),
    final: known?.final ?? false,
  };
}

/**
 * Whether the service retries a delivery answered with `status` (408, 425, 429 and every 5xx): the
 * handler did not take the event, so its claim is given back for the retry to run it. @internal
 */
export function isRetriedStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

/** Runs a receiver's hook; a hook that throws must not turn the answer into a hung request. @internal */
export function runHook(hook: () => void): void {
  try {
    hook();
  } catch {
    // The answer is still sent; the hook's own failure is the hook's business.
  }
}

/**
 * What an event is claimed by: its id, which a resent event keeps. The one exception the spec names:
 * a failed report written again sends `forecast.report.completed` again under the same id, now with
 * another `reportStatus`, a new fact the handler must see; so a report event's claim adds it. @internal
 */
export function claimKeyOf(event: WebhookEvent): string {
  if (event.type !== 'forecast.report.completed') return event.id;
  const status = (event.data as { reportStatus?: unknown } | null)?.reportStatus;
  return typeof status === 'string' ? `${event.id}:${status}` : event.id;
}

/**
 * What a receiver does with a delivery: run the handler (`first`), answer a status the service
 * retries because another process's handler has the event and has not answered (`running`), or
 * answer `200` without running it (`repeat`: a handler succeeded). @internal
 */
export type Delivery = 'first' | 'running' | 'repeat';

const DELIVERY_OF: Readonly<Record<EventClaim, Delivery>> = { claimed: 'first', running: 'running', done: 'repeat' };

/** A receiver's use of its coordinator; no function rejects, and none waits past `coordinatorTimeoutMs`. @internal */
export interface ExactlyOnce {
  /** Publishes `event` (with the receipt's `traceparent`, when traced) and claims its id. */
  begin(event: WebhookEvent, traceparent?: string): Promise<Delivery>;
  /** The handler succeeded (an answer the service does not retry): the claim becomes `done`. */
  finish(event: WebhookEvent): Promise<void>;
  /** The handler failed (threw, or answered a status the service retries): gives the claim back. */
  fail(event: WebhookEvent): Promise<void>;
}

/** The default of `coordinatorTimeoutMs` ({@link WebhookCoordinationOptions}). @internal */
export const COORDINATOR_TIMEOUT_MS = 2_000;

/** `coordinatorTimeoutMs`, checked at construction: a positive number of ms. @internal */
export function checkCoordinatorTimeout(value: number | undefined, where: string): number {
  if (value === undefined) return COORDINATOR_TIMEOUT_MS;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(`${where}: coordinatorTimeoutMs must be a positive number of milliseconds, got ${String(value)}`);
  }
  return value;
}

/**
 * What to say of what a coordinator rejected with: the class name, never its message, which may
 * name a host or a user; but the whole message of a `ValidationError`, the SDK's own words for a
 * set-up mistake (a coordinator with no key namespace names its `prefix` option).
 */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error) || !/^[A-Za-z]+$/.test(error.name)) return 'an error';
  return error.name === 'ValidationError' ? `${error.name}: ${error.message}` : error.name;
}

/** `call()`, or a rejection with a `TimeoutError` once `ms` pass without an answer (a late answer is dropped). */
function within<T>(ms: number, call: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${ms} ms`), { name: 'TimeoutError' })), ms);
  });
  return Promise.race([Promise.resolve().then(call), late]).finally(() => clearTimeout(timer));
}

/**
 * The receiver's guard around `coordinator`; without one, every event is a first delivery and
 * nothing is published. A call of the coordinator that rejects, or does not answer within
 * `timeoutMs`, counts as "a first delivery" and is told to `warn`, which the receivers rate-limit
 * (the first at once, then at most one a minute with a count): a coordinator failing one kind of
 * call, or failing now and then, must not log a line per event, and an outage after a quiet minute
 * is told at once. @internal
 */
export function exactlyOnce(coordinator: EventCoordinator | undefined, warn: (message: string) => void, timeoutMs = COORDINATOR_TIMEOUT_MS): ExactlyOnce {
  if (!coordinator) return { begin: () => Promise.resolve('first'), finish: () => Promise.resolve(), fail: () => Promise.resolve() };
  const guarded = async <T>(call: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await within(timeoutMs, call);
    } catch (error) {
      warn(`[forecasting-sdk] webhook coordinator failed (${reasonOf(error)}): events are handled without it (a repeat delivery may run the handler again, waiters elsewhere poll) until it works again (a set-up mistake: until fixed).`);
      return fallback;
    }
  };
  return {
    async begin(event, traceparent) {
      const [, claim] = await Promise.all([
        guarded(() => coordinator.publish({ ...eventNotice(event), ...(traceparent === undefined ? {} : { traceparent }) }), undefined),
        guarded((): Promise<EventClaim | undefined> => coordinator.claimEvent(claimKeyOf(event)), undefined),
      ]);
      // A coordinator of another make that answers something else: handled as a first delivery.
      return claim !== undefined && Object.hasOwn(DELIVERY_OF, claim) ? DELIVERY_OF[claim] : 'first';
    },
    finish: (event) => guarded(() => coordinator.finishEvent(claimKeyOf(event)), undefined),
    fail: (event) => guarded(() => coordinator.unclaimEvent(claimKeyOf(event)), undefined),
  };
}

/**
 * How a receiver answers a delivery whose event another process's handler has and has not answered
 * yet: `503` (a status the service retries) with `Retry-After: 30`, the service's first retry delay.
 * Answering `200` would tell the service the event was handled while that run may still fail and
 * give its claim back, losing the event; a retry instead meets a `done` claim (a repeat) once the run
 * succeeded, or runs the handler once it failed or its process died. @internal
 */
export const RUNNING_ANSWER = { status: 503, retryAfter: '30', text: 'running' } as const;

/**
 * The coordinator option of the ready-made receivers (`webhookMiddleware`, `createWebhookHandler`).
 * @example
 * ```ts
 * import { createRedisCoordinator } from 'forecasting-sdk/redis';
 * app.post('/webhooks', webhookMiddleware(secret, { coordinator: createRedisCoordinator(redis) }), handler);
 * ```
 */
export interface WebhookCoordinationOptions {
  /**
   * Shares the receiver's events with every process on the same coordinator (`createRedisCoordinator`
   * of `forecasting-sdk/redis`): each verified event is published, so waits in any process wake on
   * their task's final event, and the route's handler runs once per event id across all processes
   * (for the coordinator's `eventRetentionMs`, default 24 hours; a report rewritten after failing
   * comes again under its id with a new `reportStatus`, and runs the handler again).
   *
   * A claim is `running` while the handler runs and `done` once it answered a status the service
   * does not retry. A repeat of a `done` event is answered `200` without running the handler. A
   * delivery that comes while another process's handler still runs the event is answered `503` with
   * `Retry-After: 30`, without running it: answering `200` would lose the event should that run fail,
   * and the service's retry meets the outcome (a repeat, or a claim given back). A `running` claim of
   * a process that died frees after a minute, before the service's retry at 2 minutes. When the
   * handler fails (throws, or answers 408, 425, 429 or a 5xx), the claim is given back, so the
   * service's retry runs it again. A coordinator that fails, or does not answer within
   * `coordinatorTimeoutMs`, never fails the call: the event is handled as a first delivery, with a
   * warning to `logger` (the first at once, then at most one a minute with a count).
   */
  coordinator?: EventCoordinator | undefined;
  /**
   * With a `coordinator`: how long the receiver waits for each of its calls (publish and claim, then
   * done or given back) before it goes on without it, as when it fails. Default 2000 ms: the service
   * wants an answer within 10 seconds.
   */
  coordinatorTimeoutMs?: number | undefined;
}
