/**
 * The error hierarchy. Every error the SDK throws is a {@link ForecastingError}, except an abort:
 * a call aborted through its `signal` rejects with the signal's reason, as `fetch` does.
 *
 * HTTP errors are chosen from a table keyed by status and the envelope's `error.type`
 * (see {@link makeAPIError}); users branch with `instanceof` or on `err.type`.
 *
 * @module
 */
import { ForecastingError } from './forecasting-error.js';
import { MAX_TIMER_MS } from './sleep.js';

// The base class and the webhook error live apart, so the webhooks entry (and its published
// declarations) reach them without reaching the whole hierarchy.
export { ForecastingError, WebhookVerificationError, type WebhookVerificationErrorCode } from './forecasting-error.js';

/**
 * JSON members of the error envelope beyond `type` and `message` (`activeTaskId`, `files`, …).
 * @example
 * ```ts
 * if (err instanceof ForecastAlreadyRunningError) console.log(err.extras['activeTaskId']); // same as err.activeTaskId
 * ```
 */
export type ErrorExtras = Record<string, unknown>;

/**
 * Everything an {@link APIError} is built from.
 * @example
 * ```ts
 * const err = new NotFoundError({ status: 404, type: 'not_found', message: 'No question q_1', headers: new Headers(), body: null });
 * ```
 */
export interface APIErrorInit {
  status: number;
  /** The envelope's `error.type`, or `undefined` when the body was not the error envelope. */
  type: string | undefined;
  message: string;
  headers: Headers;
  /** The parsed body (the whole envelope), or the raw text when it was not JSON. */
  body: unknown;
  /** Members of `error` other than `type` and `message`. */
  extras?: ErrorExtras;
  /** `METHOD /path` of the request, for the message; never holds a secret. */
  request?: string;
}

/**
 * The service answered with an HTTP error status.
 *
 * @example
 * ```ts
 * try { await client.questions.create(body); }
 * catch (err) {
 *   if (err instanceof APIError) console.log(err.status, err.type, err.headers.get('retry-after'));
 * }
 * ```
 */
export class APIError extends ForecastingError {
  override name = 'APIError';
  /** HTTP status code. */
  readonly status: number;
  /** The envelope's `error.type` (`invalid_request_error`, `not_found`, …); `undefined` for a non-JSON body. */
  readonly type: string | undefined;
  /** Response headers. */
  readonly headers: Headers;
  /** The raw error body: the parsed envelope, or the text when it was not JSON. */
  readonly body: unknown;
  /** Members of the envelope's `error` object beyond `type` and `message`. */
  readonly extras: ErrorExtras;
  /** The request id the service sent (`x-request-id`), when present. */
  readonly requestId: string | undefined;

  constructor(init: APIErrorInit) {
    // Clipped: a 1 MB error message or id must not make a 1 MB log line. The whole body stays on `body`.
    const request = init.request ? ` (${clip(init.request, MAX_REQUEST_IN_MESSAGE)})` : '';
    super(`${init.status}${init.type ? ` ${clip(init.type, 64)}` : ''}: ${clip(init.message, MAX_MESSAGE_TEXT)}${request}`);
    this.status = init.status;
    this.type = init.type;
    this.headers = init.headers;
    this.body = init.body;
    this.extras = init.extras ?? {};
    this.requestId = init.headers.get('x-request-id') ?? undefined;
  }
}

/**
 * A successful answer that cannot be read as the operation's result: a body that is not JSON, an
 * empty body (or 204) where a record is expected, or JSON of another shape (a list envelope without
 * a `data` array, a record that is not an object). `status` and `headers` are the answer's; `body`
 * holds its text, clipped.
 *
 * @example
 * ```ts
 * try { await client.questions.retrieve(id); }
 * catch (err) { if (err instanceof InvalidResponseError) console.error(err.status, err.message); }
 * ```
 */
export class InvalidResponseError extends APIError {
  override name = 'InvalidResponseError';
}

/**
 * 400: an invalid request, a broken question rule, or an idempotency key reused with another body.
 * @example
 * ```ts
 * catch (err) { if (err instanceof BadRequestError) console.log(err.type, err.message); } // 'invalid_request_error', the field named
 * ```
 */
export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}
/**
 * 401 `invalid_api_key`: the key is missing, wrong, revoked or expired.
 * @example
 * ```ts
 * try { await client.credits.retrieve(); } catch (err) { if (err instanceof AuthenticationError) console.error('check FORECASTING_API_KEY'); }
 * ```
 */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
/**
 * 403 `permission_denied`: the key lacks the scope, or its owner lacks the right.
 * @example
 * ```ts
 * catch (err) { if (err instanceof PermissionDeniedError) console.error('the key lacks a scope:', err.message); }
 * ```
 */
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}
/**
 * 403 `uploads_disabled`: the organization turned file uploads off.
 * @example
 * ```ts
 * catch (err) { if (err instanceof UploadsDisabledError) console.log('file uploads are off for this organization: send notes instead'); }
 * ```
 */
export class UploadsDisabledError extends PermissionDeniedError {
  override name = 'UploadsDisabledError';
}
/**
 * 404 `not_found`: the id is wrong or not visible to the key.
 * @example
 * ```ts
 * const question = await client.questions.retrieve(id).catch((err) => (err instanceof NotFoundError ? null : Promise.reject(err)));
 * ```
 */
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
/**
 * 405: the method is not allowed on the path.
 * @example
 * ```ts
 * catch (err) { if (err instanceof MethodNotAllowedError) console.log('allowed:', err.allow.join(', ')); }
 * ```
 */
export class MethodNotAllowedError extends APIError {
  override name = 'MethodNotAllowedError';
  /** The methods the path takes, from the `Allow` header. */
  get allow(): string[] {
    return (this.headers.get('allow') ?? '')
      .split(',')
      .map((m) => m.trim().toUpperCase())
      .filter(Boolean);
  }
}
/**
 * 409: a conflict. Subclasses name the codes users branch on.
 * @example
 * ```ts
 * catch (err) { if (err instanceof ConflictError && err.type === 'invalid_request_error') console.log('too few credits, nothing charged:', err.message); }
 * ```
 */
export class ConflictError extends APIError {
  override name = 'ConflictError';
}
/**
 * 409 `forecast_already_running`: the question already has a forecast running.
 * @example
 * ```ts
 * try {
 *   await client.forecasts.create({ questionId });
 * } catch (err) {
 *   if (!(err instanceof ForecastAlreadyRunningError) || !err.activeTaskId) throw err;
 *   await client.forecasts.wait(err.activeTaskId); // wait for the one running instead
 * }
 * ```
 */
export class ForecastAlreadyRunningError extends ConflictError {
  override name = 'ForecastAlreadyRunningError';
  /** The id of the task that is running. */
  get activeTaskId(): string | undefined {
    const id = this.extras['activeTaskId'];
    return typeof id === 'string' ? id : undefined;
  }
}
/**
 * 409 `context_not_ready`: a question or preset file is still processing.
 * @example
 * ```ts
 * catch (err) { if (err instanceof ContextNotReadyError) console.log('still processing:', err.files); }
 * ```
 */
export class ContextNotReadyError extends ConflictError {
  override name = 'ContextNotReadyError';
  /** The unfinished files, as the service listed them. */
  get files(): unknown[] {
    const files = this.extras['files'];
    return Array.isArray(files) ? files : [];
  }
}
/**
 * 409 `idempotency_in_progress`: the first request with this idempotency key is still being handled. Retried by default.
 * @example
 * ```ts
 * // Retried by default; seen only with maxRetries: 0 (or when the retries run out).
 * catch (err) { if (err instanceof IdempotencyInProgressError) console.log('the first request with this key is still running'); }
 * ```
 */
export class IdempotencyInProgressError extends ConflictError {
  override name = 'IdempotencyInProgressError';
}
/**
 * 409 with a decision code: `generation_in_progress` (drafting is running), `decision_archived`, or
 * any other code the service answers on a `/decisions` path (the spec does not list them all), so
 * `err.type` is the one to branch on. A 409 `invalid_request_error` (too few credits) stays a
 * {@link ConflictError}.
 *
 * @example
 * ```ts
 * try { await client.decisions.generate(decisionId); }
 * catch (err) { if (err instanceof DecisionConflictError && err.type === 'generation_in_progress') console.log('still drafting'); }
 * ```
 */
export class DecisionConflictError extends ConflictError {
  override name = 'DecisionConflictError';
}
/**
 * 429: a rate limit. `retryAfterMs` is the wait the server asked for.
 * @example
 * ```ts
 * catch (err) { if (err instanceof RateLimitError) await new Promise((r) => setTimeout(r, err.retryAfterMs ?? 1_000)); }
 * ```
 */
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
  /** The wait the server asked for, in milliseconds (from `Retry-After`), or `undefined`. */
  get retryAfterMs(): number | undefined {
    return parseRetryAfter(this.headers.get('retry-after'));
  }
}
/**
 * 429 `too_many_active_forecasts`: more than 50 API-started forecasts running for one user. Not retried.
 * @example
 * ```ts
 * catch (err) { if (err instanceof TooManyActiveForecastsError) await client.forecasts.waitMany(runningTaskIds); } // then start again
 * ```
 */
export class TooManyActiveForecastsError extends RateLimitError {
  override name = 'TooManyActiveForecastsError';
}
/**
 * 5xx: the service failed.
 * @example
 * ```ts
 * catch (err) { if (err instanceof InternalServerError) console.log(err.status, err.requestId); } // retried first when safe
 * ```
 */
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}
/**
 * 503 `overloaded_error`: try again shortly. Retried by default.
 * @example
 * ```ts
 * catch (err) { if (err instanceof OverloadedError) console.log('the service is busy (already retried): try again shortly'); }
 * ```
 */
export class OverloadedError extends InternalServerError {
  override name = 'OverloadedError';
}

/**
 * No HTTP answer was received: the connection was refused, reset or dropped.
 *
 * @example
 * ```ts
 * catch (err) { if (err instanceof APIConnectionError) console.log('network trouble:', err.cause); }
 * ```
 */
export class APIConnectionError extends ForecastingError {
  override name = 'APIConnectionError';
  constructor(message = 'Connection error.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The request did not finish within `timeout`.
 * @example
 * ```ts
 * await client.questions.list(undefined, { timeout: 5_000 }).catch((err) => {
 *   if (err instanceof APITimeoutError) console.log('no complete answer within 5 s (already retried)');
 *   throw err;
 * });
 * ```
 */
export class APITimeoutError extends APIConnectionError {
  override name = 'APITimeoutError';
  constructor(message = 'Request timed out.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * One problem found in the input, with the path of the field it concerns.
 * @example
 * ```ts
 * catch (err) { if (err instanceof ValidationError) for (const { field, message } of err.issues) console.log(`${field}: ${message}`); }
 * ```
 */
export interface ValidationIssue {
  /** Dotted path of the field (`options.2`, `lowerBound`); empty for the input as a whole. */
  field: string;
  message: string;
}

/**
 * The input broke a rule of the spec; nothing was sent. `field` names the first offending field.
 *
 * @example
 * ```ts
 * try { await client.questions.create({ type: 'binary', title: '' }); }
 * catch (err) { if (err instanceof ValidationError) console.log(err.field); } // 'title'
 * ```
 */
export class ValidationError extends ForecastingError {
  override name = 'ValidationError';
  /** Dotted path of the first offending field. */
  readonly field: string;
  /** Every problem found. */
  readonly issues: ValidationIssue[];

  constructor(issues: ValidationIssue[] | string, field = '') {
    const list = typeof issues === 'string' ? [{ field, message: issues }] : issues;
    // Stryker disable next-line StringLiteral: only the field of `first` is read
    const first = list[0] ?? { field, message: 'invalid input' };
    super(list.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join('; '));
    this.field = first.field;
    this.issues = list;
  }
}

/** Longest envelope message kept in an error's `message`. */
const MAX_MESSAGE_TEXT = 300;
/** Longest `METHOD /path` kept in an error's `message` (a path holds ids, which can be huge). */
const MAX_REQUEST_IN_MESSAGE = 120;

/** `text` cut to `max` characters, marking the cut. @internal */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

type APIErrorClass = new (init: APIErrorInit) => APIError;

/** The spec's Errors table: `status error.type` first, then the status alone. */
const ERROR_TABLE = new Map<string, APIErrorClass>([
  ['400', BadRequestError],
  ['401', AuthenticationError],
  ['403 uploads_disabled', UploadsDisabledError],
  ['403', PermissionDeniedError],
  ['404', NotFoundError],
  ['405', MethodNotAllowedError],
  ['409 forecast_already_running', ForecastAlreadyRunningError],
  ['409 context_not_ready', ContextNotReadyError],
  ['409 idempotency_in_progress', IdempotencyInProgressError],
  ['409 generation_in_progress', DecisionConflictError],
  ['409 decision_archived', DecisionConflictError],
  ['409', ConflictError],
  ['429 too_many_active_forecasts', TooManyActiveForecastsError],
  ['429', RateLimitError],
  ['503', OverloadedError],
]);

/**
 * Builds the error for an HTTP error response, choosing its class from {@link ERROR_TABLE}. A 409
 * whose code the table does not know, answered on a `/decisions` path, is a decision conflict: the
 * spec's list of decision codes is open. @internal
 */
export function makeAPIError(init: APIErrorInit): APIError {
  const Class =
    ERROR_TABLE.get(`${init.status} ${init.type}`) ??
    // Stryker disable next-line StringLiteral: with no request there is no path, and no text but the empty one matches /decisions either
    (init.status === 409 && init.type && init.type !== 'invalid_request_error' && /^\w+ \/decisions(\/|$)/.test(init.request ?? '') ? DecisionConflictError : undefined) ??
    ERROR_TABLE.get(`${init.status}`) ??
    (init.status >= 500 ? InternalServerError : APIError);
  return new Class(init);
}

/**
 * Reads `Retry-After`: delta seconds or an HTTP date. Returns milliseconds, at most {@link MAX_TIMER_MS}
 * (about 24.8 days), or `undefined` when absent or unreadable.
 * @internal
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  // Capped at what one timer holds: a wait of years (a date in 2099) handed to setTimeout would fire after 1 ms.
  if (/^\d+(\.\d+)?$/.test(text)) return Math.min(MAX_TIMER_MS, Math.round(Number(text) * 1000));
  // An HTTP date names its month; Date.parse would also read `-3` or `1.5.2` as a day in 2001.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.min(MAX_TIMER_MS, Math.max(0, at - now));
}

/**
 * A wait (`forecasts.wait`, `waitMany`, `createAndWait`) reached its `timeout` before the tasks were
 * final. The tasks keep running on the service; `lastSeen` holds their last known state, and `cause`
 * the last failure when the time ran out while the service could not be read (an outage).
 *
 * @example
 * ```ts
 * try { await client.forecasts.wait(taskId, { timeout: 600_000 }); }
 * catch (err) { if (err instanceof WaitTimeoutError) console.log(err.taskIds, err.lastSeen, err.cause); }
 * ```
 */
export class WaitTimeoutError extends ForecastingError {
  override name = 'WaitTimeoutError';
  constructor(
    message: string,
    /** The tasks not yet final. */
    override readonly taskIds: string[],
    /** The last state read of each task not yet final. */
    readonly lastSeen: unknown[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * A context file as the errors of a readiness wait list it: `id`, `status`, and whatever else the service showed.
 * @example
 * ```ts
 * try { await client.questions.files.waitUntilReady(questionId); }
 * catch (err) {
 *   if (!(err instanceof ContextFileFailedError)) throw err;
 *   const failed: ContextFileSummary[] = err.files;
 *   for (const f of failed) await client.questions.files.delete(questionId, f.id);
 * }
 * ```
 */
export interface ContextFileSummary {
  id: string;
  status: string;
  filename?: string | undefined;
}

/**
 * A readiness wait (`questions.files.waitUntilReady`, or `createAndWait` with `waitForContext`)
 * found a file that `failed`: it never becomes ready. Remove it (`questions.files.delete`) and
 * upload it again.
 *
 * @example
 * ```ts
 * try { await client.questions.files.waitUntilReady(questionId); }
 * catch (err) { if (err instanceof ContextFileFailedError) console.log(err.files.map((f) => f.id)); }
 * ```
 */
export class ContextFileFailedError extends ForecastingError {
  override name = 'ContextFileFailedError';
  constructor(
    message: string,
    /** The files that failed. */
    readonly files: ContextFileSummary[],
  ) {
    super(message);
  }
}

/**
 * A readiness wait reached its `timeout` while files were still processing; `files` lists them.
 * A {@link WaitTimeoutError} (with no task ids), so one `catch` covers every wait.
 *
 * @example
 * ```ts
 * try { await client.questions.files.waitUntilReady(questionId, { timeout: 60_000 }); }
 * catch (err) { if (err instanceof ContextWaitTimeoutError) console.log(err.files); }
 * ```
 */
export class ContextWaitTimeoutError extends WaitTimeoutError {
  override name = 'ContextWaitTimeoutError';
  constructor(
    message: string,
    /** The files still processing at the last read. */
    readonly files: ContextFileSummary[],
  ) {
    super(message, [], files);
  }
}

/**
 * `JSON.stringify(value)`, or a {@link ValidationError} on `field` when the value cannot be JSON (a
 * `BigInt`, a cycle, a `toJSON` that throws, nesting too deep), rather than the bare error. @internal
 */
export function toJSONText(value: unknown, field: string, what = ''): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    const reason = err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
    throw new ValidationError(`${what}cannot be sent as JSON (${clip(reason, 200)})`, field);
  }
}
