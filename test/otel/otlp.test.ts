// The other way users register the instrumentation, `new NodeSDK({ instrumentations })`, exporting
// through the real OTLP/HTTP exporters to a receiver this test starts on 127.0.0.1: what arrives is
// decoded (the spans and metrics by name), and searched, every byte, for the API key.
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { afterAll, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { ForecastingInstrumentation } from '../../src/otel/index.js';
import { mockClientOptions, startMockServer } from '../../src/testing/index.js';

/** What the receiver got, by path: each request's raw body. */
const received = new Map<string, string[]>();
const receiver = createServer((req: IncomingMessage, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.set(req.url ?? '', [...(received.get(req.url ?? '') ?? []), Buffer.concat(chunks).toString('utf8')]);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
afterAll(() => void receiver.close());

interface OtlpTraces {
  resourceSpans: { scopeSpans: { scope: { name: string }; spans: { name: string; attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[];
}
interface OtlpMetrics {
  resourceMetrics: { scopeMetrics: { scope: { name: string }; metrics: { name: string }[] }[] }[];
}

describe('ForecastingInstrumentation with NodeSDK and the OTLP/HTTP exporters', () => {
  it('exports the spans and metrics of a call through OTLP to a collector, with no key in any byte', async () => {
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const instrumentation = new ForecastingInstrumentation();
    const sdk = new NodeSDK({
      traceExporter: new OTLPTraceExporter({ url: `${url}/v1/traces` }),
      metricReaders: [new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter({ url: `${url}/v1/metrics` }), exportIntervalMillis: 60_000 })],
      logRecordProcessors: [],
      instrumentations: [instrumentation],
    });
    sdk.start();
    const mock = await startMockServer();
    const apiKey = mock.apiKey;
    try {
      const client = new ForecastingClient({ ...mockClientOptions(mock), logLevel: 'off', retryBackoff: { initialDelay: 1, maxDelay: 1 } });
      const question = await client.questions.create({ type: 'binary', title: 'Will it rain?' });
      mock.service.faults.add({ operation: 'questions.retrieve', status: 503, times: 1 });
      await client.questions.retrieve(question.id);
    } finally {
      await mock.close();
      // Flushes the batch of spans and the metrics.
      await sdk.shutdown();
      instrumentation.disable();
    }
    const traces = (received.get('/v1/traces') ?? []).map((b) => JSON.parse(b) as OtlpTraces);
    const spans = traces.flatMap((t) => t.resourceSpans.flatMap((r) => r.scopeSpans.filter((s) => s.scope.name === 'forecasting-sdk').flatMap((s) => s.spans)));
    expect(spans.map((s) => s.name).sort()).toEqual(['GET questions.retrieve', 'GET questions.retrieve', 'questions.create', 'questions.retrieve']);
    const retrieve = spans.find((s) => s.name === 'questions.retrieve')!;
    expect(retrieve.attributes).toContainEqual({ key: 'forecasting.question_id', value: { stringValue: expect.any(String) } });
    const metrics = (received.get('/v1/metrics') ?? []).map((b) => JSON.parse(b) as OtlpMetrics);
    const names = new Set(metrics.flatMap((m) => m.resourceMetrics.flatMap((r) => r.scopeMetrics.filter((s) => s.scope.name === 'forecasting-sdk').flatMap((s) => s.metrics.map((x) => x.name)))));
    expect([...names].sort()).toEqual(['forecasting.client.operation.duration', 'forecasting.client.retries']);
    const everything = [...received.values()].flat().join('\n');
    expect(everything.length).toBeGreaterThan(1000);
    expect(everything).not.toContain(apiKey);
    expect(everything).not.toMatch(/Bearer /);
  });
});
