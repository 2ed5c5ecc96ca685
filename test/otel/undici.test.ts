// Beside OpenTelemetry's own fetch instrumentation (UndiciInstrumentation, which NodeSDK's
// auto-instrumentations include): each request carries one traceparent, its HTTP span's, and that
// span is drawn inside the call's CLIENT span. Without it, the traceparent names the CLIENT span.
import diagnostics from 'node:diagnostics_channel';
import { request } from 'node:http';
import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AsyncHooksContextManager, AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNELS, ForecastingClient } from '../../src/index.js';
import { mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';
import { useOtel } from './_otel.js';

const otel = useOtel();
const undici = new UndiciInstrumentation();
let mock: MockServer;
let unregister: () => void = () => undefined;
beforeAll(async () => {
  mock = await startMockServer();
  unregister = registerInstrumentations({ instrumentations: [undici] });
});
afterAll(async () => {
  unregister();
  await mock.close();
});
afterEach(() => {
  otel.exporter.reset();
  mock.service.reset();
});

const client = () => new ForecastingClient({ ...mockClientOptions(mock), logLevel: 'off', retryBackoff: { initialDelay: 1, maxDelay: 1 } });
const parentOf = (span: ReadableSpan) => otel.spans().find((s) => s.spanContext().spanId === span.parentSpanContext?.spanId)?.name;
const traceparent = (s: ReadableSpan) => `00-${s.spanContext().traceId}-${s.spanContext().spanId}-01`;

/**
 * A call inside an app's span, as a request handler makes it. With `http`, until the HTTP span of
 * each request sent has ended: undici ends it as its trailers come, which may be a moment after the
 * call read the body.
 */
const inAppSpan = async (fn: () => Promise<unknown>, http = true) => {
  await trace.getTracer('app').startActiveSpan('app', async (span) => {
    try {
      await fn();
    } finally {
      span.end();
    }
  });
  const ended = () => new Set(otel.spans().map((s) => s.spanContext().spanId));
  const sent = () => mock.service.requests.list().map((r) => String(r.headers['traceparent']).split('-')[2]);
  if (http) await vi.waitFor(() => expect(sent().filter((id) => !ended().has(id!))).toEqual([]));
};

describe('beside UndiciInstrumentation', () => {
  it('sends one traceparent, the HTTP span’s, drawn inside the call’s CLIENT span', async () => {
    await inAppSpan(() => client().credits.retrieve());
    const http = otel.span('GET');
    expect(parentOf(http)).toBe('credits.retrieve');
    expect(parentOf(otel.span('credits.retrieve'))).toBe('app');
    const [sent] = mock.service.requests.list({ operation: 'credits.retrieve' });
    expect(sent!.headers['traceparent']).toBe(traceparent(http));
  });

  it('each attempt of a call that retried: one traceparent each, its own HTTP span’s, inside the call', async () => {
    mock.service.faults.add({ operation: 'credits.retrieve', status: 503, times: 1 });
    await inAppSpan(() => client().credits.retrieve());
    const https = otel.spans().filter((s) => s.name === 'GET');
    expect(https).toHaveLength(2);
    for (const http of https) expect(parentOf(http)).toBe('credits.retrieve');
    const sent = mock.service.requests.list({ operation: 'credits.retrieve' }).map((r) => r.headers['traceparent']);
    expect(sent).toEqual(https.map(traceparent));
  });

  it('a wait’s reads: each HTTP span inside its read, inside the wait', async () => {
    const c = client();
    const question = await c.questions.create({ type: 'binary', title: 'Will it rain?' });
    otel.exporter.reset();
    mock.service.requests.clear();
    await inAppSpan(() => c.forecasts.createAndWait({ questionId: question.id }, { timeout: 600_000 }));
    const reads = otel.spans().filter((s) => s.name === 'forecasts.retrieve');
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) expect(parentOf(read)).toBe('forecasts.createAndWait');
    const https = otel.spans().filter((s) => s.name === 'GET');
    expect(https.map(parentOf).every((name) => name === 'forecasts.retrieve')).toBe(true);
    expect(https).toHaveLength(reads.length);
  });

  it('with UndiciInstrumentation disabled, the traceparent names the CLIENT span again', async () => {
    undici.disable();
    try {
      await inAppSpan(() => client().credits.retrieve(), false);
    } finally {
      undici.enable();
    }
    expect(otel.spans().filter((s) => s.name === 'GET')).toEqual([]);
    const [sent] = mock.service.requests.list({ operation: 'credits.retrieve' });
    expect(sent!.headers['traceparent']).toBe(traceparent(otel.span('credits.retrieve')));
  });

  it('with another context manager, the HTTP span is drawn beside the call’s, one traceparent; with a new one set later, inside it from the call after', async () => {
    const useManager = (manager: AsyncHooksContextManager | AsyncLocalStorageContextManager) => {
      context.disable();
      context.setGlobalContextManager(manager.enable());
    };
    const c = client();
    const call = async () => {
      otel.exporter.reset();
      mock.service.requests.clear();
      await inAppSpan(() => c.credits.retrieve());
      const [sent] = mock.service.requests.list({ operation: 'credits.retrieve' });
      expect(sent!.headers['traceparent']).toBe(traceparent(otel.span('GET')));
      return parentOf(otel.span('GET'));
    };
    useManager(new AsyncHooksContextManager());
    try {
      expect(await call()).toBe('app');
    } finally {
      useManager(new AsyncLocalStorageContextManager());
    }
    expect(await call()).toBe('app');
    expect(await call()).toBe('credits.retrieve');
  });

  it('a client given a fetch that is not Node’s (undici’s instrumentation does not see it) sends its call span’s traceparent', async () => {
    // A fetch over node:http, as a library other than undici would make it.
    const httpFetch: typeof fetch = (input, init) =>
      new Promise((resolve, reject) => {
        const asked = new Request(input, init);
        const req = request(asked.url, { method: asked.method, headers: Object.fromEntries(asked.headers) }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 500, headers: res.headers as Record<string, string> })));
        });
        req.on('error', reject);
        req.end();
      });
    await inAppSpan(() => new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off', fetch: httpFetch }).credits.retrieve(), false);
    expect(otel.spans().filter((s) => s.name === 'GET')).toEqual([]);
    const [sent] = mock.service.requests.list({ operation: 'credits.retrieve' });
    expect(sent!.headers['traceparent']).toBe(traceparent(otel.span('credits.retrieve')));
  });

  it('a request the fetch instrumentation leaves alone (its ignoreRequestHook), or that another reader of undici’s requests sees, sends the call span’s traceparent', async () => {
    const ignoring = new UndiciInstrumentation({ ignoreRequestHook: (request) => request.origin === new URL(mock.baseURL).origin });
    undici.disable();
    ignoring.enable();
    const reader = () => undefined;
    try {
      await inAppSpan(() => client().credits.retrieve(), false);
      ignoring.disable();
      diagnostics.subscribe('undici:request:create', reader);
      await inAppSpan(() => client().credits.retrieve(), false);
    } finally {
      diagnostics.unsubscribe('undici:request:create', reader);
      ignoring.disable();
      undici.enable();
    }
    expect(otel.spans().filter((s) => s.name === 'GET')).toEqual([]);
    const calls = otel.spans().filter((s) => s.name === 'credits.retrieve');
    const sent = mock.service.requests.list({ operation: 'credits.retrieve' }).map((r) => r.headers['traceparent']);
    expect(sent).toEqual(calls.map(traceparent));
  });

  // `registerInstrumentations` sets no propagator: UndiciInstrumentation then adds no header, and
  // the call's own (W3C when none is set) goes out. A newcomer read the docs as promising the GET's.
  it('with no global propagator, the fetch instrumentation adds none: the request sends the call span’s traceparent, its GET span drawn inside the call', async () => {
    propagation.disable();
    try {
      // After the tests before, which turn the fetch instrumentation off and on: within two calls.
      await client().credits.retrieve();
      otel.exporter.reset();
      mock.service.requests.clear();
      await inAppSpan(() => client().credits.retrieve());
    } finally {
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    }
    expect(parentOf(otel.span('GET'))).toBe('credits.retrieve');
    const [sent] = mock.service.requests.list({ operation: 'credits.retrieve' });
    expect(sent!.headers['traceparent']).toBe(traceparent(otel.span('credits.retrieve')));
  });

  it('a request the fetch instrumentation leaves alone (requireParentforSpans with no parent; made with enabled: false, then registered) sends the call span’s traceparent', async () => {
    undici.disable();
    // No parent: a call outside any span, with a context manager the call's span cannot be made active in.
    context.disable();
    context.setGlobalContextManager(new AsyncHooksContextManager().enable());
    const needsParent = new UndiciInstrumentation({ requireParentforSpans: true });
    const off = new UndiciInstrumentation({ enabled: false });
    try {
      await client().credits.retrieve();
      needsParent.disable();
      const unregister = registerInstrumentations({ instrumentations: [off] });
      try {
        await client().credits.retrieve();
      } finally {
        unregister();
      }
    } finally {
      needsParent.disable();
      context.disable();
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
      undici.enable();
    }
    expect(otel.spans().filter((s) => s.name === 'GET')).toEqual([]);
    const calls = otel.spans().filter((s) => s.name === 'credits.retrieve');
    expect(calls).toHaveLength(2);
    const sent = mock.service.requests.list({ operation: 'credits.retrieve' }).map((r) => r.headers['traceparent']);
    expect(sent).toEqual(calls.map(traceparent));
  });

  it('the fetch instrumentation disabled while a call waits to retry: the next attempt sends the call span’s traceparent', async () => {
    mock.service.faults.add({ operation: 'credits.retrieve', status: 503, times: 1 });
    const c = client();
    c.on('retry', () => undici.disable());
    try {
      await inAppSpan(() => c.credits.retrieve(), false);
    } finally {
      undici.enable();
    }
    await vi.waitFor(() => expect(otel.spans().filter((s) => s.name === 'GET')).toHaveLength(1));
    const sent = mock.service.requests.list({ operation: 'credits.retrieve' }).map((r) => r.headers['traceparent']);
    expect(sent).toEqual([traceparent(otel.span('GET')), traceparent(otel.span('credits.retrieve'))]);
  });

  it('disable() unbinds the store with the rest: a client then publishes nothing', async () => {
    await inAppSpan(() => client().credits.retrieve());
    const channel = diagnostics.tracingChannel(CHANNELS.operation);
    otel.instrumentation.disable();
    try {
      // A store bound to `start` counts as a subscriber: the client would still trace every call.
      expect(channel.hasSubscribers).toBe(false);
    } finally {
      otel.instrumentation.enable();
    }
    expect(channel.hasSubscribers).toBe(true);
  });

  it('the fetch instrumentation enabled again while a call waits to retry (its reader now after ours): the next attempt sends its HTTP span’s traceparent alone', async () => {
    mock.service.faults.add({ operation: 'credits.retrieve', status: 503, times: 1 });
    const c = client();
    c.on('retry', () => {
      undici.disable();
      undici.enable();
    });
    await inAppSpan(() => c.credits.retrieve());
    const https = otel.spans().filter((s) => s.name === 'GET');
    const sent = mock.service.requests.list({ operation: 'credits.retrieve' }).map((r) => r.headers['traceparent']);
    expect(sent).toEqual(https.map(traceparent));
  });

  it('the fetch instrumentation enabled while calls run: within two calls, one traceparent, the HTTP span inside the call’s', async () => {
    undici.disable();
    const c = client();
    try {
      await inAppSpan(() => c.credits.retrieve(), false);
    } finally {
      undici.enable();
    }
    await inAppSpan(() => c.credits.retrieve());
    otel.exporter.reset();
    mock.service.requests.clear();
    await inAppSpan(() => c.credits.retrieve());
    expect(parentOf(otel.span('GET'))).toBe('credits.retrieve');
    const [sent] = mock.service.requests.list({ operation: 'credits.retrieve' });
    expect(sent!.headers['traceparent']).toBe(traceparent(otel.span('GET')));
  });
});
