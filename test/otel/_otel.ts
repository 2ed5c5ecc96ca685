// The real OpenTelemetry SDK for the instrumentation's tests: a tracer provider exporting to memory
// (every span as it ends), a meter provider whose reader the test collects, an async-hooks context
// manager, and the instrumentation registered as users register it.
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { MetricReader, MeterProvider, type DataPoint, type Histogram, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { afterAll, beforeAll } from 'vitest';
import { ForecastingInstrumentation } from '../../src/otel/index.js';

/** A reader the test collects when it wants. */
class TestReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export interface Otel {
  exporter: InMemorySpanExporter;
  instrumentation: ForecastingInstrumentation;
  spans(): ReadableSpan[];
  span(name: string): ReadableSpan;
  /** The data points of a metric, collected now. */
  points(name: string): Promise<Array<DataPoint<number | Histogram>>>;
  collect(): Promise<ResourceMetrics>;
}

/** The SDK set up globally for a test file, and torn down after it. */
export function useOtel(): Otel {
  const exporter = new InMemorySpanExporter();
  const reader = new TestReader();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const instrumentation = new ForecastingInstrumentation();
  let unregister: () => void = () => undefined;
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(tracerProvider);
    metrics.setGlobalMeterProvider(meterProvider);
    unregister = registerInstrumentations({ instrumentations: [instrumentation] });
  });
  afterAll(async () => {
    unregister();
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    trace.disable();
    metrics.disable();
    context.disable();
    propagation.disable();
  });
  const collect = async () => (await reader.collect()).resourceMetrics;
  return {
    exporter,
    instrumentation,
    spans: () => exporter.getFinishedSpans(),
    span(name) {
      const found = exporter.getFinishedSpans().filter((s) => s.name === name);
      if (found.length !== 1) throw new Error(`expected one span ${name}, found ${found.length}: ${exporter.getFinishedSpans().map((s) => s.name).join(', ')}`);
      return found[0]!;
    },
    collect,
    async points(name) {
      const all = (await collect()).scopeMetrics.flatMap((s) => s.metrics).filter((m) => m.descriptor.name === name);
      return all.flatMap((m) => m.dataPoints as Array<DataPoint<number | Histogram>>);
    },
  };
}
