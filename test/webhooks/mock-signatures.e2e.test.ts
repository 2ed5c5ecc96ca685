// Deliveries from the mock verify with the receivers' defaults (no `now` override), whatever the
// mock's clock does: the signature's `t` is the real time of sending, the body keeps the mock's time.
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient, verifyWebhook, type WebhookEvent } from '../../src/index.js';
import { ManualClock, mockClientOptions, startMockServer, type MockServer, type MockServerOptions } from '../../src/testing/index.js';
import { DEFAULT_START_MS } from '../../src/testing/clock.js';
import { REPORT_PENDING_MS, REPORT_WRITING_MS } from '../../src/testing/models/forecasts/task.js';
import { webhookMiddleware } from '../../src/webhooks/express.js';
import { startReceiver } from './_receiver.js';

const USER = 'u-sig';
const apiKeys = [{ key: 'pre_signatures', userId: USER }];

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.service.webhooks.idle();
  await mock?.close();
  mock = undefined;
});

describe('signatures of the mock’s deliveries', () => {
  it('verify with verifyWebhook’s defaults on a manual clock that starts in 2025', async () => {
    mock = await startMockServer({ clock: new ManualClock(), apiKeys, webhooks: { allowLoopbackReceivers: true } });
    const receiver = await startReceiver();
    try {
      const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });
      const hook = await client.webhooks.create({ url: receiver.url });
      await client.webhooks.test(hook.id);
      await mock.service.webhooks.idle();
      const [call] = receiver.calls;
      const event = await verifyWebhook(call!.body, call!.headers, hook.signingSecret);
      expect(event.createdAt).toBe(new Date(DEFAULT_START_MS).toISOString()); // the mock's time stays in the body
    } finally {
      await receiver.close();
    }
  });

  it('sign with the injected real-time source, not the mock clock', async () => {
    const sentAt = Date.UTC(2031, 2, 3, 4, 5, 6);
    mock = await startMockServer({ clock: new ManualClock(), apiKeys, webhooks: { allowLoopbackReceivers: true, realTime: () => sentAt } });
    const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });
    const hook = await client.webhooks.create({ url: 'https://hooks.example/forecasting' }); // recorded, never called
    await client.webhooks.test(hook.id);
    await mock.service.webhooks.idle();
    const [call] = mock.service.webhooks.calls();
    expect(call!.headers['x-service-signature']).toMatch(new RegExp(`^t=${sentAt / 1000},v1=[0-9a-f]{64}$`));
    await expect(verifyWebhook(call!.body, call!.headers, hook.signingSecret, { now: sentAt / 1000 })).resolves.toMatchObject({ type: 'webhook.test' });
  });
});

/** How each mock runs its forecast to the report: a default client on the running clock, or the client driving a manual one. */
const clocks: [string, MockServerOptions, (m: MockServer) => ForecastingClient, (m: MockServer, c: ForecastingClient, questionId: string) => Promise<void>][] = [
  [
    'the default running clock',
    {},
    (m) => new ForecastingClient({ apiKey: m.apiKey, baseURL: m.baseURL, logLevel: 'off' }),
    async (m, client, questionId) => {
      await client.forecasts.createAndWait({ questionId, runMode: 'light' }, { timeout: 10_000 });
      m.clock.advance(REPORT_PENDING_MS + REPORT_WRITING_MS); // the report, without waiting for it
    },
  ],
  [
    'a manual clock moved by the client’s waits',
    { clock: new ManualClock() },
    (m) => new ForecastingClient({ ...mockClientOptions(m), logLevel: 'off' }),
    async (_m, client, questionId) => {
      await client.forecasts.createAndWait({ questionId, runMode: 'light' }, { waitForReport: true });
    },
  ],
];

describe.each(clocks)('an Express receiver with the default webhookMiddleware, the mock on %s', (_name, options, connect, runForecast) => {
  let server: Server;
  let origin: string;
  const app = express();
  const received: WebhookEvent[] = [];

  beforeAll(async () => {
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('receives forecast.started, forecast.completed and forecast.report.completed, every delivery succeeding', async () => {
    mock = await startMockServer({ ...options, apiKeys, webhooks: { allowLoopbackReceivers: true } });
    const client = connect(mock);
    const hook = await client.webhooks.create({
      url: `${origin}/hooks`,
      eventKinds: ['forecast.started', 'forecast.completed', 'forecast.report.completed'],
    });
    app.post('/hooks', webhookMiddleware(hook.signingSecret), (req, res) => {
      received.push(req.webhookEvent!);
      res.sendStatus(200);
    });
    const question = await client.questions.create({ type: 'binary', title: 'Will the signatures verify?' });
    await runForecast(mock, client, question.id);
    await mock.service.webhooks.idle();

    expect(received.map((e) => e.type).sort()).toEqual(['forecast.completed', 'forecast.report.completed', 'forecast.started']);
    const deliveries = (await client.webhooks.deliveries.list({ webhookId: hook.id })).data;
    expect(deliveries.map((d) => [d.status, d.responseStatus])).toEqual([
      ['succeeded', 200],
      ['succeeded', 200],
      ['succeeded', 200],
    ]);
  });
});
