// ForecastingInstrumentation where the other otel tests do not go: disable() while a call or a wait
// runs (its span used to stay open for ever, its children orphans), enable() again before it ends,
// many enable/disable rounds, and calls and waits aborted. A span processor sees every span started
// and ended, so one left open shows.
import diagnostics from 'node:diagnostics_channel';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type Span, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNELS, ForecastingClient } from '../../src/index.js';
import { ForecastingInstrumentation } from '../../src/otel/index.js';
import { startMockServer, type MockServer } from '../../src/testing/index.js';

class Reader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** The spans started and not yet ended, by name. */
class OpenSpans implements SpanProcessor {
  readonly open = new Set<Span>();
  onStart(span: Span): void {
    this.open.add(span);
  }
  onEnd(span: ReadableSpan): void {
    this.open.delete(span as Span);
  }
  names(): string[] {
    return [...this.open].map((s) => s.name);
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const open = new OpenSpans();
const exporter = new InMemorySpanExporter();
const instrumentation = new ForecastingInstrumentation({ enabled: false });
instrumentation.setTracerProvider(new BasicTracerProvider({ spanProcessors: [open, new SimpleSpanProcessor(exporter)] }));
const reader = new Reader();
instrumentation.setMeterProvider(new MeterProvider({ readers: [reader] }));
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ timeScale: 3600 });
  instrumentation.enable();
});
afterAll(async () => {
  instrumentation.disable();
  await mock.close();
});
afterEach(() => {
  instrumentation.enable();
  exporter.reset();
  mock.service.faults.clear();
});

const client = () => new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off', retryBackoff: { initialDelay: 1, maxDelay: 1 } });
const named = (name: string) => exporter.getFinishedSpans().filter((s) => s.name === name);
/** Whether any of the instrumentation's channels still has a subscriber. */
const subscribed = () =>
  diagnostics.hasSubscribers(CHANNELS.retry) ||
  diagnostics.hasSubscribers(CHANNELS.coordinator) ||
  [CHANNELS.operation, CHANNELS.wait, CHANNELS.queue, CHANNELS.webhook].some((name) => diagnostics.tracingChannel(name).hasSubscribers);

describe('disable() while calls run', () => {
  it('ends the span of a call under way with its outcome; starts none for a later call; then unsubscribes from everything', async () => {
    const question = await client().questions.create({ type: 'binary', title: 'Disabled mid-call?' });
    mock.service.faults.add({ operation: 'questions.retrieve', delayMs: 200 });
    const running = client().questions.retrieve(question.id);
    await vi.waitFor(() => expect(open.names()).toContain('questions.retrieve'));
    instrumentation.disable();
    await client().credits.retrieve();
    // Still subscribed for the call under way, and only for it.
    expect(subscribed()).toBe(true);
    await running;
    await vi.waitFor(() => expect(subscribed()).toBe(false));
    expect(open.names()).toEqual([]);
    const [span, ...more] = named('questions.retrieve');
    expect(more).toEqual([]);
    expect(span!.attributes['http.response.status_code']).toBe(200);
    expect(named('credits.retrieve')).toEqual([]);
  });

  it('ends a wait under way once, when enable() came back before it ended, and doubles no handler', async () => {
    const c = client();
    const question = await c.questions.create({ type: 'binary', title: 'Toggled mid-wait?' });
    const task = await c.forecasts.create({ questionId: question.id });
    exporter.reset();
    const waiting = c.forecasts.wait(task.id);
    await vi.waitFor(() => expect(open.names()).toContain('forecasts.wait'));
    instrumentation.disable();
    instrumentation.enable();
    await waiting;
    expect(open.names()).toEqual([]);
    expect(named('forecasts.wait')).toHaveLength(1);
    exporter.reset();
    await c.credits.retrieve();
    expect(named('credits.retrieve')).toHaveLength(1);
  });

  it('leaves no subscriber after 1,000 rounds of enable and disable, and draws one span per call in between', async () => {
    for (let i = 0; i < 1_000; i++) {
      instrumentation.disable();
      instrumentation.enable();
    }
    await client().credits.retrieve();
    expect(named('credits.retrieve')).toHaveLength(1);
    instrumentation.disable();
    expect(subscribed()).toBe(false);
  });
});

describe('calls and waits aborted', () => {
  it('ends the span of an aborted call and of an aborted wait, as errors', async () => {
    const c = client();
    const question = await c.questions.create({ type: 'binary', title: 'Aborted?' });
    mock.service.faults.add({ operation: 'questions.retrieve', delayMs: 2_000 });
    const call = new AbortController();
    const slow = c.questions.retrieve(question.id, { signal: call.signal });
    setTimeout(() => call.abort(), 50);
    await expect(slow).rejects.toThrow();
    const task = await c.forecasts.create({ questionId: question.id });
    const wait = new AbortController();
    const waiting = c.forecasts.wait(task.id, { signal: wait.signal });
    setTimeout(() => wait.abort(), 50);
    await expect(waiting).rejects.toThrow();
    await vi.waitFor(() => expect(open.names()).toEqual([]));
    expect(named('questions.retrieve').at(-1)!.attributes['error.type']).toBeDefined();
    expect(named('forecasts.wait').at(-1)!.attributes['error.type']).toBeDefined();
  });
});

describe('another subscriber that replaces a message\'s fields (docs/observability.md allows it)', () => {
  /** Runs `fn` with `handlers` subscribed to `channel` ahead of the instrumentation (subscribers run in order). */
  async function withOtherFirst(channel: string, handlers: Partial<diagnostics.TracingChannelSubscribers<object>>, fn: () => Promise<unknown>): Promise<void> {
    instrumentation.disable();
    await vi.waitFor(() => expect(subscribed()).toBe(false));
    const tracing = diagnostics.tracingChannel(channel);
    tracing.subscribe(handlers as diagnostics.TracingChannelSubscribers<object>);
    instrumentation.enable();
    try {
      await fn();
    } finally {
      tracing.unsubscribe(handlers as diagnostics.TracingChannelSubscribers<object>);
    }
  }

  it.each<[string, (m: Record<string, unknown>) => void]>([
    ['headers null', (m) => void (m['headers'] = null)],
    ['headers a getter that throws', (m) => void Object.defineProperty(m, 'headers', { get: () => { throw new Error('no'); } })],
    ['answer ids that are no strings', (m) => void (m['answerIds'] = { task_id: 42 })],
  ])('ends the call\'s span all the same (%s), and disable() then leaves no subscriber', async (_, replace) => {
    await withOtherFirst(CHANNELS.operation, { asyncStart: replace as (m: object) => void }, async () => {
      await client().questions.create({ type: 'binary', title: 'Replaced?' });
      expect(open.names()).toEqual([]);
      expect(named('questions.create').at(-1)!.attributes['http.response.status_code']).toBe(201);
    });
    instrumentation.disable();
    await vi.waitFor(() => expect(subscribed()).toBe(false));
  });

  /** How many durations `metric` has recorded for `attribute`'s value, so far. */
  async function recorded(metric: string, attribute: string, value: string): Promise<number> {
    const { resourceMetrics } = await reader.collect();
    const points = resourceMetrics.scopeMetrics.flatMap((m) => m.metrics).filter((m) => m.descriptor.name === metric).flatMap((m) => m.dataPoints as ReadonlyArray<{ attributes: Record<string, unknown>; value: unknown }>);
    return points.filter((p) => p.attributes[attribute] === value).reduce((n, p) => n + (p.value as { count: number }).count, 0);
  }

  it('reads each field of a call\'s end on its own: one made unreadable is left out, not the rest, and the duration is recorded', async () => {
    const before = await recorded('forecasting.client.operation.duration', 'forecasting.operation', 'questions.create');
    const unreadable = (m: object) => void Object.defineProperty(m, 'status', { get: () => { throw new Error('no'); } });
    await withOtherFirst(CHANNELS.operation, { asyncEnd: unreadable }, async () => {
      const question = await client().questions.create({ type: 'binary', title: 'Status unreadable?' });
      const span = named('questions.create').at(-1)!;
      expect(span.attributes).not.toHaveProperty('http.response.status_code');
      expect(span.attributes).toMatchObject({ 'forecasting.attempts': 1, 'forecasting.question_id': question.id });
    });
    expect(await recorded('forecasting.client.operation.duration', 'forecasting.operation', 'questions.create')).toBe(before + 1);
  });

  it('ends a failed wait as failed, with its duration, when its wakes are taken away', async () => {
    const c = client();
    const task = await c.forecasts.create({ question: { type: 'binary', title: 'Wakes gone, wait failed?' } });
    const before = await recorded('forecasting.wait.duration', 'forecasting.wait.kind', 'wait');
    await withOtherFirst(CHANNELS.wait, { asyncEnd: (m) => void ((m as Record<string, unknown>)['wakes'] = undefined) }, async () => {
      await expect(c.forecasts.wait(task.id, { timeout: 1 })).rejects.toThrow();
      const span = named('forecasts.wait').at(-1)!;
      expect(span.attributes).toMatchObject({ 'forecasting.wait.kind': 'wait', 'error.type': 'WaitTimeoutError', 'forecasting.task_id': task.id });
      expect(span.status.code).toBe(2);
    });
    expect(await recorded('forecasting.wait.duration', 'forecasting.wait.kind', 'wait')).toBe(before + 1);
  });

  it.each<[string, (m: Record<string, unknown>) => void]>([
    ['task ids made null', (m) => void (m['taskIds'] = null)],
    ['counts whose reading throws', (m) => void (m['wakes'] = { get poll(): never { throw new Error('no'); } })],
    ['links that are no list', (m) => void (m['links'] = 5)],
    ['an error whose name cannot be read', (m) => void (m['error'] = Object.defineProperty(new Error('x'), 'name', { get: () => { throw new Error('no'); } }))],
  ])('ends a failed wait as failed with its duration when another subscriber left %s', async (_, replace) => {
    const c = client();
    const task = await c.forecasts.create({ question: { type: 'binary', title: 'Left unreadable?' } });
    const before = await recorded('forecasting.wait.duration', 'forecasting.wait.kind', 'wait');
    await withOtherFirst(CHANNELS.wait, { asyncEnd: replace as (m: object) => void }, async () => {
      await expect(c.forecasts.wait(task.id, { timeout: 1 })).rejects.toThrow();
      const span = named('forecasts.wait').at(-1)!;
      expect(span.status.code).toBe(2);
      expect(span.attributes['error.type']).toMatch(/^(WaitTimeoutError|Error)$/);
    });
    expect(await recorded('forecasting.wait.duration', 'forecasting.wait.kind', 'wait')).toBe(before + 1);
  });

  it('records a call\'s duration when its last attempt cannot be drawn (its method made unreadable after two attempts)', async () => {
    const before = await recorded('forecasting.client.operation.duration', 'forecasting.operation', 'credits.retrieve');
    mock.service.faults.add({ operation: 'credits.retrieve', status: 503, times: 1 });
    const unreadable = (m: object) => void Object.defineProperty(m, 'method', { get: () => { throw new Error('no'); } });
    await withOtherFirst(CHANNELS.operation, { asyncEnd: unreadable }, async () => {
      await client().credits.retrieve();
      expect(named('credits.retrieve').at(-1)!.attributes).toMatchObject({ 'forecasting.attempts': 2, 'http.response.status_code': 200 });
    });
    expect(await recorded('forecasting.client.operation.duration', 'forecasting.operation', 'credits.retrieve')).toBe(before + 1);
  });

  it('ends a wait\'s span all the same when its wakes are taken away', async () => {
    const c = client();
    const task = await c.forecasts.create({ question: { type: 'binary', title: 'Wakes replaced?' } });
    await withOtherFirst(CHANNELS.wait, { asyncStart: (m) => void ((m as Record<string, unknown>)['wakes'] = undefined) }, async () => {
      await c.forecasts.wait(task.id);
      expect(open.names()).toEqual([]);
      expect(named('forecasts.wait')).toHaveLength(1);
    });
  });
});

describe('what the caller puts in a span', () => {
  it('gives a generic request no url.template (its path holds its ids: one value per id, any length); a method has its template', async () => {
    const c = client();
    const question = await c.questions.create({ type: 'binary', title: 'Templated?' });
    await c.get(`/questions/${question.id}`);
    await c.questions.retrieve(question.id);
    expect(named('get').at(-1)!.attributes).not.toHaveProperty('url.template');
    expect(named('questions.retrieve').at(-1)!.attributes['url.template']).toBe('/questions/{question_id}');
  });

  it('puts only id characters from the caller\'s ids in attributes, as from an answer\'s (no control character, no 1 MB)', async () => {
    const c = client();
    await expect(c.questions.retrieve('abc\u001b[31mRED\u0007')).rejects.toThrow();
    await expect(c.questions.retrieve('q'.repeat(201))).rejects.toThrow();
    await expect(c.forecasts.wait('t\u001b]8;;x\u0007', { timeout: 1 })).rejects.toThrow();
    const [bad, long] = named('questions.retrieve').slice(-2);
    expect(bad!.attributes).not.toHaveProperty('forecasting.question_id');
    expect(long!.attributes).not.toHaveProperty('forecasting.question_id');
    expect(named('forecasts.wait').at(-1)!.attributes).not.toHaveProperty('forecasting.task_id');
  });
});
