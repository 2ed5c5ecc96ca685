// Two ForecastingInstrumentations in one process (the docs advise one): each draws its own spans,
// and the call's traceparent names the first one's span, with the global W3C propagator set (as
// NodeSDK sets it), which would otherwise overwrite the header with the second one's.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import diagnostics from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, ForecastingClient } from '../../src/index.js';
import { ForecastingInstrumentation } from '../../src/otel/index.js';
import { startMockServer, type MockServer } from '../../src/testing/index.js';
import { useOtel } from './_otel.js';

const otel = useOtel();
const ignore = () => undefined;
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(() => mock.close());

describe('two instrumentations', () => {
  it('each draws the call; the traceparent sent names the first one’s span', async () => {
    const second = new ForecastingInstrumentation({ enabled: false });
    const exporter = new InMemorySpanExporter();
    second.setTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    second.enable();
    try {
      await new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' }).credits.retrieve();
    } finally {
      second.disable();
    }
    const first = otel.span('credits.retrieve').spanContext();
    const other = exporter.getFinishedSpans().find((s) => s.name === 'credits.retrieve')!.spanContext();
    expect(other.spanId).not.toBe(first.spanId);
    const [sent] = mock.service.requests.list({ operation: 'credits.retrieve' });
    expect(sent!.headers['traceparent']).toBe(`00-${first.traceId}-${first.spanId}-01`);
  });

  it('overwrites what is not a traceparent that a subscriber before it left (the trace is never lost)', async () => {
    const junk = (m: unknown) => void ((m as { headers: Record<string, unknown> }).headers['traceparent'] = 'not-a-traceparent');
    const channel = diagnostics.tracingChannel(CHANNELS.operation);
    const subscriber = { start: junk, end: ignore, asyncStart: ignore, asyncEnd: ignore, error: ignore } as unknown as diagnostics.TracingChannelSubscribers<object>;
    // Subscribed before the instrumentation: disable and enable it again so that it comes after.
    otel.instrumentation.disable();
    channel.subscribe(subscriber);
    otel.instrumentation.enable();
    mock.service.requests.clear();
    otel.exporter.reset();
    try {
      await new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' }).credits.retrieve();
    } finally {
      channel.unsubscribe(subscriber);
    }
    const span = otel.span('credits.retrieve').spanContext();
    const [sent] = mock.service.requests.list({ operation: 'credits.retrieve' });
    expect(sent!.headers['traceparent']).toBe(`00-${span.traceId}-${span.spanId}-01`);
  });
});
