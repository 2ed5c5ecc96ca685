// The Express middleware on a real Express app (5 and 4) on 127.0.0.1, called by the mock's delivery engine.
import express from 'express';
import express4 from 'express4';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ForecastingClient, isKnownWebhookEvent, signWebhook, type WebhookEvent } from '../../src/index.js';
import { ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';
import { webhookMiddleware } from '../../src/webhooks/express.js';

let mock: MockServer;
let client: ForecastingClient;

beforeAll(async () => {
  mock = await startMockServer({
    clock: new ManualClock(Date.now()),
    apiKeys: [{ key: 'pre_express', userId: 'u1' }],
    webhooks: { allowLoopbackReceivers: true },
  });
  client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, maxRetries: 0, logLevel: 'off' });
});
afterAll(() => mock.close());
afterEach(async () => {
  vi.restoreAllMocks();
  await mock.service.webhooks.idle();
  mock.service.reset(); // at most 5 webhooks per user: start each test with none
});

const versions = [
  ['Express 5', express],
  ['Express 4', express4],
] as const;

describe.each(versions)('webhookMiddleware on %s', (_name, createExpress) => {
  let app: express.Express;
  let server: Server;
  let origin: string;
  let routes = 0;
  const received: WebhookEvent[] = [];

  beforeAll(async () => {
    app = createExpress();
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** A webhook at a new route of the app, handled by `handlers` (the middleware among them). */
  async function route(mount: (path: string, secret: string) => void, eventKinds?: ['forecast.completed']) {
    const path = `/hooks/${++routes}`;
    const hook = await client.webhooks.create({ url: `${origin}${path}`, eventKinds });
    mount(path, hook.signingSecret);
    return { hook, url: `${origin}${path}` };
  }
  const record = (req: express.Request, res: express.Response) => {
    received.push(req.webhookEvent!);
    res.sendStatus(200);
  };
  const deliveryOf = async (id: string) => {
    await mock.service.webhooks.idle();
    return client.webhooks.deliveries.retrieve(id);
  };

  it('verifies a delivery from the mock, reading the raw body itself, and sets req.webhookEvent', async () => {
    const { hook } = await route((path, secret) => app.post(path, webhookMiddleware(secret), record));
    const delivery = await client.webhooks.test(hook.id);
    expect(await deliveryOf(delivery.id)).toMatchObject({ status: 'succeeded', responseStatus: 200 });
    expect(received.at(-1)).toMatchObject({ type: 'webhook.test', id: `evt:webhook.test:${delivery.id}`, data: { test: true, webhookId: hook.id } });
  });

  it('receives forecast events from the mock', async () => {
    const { hook } = await route((path, secret) => app.post(path, webhookMiddleware(secret), record));
    mock.service.events.emit({ type: 'forecast.completed', taskId: 't-1', questionId: 'q-1', forecastId: 'f-1', ownerId: 'u1', at: mock.clock.now() });
    await mock.service.webhooks.idle();
    const [delivery] = (await client.webhooks.deliveries.list({ webhookId: hook.id })).data;
    expect(delivery?.status).toBe('succeeded');
    expect(received.at(-1)).toMatchObject({ type: 'forecast.completed', data: { taskId: 't-1', forecastId: 'f-1' } });
  });

  it('receives forecast.started when a forecast is created through the API, and reads its task', async () => {
    const { hook } = await route((path, secret) => app.post(path, webhookMiddleware(secret), record));
    await client.webhooks.update(hook.id, { eventKinds: ['forecast.started'] });
    const question = await client.questions.create({ type: 'binary', title: 'Will the webhook arrive?' });
    const task = await client.forecasts.create({ questionId: question.id });
    await mock.service.webhooks.idle();
    const event = received.at(-1)!;
    expect(event).toMatchObject({
      type: 'forecast.started',
      id: `evt:forecast.started:${task.id}`,
      data: { taskId: task.id, questionId: question.id, forecastId: null, forecastUrl: `${mock.baseURL}/forecasts/${task.id}` },
    });
    if (!isKnownWebhookEvent(event) || event.type !== 'forecast.started') throw new Error(`unexpected ${event.type}`);
    expect((await client.webhooks.retrieveTask(event)).id).toBe(task.id);
  });

  it('works after express.raw() or express.text() already read the body', async () => {
    const raw = await route((path, secret) => app.post(path, createExpress.raw({ type: '*/*' }), webhookMiddleware(secret), record));
    const text = await route((path, secret) => app.post(path, createExpress.text({ type: '*/*' }), webhookMiddleware(secret), record));
    for (const { hook } of [raw, text]) {
      const delivery = await client.webhooks.test(hook.id);
      expect((await deliveryOf(delivery.id)).status).toBe('succeeded');
    }
  });

  it('answers 500 after express.json() consumed the body, so the service retries the delivery until the route is fixed', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let fixed = false;
    const json = createExpress.json() as express.RequestHandler;
    const jsonUntilFixed: express.RequestHandler = (req, res, next) => (fixed ? next() : json(req, res, next));
    const { hook } = await route((path, secret) => app.post(path, jsonUntilFixed, webhookMiddleware(secret), record));
    const delivery = await client.webhooks.test(hook.id);
    expect(await deliveryOf(delivery.id)).toMatchObject({ status: 'retrying', responseStatus: 500, attemptCount: 1 });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/Another body parser read the body first/));
    fixed = true; // the app is deployed again with the route before express.json()
    mock.clock.advance(30_000);
    expect(await deliveryOf(delivery.id)).toMatchObject({ status: 'succeeded', responseStatus: 200, attemptCount: 2 });
    expect(received.at(-1)).toMatchObject({ type: 'webhook.test', id: `evt:webhook.test:${delivery.id}` });
  });

  it('answers 400 with the reason code for a forged, tampered or unsigned call', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let secret = '';
    const { url } = await route((path, s) => {
      secret = s;
      app.post(path, webhookMiddleware(s), record);
    });
    const body = JSON.stringify({ id: 'evt:x', type: 'webhook.test', createdAt: new Date().toISOString(), data: { test: true } });
    const post = (payload: string, headers: Record<string, string>) =>
      fetch(url, { method: 'POST', body: payload, headers: { 'content-type': 'application/json', ...headers } }).then(async (r) => [r.status, await r.text()]);

    const good = await signWebhook(body, secret);
    expect(await post(body, { 'x-service-signature': good })).toEqual([200, 'OK']);
    expect(await post(body.replace('x', 'y'), { 'x-service-signature': good })).toEqual([400, 'no_matching_signature']);
    expect(await post(body, { 'x-service-signature': await signWebhook(body, 'whsec_wrong') })).toEqual([400, 'no_matching_signature']);
    expect(await post(body, {})).toEqual([400, 'missing_header']);
    expect(await post(body, { 'x-service-signature': 'v1=abc' })).toEqual([400, 'malformed_header']);
    const old = await signWebhook(body, secret, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(await post(body, { 'x-service-signature': old })).toEqual([400, 'timestamp_out_of_range']);
    // The tampered body and the other secret both look like a wrong secret: one warning for both.
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('accepts both secrets during a rotation', async () => {
    const path = `/hooks/${++routes}`;
    const hook = await client.webhooks.create({ url: `${origin}${path}` });
    const { signingSecret } = await client.webhooks.rotate(hook.id);
    app.post(path, webhookMiddleware([signingSecret, hook.signingSecret]), record);
    const delivery = await client.webhooks.test(hook.id);
    expect((await deliveryOf(delivery.id)).status).toBe('succeeded');
  });

  it('answers 413 to a body over maxBodyBytes without verifying it', async () => {
    const { url } = await route((path, secret) => app.post(path, webhookMiddleware(secret, { maxBodyBytes: 16 }), record));
    const res = await fetch(url, { method: 'POST', body: 'x'.repeat(17), headers: { 'x-service-signature': 't=1,v1=00' } });
    expect([res.status, await res.text()]).toEqual([413, 'payload_too_large']);
  });
});
