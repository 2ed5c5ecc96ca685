/**
 * Client and per-request options, and their resolution (environment defaults, base URL rules).
 * @module
 */
import { ValidationError } from './errors.js';
import { leveled, LOG_LEVELS, type LeveledLogger, type Logger, type LogLevel } from './logger.js';
import { realClock, type ClientClock } from './clock.js';
import type { Coordinator } from './coordination.js';
import { MAX_TIMER_MS } from './clock.js';
import { redactorOf, UNUSABLE_KEY, type Redact } from './redact.js';

/**
 * Options of {@link ForecastingClient}.
 * @example
 * ```ts
 * const options: ClientOptions = { baseURL: 'https://forecasts.example.com/api/v1/external', timeout: 30_000, maxRetries: 4 };
 * const client = new ForecastingClient(options);
 * ```
 */
export interface ClientOptions {
  /** API key (begins `pre_`). Defaults to `process.env.FORECASTING_API_KEY`. Spaces at either end are dropped. */
  apiKey?: string | undefined;
  /**
   * The service's base address, ending in `/api/v1/external`. Defaults to `process.env.FORECASTING_BASE_URL`.
   * `https://` for any host; `http://` only for `localhost`, `127.0.0.0/8` and `[::1]`.
   */
  baseURL?: string | undefined;
  /**
   * Milliseconds allowed for one attempt, from sending to the last byte of the answer (default
   * 60 000; `0` for no limit; at most 2^31−1). A slow answer ends in `APITimeoutError`, retried like
   * any timeout.
   */
  timeout?: number | undefined;
  /**
   * Retries after the first attempt (default 2; a whole number). Long waits do not use it: their
   * reads are retried until the wait's own `timeout`.
   */
  maxRetries?: number | undefined;
  /**
   * The longest `Retry-After` the client sleeps on, in ms (default 60 000). A longer wait is not slept
   * on: the error is thrown at once, carrying the wait the server asked for. The requests of a long
   * wait (`forecasts.wait`, `waitMany`, `createAndWait`, `runMany`, readiness waits) sleep any
   * `Retry-After` up to an hour instead, within the wait's `timeout`.
   */
  maxRetryAfter?: number | undefined;
  /** Milliseconds after which no further retry starts, counted from the first attempt (default 300 000). */
  retryDeadline?: number | undefined;
  /** Exponential backoff with full jitter when the server gives no `Retry-After` (ms; defaults 500 and 8 000). */
  retryBackoff?: { initialDelay?: number | undefined; maxDelay?: number | undefined } | undefined;
  /** A Fetch implementation (default `globalThis.fetch`). */
  fetch?: typeof fetch | undefined;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string> | undefined;
  /** How the key is sent: `Authorization: Bearer <key>` (default) or `X-Api-Key: <key>`. */
  authHeader?: 'bearer' | 'x-api-key' | undefined;
  /** Where log lines go (default `console`): an object with `debug`, `info`, `warn` and `error` functions (those of the levels logged at least), else a `ValidationError` at construction. Lines never hold a secret. */
  logger?: Logger | undefined;
  /** Least severe level logged (default `warn`). */
  logLevel?: LogLevel | undefined;
  /**
   * Check responses against the schemas (default false). Lenient: unknown fields and enum values pass;
   * a missing or mistyped known field throws `ValidationError` naming `response.<field>`.
   */
  validateResponses?: boolean | undefined;
  /**
   * A client-side request budget shared by every call of this client (retries and wait loops
   * included): requests are spaced so that no minute holds more than `requestsPerMinute`. Off by
   * default. Set it to the key's limit (60 unless the operator set another) to never meet a 429. The
   * minute is the service's: shorter on a clock whose `serviceTimeScale` says the service runs faster
   * (the client options `mockClientOptions` gives for a sped-up mock).
   */
  rateLimit?: { requestsPerMinute: number } | undefined;
  /** Time source of waits and of the request budget (default: real time). See {@link ClientClock}. */
  clock?: ClientClock | undefined;
  /**
   * Shares the key's limits with every client on the same coordinator, in any process: one request
   * budget (every attempt of every call), one set of active-forecast slots (every start waits for
   * its slots instead of meeting `too_many_active_forecasts`; a slot is freed when any process sees
   * its task final), and one model-call budget for decisions. It replaces `rateLimit`. The client
   * hands it a function that digests the key with the coordinator's own hash; the Redis coordinator keeps only the SHA-256 digest. `forecasting-sdk/redis` makes one.
   * @example
   * ```ts
   * import { createClient } from 'redis';
   * import { ForecastingClient } from 'forecasting-sdk';
   * import { createRedisCoordinator } from 'forecasting-sdk/redis';
   *
   * const redis = await createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }).on('error', () => {}).connect();
   * const client = new ForecastingClient({ coordinator: createRedisCoordinator(redis) });
   * ```
   */
  coordinator?: Coordinator | undefined;
  /**
   * With a `coordinator` whose webhook receivers are live: the wait in ms between reads of a task no
   * event was heard of, the safety net for a lost webhook (default 600 000, 10 minutes: a lost event
   * delays a result by at most that, and a 30-minute standard forecast is read about 3 times, two
   * safety reads and one after its event, instead of polled about 20 times). Measured in the
   * service's time: 600 times shorter (a second) for a client of the mock's fast clock
   * (`ClientClock.serviceTimeScale`, set by `mockClientOptions`); and against a service that states
   * its `Retry-After` faster than the spec without saying so, it shrinks in proportion. With no
   * receiver seen recently, or when the key's enabled webhooks do not subscribe to all of
   * `forecast.completed`, `forecast.failed` and `forecast.cancelled` (read with `GET /webhooks` once
   * every 10 minutes while waits run), waits poll by `Retry-After` as without a coordinator.
   * @example
   * ```ts
   * const client = new ForecastingClient({ coordinatedPollInterval: 5 * 60_000 });
   * ```
   */
  coordinatedPollInterval?: number | undefined;
}

/**
 * Options every method takes as its last argument.
 * @example
 * ```ts
 * const options: RequestOptions = { signal: AbortSignal.timeout(10_000), maxRetries: 0, headers: { 'x-trace': 'abc' } };
 * await client.questions.retrieve(questionId, options);
 * ```
 */
export interface RequestOptions {
  /** Aborts the request, and any wait between retries, at once. The call rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Milliseconds allowed for one attempt, body included (`0` for no limit; at most 2^31−1). */
  timeout?: number | undefined;
  /** Retries after the first attempt (a whole number). */
  maxRetries?: number | undefined;
  /** Extra headers for this call. The API key header cannot be replaced. */
  headers?: Record<string, string> | undefined;
  /**
   * `Idempotency-Key` for the operations that accept one (`POST /forecasts`, `POST /forecasts/batch`,
   * `POST /decisions`, `POST /decisions/{decision_id}/forecasts`); up to 128 characters. When omitted
   * there, the SDK generates one and reuses it on every retry. Ignored elsewhere.
   */
  idempotencyKey?: string | undefined;
}

/** Client options after defaults. @internal */
export interface ResolvedOptions {
  apiKey: string;
  baseURL: string;
  timeout: number;
  maxRetries: number;
  maxRetryAfter: number;
  retryDeadline: number;
  initialDelay: number;
  maxDelay: number;
  fetch: typeof fetch | undefined;
  defaultHeaders: Record<string, string>;
  authHeader: 'bearer' | 'x-api-key';
  validateResponses: boolean;
  requestsPerMinute: number | undefined;
  clock: ClientClock;
  coordinator: Coordinator | undefined;
  coordinatedPollInterval: number;
  /** `logger` at `logLevel`, as checked: each is read once. */
  log: LeveledLogger;
}

/**
 * An environment variable, where the runtime has `process.env` (an empty one counts as unset by the
 * callers); a runtime that refuses to read it (Deno without `--allow-env`) is a `ValidationError` of `field`.
 */
function env(name: string, field: string): string | undefined {
  try {
    return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  } catch (err) {
    throw new ValidationError(`not given, and ${name} could not be read (${(err as Error)?.message ?? String(err)})`, field);
  }
}

export { MAX_TIMER_MS } from './clock.js';

/** A duration option: a finite number of ms from 0 to {@link MAX_TIMER_MS}. @internal */
export function checkMs(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_TIMER_MS) {
    throw new ValidationError(`must be a number of milliseconds from 0 to ${MAX_TIMER_MS}, got ${describe(value)}`, name);
  }
  return value;
}

/** A count option: a whole number >= 0. @internal */
export function checkCount(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new ValidationError(`must be a whole number >= 0, got ${describe(value)}`, name);
  }
  return value;
}

function describe(value: unknown): string {
  return typeof value === 'number' ? String(value) : typeof value;
}

/** Header names are HTTP tokens. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What no header value may hold: CR, LF, NUL, or a character fetch cannot send (above U+00FF). */
const BAD_HEADER_VALUE = /[\r\n\0\u0100-\uffff]/;

/**
 * Checks headers before anything is sent, so a bad one is a `ValidationError` naming it (never a
 * `TypeError` from fetch, whose message could quote the value). @internal
 */
export function checkHeaders(headers: unknown, field: string, redact?: Redact): Record<string, string> {
  // An iterable (a `Headers`, a `Map`, an array) has no own entries to read: its headers were dropped.
  if (typeof headers !== 'object' || headers === null || Symbol.iterator in headers) {
    throw new ValidationError('must be a plain object of header names to text values', field);
  }
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    // A name may hold the key (a pasted `Authorization: Bearer …` line, name and value swapped): shown redacted.
    const shown = redact?.(name) ?? name;
    if (!HEADER_NAME.test(name)) throw new ValidationError(`${JSON.stringify(shown.slice(0, 64))} is not a valid header name`, field);
    const at = `${field}.${shown}`;
    if (typeof value !== 'string') throw new ValidationError(`must be text, got ${typeof value}`, at);
    if (BAD_HEADER_VALUE.test(value)) throw new ValidationError('must not hold CR, LF, NUL or characters above U+00FF', at);
  }
  return headers as Record<string, string>;
}

/**
 * Checks the options of one call before anything is sent: the same rules as the client's options.
 * @internal
 */
export function checkRequestOptions(options: RequestOptions, redact?: Redact): void {
  if (typeof options !== 'object' || options === null) throw new ValidationError('must be an object', 'options');
  const { signal, timeout, maxRetries, headers } = options;
  if (signal !== undefined && !isAbortSignal(signal)) throw new ValidationError('must be an AbortSignal (one with throwIfAborted and removeEventListener)', 'signal');
  if (timeout !== undefined) checkMs('timeout', timeout);
  if (maxRetries !== undefined) checkCount('maxRetries', maxRetries);
  if (headers !== undefined) checkHeaders(headers, 'headers', redact);
}

/** What the client calls on a signal: an older polyfill without `throwIfAborted` is refused here, not by a bare `TypeError` mid-call. */
function isAbortSignal(value: unknown): value is AbortSignal {
  const s = value as AbortSignal | null;
  return typeof s === 'object' && s !== null && typeof s.aborted === 'boolean' && typeof s.addEventListener === 'function' && typeof s.removeEventListener === 'function' && typeof s.throwIfAborted === 'function';
}

/** @internal */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) throw new ValidationError('must be an object', 'options');
  const given = options.apiKey ?? env('FORECASTING_API_KEY', 'apiKey');
  // The key goes into a header: a line break or control character would fail every request with a
  // TypeError quoting it. A quote or a backslash, which JSON always escapes, would keep an echo of
  // the key in an answer from being redacted. The message never holds the key.
  if (given !== undefined && (typeof given !== 'string' || UNUSABLE_KEY.test(given))) {
    throw new ValidationError('must be printable ASCII text with no quote, backslash, line break, NUL or other control character', 'apiKey');
  }
  // Spaces at either end (a `.env` line's) are dropped, as fetch drops them from the header: the key
  // the service gets is the one redacted from its answers. (`trimKey`, written out: a call of it
  // costs the complete client bytes it has not to spare, see test/package/size.test.ts.)
  const apiKey = given?.replace(/^ +| +$/g, '');
  if (!apiKey) {
    throw new ValidationError(
      'Missing API key: pass `apiKey` to new ForecastingClient({ apiKey }) or set the FORECASTING_API_KEY environment variable.',
      'apiKey',
    );
  }
  const baseURL = options.baseURL ?? env('FORECASTING_BASE_URL', 'baseURL');
  if (!baseURL) {
    throw new ValidationError(
      'Missing base URL: pass `baseURL` (ending in /api/v1/external) to new ForecastingClient({ baseURL }) or set the FORECASTING_BASE_URL environment variable.',
      'baseURL',
    );
  }
  const ms = (name: string, value: number | undefined, fallback: number) => (value === undefined ? fallback : checkMs(name, value));
  const { fetch, authHeader = 'bearer', clock = realClock, logLevel, rateLimit, coordinator, logger } = options;
  if (fetch !== undefined && typeof fetch !== 'function') throw new ValidationError('must be a fetch function', 'fetch');
  if (authHeader !== 'bearer' && authHeader !== 'x-api-key') throw new ValidationError(`must be 'bearer' or 'x-api-key'`, 'authHeader');
  if (logLevel !== undefined && !LOG_LEVELS.includes(logLevel)) throw new ValidationError(`must be one of ${LOG_LEVELS.join(', ')}`, 'logLevel');
  if (typeof clock?.now !== 'function' || typeof clock.sleep !== 'function') throw new ValidationError('must have now() and sleep(ms, signal)', 'clock');
  const scale: unknown = clock.serviceTimeScale;
  if (scale !== undefined && !(typeof scale === 'number' && Number.isFinite(scale) && scale > 0)) {
    throw new ValidationError(`must be a positive number (how much faster the service's time runs than the clock), got ${describe(scale)}`, 'clock.serviceTimeScale');
  }
  if (coordinator !== undefined && !COORDINATOR_METHODS.every((m) => typeof coordinator?.[m] === 'function')) {
    throw new ValidationError(`must be a coordinator (with ${COORDINATOR_METHODS.join(', ')}), such as createRedisCoordinator(redis)`, 'coordinator');
  }
  const perMinute = rateLimit === undefined ? undefined : checkRateLimit(rateLimit);
  return {
    apiKey,
    baseURL: checkBaseURL(baseURL),
    timeout: ms('timeout', options.timeout, 60_000),
    maxRetries: options.maxRetries === undefined ? 2 : checkCount('maxRetries', options.maxRetries),
    maxRetryAfter: ms('maxRetryAfter', options.maxRetryAfter, 60_000),
    retryDeadline: ms('retryDeadline', options.retryDeadline, 300_000),
    initialDelay: ms('retryBackoff.initialDelay', options.retryBackoff?.initialDelay, 500),
    maxDelay: ms('retryBackoff.maxDelay', options.retryBackoff?.maxDelay, 8_000),
    fetch,
    defaultHeaders: options.defaultHeaders === undefined ? {} : { ...checkHeaders(options.defaultHeaders, 'defaultHeaders', redactorOf(apiKey)) },
    authHeader,
    validateResponses: options.validateResponses ?? false,
    requestsPerMinute: perMinute,
    clock,
    coordinator,
    coordinatedPollInterval: options.coordinatedPollInterval === undefined ? DEFAULT_COORDINATED_POLL_INTERVAL_MS : checkMs('coordinatedPollInterval', options.coordinatedPollInterval),
    log: leveled(logger ?? console, logLevel ?? 'warn'),
  };
}

/**
 * `rateLimit`, when given: an object whose `requestsPerMinute` is a whole number >= 1 (`{}` is a
 * mistake, not "no limit"; the window counts whole requests).
 */
function checkRateLimit(rateLimit: unknown): number {
  if (typeof rateLimit !== 'object' || rateLimit === null) throw new ValidationError('must be an object such as { requestsPerMinute: 60 }', 'rateLimit');
  const perMinute = (rateLimit as { requestsPerMinute?: unknown }).requestsPerMinute;
  if (typeof perMinute !== 'number' || !Number.isInteger(perMinute) || perMinute < 1) {
    throw new ValidationError(`must be a whole number >= 1, got ${describe(perMinute)}`, 'rateLimit.requestsPerMinute');
  }
  return perMinute;
}

/** The default `coordinatedPollInterval`: 10 minutes. @internal */
export const DEFAULT_COORDINATED_POLL_INTERVAL_MS = 600_000;

/** What the client calls on a coordinator. */
const COORDINATOR_METHODS = ['attach', 'take', 'hold', 'settle'] as const;

/**
 * `https://` for any host; plain `http://` only for loopback (`localhost`, `127.0.0.0/8`, `[::1]`),
 * so the key never travels in clear text. Returns the URL without a trailing slash.
 * @internal
 */
export function checkBaseURL(raw: string): string {
  let url: URL;
  try {
    // Text only: `new URL` would take any object's toString.
    if (typeof raw !== 'string') throw raw;
    url = new URL(raw);
  } catch {
    throw new ValidationError('must be an absolute URL such as https://host/api/v1/external', 'baseURL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    throw new ValidationError(
      `must use https:// (plain http:// is allowed only for localhost, 127.0.0.0/8 and [::1]), got ${url.protocol}//${url.host}`,
      'baseURL',
    );
  }
  if (url.username || url.password) throw new ValidationError('must not hold a user name or password', 'baseURL');
  if (url.search || url.hash) throw new ValidationError('must not hold a query or a fragment', 'baseURL');
  return url.href.replace(/\/+$/, '');
}

/** The path every operation of the service sits below. */
export const API_PATH = '/api/v1/external';

/**
 * Whether the base URL's path ends in {@link API_PATH}. A proxy may serve the service at another
 * path, so a base URL without it is allowed; the client then warns once when it is built, and a 404
 * names the URL requested. @internal
 */
export function hasApiPath(baseURL: string): boolean {
  return new URL(baseURL).pathname.replace(/\/+$/, '').endsWith(API_PATH);
}

/** The warning for a base URL without {@link API_PATH}. @internal */
export function apiPathWarning(baseURL: string): string {
  return `baseURL ${baseURL} does not end in ${API_PATH}: requests go to ${baseURL}/…, not ${baseURL}${API_PATH}/…. Fine for a proxy at another path; otherwise add ${API_PATH}.`;
}

function isLoopback(hostname: string): boolean {
  // URL has already normalized the host: IPv4 in dotted decimal, IPv6 in brackets, names lower-cased.
  // Stryker disable next-line Regex: a host ending in a number parses as IPv4 in whole (else the URL is invalid), so the anchors change nothing
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
