// Two ForecastingInstrumentations in one process (the docs advise one): each draws its own spans,
// and the call's traceparent names the first one's span, with the global W3C propagator set (as
// NodeSDK sets it), which would otherwise overwrite the header with the second one's.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { ForecastingInstrumentation } from '../../src/otel/index.js';
import { startMockServer, type MockServer } from '../../src/testing/index.js';
import { useOtel } from './_otel.js';

const otel = useOtel();
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
});
