/**
 * Beside OpenTelemetry's instrumentation of `fetch` (UndiciInstrumentation, in NodeSDK's
 * auto-instrumentations): it draws an HTTP span per request and sends that span's `traceparent`.
 * A call's CLIENT span is then made the active span while the call runs, so that the HTTP spans are
 * drawn inside it; and a request of ours to which that instrumentation adds its `traceparent` sends
 * that one alone (both would be sent, comma-joined). Decided per request: a request it ignores (its
 * `ignoreRequestHook`, no parent under `requireParentforSpans`, disabled) keeps ours.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import { context, type Context } from '@opentelemetry/api';
import { CHANNELS, type OperationMessage } from '../core/channels.js';

/** The channels undici publishes each request on as it is made, and its answer's head as it comes. */
const REQUEST_CREATED = 'undici:request:create';
const RESPONSE_HEADERS = 'undici:request:headers';

/** The `traceparent` values our calls in flight send: a request that carries one is ours. */
const ours = new Set<string>();

/** Marks `traceparent` as a call's of ours until {@link sent}. @internal */
export const sending = (traceparent: string | undefined): void => void (traceparent && ours.add(traceparent));
/** The call that sent `traceparent` ended. @internal */
export const sent = (traceparent: string | undefined): void => void (traceparent && ours.delete(traceparent));

/** undici's request as its channel gives it (undici 6 and 7: headers as a flat list of names and values). */
interface UndiciRequest {
  headers?: unknown;
  addHeader?: (name: string, value: string) => unknown;
}

/** Where our `traceparent` is in a flat list of headers, and how many there are. */
function traceparents(headers: unknown[]): { at: number; count: number } {
  let at = -1;
  let count = 0;
  for (let i = 0; i < headers.length - 1; i += 2) {
    if (String(headers[i]).toLowerCase() !== 'traceparent') continue;
    count++;
    if (ours.has(String(headers[i + 1]))) at = i;
  }
  return { at, count };
}

/**
 * Each request undici makes, while an instrumentation is enabled: on a request of ours, a
 * `traceparent` someone else added replaces ours; one added after this runs (an instrumentation that
 * subscribed later) too.
 */
function onRequestCreated(message: unknown): void {
  try {
    const request = (message as { request?: UndiciRequest } | null)?.request;
    const headers = request?.headers;
    if (!Array.isArray(headers) || ours.size === 0) return;
    const { at, count } = traceparents(headers);
    if (at < 0) return;
    if (count > 1) return void headers.splice(at, 2);
    const add = request!.addHeader;
    if (typeof add !== 'function') return;
    request!.addHeader = function (name, value) {
      if (String(name).toLowerCase() === 'traceparent') {
        const mine = traceparents(headers).at;
        if (mine >= 0) headers.splice(mine, 2);
      }
      return add.call(this, name, value);
    };
  } catch {
    // A request as undici did not make it: left as it is.
  }
}

/**
 * OpenTelemetry's AsyncLocalStorage, where its context manager keeps one (NodeSDK's does). It is not
 * public API (open-telemetry/opentelemetry-js#6088): looked for, never relied on.
 */
function otelStore(): AsyncLocalStorage<Context> | undefined {
  try {
    const manager = (context as unknown as { _getContextManager?(): unknown })._getContextManager?.();
    const store = (manager as { _asyncLocalStorage?: unknown } | undefined)?._asyncLocalStorage;
    return store instanceof AsyncLocalStorage ? (store as AsyncLocalStorage<Context>) : undefined;
  } catch {
    return undefined;
  }
}

/** Opens a call's CLIENT span (once) and answers the context it runs in. */
export type CallContext = (m: OperationMessage) => Context;

/**
 * The instrumentations that want their call spans active, in the order they were enabled: one store
 * binding serves them all, the first one's span made active (the docs advise one instrumentation).
 */
const wanting = new Set<CallContext>();
let bound: AsyncLocalStorage<Context> | undefined;
let listening = false;

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
 * Whether something instruments `fetch` now: reads undici's answers (`undici:request:headers`, which
 * OpenTelemetry's instrumentation reads to end its spans, and ours never does). Our reader of its
 * requests is subscribed only then, while an instrumentation is enabled: undici publishes each
 * request to a reader, which costs every request of the process.
 */
function fetchInstrumented(): boolean {
  const instrumented = diagnostics.hasSubscribers(RESPONSE_HEADERS);
  if (listening !== (instrumented && wanting.size > 0)) {
    listening = !listening;
    if (listening) diagnostics.subscribe(REQUEST_CREATED, onRequestCreated);
    else diagnostics.unsubscribe(REQUEST_CREATED, onRequestCreated);
  }
  return instrumented;
}

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
  const store = fetchInstrumented() && wanting.size > 0 ? otelStore() : undefined;
  if (store === bound) return;
  const start = diagnostics.tracingChannel(CHANNELS.operation).start;
  if (bound) start.unbindStore(bound);
  bound = store;
  if (store) start.bindStore(store, transform);
}
