/**
 * A message's outcome as span and metric attributes: the error's class (OpenTelemetry's
 * `error.type`), the duration metric's attributes, and fields read one by one (another subscriber
 * may have replaced one). Never an error's message.
 * @module
 */
import { SpanStatusCode, type Attributes, type Span } from '@opentelemetry/api';

/**
 * The duration metric's attributes of a call that succeeded, by operation and status: one object
 * per pair for the process's life (a bounded set: the SDK's methods and the generic verbs, by the
 * statuses HTTP has), so a record hashes attributes it has seen rather than new ones.
 */
const SUCCEEDED = new Map<string, Map<number | undefined, Attributes>>();
export const succeeded = (operation: string, status: number | undefined): Attributes => {
  let byStatus = SUCCEEDED.get(operation);
  if (byStatus === undefined) SUCCEEDED.set(operation, (byStatus = new Map()));
  let attributes = byStatus.get(status);
  if (attributes === undefined) {
    attributes = { 'forecasting.operation': operation, 'forecasting.outcome': 'success' };
    if (status !== undefined) attributes['http.response.status_code'] = status;
    byStatus.set(status, attributes);
  }
  return attributes;
};

/** The duration metric's attributes of a call that failed: its error's class, and the answer's status when there was one. */
export function failed(operation: string, error: unknown, status: number | undefined): Attributes {
  const attributes: Attributes = { 'forecasting.operation': operation, 'forecasting.outcome': 'error', 'error.type': errorTypeOf(error) };
  if (status !== undefined) attributes['http.response.status_code'] = status;
  return attributes;
}

/**
 * The coordinator's reason for an outage as OpenTelemetry's `error.type`, a code rather than the
 * warning's phrase: a command that got no answer in time is `timeout` (the conventions' own value),
 * a phrase's words are joined by `_` (`connection_closed`); a code (`ECONNREFUSED`, `READONLY`) or a
 * class stays as it is. @internal
 */
export const outageErrorType = (reason: string): string => (reason.startsWith('no answer within') ? 'timeout' : reason.replace(/ /g, '_'));

/** The error's class name (OpenTelemetry's `error.type`): never its message, which may quote an answer. */
export const errorTypeOf = (error: unknown): string => {
  try {
    return error instanceof Error ? error.name || error.constructor.name : typeof error === 'object' && error !== null ? 'Error' : String(typeof error);
  } catch {
    // A name another subscriber made unreadable, a revoked Proxy: a class all the same.
    return 'Error';
  }
};

/** A message's field, or `undefined` when another subscriber made it unreadable (a getter that throws). */
export function read<M extends object, K extends keyof M>(m: M, key: K): M[K] | undefined {
  try {
    return m[key];
  } catch {
    return undefined;
  }
}

/** Ends `span` as failed by `error`, with its class only. */
export function fail(span: Span, error: unknown): void {
  const type = errorTypeOf(error);
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}
