// An ES module consumer of every entry but ./testing/msw (see msw.mts), as users write one.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ForecastingClient, ForecastingError, WebhookVerificationError, type ForecastProgress } from 'forecasting-sdk';
import { isKnownWebhookEvent, signWebhook, verifyWebhook, type WebhookEvent } from 'forecasting-sdk/webhooks';
import { webhookMiddleware, type WebhookMiddleware, type WebhookRequest } from 'forecasting-sdk/webhooks/express';
import { createWebhookVerifier } from 'forecasting-sdk/webhooks/fetch';
import { startMockServer, type MockServer } from 'forecasting-sdk/testing';
import { createRedisCoordinator, type CoordinatorStats, type RedisClientLike } from 'forecasting-sdk/redis';

// A handler of an Express-like framework on node:http: webhookMiddleware must fit it without Express's types.
interface FrameworkResponse extends ServerResponse {
  status(code: number): this;
  type(type: string): this;
  send(body?: unknown): this;
}
type Handler = (req: IncomingMessage & { body?: unknown }, res: FrameworkResponse, next: (err?: unknown) => void) => void;

// forecasting-sdk/redis compiles without the redis package: it takes a client of the shape it uses.
export async function fleetMode(redis: RedisClientLike): Promise<CoordinatorStats['mode']> {
  const coordinator = createRedisCoordinator(redis, { prefix: 'app', maxActive: 10 });
  return (await coordinator.stats()).mode;
}

export async function run(secret: string): Promise<string[]> {
  const mock: MockServer = await startMockServer();
  try {
    const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, maxRetries: 0 });
    const question = await client.questions.retrieve('q_1');
    const title: string = question.title;
    client.forecasts.progress.on('done', (p) => {
      const taskId: string = p.taskId;
      console.log(taskId);
    });
    const final = (p: ForecastProgress): boolean => p.final;

    const body = JSON.stringify({ id: 'evt_1', type: 'webhook.test', createdAt: new Date().toISOString(), data: {} });
    const event: WebhookEvent = await verifyWebhook(body, { 'x-service-signature': await signWebhook(body, secret) }, secret);
    const known = isKnownWebhookEvent(event) ? event.type : 'unknown';

    const middleware: WebhookMiddleware = webhookMiddleware([secret], { maxBodyBytes: 1024, onError: (err, req) => console.warn(err.code, req.headers['user-agent']) });
    const handler: Handler = middleware;
    const reached = (req: IncomingMessage): string => (req as IncomingMessage & WebhookRequest).webhookEvent.id;

    const verify: (request: Request) => Promise<WebhookEvent> = createWebhookVerifier(secret);
    const fetched = await verify(new Request('https://example.test/hooks', { method: 'POST', body })).catch((err: unknown) =>
      err instanceof WebhookVerificationError && err instanceof ForecastingError ? err.code : 'other',
    );
    return [title, known, typeof fetched === 'string' ? fetched : fetched.type];
  } finally {
    await mock.close();
  }
}
