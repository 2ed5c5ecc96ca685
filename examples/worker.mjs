// A Cloudflare Worker that receives the service's webhook calls and reads the forecast each
// forecast.completed call names. Bundle it as any Worker (wrangler, or esbuild with
// --platform=neutral --conditions=workerd,worker,browser); it needs no compatibility flag (with
// nodejs_compat it verifies with Node's crypto, without it with Web Crypto).
//
// Bindings: WEBHOOK_SECRET (the webhook's signingSecret), FORECASTING_API_KEY, FORECASTING_BASE_URL.
// `npm test` runs it in workerd (miniflare) with the mock service delivering to it: test/examples/.
import { ForecastingClient } from 'forecasting-sdk';
import { isKnownWebhookEvent } from 'forecasting-sdk/webhooks';
import { verifyWebhookRequest, WebhookPayloadTooLargeError, WebhookVerificationError } from 'forecasting-sdk/webhooks/fetch';

export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (request.method !== 'POST' || pathname !== '/webhooks/forecasting') return new Response('Not found', { status: 404 });

    let event;
    try {
      event = await verifyWebhookRequest(request, env.WEBHOOK_SECRET);
    } catch (err) {
      if (err instanceof WebhookVerificationError) return new Response(err.code, { status: 400 });
      if (err instanceof WebhookPayloadTooLargeError) return new Response(err.code, { status: 413 }); // over 1 MiB, unread
      throw err; // a 500: the service retries the call
    }

    if (isKnownWebhookEvent(event) && event.type === 'forecast.completed') {
      const client = new ForecastingClient({ apiKey: env.FORECASTING_API_KEY, baseURL: env.FORECASTING_BASE_URL });
      // After the answer: the service waits 10 seconds at most.
      ctx.waitUntil(
        client.webhooks.retrieveTask(event).then((task) => {
          const data = task.status === 'completed' ? task.forecast.forecastData : undefined;
          console.log(`forecast ${task.id} ${task.status}${data?.questionType === 'binary' ? `: ${Math.round(data.payload.probability * 100)}% YES` : ''}`);
        }),
      );
    }
    return new Response(null, { status: 200 });
  },
};
