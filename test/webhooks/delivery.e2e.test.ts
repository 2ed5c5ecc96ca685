// The mock's delivery engine over real HTTP: the SDK talks to the mock server, the mock calls receivers
// on 127.0.0.1, and time moves on the mock's manual clock (no sleeping through retry waits).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ForecastingClient, verifyWebhook } from '../../src/index.js';
import { ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';
import type { MockForecastEvent } from '../../src/testing/events.js';
import { startReceiver, type Receiver } from './_receiver.js';

const OWNER = 'u1';
let mock: MockServer;
let clock: ManualClock;
let client: ForecastingClient;
let receiver: Receiver;

// Signatures carry real time. Each signing reads a real second later, so that the attempts of one
// delivery (made within one real second here) each get their own t, still within the receivers' 5 minutes.
let realNow = Date.now();
beforeEach(() => {
  realNow = Date.now();
});

beforeAll(async () => {
  clock = new ManualClock(Math.floor(Date.now() / 1000) * 1000);
  mock = await startMockServer({
    clock,
    apiKeys: [{ key: 'pre_e2e_hooks', userId: OWNER }],
    webhooks: { allowLoopbackReceivers: true, answerTimeoutMs: 300, realTime: () => (realNow += 1_000) },
  });
  client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, maxRetries: 0, logLevel: 'off' });
});
afterAll(() => mock.close());
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  await mock.service.webhooks.idle();
  mock.service.reset();
  await receiver.close();
});

/** Announces a forecast event on the mock's bus, as the task state machine does. */
function emit(type: MockForecastEvent['type'], extra: Partial<MockForecastEvent> = {}): void {
  const forecastId = type === 'forecast.completed' || type === 'forecast.report.completed' ? 'fc-7' : null;
  mock.service.events.emit({ type, taskId: 'task-7', questionId: 'q-7', forecastId, ownerId: OWNER, at: clock.now(), ...extra });
}
const settle = () => mock.service.webhooks.idle();
/** Moves the mock clock and waits for the calls that fell due. */
const advance = async (ms: number) => {
  clock.advance(ms);
  await settle();
};
const signatureOf = (i: number) => String(receiver.calls[i]!.headers['x-service-signature']);

describe('signed deliveries', () => {
  it('sends the exact body and headers, signed with the secret', async () => {
    const hook = await client.webhooks.create({ url: receiver.url, eventKinds: ['forecast.completed', 'forecast.started'] });
    emit('forecast.completed');
    await settle();

    expect(receiver.calls).toHaveLength(1);
    const { headers, body } = receiver.calls[0]!;
    const text = body.toString('utf8');
    const id = 'evt:forecast.completed:fc-7';
    expect(text).toBe(
      `{"createdAt":"${new Date(clock.now()).toISOString()}","data":{"forecastId":"fc-7","forecastUrl":"${mock.baseURL}/forecasts/task-7","questionId":"q-7","taskId":"task-7"},"id":"${id}","type":"forecast.completed"}`,
    );
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toBe('Service-Webhooks/1');
    expect(headers['x-service-event-id']).toBe(id);
    expect(headers['x-service-event-type']).toBe('forecast.completed');
    expect(signatureOf(0)).toMatch(new RegExp(`^t=${Math.floor(realNow / 1000)},v1=[0-9a-f]{64}$`));
    const event = await verifyWebhook(body, headers, hook.signingSecret);
    expect(event.id).toBe(id);

    const [delivery] = (await client.webhooks.deliveries.list({ webhookId: hook.id })).data;
    expect(headers['x-service-delivery-id']).toBe(delivery!.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attemptCount: 1, responseStatus: 200, errorMessage: '', eventKind: 'forecast.completed', isTest: false });
    expect(await client.webhooks.retrieve(hook.id)).toMatchObject({ lastDeliveryStatus: 'succeeded', lastDeliveryAt: new Date(clock.now()).toISOString() });
  });

  it('names events by forecast id, or by task id where the forecast id is null, and adds reportStatus', async () => {
    await client.webhooks.create({ url: receiver.url, eventKinds: ['forecast.started', 'forecast.report.completed'] });
    emit('forecast.started');
    emit('forecast.report.completed', { reportStatus: 'failed' });
    await settle();
    const bodies = receiver.calls.map((c) => JSON.parse(c.body.toString()) as { id: string; data: Record<string, unknown> });
    expect(bodies.map((b) => b.id).sort()).toEqual(['evt:forecast.report.completed:fc-7', 'evt:forecast.started:task-7']);
    const report = bodies.find((b) => b.id.includes('report'))!;
    expect(Object.keys(report.data)).toEqual(['forecastId', 'forecastUrl', 'questionId', 'reportStatus', 'taskId']);
    expect(report.data['reportStatus']).toBe('failed');
    expect(bodies.find((b) => b.id.includes('started'))!.data['forecastId']).toBeNull();
  });

  it('sends only the subscribed kinds, to enabled webhooks of the task owner, and never later', async () => {
    const hook = await client.webhooks.create({ url: receiver.url }); // forecast.completed only
    emit('forecast.started');
    emit('forecast.completed', { ownerId: 'someone-else' });
    await client.webhooks.update(hook.id, { enabled: false });
    emit('forecast.completed');
    await client.webhooks.update(hook.id, { enabled: true });
    await advance(3_600_000);
    expect(receiver.calls).toEqual([]);
    expect((await client.webhooks.deliveries.list()).data).toEqual([]);
    emit('forecast.completed');
    await settle();
    expect(receiver.calls).toHaveLength(1);
  });

  it('sends webhook.test even while the webhook is paused', async () => {
    const hook = await client.webhooks.create({ url: receiver.url });
    await client.webhooks.update(hook.id, { enabled: false });
    const delivery = await client.webhooks.test(hook.id);
    expect(delivery.status).toBe('pending');
    await settle();
    const event = await verifyWebhook(receiver.calls[0]!.body, receiver.calls[0]!.headers, hook.signingSecret);
    expect(event).toMatchObject({ id: `evt:webhook.test:${delivery.id}`, type: 'webhook.test', data: { test: true, webhookId: hook.id } });
    expect((await client.webhooks.deliveries.retrieve(delivery.id)).status).toBe('succeeded');
  });
  it('never calls a public address, even in test mode: the delivery is recorded, marked not sent', async () => {
    const hook = await client.webhooks.create({ url: 'https://hooks.example.com/forecasting' });
    const delivery = await client.webhooks.test(hook.id);
    await settle();
    expect(mock.service.webhooks.calls(delivery.id)).toMatchObject([{ url: 'https://hooks.example.com/forecasting', sent: false }]);
    const state = await client.webhooks.deliveries.retrieve(delivery.id);
    expect(state).toMatchObject({ status: 'retrying', attemptCount: 1, responseStatus: null });
    expect(state.errorMessage).toMatch(/not sent/);
  });
});

describe('retries on the mock clock', () => {
  it('retries after 30 s, 2 min, 10 min, 30 min and 2 h, then fails after 6 attempts', async () => {
    receiver.answer(() => ({ status: 503 }));
    const hook = await client.webhooks.create({ url: receiver.url });
    const delivery = await client.webhooks.test(hook.id);
    await settle();
    const started = clock.now();
    const waits = [30_000, 120_000, 600_000, 1_800_000, 7_200_000];
    for (const [i, wait] of waits.entries()) {
      const state = await client.webhooks.deliveries.retrieve(delivery.id);
      expect(state).toMatchObject({ status: 'retrying', attemptCount: i + 1, retriesRemaining: 4 - i, responseStatus: 503 });
      expect(state.nextAttemptAt).toBe(new Date(clock.now() + wait).toISOString());
      await advance(wait - 1);
      expect(receiver.calls).toHaveLength(i + 1);
      await advance(1);
      expect(receiver.calls).toHaveLength(i + 2);
    }
    expect(clock.now() - started).toBe(waits.reduce((a, b) => a + b));
    expect(await client.webhooks.deliveries.retrieve(delivery.id)).toMatchObject({
      status: 'failed',
      attemptCount: 6,
      retriesRemaining: 0,
      nextAttemptAt: null,
    });
    await advance(24 * 3_600_000);
    expect(receiver.calls).toHaveLength(6);

    // Same delivery id and body every time; every attempt signed anew with its own t.
    expect(new Set(receiver.calls.map((c) => c.headers['x-service-delivery-id']))).toEqual(new Set([delivery.id]));
    expect(new Set(receiver.calls.map((c) => c.body.toString())).size).toBe(1);
    expect(new Set(receiver.calls.map((c) => c.headers['x-service-signature'])).size).toBe(6);
    const attempts = await client.webhooks.deliveries.listAttempts(delivery.id).toArray({ limit: 10 });
    expect(attempts.map((a) => a.attemptNumber)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it.each([408, 425, 429, 500, 502])('retries a %i answer', async (status) => {
    receiver.answer((n) => ({ status: n === 1 ? status : 204 }));
    const hook = await client.webhooks.create({ url: receiver.url });
    const delivery = await client.webhooks.test(hook.id);
    await settle();
    expect((await client.webhooks.deliveries.retrieve(delivery.id)).status).toBe('retrying');
    await advance(30_000);
    expect(await client.webhooks.deliveries.retrieve(delivery.id)).toMatchObject({ status: 'succeeded', attemptCount: 2, responseStatus: 204 });
  });

  it.each([
    [400, /answered 400/],
    [404, /answered 404/],
    [410, /answered 410/],
    [302, /redirect/],
    [307, /redirect/],
  ])('fails at once on a %i answer, without retrying or following it', async (status, message) => {
    const elsewhere = await startReceiver();
    receiver.answer(() => ({ status, headers: { location: elsewhere.url } }));
    const hook = await client.webhooks.create({ url: receiver.url });
    const delivery = await client.webhooks.test(hook.id);
    await settle();
    const state = await client.webhooks.deliveries.retrieve(delivery.id);
    expect(state).toMatchObject({ status: 'failed', attemptCount: 1, responseStatus: status, nextAttemptAt: null });
    expect(state.errorMessage).toMatch(message);
    await advance(3 * 3_600_000);
    expect(receiver.calls).toHaveLength(1);
    expect(elsewhere.calls).toHaveLength(0);
    await elsewhere.close();
  });

  it('retries a receiver that does not answer within the limit', async () => {
    receiver.answer((n) => ({ status: 200, delayMs: n === 1 ? 1_000 : 0 }));
    const hook = await client.webhooks.create({ url: receiver.url });
    const delivery = await client.webhooks.test(hook.id);
    await settle();
    const state = await client.webhooks.deliveries.retrieve(delivery.id);
    expect(state).toMatchObject({ status: 'retrying', responseStatus: null });
    expect(state.errorMessage).toMatch(/no answer within 300 ms/);
    await advance(30_000);
    expect((await client.webhooks.deliveries.retrieve(delivery.id)).status).toBe('succeeded');
  });

  it('reads at most 1 KB of the answer: an answer that never ends still counts once its status arrives', async () => {
    const endless = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('x'.repeat(4096)); // and never ends
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    const hook = await client.webhooks.create({ url: `http://127.0.0.1:${(endless.address() as AddressInfo).port}/h` });
    const delivery = await client.webhooks.test(hook.id);
    await settle();
    expect(await client.webhooks.deliveries.retrieve(delivery.id)).toMatchObject({ status: 'succeeded', responseStatus: 200 });
    endless.closeAllConnections();
    await new Promise((resolve) => endless.close(resolve));
  });

  it('retries an unreachable receiver', async () => {
    const gone = await startReceiver();
    await gone.close(); // its port now refuses connections
    const hook = await client.webhooks.create({ url: gone.url });
    const delivery = await client.webhooks.test(hook.id);
    await settle();
    const state = await client.webhooks.deliveries.retrieve(delivery.id);
    expect(state).toMatchObject({ status: 'retrying', responseStatus: null, retriesRemaining: 4 });
    expect(state.errorMessage).toMatch(/unreachable/);
  });
});

describe('replay, cancellation and rotation', () => {
  it('replays a failed delivery with the same id and body and a fresh set of retries', async () => {
    receiver.answer((n) => ({ status: n === 1 ? 400 : n === 2 ? 500 : 200 }));
    const hook = await client.webhooks.create({ url: receiver.url });
    emit('forecast.completed');
    await settle();
    const [failed] = (await client.webhooks.deliveries.list({ status: 'failed' })).data;
    expect(failed).toBeDefined();

    const replayed = await client.webhooks.deliveries.replay(failed!.id);
    expect(replayed).toMatchObject({ id: failed!.id, status: 'pending', retriesRemaining: 5 });
    await settle();
    expect(await client.webhooks.deliveries.retrieve(failed!.id)).toMatchObject({ status: 'retrying', retriesRemaining: 4, attemptCount: 2 });
    await advance(30_000);
    expect(await client.webhooks.deliveries.retrieve(failed!.id)).toMatchObject({ status: 'succeeded', attemptCount: 3 });

    expect(receiver.calls.map((c) => c.headers['x-service-delivery-id'])).toEqual([failed!.id, failed!.id, failed!.id]);
    expect(receiver.calls.map((c) => c.headers['x-service-event-id'])).toEqual(Array(3).fill('evt:forecast.completed:fc-7'));
    expect(new Set(receiver.calls.map((c) => c.body.toString())).size).toBe(1);
    await verifyWebhook(receiver.calls[2]!.body, receiver.calls[2]!.headers, hook.signingSecret);
  });

  it('cancels waiting deliveries when the address changes, and sends nothing more to the old one', async () => {
    receiver.answer(() => ({ status: 503 }));
    const hook = await client.webhooks.create({ url: receiver.url });
    const delivery = await client.webhooks.test(hook.id);
    await settle();
    const next = await startReceiver();
    await client.webhooks.update(hook.id, { url: next.url });
    expect(await client.webhooks.deliveries.retrieve(delivery.id)).toMatchObject({ status: 'cancelled', nextAttemptAt: null });
    await advance(3 * 3_600_000);
    expect(receiver.calls).toHaveLength(1);
    expect(next.calls).toHaveLength(0);
    await next.close();
  });

  it('cancels waiting deliveries when the webhook is deleted', async () => {
    receiver.answer(() => ({ status: 429 }));
    const hook = await client.webhooks.create({ url: receiver.url });
    const delivery = await client.webhooks.test(hook.id);
    await settle();
    await client.webhooks.delete(hook.id);
    await advance(3 * 3_600_000);
    expect(receiver.calls).toHaveLength(1);
    expect((await client.webhooks.deliveries.retrieve(delivery.id)).status).toBe('cancelled');
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one', async () => {
    const hook = await client.webhooks.create({ url: receiver.url });
    const { signingSecret: newSecret } = await client.webhooks.rotate(hook.id);
    await client.webhooks.test(hook.id);
    await settle();
    expect(signatureOf(0)).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    const { body, headers } = receiver.calls[0]!;
    await verifyWebhook(body, headers, newSecret);
    await verifyWebhook(body, headers, hook.signingSecret);

    await advance(24 * 3_600_000 - 1_000);
    await client.webhooks.test(hook.id);
    await settle();
    expect(signatureOf(1).match(/v1=/g)).toHaveLength(2);

    await advance(1_000);
    await client.webhooks.test(hook.id);
    await settle();
    expect(signatureOf(2).match(/v1=/g)).toHaveLength(1);
    const last = receiver.calls[2]!;
    await verifyWebhook(last.body, last.headers, newSecret);
    await expect(verifyWebhook(last.body, last.headers, hook.signingSecret)).rejects.toMatchObject({
      code: 'no_matching_signature',
    });
  });
});
