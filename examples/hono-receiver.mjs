// A fetch-style webhook receiver with Hono, told by a webhook when a forecast is done instead of
// polling for it. Everything runs on 127.0.0.1: `node examples/hono-receiver.mjs` (after `npm run build`).
//
// The same handler body works in any (request: Request) => Response framework: a Next.js route
// handler, Bun.serve, Deno.serve, a Worker (see examples/worker.mjs). In your app, take the secret
// from the environment (WEBHOOK_SECRET); the mock is only here to make the example self-contained.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { ForecastingClient } from 'forecasting-sdk';
import { isKnownWebhookEvent } from 'forecasting-sdk/webhooks';
import { createWebhookVerifier, WebhookPayloadTooLargeError, WebhookVerificationError } from 'forecasting-sdk/webhooks/fetch';
import { startMockServer } from 'forecasting-sdk/testing';

// The mock calls receivers on 127.0.0.1 only in this test mode; its clock runs 600 times faster.
const mock = await startMockServer({ webhooks: { allowLoopbackReceivers: true } });
const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL });

const app = new Hono();
const server = await new Promise((resolve) => {
  const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
});
const url = `http://127.0.0.1:${server.address().port}/webhooks/forecasting`;

let announced; // resolves with the task the first forecast.completed call names
const done = new Promise((resolve) => (announced = resolve));

try {
  // 1. Register the receiver; the secret is shown once (a real app stores it as WEBHOOK_SECRET).
  const hook = await client.webhooks.create({ url, eventKinds: ['forecast.completed'] });
  const verify = createWebhookVerifier(hook.signingSecret); // throws at start-up without a secret

  // 2. The route: verify the raw request, answer at once, then read the task the event names.
  app.post('/webhooks/forecasting', async (c) => {
    let event;
    try {
      event = await verify(c.req.raw);
    } catch (err) {
      if (err instanceof WebhookVerificationError) return c.text(err.code, 400);
      if (err instanceof WebhookPayloadTooLargeError) return c.text(err.code, 413); // over 1 MiB, unread
      throw err; // a bug of ours: 500, and the service retries the call
    }
    if (isKnownWebhookEvent(event) && event.type === 'forecast.completed') {
      // After the answer (the service waits 10 s at most); reads on the client's own base URL.
      void client.webhooks.retrieveTask(event).then(announced);
    }
    return c.body(null, 200);
  });

  // 3. Start a forecast and do not poll: the webhook says when it is done.
  const question = await client.questions.create({ type: 'binary', title: 'Will it rain in Paris on 1 June 2027?' });
  const started = await client.forecasts.create({ questionId: question.id, runMode: 'light' });
  console.log(`started ${started.id}; waiting for the webhook`);

  const task = await done;
  const data = task.status === 'completed' ? task.forecast.forecastData : undefined;
  console.log(`webhook: forecast.completed for ${task.id}: ${data?.questionType === 'binary' ? `${Math.round(data.payload.probability * 100)}% YES` : task.status}`);

  // 4. A call that does not carry a valid signature is refused with 400 and its reason.
  const forged = await fetch(url, { method: 'POST', body: '{}', headers: { 'x-service-signature': 't=1,v1=00' } });
  console.log(`a forged call: ${forged.status} ${await forged.text()}`);
} finally {
  server.close();
  await mock.close();
}
