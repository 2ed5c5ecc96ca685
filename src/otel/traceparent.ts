/**
 * The W3C `traceparent` of a span, read back from a message (another process's receipt) and added to
 * a call's headers.
 * @module
 */
import { propagation, trace, type Context, type Span, type SpanContext } from '@opentelemetry/api';

/** A span's W3C traceparent. */
export function traceparentOf(span: Span): string {
  const sc = span.spanContext();
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** The span context a W3C traceparent names (a remote one: another process's receipt), else `undefined`. */
export function contextOfTraceparent(traceparent: string): SpanContext | undefined {
  const [, traceId, spanId, flags] = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(traceparent) ?? [];
  if (traceId === undefined || spanId === undefined || flags === undefined) return undefined;
  const sc: SpanContext = { traceId, spanId, traceFlags: Number.parseInt(flags, 16), isRemote: true };
  return trace.isSpanContextValid(sc) ? sc : undefined;
}

/**
 * Adds the span's context to the call's headers with the global propagator; W3C `traceparent`
 * when that propagator writes none (no SDK registered one): the service's logs can name the trace.
 */
export function injectTraceparent(parent: Context, span: Span, headers: Record<string, string>): void {
  // Another instrumentation got there first: the call names its span, not ours too (a propagator
  // overwrites). Only a valid one counts: a subscriber's junk is overwritten, never the trace lost.
  const first = headers['traceparent'];
  if (typeof first === 'string' && contextOfTraceparent(first) !== undefined) return;
  propagation.inject(trace.setSpan(parent, span), headers);
  // A recording span has a valid context: the ids' check is for one that does not record.
  if (headers['traceparent'] === undefined && (span.isRecording() || trace.isSpanContextValid(span.spanContext()))) headers['traceparent'] = traceparentOf(span);
}
