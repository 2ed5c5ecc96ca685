// The wait, queue-free and webhook diagnostics channels end to end, as a subscriber without
// OpenTelemetry sees them: the SDK against the mock over HTTP (its default, scaled clock).
import diagnostics from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNELS, ForecastingClient, type OperationMessage, type WaitMessage, type WebhookMessage } from '../../src/index.js';
import { mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';
import { signWebhook } from '../../src/webhooks/index.js';
import { createWebhookHandler } from '../../src/webhooks/fetch.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(() => mock.close());
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  mock.service.reset();
});

/** The messages of a tracing channel at `asyncEnd`, and the operations that started inside its trace. */
function ended<M>(name: string): M[] {
  const seen: M[] = [];
  const ignore = () => undefined;
  const handlers = { start: ignore, end: ignore, asyncStart: ignore, error: ignore, asyncEnd: (m: unknown) => void seen.push(m as M) };
  diagnostics.tracingChannel(name).subscribe(handlers);
  stops.push(() => diagnostics.tracingChannel(name).unsubscribe(handlers));
  return seen;
}

const client = () => new ForecastingClient({ ...mockClientOptions(mock), logLevel: 'off' });

describe('the wait channel', () => {
  it('traces a wait on one task: its reads, what ended it, the final status; its reads inside its trace', async () => {
    const c = client();
    const question = await c.questions.create({ type: 'binary', title: 'Will it rain?' });
    const task = await c.forecasts.create({ questionId: question.id });
    const waits = ended<WaitMessage>(CHANNELS.wait);
    const channel = diagnostics.tracingChannel(CHANNELS.wait);
    const { AsyncLocalStorage } = await import('node:async_hooks');
    const store = new AsyncLocalStorage<string>();
    channel.start.bindStore(store, (m) => (m as WaitMessage).kind);
    stops.push(() => channel.start.unbindStore(store));
    const inside: (string | undefined)[] = [];
    const operations = { start: (m: unknown) => void inside.push(`${(m as OperationMessage).operation} in ${store.getStore()}`), end() {}, asyncStart() {}, asyncEnd() {}, error() {} };
    diagnostics.tracingChannel(CHANNELS.operation).subscribe(operations);
    stops.push(() => diagnostics.tracingChannel(CHANNELS.operation).unsubscribe(operations));
    await c.forecasts.wait(task.id);
    expect(waits).toEqual([{ kind: 'wait', taskIds: [task.id], reads: expect.any(Number), wakes: { poll: expect.any(Number), event: 0 }, links: [], endedBy: 'poll', status: 'completed' }]);
    expect(waits[0]!.reads).toBe(waits[0]!.wakes.poll + 1);
    expect(new Set(inside)).toEqual(new Set(['forecasts.retrieve in wait']));
  });

  it('counts the final statuses of a waitMany, and names the task of a createAndWait once started', async () => {
    const c = client();
    const questions = await Promise.all([1, 2].map((i) => c.questions.create({ type: 'binary', title: `Q${i}?` })));
    mock.service.forecastControls.setOutcome(questions[1]!.id, { task: 'failed', message: 'no data' });
    const tasks = await Promise.all(questions.map((q) => c.forecasts.create({ questionId: q.id })));
    const waits = ended<WaitMessage>(CHANNELS.wait);
    await c.forecasts.waitMany(tasks.map((t) => t.id));
    const again = await c.questions.create({ type: 'binary', title: 'Q3?' });
    const done = await c.forecasts.createAndWait({ questionId: again.id });
    expect(waits.map((w) => [w.kind, w.taskIds, w.status ?? w.statuses])).toEqual([
      ['waitMany', tasks.map((t) => t.id), { completed: 1, failed: 1 }],
      ['createAndWait', [done.id], 'completed'],
    ]);
  });

  it('publishes nothing, and loads no tracing code, with no subscriber', async () => {
    const c = client();
    const question = await c.questions.create({ type: 'binary', title: 'Will it rain?' });
    expect(diagnostics.tracingChannel(CHANNELS.wait).hasSubscribers).toBe(false);
    const task = await c.forecasts.createAndWait({ questionId: question.id });
    expect(task.status).toBe('completed');
  });
});

describe('the webhook channel', () => {
  it('traces each call a ready-made receiver answers; the traceparent a subscriber sets travels with the event', async () => {
    const secret = 'whsec_channel_test_0123456789';
    const calls = ended<WebhookMessage>(CHANNELS.webhook);
    const starts = { start: (m: unknown) => void ((m as WebhookMessage).traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'), end() {}, asyncStart() {}, asyncEnd() {}, error() {} };
    diagnostics.tracingChannel(CHANNELS.webhook).subscribe(starts);
    stops.push(() => diagnostics.tracingChannel(CHANNELS.webhook).unsubscribe(starts));
    const published: unknown[] = [];
    const coordinator = { publish: async (e: unknown) => void published.push(e), claimEvent: async () => 'claimed' as const, finishEvent: async () => undefined, unclaimEvent: async () => undefined };
    const handle = createWebhookHandler(secret, () => undefined, { coordinator });
    const body = JSON.stringify({ id: 'evt_c', type: 'forecast.failed', createdAt: new Date().toISOString(), data: { taskId: 'task_c' } });
    const started = Date.now();
    await handle(new Request('http://127.0.0.1/hook', { method: 'POST', body, headers: { 'x-service-signature': await signWebhook(body, secret), 'x-service-delivery-id': 'dlv_c' } }));
    await handle(new Request('http://127.0.0.1/hook', { method: 'POST', body: 'x', headers: { 'content-length': String(2 * 1024 * 1024) } }));
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[0]).toEqual({ startTime: expect.any(Number), deliveryId: 'dlv_c', traceparent: expect.any(String), outcome: 'verified', eventId: 'evt_c', eventType: 'forecast.failed', taskId: 'task_c' });
    expect(calls[0]!.startTime).toBeGreaterThanOrEqual(started);
    expect(calls[1]).toMatchObject({ outcome: 'refused', reason: 'payload_too_large', status: 413 });
    expect(published).toEqual([{ id: 'evt_c', type: 'forecast.failed', taskId: 'task_c', status: 'failed', final: true, traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }]);
  });
});

describe('a subscriber that freezes the messages', () => {
  it('changes nothing the client or a receiver does: calls, waits and webhook answers end as without it', async () => {
    const freeze = { start: (m: unknown) => void Object.freeze(m), end() {}, asyncStart() {}, asyncEnd() {}, error() {} };
    for (const name of [CHANNELS.operation, CHANNELS.attempt, CHANNELS.wait, CHANNELS.webhook]) {
      diagnostics.tracingChannel(name).subscribe(freeze);
      stops.push(() => diagnostics.tracingChannel(name).unsubscribe(freeze));
    }
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    stops.push(() => void process.off('unhandledRejection', onUnhandled));
    const c = client();
    const question = await c.questions.create({ type: 'binary', title: 'Will it rain?' });
    mock.service.faults.add({ operation: 'questions.retrieve', status: 503, times: 1 });
    expect((await c.questions.retrieve(question.id)).id).toBe(question.id);
    expect((await c.forecasts.createAndWait({ questionId: question.id })).status).toBe('completed');
    await expect(c.questions.retrieve('q_missing')).rejects.toMatchObject({ status: 404 });
    const secret = 'whsec_frozen_test_0123456789';
    const handle = createWebhookHandler(secret, () => new Response('handled'));
    const body = JSON.stringify({ id: 'evt_f', type: 'webhook.test', createdAt: new Date().toISOString(), data: { test: true } });
    const answer = await handle(new Request('http://127.0.0.1/hook', { method: 'POST', body, headers: { 'x-service-signature': await signWebhook(body, secret) } }));
    expect([answer.status, await answer.text()]).toEqual([200, 'handled']);
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
  });
});

