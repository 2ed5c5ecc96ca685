// An Express webhook receiver, fed by the mock service's signed deliveries. Everything runs on
// 127.0.0.1. Run `npm run build` first, then `node examples/express-receiver.mjs`.
//
// In your app: import from 'forecasting-sdk/webhooks/express' and take the secret from the
// environment; the mock (and the `dist/` paths) are only here to make the example self-contained.
import express from 'express';
import { ForecastingClient, isKnownWebhookEvent, createDeliveryDeduper, DELIVERY_ID_HEADER } from '../dist/index.js';
import { ManualClock, startMockServer } from '../dist/testing/index.js';
import { webhookMiddleware } from '../dist/webhooks/express.js';

// The mock calls loopback receivers only in test mode. Its manual clock moves only when told (step 5);
// signatures carry the real time of sending, so the receiver's default 5-minute check accepts them.
const USER = 'user-1';
const mock = await startMockServer({
  clock: new ManualClock(),
  apiKeys: [{ key: 'pre_example_key', userId: USER }],
  webhooks: { allowLoopbackReceivers: true },
});
const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });

const app = express();
const server = await new Promise((resolve) => {
  const s = app.listen(0, '127.0.0.1', () => resolve(s));
});
const url = `http://127.0.0.1:${server.address().port}/webhooks/forecasting`;

try {
  // 1. Register the receiver. The secret is shown once: a real app stores it (WEBHOOK_SECRET).
  const hook = await client.webhooks.create({ url, eventKinds: ['forecast.completed', 'forecast.failed'] });
  console.log(`webhook ${hook.id} -> ${url} (secret ${hook.secretPrefix}…)`);

  // 2. The receiver: the middleware reads the raw body itself, verifies it, and sets req.webhookEvent;
  //    a bad call gets 400 with the reason code. Put this route before any app-wide express.json().
  const deduper = createDeliveryDeduper();
  let failNext = true;
  app.post('/webhooks/forecasting', webhookMiddleware(hook.signingSecret), (req, res) => {
    const event = req.webhookEvent;
    if (deduper.seen(req.get(DELIVERY_ID_HEADER) ?? '')) return res.sendStatus(200); // a duplicate
    if (event.type === 'forecast.failed' && failNext) {
      failNext = false;
      deduper.forget(req.get(DELIVERY_ID_HEADER) ?? '');
      console.log(`  receiver: ${event.type} -> answering 503 (the service will retry)`);
      return res.sendStatus(503);
    }
    res.sendStatus(200); // answer within 10 seconds; slow work goes after the answer or to a queue
    if (!isKnownWebhookEvent(event)) return console.log(`  receiver: unknown kind ${event.type}, acknowledged`);
    console.log(`  receiver: ${event.type} ${event.id}`, event.data);
  });
  app.use(express.json()); // the rest of the app may parse JSON as usual

  // 3. A test call: a signed webhook.test, sent even while the webhook is paused.
  console.log('\nclient.webhooks.test()');
  const test = await client.webhooks.test(hook.id);
  await mock.service.webhooks.idle();
  console.log(`  delivery ${test.id}: ${(await client.webhooks.deliveries.retrieve(test.id)).status}`);

  // 4. Forecast events, as the mock's forecast engine announces them when a task completes or fails.
  console.log('\nforecast.completed and forecast.failed events');
  const at = mock.clock.now();
  mock.service.events.emit({ type: 'forecast.completed', taskId: 'task-1', questionId: 'q-1', forecastId: 'fc-1', ownerId: USER, at });
  mock.service.events.emit({ type: 'forecast.failed', taskId: 'task-2', questionId: 'q-2', forecastId: null, ownerId: USER, at });
  await mock.service.webhooks.idle();

  // 5. The failed call is retried after 30 seconds of the mock's clock.
  console.log('\n30 seconds later (mock clock)');
  mock.clock.advance(30_000);
  await mock.service.webhooks.idle();

  console.log('\nDeliveries, newest first:');
  for await (const d of client.webhooks.deliveries.list()) {
    console.log(`  ${d.eventKind.padEnd(20)} ${d.status.padEnd(10)} attempts ${d.attemptCount}, last answer ${d.responseStatus}`);
  }
} finally {
  server.close();
  await mock.close();
}

