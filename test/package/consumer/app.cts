// A CommonJS consumer of every entry but ./testing/msw (see msw.cts): `import = require`, as in a .cts file.
import sdk = require('forecasting-sdk');
import webhooks = require('forecasting-sdk/webhooks');
import express = require('forecasting-sdk/webhooks/express');
import fetchHandlers = require('forecasting-sdk/webhooks/fetch');
import testing = require('forecasting-sdk/testing');
import redis = require('forecasting-sdk/redis');
import type { IncomingMessage, ServerResponse } from 'node:http';

interface FrameworkResponse extends ServerResponse {
  status(code: number): this;
  type(type: string): this;
  send(body?: unknown): this;
}
type Handler = (req: IncomingMessage & { body?: unknown }, res: FrameworkResponse, next: (err?: unknown) => void) => void;

// forecasting-sdk/redis compiles without the redis package: it takes a client of the shape it uses.
async function fleetMode(client: redis.RedisClientLike): Promise<redis.CoordinatorStats['mode']> {
  return (await redis.createRedisCoordinator(client, { prefix: 'app' }).stats()).mode;
}

async function run(secret: string): Promise<string[]> {
  const mock: testing.MockServer = await testing.startMockServer();
  try {
    const client = new sdk.ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, maxRetries: 0 });
    const question = await client.questions.retrieve('q_1');
    const title: string = question.title;
    client.forecasts.progress.on('done', (p) => {
      const taskId: string = p.taskId;
      console.log(taskId);
    });
    const final = (p: sdk.ForecastProgress): boolean => p.final;

    const body = JSON.stringify({ id: 'evt_1', type: 'webhook.test', createdAt: new Date().toISOString(), data: {} });
    const event: webhooks.WebhookEvent = await webhooks.verifyWebhook(body, { 'x-service-signature': await webhooks.signWebhook(body, secret) }, secret);
    const known = webhooks.isKnownWebhookEvent(event) ? event.type : 'unknown';

    const middleware: express.WebhookMiddleware = express.webhookMiddleware(secret, { onError: (err, req) => console.warn(err.code, req.headers['user-agent']) });
    const handler: Handler = middleware;
    const reached = (req: IncomingMessage): string => (req as IncomingMessage & express.WebhookRequest).webhookEvent.id;

    const verify: (request: Request) => Promise<webhooks.WebhookEvent> = fetchHandlers.createWebhookVerifier(secret);
    const fetched = await verify(new Request('https://example.test/hooks', { method: 'POST', body })).catch((err: unknown) =>
      err instanceof sdk.WebhookVerificationError ? err.code : 'other',
    );
    return [title, known, typeof fetched === 'string' ? fetched : fetched.type];
  } finally {
    await mock.close();
  }
}

run.fleetMode = fleetMode;
export = run;
