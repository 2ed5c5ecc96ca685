// ForecastingInstrumentation in a fleet, on a real redis-server and the mock over HTTP (its default,
// scaled clock, which sends real webhook calls to loopback receivers): two processes (a coordinator
// and a client each, on their own connections) share one prefix. The webhook received by one wakes
// the other's wait, whose span links the receipt's span; a repeat delivery is a duplicate; the
// coordinator's queueing is a span of its own inside the call.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SpanKind } from '@opentelemetry/api';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import type { RedisCoordinator } from '../../src/redis/index.js';
import { mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';
import { signWebhook } from '../../src/webhooks/index.js';
import { webhookMiddleware } from '../../src/webhooks/express.js';
import { useRedis } from '../redis/_setup.js';
import { closeCoordinators, coordinatorOn, receiverSeen, subscribed } from '../fleet/_waits.js';
import { useOtel } from './_otel.js';

const otel = useOtel();
const redis = useRedis();
const PREFIX = 'otel-fleet';
let mock: MockServer;
let waiter: RedisCoordinator;
let client: ForecastingClient;
let hook: string;
let secret: string;
let server: ReturnType<ReturnType<typeof express>['listen']>;

beforeAll(async () => {
  mock = await startMockServer({ webhooks: { allowLoopbackReceivers: true } });
  const options = mockClientOptions(mock);
  waiter = await coordinatorOn(redis, PREFIX, mock.apiKey, options.clock!);
  const receiver = await coordinatorOn(redis, PREFIX, mock.apiKey, options.clock!);
  client = new ForecastingClient({ ...options, logLevel: 'off', coordinator: waiter });
  // The other process's receiver: the ready-made middleware with its own coordinator.
  let middleware: ReturnType<typeof webhookMiddleware> | undefined;
  const app = express();
  app.post('/hooks', (req, res, next) => middleware!(req, res, next), (_req, res) => void res.sendStatus(200));
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const webhook = await client.webhooks.create({ url: hook, eventKinds: ['forecast.completed', 'forecast.failed', 'forecast.cancelled'] });
  secret = webhook.signingSecret;
  middleware = webhookMiddleware(secret, { coordinator: receiver });
  // A first event makes the receiver seen by the waiting process: its waits then trust the events.
  await client.webhooks.test(webhook.id);
  await mock.service.webhooks.idle();
  await receiverSeen(waiter);
  await subscribed(redis, PREFIX, 1);
});
afterAll(async () => {
  server?.close();
  await mock?.close();
  await closeCoordinators();
});

describe('ForecastingInstrumentation in a fleet', () => {
  it("links the wait that another process's webhook receipt woke to that receipt's span", async () => {
    const question = await client.questions.create({ type: 'binary', title: 'Will it rain?' });
    otel.exporter.reset();
    const task = await client.forecasts.createAndWait({ questionId: question.id });
    expect(task.status).toBe('completed');
    const wait = otel.span('forecasts.createAndWait');
    expect(wait.attributes).toMatchObject({ 'forecasting.task_id': task.id, 'forecasting.task_status': 'completed', 'forecasting.wait.ended_by': 'event' });
    const find = () => otel.spans().find((s) => s.kind === SpanKind.SERVER && s.attributes['forecasting.task_id'] === task.id && s.attributes['forecasting.event_type'] === 'forecast.completed');
    // The receipt's span ends just after its answer, maybe after the wait it woke.
    await vi.waitFor(() => expect(find()).toBeDefined());
    const receipt = find();
    expect(receipt?.attributes).toMatchObject({ 'forecasting.webhook.outcome': 'verified', 'forecasting.delivery_id': expect.any(String), 'forecasting.event_id': expect.any(String) });
    const link = wait.links.find((l) => l.context.spanId === receipt!.spanContext().spanId);
    expect(link?.attributes).toEqual({ 'forecasting.link': 'webhook' });
    // The start's wait for a forecast slot, inside the start's own span.
    const start = otel.span('forecasts.create');
    const slot = otel.span('forecasting.fleet.slot');
    expect(slot.parentSpanContext?.spanId).toBe(start.spanContext().spanId);
    expect(slot.attributes).toMatchObject({ 'forecasting.queue.kind': 'slot', 'forecasting.operation': 'forecasts.create', 'forecasting.slots': 1 });
    const queued = await otel.points('forecasting.fleet.queue.duration');
    expect(queued.map((p) => p.attributes['forecasting.queue.kind']).sort()).toEqual(['budget', 'slot']);
  });

  it('shows a repeat delivery of a handled event as a duplicate', async () => {
    otel.exporter.reset();
    const body = JSON.stringify({ id: 'evt_otel_repeat', type: 'webhook.test', createdAt: new Date().toISOString(), data: { test: true } });
    const send = async () => (await fetch(hook, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-service-signature': await signWebhook(body, secret), 'x-service-delivery-id': 'dlv_repeat' } })).status;
    expect(await send()).toBe(200);
    expect(await send()).toBe(200);
    await vi.waitFor(() => expect(otel.spans().filter((s) => s.kind === SpanKind.SERVER)).toHaveLength(2));
    const outcomes = otel.spans().filter((s) => s.kind === SpanKind.SERVER).map((s) => [s.attributes['forecasting.webhook.outcome'], s.attributes['http.response.status_code']]);
    expect(outcomes).toEqual([
      ['verified', undefined],
      ['duplicate', 200],
    ]);
  });
});
