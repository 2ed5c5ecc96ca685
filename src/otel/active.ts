/**
 * Beside OpenTelemetry's instrumentation of `fetch` (UndiciInstrumentation, in NodeSDK's
 * auto-instrumentations): it draws an HTTP span per request and sends that span's `traceparent`.
 * A call's CLIENT span is then made the active span while the call runs, so that the HTTP spans are
 * drawn inside it, and the `traceparent` is left to that instrumentation: ours as well would send two.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import { context, type Context } from '@opentelemetry/api';
import { CHANNELS, type OperationMessage } from '../core/channels.js';

/** The channel undici publishes each request on as it is made: OpenTelemetry's fetch instrumentation reads it. */
const REQUEST_CREATED = 'undici:request:create';

/**
 * Whether something instruments `fetch` now (subscribes to undici's requests, as OpenTelemetry's
 * UndiciInstrumentation does): it then sends each request's `traceparent`. @internal
 */
export const fetchInstrumented = (): boolean => diagnostics.hasSubscribers(REQUEST_CREATED);

/**
 * OpenTelemetry's AsyncLocalStorage, where its context manager keeps one (NodeSDK's does). It is not
 * public API (open-telemetry/opentelemetry-js#6088): looked for, never relied on.
 */
function otelStore(): AsyncLocalStorage<Context> | undefined {
  const manager = (context as unknown as { _getContextManager?(): unknown })._getContextManager?.();
  const store = (manager as { _asyncLocalStorage?: unknown } | undefined)?._asyncLocalStorage;
  return store instanceof AsyncLocalStorage ? (store as AsyncLocalStorage<Context>) : undefined;
}

/** Opens a call's CLIENT span (once) and answers the context it runs in. */
export type CallContext = (m: OperationMessage) => Context;

/**
 * The instrumentations that want their call spans active, in the order they were enabled: one store
 * binding serves them all, the first one's span made active (the docs advise one instrumentation).
 */
const wanting = new Set<CallContext>();
let bound: AsyncLocalStorage<Context> | undefined;

const transform = (message: unknown): Context => {
  // A transform that throws is thrown on the next tick by Node: never.
  try {
    for (const callContext of wanting) return callContext(message as OperationMessage);
  } catch {
    // The call runs in the context it was made in.
  }
  return context.active();
};

/**
 * Binds OpenTelemetry's store to the `operation` channel's `start` while something instruments
 * `fetch` and an instrumentation wants it, and unbinds it otherwise; called as an instrumentation is
 * enabled or disabled and as each call starts (a context manager set later, or a new one, is found;
 * from the next call on). Only then: a store bound costs every call (and on Node 20 turns on async
 * hooks for every promise of the process). @internal
 */
export function bindCallContext(callContext: CallContext, want: boolean): void {
  if (want) wanting.add(callContext);
  else wanting.delete(callContext);
  const store = wanting.size > 0 && fetchInstrumented() ? otelStore() : undefined;
  if (store === bound) return;
  const start = diagnostics.tracingChannel(CHANNELS.operation).start;
  if (bound) start.unbindStore(bound);
  bound = store;
  if (store) start.bindStore(store, transform);
}
