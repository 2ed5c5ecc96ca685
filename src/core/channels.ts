/**
 * The diagnostics channels the client publishes on (`node:diagnostics_channel`), for tracing and
 * metrics without a dependency: public API, described in docs/observability.md. The module is
 * looked up through `process.getBuiltinModule`, never imported, so the core still loads where there
 * is none (a browser, an older runtime): nothing is published there. Nothing is built for a channel
 * nobody subscribes to.
 * @module
 */
import type { HttpMethod } from './operation.js';

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
  /** The last answer's HTTP status; set before `asyncEnd` or `error` (absent when no answer came). */
  status?: number;
  /** How many attempts the call made; set before `asyncEnd` or `error`. */
  attempts?: number;
  /** The error the call ended with (set by the channel before `error`). */
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
  readonly operation: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** 1 for the first request of the call. */
  readonly attempt: number;
  /** The HTTP status answered (an error status too); absent when no answer came. */
  status?: number;
  /** Why the attempt failed without an answer: the error's class (`APIConnectionError`, `APITimeoutError`). */
  errorType?: string;
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
}

/** The parts of `node:diagnostics_channel` the client uses. */
interface Diagnostics {
  channel(name: string): { readonly hasSubscribers: boolean; publish(message: unknown): void };
  tracingChannel(name: string): Tracing;
}

/** A tracing channel, as far as the client uses one. @internal */
export interface Tracing {
  readonly hasSubscribers: boolean;
  tracePromise<T>(fn: () => Promise<T>, context: object): Promise<T>;
}

const diagnostics = ((): Diagnostics | undefined => {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const found = proc?.getBuiltinModule?.('node:diagnostics_channel') as Partial<Diagnostics> | undefined;
    // A partial module (an older runtime without tracing channels) publishes nothing.
    return typeof found?.tracingChannel === 'function' && typeof found.channel === 'function' ? (found as Diagnostics) : undefined;
  } catch {
    return undefined;
  }
})();

/** A tracing channel that publishes only where one exists and someone listens. @internal */
const tracing = (name: string): Tracing | undefined => {
  const channel = diagnostics?.tracingChannel(name);
  // `hasSubscribers` came later than tracing channels: without it, say none rather than build messages for nobody.
  return channel && typeof channel.hasSubscribers === 'boolean' ? channel : undefined;
};

/** @internal */
export const operationChannel = tracing(CHANNELS.operation);
/** @internal */
export const attemptChannel = tracing(CHANNELS.attempt);
/** @internal */
export const retryChannel = diagnostics?.channel(CHANNELS.retry);
