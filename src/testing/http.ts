/**
 * Responses of the mock service: JSON bodies, the error envelope, and the error handlers throw.
 * @module
 */

/** Headers every answer may carry, as a plain map. */
export type HeaderMap = Record<string, string>;

/**
 * Thrown by a handler to answer with the spec's error envelope
 * `{type: 'error', error: {type, message, ...extra}}`.
 *
 * @example
 * ```ts
 * throw new MockHttpError(409, 'forecast_already_running', 'questionId: a forecast is running', { activeTaskId });
 * ```
 */
export class MockHttpError extends Error {
  override name = 'MockHttpError';
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: HeaderMap = {},
    /** The field the message starts with (`field: …`), when it names one. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** 400 `invalid_request_error`; `field` prefixes the message as `field: message`. */
export function badRequest(message: string, field?: string): MockHttpError {
  return new MockHttpError(400, 'invalid_request_error', field ? `${field}: ${message}` : message, {}, {}, field);
}

/** 404 `not_found`. */
export function notFound(message: string): MockHttpError {
  return new MockHttpError(404, 'not_found', message);
}

/** 405 `invalid_request_error` with the `Allow` header the spec asks for. */
export function methodNotAllowed(method: string, allow: readonly string[]): MockHttpError {
  const list = allow.join(', ');
  return new MockHttpError(405, 'invalid_request_error', `${method} is not allowed here; allowed: ${list}`, {}, { allow: list });
}

/** 409 with `type` (default `invalid_request_error`, the spec's type for a generic conflict). */
export function conflict(message: string, type = 'invalid_request_error', extra?: Record<string, unknown>): MockHttpError {
  return new MockHttpError(409, type, message, extra);
}

/** 429 `rate_limit_error` with `Retry-After` in whole seconds. */
export function rateLimited(message: string, retryAfterSeconds: number): MockHttpError {
  return new MockHttpError(429, 'rate_limit_error', message, {}, { 'retry-after': String(retryAfterSeconds) });
}

/** The `error.type` used when a status is answered without one (fault injection). */
export function defaultErrorType(status: number): string {
  const table: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'invalid_api_key',
    403: 'permission_denied',
    404: 'not_found',
    405: 'invalid_request_error',
    409: 'invalid_request_error',
    429: 'rate_limit_error',
    503: 'overloaded_error',
  };
  return table[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** A JSON answer. `undefined` body gives an empty answer (for 204). */
export function jsonResponse(status: number, body: unknown, headers: HeaderMap = {}): Response {
  if (body === undefined) return new Response(null, { status, headers });
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** The error envelope for `error`. */
export function errorResponse(error: MockHttpError, headers: HeaderMap = {}): Response {
  const body = { type: 'error', error: { ...error.extra, type: error.type, message: error.message } };
  return jsonResponse(error.status, body, { ...headers, ...error.headers });
}

/**
 * A handler's answer when it needs a status or headers other than the operation's defaults.
 *
 * @example
 * ```ts
 * return new Reply(task, { status: 202, headers: { 'retry-after': '15' } });
 * ```
 */
export class Reply {
  readonly status: number | undefined;
  readonly headers: HeaderMap;
  constructor(
    readonly body: unknown,
    init: { status?: number; headers?: HeaderMap } = {},
  ) {
    this.status = init.status;
    this.headers = init.headers ?? {};
  }
}
