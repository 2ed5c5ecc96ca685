// ForecastingInstrumentation with the real OpenTelemetry SDK, end to end against the mock service
// over HTTP (its default, scaled clock): a call, a 503 then a success, a 429 with Retry-After, a wait
// to completion, a runMany, webhook calls refused and verified, the metrics, disable(), and no key or
// secret in any exported byte.
import diagnostics from 'node:diagnostics_channel';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { APIConnectionError, CHANNELS, ForecastingClient, InvalidResponseError, RateLimitError } from '../../src/index.js';
import { mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';
import { signWebhook } from '../../src/webhooks/index.js';
import { createWebhookHandler } from '../../src/webhooks/fetch.js';
import { useOtel } from './_otel.js';

const otel = useOtel();
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(() => mock.close());
afterEach(() => {
  otel.exporter.reset();
  mock.service.reset();
});

const client = (options = {}) => new ForecastingClient({ ...mockClientOptions(mock), logLevel: 'off', retryBackoff: { initialDelay: 1, maxDelay: 1 }, ...options });
const SECRET = 'whsec_otel_test_secret_0123456789';

describe('ForecastingInstrumentation', () => {
  it('makes a CLIENT span per call, named after the operation, with the HTTP attributes and ids (one span for a call of one attempt); its traceparent sent', async () => {
    const c = client();
    const question = await c.questions.create({ type: 'binary', title: 'Will it rain?' });
    otel.exporter.reset();
    await c.questions.retrieve(question.id);
    const span = otel.span('questions.retrieve');
    const url = new URL(mock.baseURL);
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.attributes).toMatchObject({
      'forecasting.operation': 'questions.retrieve',
      'http.request.method': 'GET',
      'server.address': url.hostname,
      'server.port': Number(url.port),
      'url.template': '/questions/{question_id}',
      'http.response.status_code': 200,
      'forecasting.question_id': question.id,
      'forecasting.attempts': 1,
    });
    expect(otel.spans().map((s) => s.name)).toEqual(['questions.retrieve']);
    const [sent] = mock.service.requests.list({ operation: 'questions.retrieve' });
    expect(sent!.headers['traceparent']).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
  });

  it("names a started task's id from the answer (forecasting.task_id), and nests calls under the caller's active span", async () => {
    const c = client();
    const question = await c.questions.create({ type: 'binary', title: 'Will it rain?' });
    const tracer = trace.getTracer('test');
    const task = await tracer.startActiveSpan('job', async (job) => {
      try {
        return await c.forecasts.create({ questionId: question.id });
      } finally {
        job.end();
      }
    });
    const span = otel.span('forecasts.create');
    expect(span.attributes['forecasting.task_id']).toBe(task.id);
    expect(span.parentSpanContext?.spanId).toBe(otel.span('job').spanContext().spanId);
    await c.forecasts.cancel(task.id);
    // The duration metric by operation, outcome and the answer's status (202: the task was accepted).
    const durations = await otel.points('forecasting.client.operation.duration');
    expect(durations.find((p) => p.attributes['forecasting.operation'] === 'forecasts.create')?.attributes).toEqual({
      'forecasting.operation': 'forecasts.create',
      'forecasting.outcome': 'success',
      'http.response.status_code': 202,
    });
  });

  it('shows a 503 then a success as two attempts (the second with http.request.resend_count 1) and a retry event from the backoff', async () => {
    mock.service.faults.add({ operation: 'credits.retrieve', status: 503, times: 1 });
    await client().credits.retrieve();
    const span = otel.span('credits.retrieve');
    const attempts = otel.spans().filter((s) => s.name === 'GET credits.retrieve');
    expect(attempts.map((a) => [a.attributes['http.response.status_code'], a.attributes['http.request.resend_count']])).toEqual([
      [503, undefined],
      [200, 1],
    ]);
    expect(attempts[0]!.status.code).toBe(SpanStatusCode.ERROR);
    // Both inside the call's span, the first made after the fact with its own times.
    for (const a of attempts) expect(a.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    // HrTime is [seconds, nanoseconds]: compared as whole nanoseconds (arrays compared with `<=` are compared as text).
    const ns = ([seconds, nanos]: readonly [number, number]) => BigInt(seconds) * 1_000_000_000n + BigInt(nanos);
    expect(ns(attempts[0]!.startTime) <= ns(attempts[1]!.startTime)).toBe(true);
    expect(ns(attempts[0]!.endTime) <= ns(attempts[1]!.startTime)).toBe(true);
    expect(span.attributes).toMatchObject({ 'http.response.status_code': 200, 'forecasting.attempts': 2 });
    expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(span.events.map((e) => [e.name, e.attributes])).toEqual([
      ['forecasting.retry', { 'forecasting.retry.reason': 'status', 'forecasting.retry.delay_ms': expect.any(Number), 'forecasting.retry.delay_source': 'backoff', 'forecasting.retry.attempt': 1, 'error.type': 'OverloadedError', 'http.response.status_code': 503 }],
    ]);
  });

  it("takes a 429's Retry-After as the retry's delay, and ends a call that fails for good as an error of its class", async () => {
    mock.service.faults.add({ operation: 'credits.retrieve', status: 429, retryAfter: 2, times: 2 });
    await expect(client({ maxRetries: 1 }).credits.retrieve()).rejects.toBeInstanceOf(RateLimitError);
    const span = otel.span('credits.retrieve');
    expect(span.events[0]!.attributes).toMatchObject({ 'forecasting.retry.delay_source': 'retry-after', 'forecasting.retry.delay_ms': 2000, 'error.type': 'RateLimitError' });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'RateLimitError' });
    expect(span.attributes).toMatchObject({ 'error.type': 'RateLimitError', 'http.response.status_code': 429, 'forecasting.attempts': 2 });
    // Both attempts drawn, the last one as the call ended: the status is their error.type.
    const attempts = otel.spans().filter((s) => s.name === 'GET credits.retrieve');
    expect(attempts.map((a) => [a.attributes['http.response.status_code'], a.attributes['http.request.resend_count'], a.attributes['error.type'], a.status.code])).toEqual([
      [429, undefined, '429', SpanStatusCode.ERROR],
      [429, 1, '429', SpanStatusCode.ERROR],
    ]);
    for (const a of attempts) expect(a.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    const retries = await otel.points('forecasting.client.retries');
    expect(retries.find((p) => p.attributes['forecasting.operation'] === 'credits.retrieve' && p.attributes['error.type'] === 'RateLimitError')?.value).toBe(1);
    const durations = await otel.points('forecasting.client.operation.duration');
    expect(durations.find((p) => p.attributes['forecasting.operation'] === 'credits.retrieve' && p.attributes['forecasting.outcome'] === 'error')?.attributes).toEqual({
      'forecasting.operation': 'credits.retrieve',
      'forecasting.outcome': 'error',
      'error.type': 'RateLimitError',
      'http.response.status_code': 429,
    });
  });

  it('a call aborted while it waits to retry: its last answer’s status on its span and metric, each attempt drawn once', async () => {
    mock.service.faults.add({ operation: 'tags.list', status: 503, times: 2 });
    const c = client();
    const abort = new AbortController();
    // Aborted as the second retry is announced: the call ends in the wait before its third attempt.
    c.on('retry', ({ attempt }) => attempt === 2 && abort.abort());
    await expect(c.tags.list({}, { signal: abort.signal })).rejects.toMatchObject({ name: 'AbortError' });
    const span = otel.span('tags.list');
    expect(span.attributes).toMatchObject({ 'error.type': 'AbortError', 'http.response.status_code': 503, 'forecasting.attempts': 2 });
    const attempts = otel.spans().filter((s) => s.name === 'GET tags.list');
    expect(attempts.map((a) => [a.attributes['http.response.status_code'], a.attributes['http.request.resend_count']])).toEqual([
      [503, undefined],
      [503, 1],
    ]);
    const durations = await otel.points('forecasting.client.operation.duration');
    expect(durations.find((p) => p.attributes['forecasting.operation'] === 'tags.list')?.attributes).toEqual({
      'forecasting.operation': 'tags.list',
      'forecasting.outcome': 'error',
      'error.type': 'AbortError',
      'http.response.status_code': 503,
    });
  });

  it('a call aborted while it waits to retry: the operation channel’s message has its last answer’s status, as its span does', async () => {
    mock.service.faults.add({ operation: 'tags.list', status: 503, times: 2 });
    const ended: unknown[] = [];
    const channel = diagnostics.tracingChannel<unknown, { status?: number }>(CHANNELS.operation);
    const seen = { asyncEnd: (m: { status?: number }) => ended.push(m.status) };
    channel.subscribe(seen as never);
    try {
      const c = client();
      const abort = new AbortController();
      c.on('retry', ({ attempt }) => attempt === 1 && abort.abort());
      await expect(c.tags.list({}, { signal: abort.signal })).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      channel.unsubscribe(seen as never);
    }
    expect(ended).toEqual([503]);
  });

  it('ends a call whose 2xx answer cannot be read as an error (InvalidResponseError), in its span and its metric; asResponse still gets the answer', async () => {
    mock.service.faults.add({ operation: 'credits.retrieve', malformed: true, status: 200, times: 2 });
    await expect(client().credits.retrieve()).rejects.toBeInstanceOf(InvalidResponseError);
    const span = otel.span('credits.retrieve');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'InvalidResponseError' });
    expect(span.attributes).toMatchObject({ 'error.type': 'InvalidResponseError', 'http.response.status_code': 200 });
    const durations = await otel.points('forecasting.client.operation.duration');
    // (The points add up over the file's tests: the one of this error.)
    expect(durations.find((p) => p.attributes['forecasting.operation'] === 'credits.retrieve' && p.attributes['error.type'] === 'InvalidResponseError')?.attributes).toMatchObject({ 'forecasting.outcome': 'error', 'http.response.status_code': 200 });
    // Its body is still there for a caller that reads it itself.
    otel.exporter.reset();
    const response = await client().credits.retrieve().asResponse();
    expect(response.status).toBe(200);
    // (Its span ends once the answer was read ahead, a few ticks after asResponse, which does not read it.)
    await vi.waitFor(() => expect(otel.span('credits.retrieve').attributes['error.type']).toBe('InvalidResponseError'));
  });

  it('draws each attempt of a call whose connection drops, the last one with the error class (no answer, no status)', async () => {
    mock.service.faults.add({ operation: 'credits.retrieve', drop: true, times: 3 });
    await expect(client({ maxRetries: 2 }).credits.retrieve()).rejects.toBeInstanceOf(APIConnectionError);
    const span = otel.span('credits.retrieve');
    const attempts = otel.spans().filter((s) => s.name === 'GET credits.retrieve');
    expect(attempts.map((a) => [a.attributes['http.request.resend_count'], a.attributes['error.type'], 'http.response.status_code' in a.attributes])).toEqual([
      [undefined, 'APIConnectionError', false],
      [1, 'APIConnectionError', false],
      [2, 'APIConnectionError', false],
    ]);
    const ns = (t: [number, number]): number => t[0] * 1e9 + t[1];
    // One after the other, each inside the call's span and its times.
    for (const [i, a] of attempts.entries()) {
      expect(a.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
      expect(ns(a.startTime)).toBeGreaterThanOrEqual(ns(span.startTime));
      expect(ns(a.endTime)).toBeLessThanOrEqual(ns(span.endTime));
      if (i > 0) expect(ns(a.startTime)).toBeGreaterThanOrEqual(ns(attempts[i - 1]!.endTime));
    }
    expect(span.attributes).toMatchObject({ 'error.type': 'APIConnectionError', 'forecasting.attempts': 3 });
    // No answer: the duration's record has no status.
    const durations = await otel.points('forecasting.client.operation.duration');
    expect(durations.find((p) => p.attributes['error.type'] === 'APIConnectionError')?.attributes).toEqual({
      'forecasting.operation': 'credits.retrieve',
      'forecasting.outcome': 'error',
      'error.type': 'APIConnectionError',
    });
  });

  it('still draws and ends every span, and sends the traceparent, when another subscriber froze the messages first', async () => {
    const freeze = (m: unknown) => void Object.freeze(m);
    const names = [CHANNELS.operation, CHANNELS.wait];
    for (const name of names) diagnostics.tracingChannel(name).subscribe({ start: freeze } as never);
    // Subscribed again, so it comes after the freezer.
    otel.instrumentation.disable();
    otel.instrumentation.enable();
    try {
      mock.service.faults.add({ operation: 'credits.retrieve', status: 503, times: 1 });
      await client().credits.retrieve();
      // Ended (exported), with what it knew at its start: the client could write nothing more on a frozen message.
      const span = otel.span('credits.retrieve');
      expect(span.attributes).toMatchObject({ 'forecasting.operation': 'credits.retrieve', 'http.request.method': 'GET' });
      expect(span.events.map((e) => e.name)).toEqual(['forecasting.retry']);
      expect(otel.spans().filter((s) => s.name === 'GET credits.retrieve')).toHaveLength(1);
      const sent = mock.service.requests.list({ operation: 'credits.retrieve' });
      expect(sent.map((r) => r.headers['traceparent'])).toEqual([expect.stringContaining(span.spanContext().spanId), expect.stringContaining(span.spanContext().spanId)]);
    } finally {
      for (const name of names) diagnostics.tracingChannel(name).unsubscribe({ start: freeze } as never);
    }
  });

  it('makes one span per wait, its reads inside, ending with the final status and what ended it; and the wait metric', async () => {
    const c = client();
    const question = await c.questions.create({ type: 'binary', title: 'Will it rain?' });
    const task = await c.forecasts.createAndWait({ questionId: question.id });
    expect(task.status).toBe('completed');
    const wait = otel.span('forecasts.createAndWait');
    expect(wait.kind).toBe(SpanKind.INTERNAL);
    expect(wait.attributes).toMatchObject({ 'forecasting.wait.kind': 'createAndWait', 'forecasting.task_id': task.id, 'forecasting.task_status': 'completed', 'forecasting.wait.ended_by': 'poll' });
    expect(wait.attributes['forecasting.wait.reads']).toBeGreaterThanOrEqual(1);
    const inside = otel.spans().filter((s) => s.parentSpanContext?.spanId === wait.spanContext().spanId).map((s) => s.name);
    expect(inside).toContain('forecasts.create');
    expect(inside.filter((n) => n === 'forecasts.retrieve')).toHaveLength(wait.attributes['forecasting.wait.reads'] as number);
    const points = await otel.points('forecasting.wait.duration');
    expect(points.some((p) => p.attributes['forecasting.wait.kind'] === 'createAndWait' && p.attributes['forecasting.task_status'] === 'completed')).toBe(true);
  });

  it('makes one span for a runMany with its counts', async () => {
    const c = client();
    const questions = await Promise.all([1, 2].map((i) => c.questions.create({ type: 'binary', title: `Q${i}?` })));
    const results = [];
    for await (const r of c.forecasts.runMany(questions.map((q) => ({ questionId: q.id })))) results.push(r);
    expect(results).toHaveLength(2);
    const run = otel.span('forecasts.runMany');
    expect(run.attributes).toMatchObject({ 'forecasting.wait.kind': 'runMany', 'forecasting.task_count': 2, 'forecasting.wait.tasks.completed': 2 });
    expect(run.attributes['forecasting.wait.reads']).toBeGreaterThanOrEqual(1);
  });

  it('makes a SERVER span per webhook call a ready-made receiver answers: verified, or refused and why; and counts them', async () => {
    const handle = createWebhookHandler(SECRET, () => undefined);
    const body = JSON.stringify({ id: 'evt_1', type: 'forecast.completed', createdAt: new Date().toISOString(), data: { taskId: 'task_1' } });
    const headers = { 'content-type': 'application/json', 'x-service-signature': await signWebhook(body, SECRET), 'x-service-delivery-id': 'dlv_1' };
    expect((await handle(new Request('http://127.0.0.1/hook', { method: 'POST', body, headers }))).status).toBe(200);
    expect((await handle(new Request('http://127.0.0.1/hook', { method: 'POST', body, headers: { ...headers, 'x-service-signature': await signWebhook(body, 'whsec_other_secret_0123456789') } }))).status).toBe(400);
    // A receipt's span ends once its observation (loaded on demand) is told: just after the answer.
    await vi.waitFor(() => expect(otel.spans().filter((s) => s.kind === SpanKind.SERVER)).toHaveLength(2));
    const spans = otel.spans().filter((s) => s.kind === SpanKind.SERVER);
    expect(spans.map((s) => [s.name, s.attributes])).toEqual([
      ['forecasting.webhook forecast.completed', { 'forecasting.webhook.outcome': 'verified', 'forecasting.event_id': 'evt_1', 'forecasting.event_type': 'forecast.completed', 'forecasting.delivery_id': 'dlv_1', 'forecasting.task_id': 'task_1' }],
      ['forecasting.webhook', { 'forecasting.webhook.outcome': 'refused', 'forecasting.webhook.refused_reason': 'no_matching_signature', 'forecasting.delivery_id': 'dlv_1', 'http.response.status_code': 400, 'error.type': 'no_matching_signature' }],
    ]);
    const counts = await otel.points('forecasting.webhook.deliveries');
    expect(counts.find((p) => p.attributes['forecasting.webhook.outcome'] === 'verified')?.value).toBeGreaterThanOrEqual(1);
    expect(counts.find((p) => p.attributes['forecasting.webhook.refused_reason'] === 'no_matching_signature')?.value).toBeGreaterThanOrEqual(1);
  });

  it('records nothing once disabled, and again once enabled', async () => {
    otel.instrumentation.disable();
    expect(otel.instrumentation.getConfig().enabled).toBe(false);
    try {
      await client().credits.retrieve();
      expect(otel.spans()).toEqual([]);
    } finally {
      otel.instrumentation.enable();
    }
    await client().credits.retrieve();
    expect(otel.spans().map((s) => s.name)).toContain('credits.retrieve');
  });

  it('puts no API key or webhook secret in any exported span, event or metric', async () => {
    const c = client();
    const question = await c.questions.create({ type: 'binary', title: 'Will it rain?' });
    await c.forecasts.createAndWait({ questionId: question.id });
    mock.service.faults.add({ operation: 'credits.retrieve', status: 503, times: 1 });
    await c.credits.retrieve();
    const handle = createWebhookHandler(SECRET, () => undefined);
    const body = JSON.stringify({ id: 'evt_2', type: 'webhook.test', createdAt: new Date().toISOString(), data: { test: true } });
    await handle(new Request('http://127.0.0.1/hook', { method: 'POST', body, headers: { 'x-service-signature': await signWebhook(body, SECRET) } }));
    await vi.waitFor(() => expect(otel.spans().some((s) => s.attributes['forecasting.event_id'] === 'evt_2')).toBe(true));
    const exported = JSON.stringify([otel.spans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status, links: s.links })), await otel.collect()]);
    expect(exported.length).toBeGreaterThan(1000);
    expect(exported).not.toContain(mock.apiKey);
    expect(exported).not.toContain(SECRET);
    expect(exported).not.toMatch(/Bearer |v1=|t=\d/);
  });
});
