// What docs/observability.md promises of ForecastingInstrumentation that the other otel tests leave
// unasserted: the ids of paths and answers on the CLIENT spans (question, decision, webhook, file),
// the attempt spans' kind and attributes, the retry reasons `connection` and `timeout`, the wait
// spans by name (`forecasts.wait`, `forecasts.waitMany`, `questions.files.waitUntilReady`) with
// their counts and what ended them, and the metrics' attributes, units and buckets. Real OpenTelemetry
// SDK, the mock over HTTP on a manual clock (a client's wait moves it: no real sleeping).
import { context, propagation, SpanKind, trace, type Attributes, type TextMapPropagator } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { DataPointType, type Histogram, type MetricData } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ForecastingClient, type ClientOptions } from '../../src/index.js';
import { ManualClock, mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';
import { createWebhookHandler } from '../../src/webhooks/fetch.js';
import { useOtel } from './_otel.js';

const otel = useOtel();
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ clock: new ManualClock() });
  // No 429 of the mock's own: every retry here is one a test injected.
  mock.service.setRateLimit(false);
});
afterAll(() => mock.close());
afterEach(() => {
  otel.exporter.reset();
  mock.service.reset();
});

const client = (options: ClientOptions = {}) => new ForecastingClient({ ...mockClientOptions(mock), logLevel: 'off', retryBackoff: { initialDelay: 0, maxDelay: 0 }, ...options });
const binary = (title: string) => ({ type: 'binary', title }) as const;

/** The spans of one name, in the order they ended. */
const named = (name: string): ReadableSpan[] => otel.spans().filter((s) => s.name === name);

/** The spans whose parent is `parent`. */
const inside = (parent: ReadableSpan): ReadableSpan[] => otel.spans().filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);

/** The attributes of each data point of a metric, with its value when it is a number. */
async function recorded(metric: string): Promise<Array<{ attributes: Attributes; value: number | Histogram }>> {
  return (await otel.points(metric)).map((p) => ({ attributes: p.attributes, value: p.value }));
}

/** A question with a file, a decision and a webhook (at a public address: the mock keeps it and never calls it). */
async function records(c: ForecastingClient, title: string) {
  const question = await c.questions.create(binary(title));
  const decision = await c.decisions.create({ title: `${title} (a decision)`, options: ['Lisbon', 'Berlin'] });
  const webhook = await c.webhooks.create({ url: 'https://example.com/hooks', eventKinds: ['forecast.completed'] });
  const file = await c.questions.files.upload(question.id, { file: Buffer.from(title), filename: 'notes.txt' });
  return { question, decision, webhook, file };
}

describe('the ids on the CLIENT spans', () => {
  it("names the id of a write's answer: forecasting.question_id, forecasting.decision_id, forecasting.webhook_id, forecasting.file_id", async () => {
    const { question, decision, webhook, file } = await records(client(), 'Will it rain in Oslo?');
    const expected: Array<[string, Attributes]> = [
      ['questions.create', { 'forecasting.question_id': question.id }],
      ['decisions.create', { 'forecasting.decision_id': decision.id }],
      ['webhooks.create', { 'forecasting.webhook_id': webhook.id }],
      // The question from the path, the file from the answer.
      ['questions.files.upload', { 'forecasting.question_id': question.id, 'forecasting.file_id': file.id }],
    ];
    for (const [name, ids] of expected) {
      const span = otel.span(name);
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.attributes).toMatchObject({ 'forecasting.operation': name, ...ids });
    }
  });

  it("names the answer's id by the resource the operation is a method of: a replayed delivery's is its delivery_id, a question's forecast's its task_id; none for a resource it does not list", async () => {
    const c = client();
    const { question, decision, webhook } = await records(c, 'Will it hail in Porto?');
    const delivery = await c.webhooks.test(webhook.id);
    // A new url cancels the waiting delivery: a cancelled one can be replayed.
    await c.webhooks.update(webhook.id, { url: 'https://example.com/other-hooks' });
    await c.webhooks.deliveries.replay(delivery.id);
    // The delivery from the path and the answer, its webhook from the answer's webhookId (not the delivery's id).
    expect(otel.span('webhooks.deliveries.replay').attributes).toMatchObject({ 'forecasting.delivery_id': delivery.id, 'forecasting.webhook_id': webhook.id });
    const task = await c.questions.forecasts.create(question.id, { runMode: 'light', allowIncompleteContext: true });
    expect(otel.span('questions.forecasts.create').attributes).toMatchObject({ 'forecasting.question_id': question.id, 'forecasting.task_id': task.id });
    const comment = await c.decisions.comments.create(decision.id, { text: 'Lisbon has the better port.' });
    const labels = Object.entries(otel.span('decisions.comments.create').attributes).filter(([name]) => name.endsWith('_id'));
    expect(labels).toContainEqual(['forecasting.decision_id', decision.id]);
    expect(JSON.stringify(labels)).not.toContain(comment.id);
  });

  it('names the ids of the path: forecasting.decision_id, forecasting.webhook_id, forecasting.question_id and forecasting.file_id', async () => {
    const c = client();
    const { question, decision, webhook, file } = await records(c, 'Will it snow in Oslo?');
    otel.exporter.reset();
    await c.decisions.retrieve(decision.id);
    await c.webhooks.retrieve(webhook.id);
    await c.questions.files.retrieve(question.id, file.id);
    expect(otel.span('decisions.retrieve').attributes).toMatchObject({ 'url.template': '/decisions/{decision_id}', 'forecasting.decision_id': decision.id });
    expect(otel.span('webhooks.retrieve').attributes).toMatchObject({ 'url.template': '/webhooks/{webhook_id}', 'forecasting.webhook_id': webhook.id });
    expect(otel.span('questions.files.retrieve').attributes).toMatchObject({ 'forecasting.question_id': question.id, 'forecasting.file_id': file.id });
    for (const span of otel.spans()) expect(span.kind).toBe(SpanKind.CLIENT);
  });
});

describe('the attempts and retries of a call', () => {
  it('draws each attempt of a call that retried after a 503 as a CLIENT span with forecasting.operation and http.request.method; counts the retry with reason status', async () => {
    mock.service.faults.add({ operation: 'credits.retrieve', status: 503, times: 1 });
    await client().credits.retrieve();
    const attempts = named('GET credits.retrieve');
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) {
      expect(attempt.kind).toBe(SpanKind.CLIENT);
      expect(attempt.attributes).toMatchObject({ 'forecasting.operation': 'credits.retrieve', 'http.request.method': 'GET' });
    }
    const retries = (await recorded('forecasting.client.retries')).filter((p) => p.attributes['forecasting.operation'] === 'credits.retrieve' && p.attributes['forecasting.retry.reason'] === 'status');
    expect(retries).toEqual([{ attributes: { 'forecasting.operation': 'credits.retrieve', 'forecasting.retry.reason': 'status', 'error.type': 'OverloadedError' }, value: 1 }]);
  });

  it('shows a dropped connection as a retry of reason connection: on the retry event and on the retries counter', async () => {
    mock.service.faults.add({ operation: 'credits.retrieve', drop: true, times: 1 });
    await client().credits.retrieve();
    const span = otel.span('credits.retrieve');
    expect(span.attributes['forecasting.attempts']).toBe(2);
    expect(span.events.map((e) => [e.name, e.attributes])).toEqual([
      ['forecasting.retry', { 'forecasting.retry.reason': 'connection', 'forecasting.retry.delay_ms': 0, 'forecasting.retry.delay_source': 'backoff', 'forecasting.retry.attempt': 1, 'error.type': 'APIConnectionError' }],
    ]);
    const retries = (await recorded('forecasting.client.retries')).filter((p) => p.attributes['forecasting.retry.reason'] === 'connection');
    expect(retries).toEqual([{ attributes: { 'forecasting.operation': 'credits.retrieve', 'forecasting.retry.reason': 'connection', 'error.type': 'APIConnectionError' }, value: 1 }]);
  });

  it('shows an attempt that timed out as a retry of reason timeout, its attempt span failed with APITimeoutError', async () => {
    // The client's timeout runs on a real timer: 500 ms (room for a loaded machine), against an answer held 30 s (let go once the client gives up).
    mock.service.faults.add({ operation: 'credits.retrieve', delayMs: 30_000, times: 1 });
    await client({ timeout: 500 }).credits.retrieve();
    const span = otel.span('credits.retrieve');
    expect(span.events.map((e) => e.attributes?.['forecasting.retry.reason'])).toEqual(['timeout']);
    expect(span.events[0]!.attributes).toMatchObject({ 'error.type': 'APITimeoutError' });
    expect(named('GET credits.retrieve').map((a) => a.attributes['error.type'])).toEqual(['APITimeoutError', undefined]);
    const retries = (await recorded('forecasting.client.retries')).filter((p) => p.attributes['forecasting.retry.reason'] === 'timeout');
    expect(retries).toEqual([{ attributes: { 'forecasting.operation': 'credits.retrieve', 'forecasting.retry.reason': 'timeout', 'error.type': 'APITimeoutError' }, value: 1 }]);
  });
});

describe('the wait spans', () => {
  it('makes a forecasts.wait span counting its sleeps (wakes.poll), ended_by poll; ended_by read when the first read finds the task final; both on wait.duration', async () => {
    const c = client();
    const question = await c.questions.create(binary('Will the bridge open?'));
    const task = await c.forecasts.create({ questionId: question.id });
    otel.exporter.reset();
    await c.forecasts.wait(task.id);
    const polled = otel.span('forecasts.wait');
    expect(polled.kind).toBe(SpanKind.INTERNAL);
    expect(polled.attributes).toMatchObject({ 'forecasting.wait.kind': 'wait', 'forecasting.task_id': task.id, 'forecasting.task_status': 'completed', 'forecasting.wait.ended_by': 'poll', 'forecasting.wait.wakes.event': 0 });
    const reads = polled.attributes['forecasting.wait.reads'] as number;
    expect(reads).toBeGreaterThanOrEqual(2);
    // Each sleep between two reads ended on its time.
    expect(polled.attributes['forecasting.wait.wakes.poll']).toBe(reads - 1);
    otel.exporter.reset();
    // Final already: one read, no sleep.
    await c.forecasts.wait(task.id);
    expect(otel.span('forecasts.wait').attributes).toMatchObject({ 'forecasting.wait.ended_by': 'read', 'forecasting.wait.reads': 1, 'forecasting.wait.wakes.poll': 0, 'forecasting.task_status': 'completed' });
    const waits = (await recorded('forecasting.wait.duration')).map((p) => p.attributes).filter((a) => a['forecasting.wait.kind'] === 'wait');
    expect(waits).toEqual(
      expect.arrayContaining([
        { 'forecasting.wait.kind': 'wait', 'forecasting.task_status': 'completed', 'forecasting.wait.ended_by': 'poll' },
        { 'forecasting.wait.kind': 'wait', 'forecasting.task_status': 'completed', 'forecasting.wait.ended_by': 'read' },
      ]),
    );
  });

  it('makes a forecasts.waitMany span with forecasting.task_count and the count of each final status, its reads inside it', async () => {
    const c = client();
    const questions = await Promise.all(['Q1?', 'Q2?'].map((title) => c.questions.create(binary(title))));
    const tasks = await Promise.all(questions.map((q) => c.forecasts.create({ questionId: q.id })));
    otel.exporter.reset();
    await c.forecasts.waitMany(tasks.map((t) => t.id));
    const wait = otel.span('forecasts.waitMany');
    expect(wait.kind).toBe(SpanKind.INTERNAL);
    expect(wait.attributes).toMatchObject({ 'forecasting.wait.kind': 'waitMany', 'forecasting.task_count': 2, 'forecasting.wait.tasks.completed': 2, 'forecasting.wait.ended_by': 'poll' });
    // Many tasks: a count, no single task's id or status.
    expect(wait.attributes['forecasting.task_id']).toBeUndefined();
    expect(wait.attributes['forecasting.task_status']).toBeUndefined();
    expect(wait.attributes['forecasting.wait.wakes.poll']).toBeGreaterThanOrEqual(1);
    const reads = otel.spans().filter((s) => s.name === 'forecasts.list' || s.name === 'forecasts.retrieve');
    expect(reads.length).toBeGreaterThanOrEqual(wait.attributes['forecasting.wait.reads'] as number);
    const ids = (spans: ReadableSpan[]) => spans.map((s) => s.spanContext().spanId);
    expect(ids(inside(wait))).toEqual(ids(reads));
  });

  it("makes a questions.files.waitUntilReady span for a context wait, with the question's id and its reads inside it", async () => {
    const c = client();
    const question = await c.questions.create(binary('Will the harbour freeze?'));
    await c.questions.files.upload(question.id, { file: Buffer.from('ice'), filename: 'ice.txt' });
    otel.exporter.reset();
    await c.questions.files.waitUntilReady(question.id);
    const wait = otel.span('questions.files.waitUntilReady');
    expect(wait.kind).toBe(SpanKind.INTERNAL);
    expect(wait.attributes).toMatchObject({ 'forecasting.wait.kind': 'context', 'forecasting.question_id': question.id, 'forecasting.wait.ended_by': 'poll' });
    expect(inside(wait).map((s) => s.name)).toContain('questions.context.ready');
  });
});

describe('the instruments', () => {
  it('have the documented kinds, units and bucket boundaries', async () => {
    const c = client();
    mock.service.faults.add({ operation: 'webhooks.list', status: 503, times: 1 });
    await c.webhooks.list();
    const question = await c.questions.create(binary('Will the ferry run?'));
    // Nothing to wait for: one read, and the wait is recorded.
    await c.questions.files.waitUntilReady(question.id);
    const refused = await createWebhookHandler('whsec_documented_0123456789', () => undefined)(new Request('http://127.0.0.1/hook', { method: 'POST', body: '{}' }));
    expect(refused.status).toBe(400);
    await vi.waitFor(async () => expect(await otel.points('forecasting.webhook.deliveries')).not.toEqual([]));
    const metrics = (await otel.collect()).scopeMetrics.flatMap((s) => s.metrics);
    // A counter's points are a monotonic sum.
    const kind = (m: MetricData) => (m.dataPointType === DataPointType.HISTOGRAM ? 'histogram' : m.dataPointType === DataPointType.SUM && m.isMonotonic ? 'counter' : 'other');
    const described = Object.fromEntries(metrics.map((m) => [m.descriptor.name, [kind(m), m.descriptor.unit]]));
    expect(described).toEqual({
      'forecasting.client.operation.duration': ['histogram', 's'],
      'forecasting.client.retries': ['counter', '{retry}'],
      'forecasting.wait.duration': ['histogram', 's'],
      'forecasting.webhook.deliveries': ['counter', '{delivery}'],
    });
    // Calls from 5 ms to a minute, waits from a second to four hours.
    const boundaries = async (metric: string) => ((await otel.points(metric))[0]!.value as Histogram).buckets.boundaries;
    expect([(await boundaries('forecasting.client.operation.duration')).at(0), (await boundaries('forecasting.client.operation.duration')).at(-1)]).toEqual([0.005, 60]);
    expect([(await boundaries('forecasting.wait.duration')).at(0), (await boundaries('forecasting.wait.duration')).at(-1)]).toEqual([1, 4 * 3600]);
  });
});

describe('what the global propagator sends with each call (docs/observability.md)', () => {
  it('sends W3C traceparent beside a B3-only propagator\'s headers, and a baggage propagator\'s baggage', async () => {
    const last = () => mock.service.requests.list({ operation: 'credits.retrieve' }).at(-1)!.headers;
    try {
      // One that writes B3's headers only, as @opentelemetry/propagator-b3 does.
      const b3Only: TextMapPropagator = {
        inject(ctx, carrier, setter) {
          const sc = trace.getSpanContext(ctx);
          if (sc) setter.set(carrier, 'x-b3-traceid', sc.traceId);
        },
        extract: (ctx) => ctx,
        fields: () => ['x-b3-traceid'],
      };
      propagation.disable();
      propagation.setGlobalPropagator(b3Only);
      await client().credits.retrieve();
      expect(last()).toMatchObject({ traceparent: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/), 'x-b3-traceid': expect.stringMatching(/^[0-9a-f]{32}$/) });
      propagation.disable();
      propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
      const baggage = propagation.createBaggage({ session: { value: 's3cr3t' } });
      await context.with(propagation.setBaggage(context.active(), baggage), () => client().credits.retrieve());
      expect(last()).toMatchObject({ traceparent: expect.any(String), baggage: 'session=s3cr3t' });
    } finally {
      propagation.disable();
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    }
  });
});
