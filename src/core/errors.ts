/**
 * The error hierarchy. Every error the SDK throws is a {@link ForecastingError}, except an abort:
 * a call aborted through its `signal` rejects with the signal's reason, as `fetch` does.
 *
 * HTTP errors are chosen from a table keyed by status and the envelope's `error.type`
 * (see {@link makeAPIError}); users branch with `instanceof` or on `err.type`.
 *
 * @module
 */
import { ForecastingError } from './error-base.js';
import { parseRetryAfter } from './clock.js';
import { clip, oneLine, thrownText } from './text.js';
import type { Redact } from './redact.js';

// One import for every error of the core: the base, and the errors with files of their own.
export { ForecastingError } from './error-base.js';
export { WaitTimeoutError } from './wait-errors.js';
export { WebhookVerificationError, type WebhookVerificationErrorCode } from './webhook-errors.js';

/**
 * JSON members of the error envelope beyond `type` and `message` (`activeTaskId`, `files`, …).
 * @example
 * ```ts
 * if (err instanceof ConflictError) console.log(err.extras['activeTaskId']);
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
  /**
   * Whether a call that met this error is retried, when the class knows better than its status: a
   * service's code class sets it (a conflict that means "still running, ask again", a 429 that no
   * wait fixes). `undefined` leaves it to the status. `true` still retries only a call that is safe
   * to repeat (a read, or a write with an idempotency key).
   */
  static readonly retry: boolean | undefined = undefined;

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

  /**
   * What `JSON.stringify(err)` writes (a logger's serializer often calls it): the error's fields,
   * with one that cannot be written (a body nested deeper than `JSON.stringify` goes: a hostile
   * answer's, kept whole on `body`) written as a note, never a `RangeError` thrown in the logger.
   * @example
   * ```ts
   * try { await client.questions.retrieve(questionId); }
   * catch (err) { console.error(JSON.stringify(err)); } // {"name":"NotFoundError","status":404,"type":"not_found","headers":{"x-request-id":"…",…},…,"message":"404 not_found: …"}
   * ```
   */
  toJSON(): Record<string, unknown> {
    // `message` is an Error's own but not enumerable; `Headers` write as `{}`. (Both already redacted.)
    const fields: Record<string, unknown> = { ...(this as object), message: this.message };
    for (const name in fields) {
      try {
        // Inside the guard: an error built by hand may hold headers that are not iterable.
        if (name == 'headers') fields[name] = Object.fromEntries(this.headers);
        JSON.stringify(fields[name]);
      } catch {
        fields[name] = '[not written: nested too deeply]';
      }
    }
    return fields;
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
 * 409: a conflict. Subclasses (beside the operations, in `api/errors.ts`) name the codes users branch on.
 * @example
 * ```ts
 * catch (err) { if (err instanceof ConflictError && err.type === 'invalid_request_error') console.log('too few credits, nothing charged:', err.message); }
 * ```
 */
export class ConflictError extends APIError {
  override name = 'ConflictError';
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

/** Most problems a {@link ValidationError}'s message lists. */
const MAX_ISSUES_IN_MESSAGE = 10;

/**
 * The input broke a rule of the spec; nothing was sent. `field` names the first offending field;
 * the message lists the first ten problems, `issues` every one.
 *
 * @example
 * ```ts
 * try { await client.questions.create({ type: 'binary', title: '' }); }
 * catch (err) { if (err instanceof ValidationError) console.log(err.field); } // 'title'
 * ```
 */
export class ValidationError extends ForecastingError {
  override name = 'ValidationError';
  /** Dotted path of the first offending field; empty when the call's arguments are wrong (the number of path ids). */
  readonly field: string;
  /** Every problem found. */
  readonly issues: ValidationIssue[];

  constructor(issues: ValidationIssue[] | string, field = '', options?: ErrorOptions) {
    const list = typeof issues === 'string' ? [{ field, message: issues }] : issues;
    // Stryker disable next-line StringLiteral: only the field of `first` is read
    const first = list[0] ?? { field, message: 'invalid input' };
    // One line: a field may be a key of the service's answer (`validateResponses`), any text. The
    // first few problems only: an input may hold thousands (`issues` has them all).
    const shown = list.slice(0, MAX_ISSUES_IN_MESSAGE).map((i) => (i.field ? `${i.field}: ${i.message}` : i.message));
    if (list.length > MAX_ISSUES_IN_MESSAGE) shown.push(`and ${list.length - MAX_ISSUES_IN_MESSAGE} more`);
    super(oneLine(shown.join('; ')), options);
    this.field = first.field;
    this.issues = list;
  }
}

/** Longest envelope message kept in an error's `message`. */
const MAX_MESSAGE_TEXT = 300;
/** Longest `METHOD /path` kept in an error's `message` (a path holds ids, which can be huge). */
const MAX_REQUEST_IN_MESSAGE = 120;

/**
 * The class of an {@link APIError}: what an error table maps a status and code to.
 */
export type APIErrorClass = new (init: APIErrorInit) => APIError;

/**
 * Classes by `status error.type` (a service's own codes), handed in by the client: the core knows only
 * the statuses.
 */
export type ErrorTable = ReadonlyMap<string, APIErrorClass>;

/**
 * A declared fallback for the codes an {@link ErrorTable} does not list: an answer of `status` with a
 * code, other than the `except` codes, gets `error` (see `GroupOptions.unknownCode`).
 */
export interface UnknownCodeRule {
  status: number;
  error: APIErrorClass;
  except?: readonly string[];
}

/** The classes by status alone, the HTTP mechanism: a code the client's table names comes first. */
const STATUS_ERRORS = new Map<number, APIErrorClass>([
  [400, BadRequestError],
  [401, AuthenticationError],
  [403, PermissionDeniedError],
  [404, NotFoundError],
  [405, MethodNotAllowedError],
  [409, ConflictError],
  [429, RateLimitError],
  [503, OverloadedError],
]);

/** What a client tells the core of its service's errors. */
export interface ErrorRules {
  /** Classes by `status error.type`. */
  codes: ErrorTable;
  /** The unknown-code rule of the requests to `path`, for a call that names no operation (a generic one). */
  unknownCodeAt?(path: string): UnknownCodeRule | undefined;
}

const NO_RULES: ErrorRules = { codes: new Map() };

/**
 * Builds the error for an HTTP error response. The class is, in order: the one `rules.codes` gives
 * for `status error.type`; the `unknownCode` rule's (the operation's own, else the one
 * `rules.unknownCodeAt` gives for the request's path); the status's; then `InternalServerError` for
 * any other 5xx and `APIError` for the rest. @internal
 */
export function makeAPIError(init: APIErrorInit, rules: ErrorRules = NO_RULES, unknownCode?: UnknownCodeRule): APIError {
  const { status, type } = init;
  // `request` is `METHOD /path`.
  const rule = unknownCode ?? (type && init.request ? rules.unknownCodeAt?.(init.request.slice(init.request.indexOf(' ') + 1)) : undefined);
  const Class =
    (type === undefined ? undefined : rules.codes.get(`${status} ${type}`)) ??
    (type && rule?.status === status && !rule.except?.includes(type) ? rule.error : undefined) ??
    STATUS_ERRORS.get(status) ??
    (status >= 500 ? InternalServerError : APIError);
  return new Class(init);
}

/**
 * `JSON.stringify(value)`, or a {@link ValidationError} on `field` when the value cannot be JSON (a
 * `BigInt`, a cycle, a `toJSON` that throws, nesting too deep), rather than the bare error; the
 * key out of the reason quoted (`redact`), before it is cut. @internal
 */
export function toJSONText(value: unknown, field: string, what = '', redact?: Redact): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    const reason = thrownText(err).split('\n')[0]!;
    throw new ValidationError(`${what}cannot be sent as JSON (${clip(redact ? redact(reason) : reason, 200)})`, field);
  }
}
