/**
 * The diagnostics channels the client publishes on (`node:diagnostics_channel`), for tracing and
 * metrics without a dependency: public API, described in docs/observability.md. The module is
 * looked up through `process.getBuiltinModule`, never imported, so the core still loads where there
 * is none (a browser, an older runtime): nothing is published there. Nothing is built for a channel
 * nobody subscribes to.
 * @module
 */
import type { HttpMethod } from './operation.js';

/** The characters and length of an id the channels carry (1 to 200 of `A-Z a-z 0-9 _ . : -`): an answer's, and a subscriber's check of the caller's. @internal */
export const ID_VALUE = /^[A-Za-z0-9_.:-]{1,200}$/;

/**
 * The names of the channels, under the prefix `forecasting-sdk:`. `operation` and `attempt` are
 * tracing channels (`diagnostics_channel.tracingChannel(name)`: `start`, `end`, `asyncStart`,
 * `asyncEnd`, `error`); `retry` is a plain channel.
 * @example
 * ```ts
 * import diagnostics from 'node:diagnostics_channel';
 * diagnostics.tracingChannel(CHANNELS.operation).subscribe({
 *   asyncEnd: (message) => console.log((message as OperationMessage).operation, (message as OperationMessage).status),
 * });
 * ```
 */
export const CHANNELS = {
  /** One call of an operation (or a generic request), from its first attempt to its answer or its failure. */
  operation: 'forecasting-sdk:operation',
  /** One attempt of a call: one HTTP request. */
  attempt: 'forecasting-sdk:attempt',
  /** A retry decided after a failed attempt, with the delay before it. */
  retry: 'forecasting-sdk:retry',
  /** One wait (`wait`, `createAndWait`, `waitMany`, `runMany`, a context wait), from its start to its end: its reads run inside it. */
  wait: 'forecasting-sdk:wait',
  /** One webhook call answered by a ready-made receiver, from its arrival: verified, refused (and why), or a repeat. */
  webhook: 'forecasting-sdk:webhook',
  /** One wait of the fleet's coordinator: for a place in the shared request budget, or for a forecast slot. */
  queue: 'forecasting-sdk:queue',
  /** The fleet's coordinator lost its Redis (limits per process), or has it again (limits shared). */
  coordinator: 'forecasting-sdk:coordinator',
} as const;

/**
 * The message of the `forecasting-sdk:operation` tracing channel: the same object from `start` to
 * `asyncEnd` (or `error`), so a subscriber may keep its own fields on it (a span). Ids and paths
 * only: never a key, a header the client sets, or a body.
 * @example
 * ```ts
 * import diagnostics from 'node:diagnostics_channel';
 * diagnostics.tracingChannel(CHANNELS.operation).subscribe({
 *   start(message) {
 *     const m = message as OperationMessage;
 *     m.headers['x-trace'] = 'abc'; // sent with every attempt of this call
 *   },
 *   asyncEnd(message) {
 *     const m = message as OperationMessage;
 *     console.log(`${m.operation} ${m.ids['task_id'] ?? ''} → ${m.status} after ${m.attempts} attempt(s)`);
 *   },
 * });
 * ```
 */
export interface OperationMessage {
  /** The wait this call reads for (its message on the `wait` channel), when it is one of a wait's reads. */
  readonly parent?: WaitMessage;
  /** The client method (`forecasts.create`), or the generic request's verb (`get`, `post`, …). */
  readonly operation: string;
  readonly method: HttpMethod;
  /** The path as declared (`/forecasts/{task_id}`); a generic request's own path. Below the base URL. */
  readonly pathTemplate: string;
  /** The path with its ids, below the base URL. */
  readonly path: string;
  /** The ids in the path by parameter name (`{ task_id: 'c3f…' }`). */
  readonly ids: Readonly<Record<string, string>>;
  /** The base URL's host and port (as OpenTelemetry's `server.address` and `server.port`). */
  readonly serverAddress: string;
  readonly serverPort: number;
  /**
   * Headers a subscriber adds in `start` (a W3C `traceparent`), sent with each attempt. A header the
   * client sets itself (authentication, `Idempotency-Key`, content type) is never replaced.
   */
  readonly headers: Record<string, string>;
  /**
   * Ids the answer of a write (not a `GET`: its ids are in its path) names at its top level, set
   * before `asyncEnd`: `id`, and each field named `…Id` or `…_id` with a string value, under its
   * snake_case name (`questionId` → `question_id`).
   */
  answerIds?: Record<string, string>;
  /**
   * The last answer's HTTP status; set before `asyncEnd` or `error` (absent when no answer came; a
   * call aborted while it waited to retry has the answer it was to retry).
   */
  status?: number;
  /** How many attempts the call made; set before `asyncEnd` or `error`. */
  attempts?: number;
  /**
   * When the call's latest attempt began, in milliseconds since the epoch with a fraction
   * (`performance.timeOrigin + performance.now()`); set as each attempt starts. With the `retry`
   * channel's {@link RetryMessage.attemptStartTime}, it draws every attempt without subscribing to
   * the `attempt` channel.
   */
  attemptStartTime?: number;
  /**
   * The error the call ended with (set before `error`); for a wait's read that kept failing until
   * the wait's deadline, what its last attempt got (the wait fails with `WaitTimeoutError`).
   */
  error?: unknown;
}

/**
 * The message of the `forecasting-sdk:attempt` tracing channel: one HTTP request of a call, published
 * inside the call's `operation` trace (so an `AsyncLocalStorage` bound to its `start` is seen here).
 * @example
 * ```ts
 * import diagnostics from 'node:diagnostics_channel';
 * diagnostics.tracingChannel(CHANNELS.attempt).subscribe({
 *   asyncEnd: (message) => console.log('attempt', (message as AttemptMessage).attempt, (message as AttemptMessage).status),
 * });
 * ```
 */
export interface AttemptMessage {
  /** The call's message on the `operation` channel (when someone subscribes to it): the attempt's parent. */
  readonly parent?: OperationMessage;
  readonly operation: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** 1 for the first request of the call. */
  readonly attempt: number;
  /** The HTTP status answered (an error status too); absent when no answer came. */
  status?: number;
  /** Why the attempt failed without an answer: the error's class (`APIConnectionError`, `APITimeoutError`). */
  errorType?: string;
  /** On `error`: the attempt's error (the connection's, `APIConnectionError` or `APITimeoutError`, when no answer came). */
  error?: unknown;
}

/**
 * The message of the `forecasting-sdk:retry` channel: published when a failed attempt is to be
 * retried, before the client sleeps `delayMs` on its clock.
 * @example
 * ```ts
 * import diagnostics from 'node:diagnostics_channel';
 * diagnostics.subscribe(CHANNELS.retry, (message) => {
 *   const m = message as RetryMessage;
 *   console.log(`${m.operation}: ${m.reason}, retry in ${m.delayMs} ms (${m.delaySource})`);
 * });
 * ```
 */
export interface RetryMessage {
  /** The call's message on the `operation` channel (when someone subscribes to it). */
  readonly parent?: OperationMessage;
  readonly operation: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** The attempt that failed (1 for the first). */
  readonly attempt: number;
  /** The failed attempt's HTTP status, when it had an answer. */
  readonly status: number | undefined;
  /** What failed: `status` (an answer such as 429 or 503), `connection` (no connection made, or it broke), `timeout`. */
  readonly reason: 'status' | 'connection' | 'timeout';
  /** The error class the attempt failed with (`RateLimitError`, `APIConnectionError`, …). */
  readonly errorType: string;
  readonly delayMs: number;
  /** Where the delay came from: the answer's `Retry-After`, or the client's backoff. */
  readonly delaySource: 'retry-after' | 'backoff';
  /** When the failed attempt began, in milliseconds since the epoch with a fraction (it ended as this message was published). */
  readonly attemptStartTime: number;
}

/**
 * The message of the `forecasting-sdk:wait` tracing channel: one wait, the same object from `start`
 * to `asyncEnd` (or `error`). The wait's reads are operation calls inside its trace. The counts are
 * updated while it runs.
 * @example
 * ```ts
 * import diagnostics from 'node:diagnostics_channel';
 * diagnostics.tracingChannel(CHANNELS.wait).subscribe({
 *   asyncEnd(message) {
 *     const m = message as WaitMessage;
 *     console.log(`${m.kind} ${m.taskIds.join(',')}: ${m.status ?? JSON.stringify(m.statuses)} after ${m.reads} read(s), ended by ${m.endedBy}`);
 *   },
 * });
 * ```
 */
export interface WaitMessage {
  /** Which wait: `wait`, `createAndWait`, `waitMany`, `runMany`, or `context` (a question's files). */
  readonly kind: 'wait' | 'createAndWait' | 'waitMany' | 'runMany' | 'context';
  /** The tasks waited for (`createAndWait`: empty until the start answered; `context`: none). */
  taskIds: string[];
  /** The question of a context wait. */
  readonly questionId?: string;
  /** Rounds of reading so far (a round of `waitMany` lists up to 100 tasks in one request). */
  reads: number;
  /** Sleeps between reads that ended on their time (`poll`), or early on a task's final event (`event`). */
  readonly wakes: { poll: number; event: number };
  /**
   * What brought the read that ended the wait: `read` (the first read found it done), `poll` (a
   * read on its time), or `event` (a final event woke it: a webhook received here or by another
   * process of the fleet). Set before `asyncEnd`.
   */
  endedBy?: 'read' | 'poll' | 'event';
  /** The final status of a wait on one task, set before `asyncEnd`. */
  status?: string;
  /** How many tasks ended in each status (`waitMany`, `runMany`), set before `asyncEnd`. */
  statuses?: Record<string, number>;
  /**
   * The W3C `traceparent` of each webhook receipt whose event woke this wait (here or in another
   * process of the fleet), when its receiver's subscriber set one.
   */
  readonly links: string[];
  /** The error the wait ended with (set by the channel before `error`). */
  error?: unknown;
}

/**
 * The message of the `forecasting-sdk:webhook` tracing channel: one call a ready-made receiver
 * (`webhookMiddleware`, `createWebhookHandler`) answers, the same object from `start` (the call
 * arrived) to `asyncEnd` (the receiver knows what it is). Never the body, a header, the signature
 * or the secret.
 * @example
 * ```ts
 * import diagnostics from 'node:diagnostics_channel';
 * diagnostics.tracingChannel(CHANNELS.webhook).subscribe({
 *   asyncEnd(message) {
 *     const m = message as WebhookMessage;
 *     console.log(`webhook ${m.outcome}${m.reason ? ` (${m.reason})` : ''} ${m.eventType ?? ''}`);
 *   },
 * });
 * ```
 */
export interface WebhookMessage {
  /** When the receiver began reading the call (ms since the epoch). */
  readonly startTime: number;
  /** The delivery's id (its delivery id header), when the call had one. */
  readonly deliveryId?: string;
  /**
   * A W3C `traceparent` a subscriber sets in `start` (its span of the call): with a coordinator, it
   * travels with the event to every process, and a wait it wakes there names it in its `links`.
   */
  traceparent?: string;
  /** `verified` (handed to your handler), `refused` (see `reason`), or `duplicate` (a repeat, not handed on). Set before `asyncEnd`. */
  outcome?: 'verified' | 'refused' | 'duplicate';
  /** Why it was refused: the verification's code (`no_matching_signature`, `payload_too_large`, …). */
  reason?: string;
  /** The event's id, type and task, once the call verified. */
  eventId?: string;
  eventType?: string;
  taskId?: string;
  /** The HTTP status the receiver answers itself (absent for `verified`: your handler answers). */
  status?: number;
}

/**
 * The message of the `forecasting-sdk:queue` tracing channel: one wait of the fleet's coordinator
 * before a call is sent, for a place in the shared request budget (`budget`) or for forecast slots
 * (`slot`). It runs inside the call's `operation` trace.
 * @example
 * ```ts
 * import diagnostics from 'node:diagnostics_channel';
 * diagnostics.tracingChannel(CHANNELS.queue).subscribe({
 *   asyncEnd: (message) => console.log('queued for the', (message as QueueMessage).kind),
 * });
 * ```
 */
export interface QueueMessage {
  /** The call's message on the `operation` channel (when someone subscribes to it). */
  readonly parent?: OperationMessage;
  readonly kind: 'budget' | 'slot';
  readonly operation: string;
  /** Slots asked for (`slot`): one, or a batch's count. */
  readonly count?: number;
  error?: unknown;
}

/**
 * The message of the `forecasting-sdk:coordinator` channel: a coordinator (`forecasting-sdk/redis`)
 * turned `local` (Redis did not answer: the limits hold per process) or `shared` again.
 * @example
 * ```ts
 * import diagnostics from 'node:diagnostics_channel';
 * diagnostics.subscribe(CHANNELS.coordinator, (message) => {
 *   const m = message as CoordinatorMessage;
 *   console.log(m.mode === 'local' ? `fleet local (${m.errorType})` : `fleet shared again after ${m.outageMs} ms`);
 * });
 * ```
 */
export interface CoordinatorMessage {
  readonly mode: 'local' | 'shared';
  /** What Redis failed with (the error's class or code), on turning `local`. */
  readonly errorType?: string;
  /** How long the outage lasted, in ms of real time, on turning `shared` again. */
  readonly outageMs?: number;
}

/** The most receipts a wait's message names in `links` (a `waitMany` of thousands woken at once names the first). @internal */
export const MAX_WAIT_LINKS = 128;

/**
 * Sets a message's fields: a subscriber may have frozen it (or made a field read-only), and what it
 * does to its message never changes what the client does. @internal
 */
export function told(set: () => void): void {
  try {
    set();
  } catch {
    // The subscriber gets the message as it left it.
  }
}

/** The parts of `node:diagnostics_channel` the client uses. */
interface Diagnostics {
  channel(name: string): { readonly hasSubscribers: boolean; publish(message: unknown): void };
  tracingChannel(name: string): Tracing;
}

/** A tracing channel, as far as the client uses one. @internal */
export interface Tracing {
  readonly hasSubscribers: boolean;
  /** Its events, published one by one (`traced.ts`, and an async generator's run). */
  readonly start: { publish(message: object): void; runStores<T>(message: object, fn: () => T): T };
  readonly end: { publish(message: object): void };
  readonly asyncStart: { publish(message: object): void };
  readonly asyncEnd: { publish(message: object): void };
  readonly error: { publish(message: object): void };
}

const diagnostics = /* @__PURE__ */ ((): Diagnostics | undefined => {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const found = proc?.getBuiltinModule?.('node:diagnostics_channel') as Partial<Diagnostics> | undefined;
    // A partial module (an older runtime without tracing channels) publishes nothing.
    return typeof found?.tracingChannel === 'function' && typeof found.channel === 'function' ? (found as Diagnostics) : undefined;
  } catch {
    return undefined;
  }
})();

/** Whether one of a tracing channel's events has a subscriber (module-level: a check allocates nothing). */
const heard = (event: object) => (event as { hasSubscribers?: boolean }).hasSubscribers === true;

/** A tracing channel that publishes only where one exists and someone listens. @internal */
const tracing = (name: string): Tracing | undefined => {
  const c = diagnostics?.tracingChannel(name);
  // The events are published one by one with their stores (`runStores`): a runtime whose tracing
  // channels lack them publishes nothing.
  if (typeof c?.start?.runStores !== 'function') return undefined;
  if (typeof c.hasSubscribers === 'boolean') return c;
  // Bun's tracing channel has no `hasSubscribers` of its own: it has subscribers when one of its
  // events' channels has (without even those, it has none). The list is taken once, not per check.
  const events: readonly object[] = [c.start, c.end, c.asyncStart, c.asyncEnd, c.error];
  return Object.create(c, { hasSubscribers: { get: () => events.some(heard) } }) as Tracing;
};

/** A plain channel that publishes only where one exists. @internal */
const plain = (name: string) => diagnostics?.channel(name);

/** @internal */
export const operationChannel = /* @__PURE__ */ tracing('forecasting-sdk:operation');
/** @internal */
export const attemptChannel = /* @__PURE__ */ tracing('forecasting-sdk:attempt');
/** @internal */
export const retryChannel = /* @__PURE__ */ plain('forecasting-sdk:retry');
/** @internal */
export const waitChannel = /* @__PURE__ */ tracing('forecasting-sdk:wait');
/** @internal */
export const webhookChannel = /* @__PURE__ */ tracing('forecasting-sdk:webhook');
/** @internal */
export const coordinatorChannel = /* @__PURE__ */ plain('forecasting-sdk:coordinator');
/** @internal */
export const queueChannel = /* @__PURE__ */ tracing('forecasting-sdk:queue');
