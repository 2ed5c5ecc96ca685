// A Cloudflare Worker that receives the service's webhook calls and reads the forecast each
// forecast.completed call names, on two routes: verifyWebhookRequest in a route of its own, and
// createWebhookHandler's ready-made route. Bundle it as any Worker (wrangler, or esbuild with
// --platform=neutral --conditions=workerd,worker,browser); it needs no compatibility flag (with
// nodejs_compat it verifies with Node's crypto, without it with Web Crypto).
//
// Bindings: WEBHOOK_SECRET (the webhook's signingSecret), FORECASTING_API_KEY, FORECASTING_BASE_URL.
// `npm test` runs it in workerd (miniflare) with the mock service delivering to it: test/examples/.
import { ForecastingClient } from 'forecasting-sdk';
import { isKnownWebhookEvent } from 'forecasting-sdk/webhooks';
import { createWebhookHandler, verifyWebhookRequest, WebhookPayloadTooLargeError, WebhookVerificationError } from 'forecasting-sdk/webhooks/fetch';

/** The forecast a forecast.completed event names, read back with the client and logged. */
function readForecast(env, event) {
  const client = new ForecastingClient({ apiKey: env.FORECASTING_API_KEY, baseURL: env.FORECASTING_BASE_URL });
  return client.webhooks.retrieveTask(event).then((task) => {
    const data = task.status === 'completed' ? task.forecast.forecastData : undefined;
    console.log(`forecast ${task.id} ${task.status}${data?.questionType === 'binary' ? `: ${Math.round(data.payload.probability * 100)}% YES` : ''}`);
  });
}

// The same with the ready-made route: made on the first call, which brings the secret (an env
// binding); each call's ctx found by its request. It answers refused calls itself.
let route;
const contexts = new WeakMap();

export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (request.method === 'POST' && pathname === '/webhooks/handler') {
      contexts.set(request, ctx);
      route ??= createWebhookHandler(env.WEBHOOK_SECRET, (event, req) => {
        if (isKnownWebhookEvent(event) && event.type === 'forecast.completed') contexts.get(req)?.waitUntil(readForecast(env, event));
      });
      return route(request);
    }
    if (request.method !== 'POST' || pathname !== '/webhooks/forecasting') return new Response('Not found', { status: 404 });

    let event;
    try {
      event = await verifyWebhookRequest(request, env.WEBHOOK_SECRET);
    } catch (err) {
      if (err instanceof WebhookVerificationError) return new Response(err.code, { status: 400 });
      if (err instanceof WebhookPayloadTooLargeError) return new Response(err.code, { status: 413 }); // over 1 MiB, unread
      throw err; // a 500: the service retries the call
    }

    // After the answer: the service waits 10 seconds at most.
    if (isKnownWebhookEvent(event) && event.type === 'forecast.completed') ctx.waitUntil(readForecast(env, event));
    return new Response(null, { status: 200 });
  },
};
