// NodeSDK with its fetch instrumentation beside ours, as `getNodeAutoInstrumentations()` sets it up:
// from the first call, each request carries one traceparent, its HTTP span's, drawn inside the
// call's CLIENT span (NodeSDK sets its context manager after it enabled the instrumentations).
import { trace } from '@opentelemetry/api';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { ForecastingInstrumentation } from '../../src/otel/index.js';
import { mockClientOptions, startMockServer } from '../../src/testing/index.js';

const exporter = new InMemorySpanExporter();
const sdk = new NodeSDK({ spanProcessors: [new SimpleSpanProcessor(exporter)], metricReaders: [], logRecordProcessors: [], instrumentations: [new UndiciInstrumentation(), new ForecastingInstrumentation()] });
sdk.start();
afterAll(() => sdk.shutdown());

describe('NodeSDK with UndiciInstrumentation and ForecastingInstrumentation', () => {
  it('the first call: one traceparent, its HTTP span’s, inside the call’s CLIENT span, inside the app’s', async () => {
    const mock = await startMockServer();
    try {
      const client = new ForecastingClient({ ...mockClientOptions(mock), logLevel: 'off' });
      await trace.getTracer('app').startActiveSpan('app', async (span) => {
        await client.credits.retrieve();
        span.end();
      });
      // undici ends its span as its trailers come, which may be a moment after the call read the body.
      await vi.waitFor(() => expect(exporter.getFinishedSpans().map((s) => s.name)).toContain('GET'));
      const spans = exporter.getFinishedSpans();
      const named = (name: string) => spans.filter((s) => s.name === name);
      const parentOf = (s: ReadableSpan) => spans.find((p) => p.spanContext().spanId === s.parentSpanContext?.spanId)?.name;
      const [http] = named('GET');
      expect(named('GET')).toHaveLength(1);
      expect(parentOf(http!)).toBe('credits.retrieve');
      expect(parentOf(named('credits.retrieve')[0]!)).toBe('app');
      const [sent] = mock.service.requests.list({ operation: 'credits.retrieve' });
      expect(sent!.headers['traceparent']).toBe(`00-${http!.spanContext().traceId}-${http!.spanContext().spanId}-01`);
    } finally {
      await mock.close();
    }
  });
});
