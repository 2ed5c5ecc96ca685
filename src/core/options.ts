/**
 * Client and per-request options, and their resolution (environment defaults, base URL rules).
 * @module
 */
import { ValidationError } from './errors.js';
import type { Logger, LogLevel } from './logger.js';
import { realClock, type ClientClock } from './clock.js';

/** Options of {@link ForecastingClient}. */
export interface ClientOptions {
  /** API key (begins `pre_`). Defaults to `process.env.FORECASTING_API_KEY`. */
  apiKey?: string;
  /**
   * The service's base address, ending in `/api/v1/external`. Defaults to `process.env.FORECASTING_BASE_URL`.
   * `https://` for any host; `http://` only for `localhost`, `127.0.0.0/8` and `[::1]`.
   */
  baseURL?: string;
  /** Milliseconds allowed for one attempt (default 60 000). */
  timeout?: number;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /**
   * The longest `Retry-After` the client sleeps on, in ms (default 60 000). A longer wait is not slept
   * on: the error is thrown at once, carrying the wait the server asked for.
   */
  maxRetryAfter?: number;
  /** Milliseconds after which no further retry starts, counted from the first attempt (default 300 000). */
  retryDeadline?: number;
  /** Exponential backoff with full jitter when the server gives no `Retry-After` (ms; defaults 500 and 8 000). */
  retryBackoff?: { initialDelay?: number; maxDelay?: number };
  /** A Fetch implementation (default `globalThis.fetch`). */
  fetch?: typeof fetch;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string>;
  /** How the key is sent: `Authorization: Bearer <key>` (default) or `X-Api-Key: <key>`. */
  authHeader?: 'bearer' | 'x-api-key';
  /** Where log lines go (default `console`). Lines never hold a secret. */
  logger?: Logger;
  /** Least severe level logged (default `warn`). */
  logLevel?: LogLevel;
  /**
   * Check responses against the schemas (default false). Lenient: unknown fields and enum values pass;
   * a missing or mistyped known field throws `ValidationError` naming `response.<field>`.
   */
  validateResponses?: boolean;
  /**
   * A client-side request budget shared by every call of this client (retries and wait loops
   * included): requests are spaced so that no minute holds more than `requestsPerMinute`. Off by
   * default. Set it to the key's limit (60 unless the operator set another) to never meet a 429.
   */
  rateLimit?: { requestsPerMinute: number };
  /** Time source of waits and of the request budget (default: real time). See {@link ClientClock}. */
  clock?: ClientClock;
}

/** Options every method takes as its last argument. */
export interface RequestOptions {
  /** Aborts the request, and any wait between retries, at once. The call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Milliseconds allowed for one attempt. */
  timeout?: number;
  /** Retries after the first attempt. */
  maxRetries?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
  /**
   * `Idempotency-Key` for the operations that accept one (`POST /forecasts`, `POST /forecasts/batch`,
   * `POST /decisions`, `POST /decisions/{decision_id}/forecasts`); up to 128 characters. When omitted
   * there, the SDK generates one and reuses it on every retry. Ignored elsewhere.
   */
  idempotencyKey?: string;
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
}

function env(name: string): string | undefined {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  return value === '' ? undefined : value;
}

/** @internal */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  const apiKey = options.apiKey ?? env('FORECASTING_API_KEY');
  if (!apiKey) {
    throw new ValidationError(
      'Missing API key: pass `apiKey` to new ForecastingClient({ apiKey }) or set the FORECASTING_API_KEY environment variable.',
      'apiKey',
    );
  }
  const baseURL = options.baseURL ?? env('FORECASTING_BASE_URL');
  if (!baseURL) {
    throw new ValidationError(
      'Missing base URL: pass `baseURL` (ending in /api/v1/external) to new ForecastingClient({ baseURL }) or set the FORECASTING_BASE_URL environment variable.',
      'baseURL',
    );
  }
  const positive = (name: string, value: number) => {
    if (!(Number.isFinite(value) && value > 0)) throw new ValidationError(`must be a number > 0, got ${value}`, name);
    return value;
  };
  const count = (name: string, value: number | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (!Number.isFinite(value) || value < 0) throw new ValidationError(`must be a number >= 0, got ${value}`, name);
    return value;
  };
  return {
    apiKey,
    baseURL: checkBaseURL(baseURL),
    timeout: count('timeout', options.timeout, 60_000),
    maxRetries: count('maxRetries', options.maxRetries, 2),
    maxRetryAfter: count('maxRetryAfter', options.maxRetryAfter, 60_000),
    retryDeadline: count('retryDeadline', options.retryDeadline, 300_000),
    initialDelay: count('retryBackoff.initialDelay', options.retryBackoff?.initialDelay, 500),
    maxDelay: count('retryBackoff.maxDelay', options.retryBackoff?.maxDelay, 8_000),
    fetch: options.fetch,
    defaultHeaders: { ...options.defaultHeaders },
    authHeader: options.authHeader ?? 'bearer',
    validateResponses: options.validateResponses ?? false,
    requestsPerMinute: options.rateLimit ? positive('rateLimit.requestsPerMinute', options.rateLimit.requestsPerMinute) : undefined,
    clock: options.clock ?? realClock,
  };
}

/**
 * `https://` for any host; plain `http://` only for loopback (`localhost`, `127.0.0.0/8`, `[::1]`),
 * so the key never travels in clear text. Returns the URL without a trailing slash.
 * @internal
 */
export function checkBaseURL(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError(`must be an absolute URL such as https://host/api/v1/external`, 'baseURL');
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

function isLoopback(hostname: string): boolean {
  // URL has already normalized the host: IPv4 in dotted decimal, IPv6 in brackets, names lower-cased.
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
