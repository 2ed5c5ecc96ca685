/**
 * What the two receivers (the Express middleware and the fetch-style handler) do with a coordinator:
 * publish every verified event to the processes that share it, claim its id so the route's handler
 * runs once across them, and give the claim back when the handler failed. A coordinator that fails
 * never fails the call: its event is handled as a first delivery, with one warning.
 * @module
 */
import type { EventCoordinator } from '../core/coordination.js';
import type { Logger } from '../core/logger.js';
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

/** A receiver's use of its coordinator; both functions never reject. @internal */
export interface ExactlyOnce {
  /** Publishes `event` and claims its id: `true` when this call must run the handler, `false` for a repeat. */
  begin(event: WebhookEvent): Promise<boolean>;
  /** The handler failed (threw, or answered a status the service retries): gives the claim back. */
  fail(event: WebhookEvent): Promise<void>;
}

/** The class name of what a coordinator rejected with: never its message, which may name a host or a user. */
const reasonOf = (error: unknown): string => (error instanceof Error && /^[A-Za-z]+$/.test(error.name) ? error.name : 'an error');

/**
 * The receiver's guard around `coordinator`; without one, every event is a first delivery and
 * nothing is published. A rejected call of the coordinator is warned about once (and again only
 * after a call succeeded since), and counts as "not a repeat". @internal
 */
export function exactlyOnce(coordinator: EventCoordinator | undefined, logger: Pick<Logger, 'warn'>): ExactlyOnce {
  if (!coordinator) return { begin: () => Promise.resolve(true), fail: () => Promise.resolve() };
  let warned = false;
  const guarded = async <T>(call: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      const result = await call();
      warned = false;
      return result;
    } catch (error) {
      if (!warned) {
        warned = true;
        logger.warn(`[forecasting-sdk] webhook coordinator failed (${reasonOf(error)}): events are handled without it (a repeat delivery may run the handler again, waiters elsewhere poll) until it answers again.`);
      }
      return fallback;
    }
  };
  return {
    async begin(event) {
      const [, first] = await Promise.all([guarded(() => coordinator.publish(eventNotice(event)), undefined), guarded(() => coordinator.claimEvent(claimKeyOf(event)), true)]);
      return first;
    },
    fail: (event) => guarded(() => coordinator.unclaimEvent(claimKeyOf(event)), undefined),
  };
}

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
   * (for the coordinator's `eventRetentionMs`, default 4 hours; a report rewritten after failing
   * comes again under its id with a new `reportStatus`, and runs the handler again). A repeat delivery is answered `200`
   * without running the handler. When the handler fails (throws, or answers 408, 425, 429 or a 5xx),
   * the claim is given back, so the service's retry runs it again. A coordinator that fails never
   * fails the call: the event is handled as a first delivery, with one warning to `logger`.
   */
  coordinator?: EventCoordinator | undefined;
}
