// A wrapper that forwards optional settings, compiled with exactOptionalPropertyTypes against the
// built declarations (see ../exact-optional.test.ts): each option takes `undefined` as leaving it out.
import { ForecastingClient, type FinishedForecastTask, type ForecastProgress } from 'forecasting-sdk';
import { createDeliveryDeduper, signWebhook, verifyWebhook } from 'forecasting-sdk/webhooks';
import { webhookMiddleware } from 'forecasting-sdk/webhooks/express';
import { createWebhookHandler, verifyWebhookRequest } from 'forecasting-sdk/webhooks/fetch';
import { startMockServer } from 'forecasting-sdk/testing';
import { createRedisCoordinator, type RedisClientLike } from 'forecasting-sdk/redis';

export interface MySettings {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  key?: string | undefined;
  retries?: number | undefined;
  onProgress?: ((p: ForecastProgress) => void) | undefined;
  now?: number | undefined;
  full?: true | undefined;
  port?: number | undefined;
  maxBytes?: number | undefined;
  limit?: number | undefined;
  redis: RedisClientLike;
}

export async function forward(s: MySettings, body: string, secret: string): Promise<unknown[]> {
  const client = new ForecastingClient({ apiKey: 'k', baseURL: 'http://127.0.0.1:1/api/v1/external', timeout: s.timeoutMs, maxRetries: s.retries, logger: undefined, clock: undefined, fetch: undefined });
  const task = await client.forecasts.create({ questionId: 'q' }, { signal: s.signal, idempotencyKey: s.key, timeout: s.timeoutMs, headers: undefined });
  const done = await client.forecasts.wait(task.id, { timeout: s.timeoutMs, signal: s.signal, onProgress: s.onProgress, requestOptions: { maxRetries: s.retries } });
  const both = await client.forecasts.createAndWait({ questionId: 'q' }, { timeout: s.timeoutMs, idempotencyKey: s.key, onCreated: undefined });
  const many = await client.forecasts.waitMany([task.id], { timeout: s.timeoutMs, full: undefined });
  // `toArray`'s limit takes `undefined` as no limit, as every other option does.
  const listed = await client.forecasts.list().toArray({ limit: s.limit });
  const runs = [];
  for await (const r of client.forecasts.runMany([{ questionId: 'q' }], { signal: s.signal, maxActive: undefined, onProgress: undefined })) runs.push(r);
  const headers = await signWebhook(body, secret, { timestamp: s.now });
  const event = await verifyWebhook(body, { 'x-service-signature': headers }, secret, { now: s.now, toleranceSeconds: undefined });
  createDeliveryDeduper({ maxEntries: undefined, ttlMs: undefined, now: undefined });
  const full: FinishedForecastTask[] = await client.forecasts.waitMany([task.id], { full: s.full });
  const page = await client.get('/questions', { query: undefined, timeout: s.timeoutMs });
  const mock = await startMockServer({ port: s.port, seed: undefined, timeScale: undefined, webhooks: { realTime: undefined } });
  webhookMiddleware(secret, { maxBodyBytes: s.maxBytes, logger: undefined, onRepeat: undefined });
  createWebhookHandler(secret, () => undefined, { maxBodyBytes: s.maxBytes, clock: undefined });
  await verifyWebhookRequest(new Request('http://127.0.0.1/'), secret, { maxBodyBytes: s.maxBytes });
  createRedisCoordinator(s.redis, { prefix: undefined, maxActive: s.retries, serviceTimeScale: undefined });
  return [done, both, many, runs, event, full, page, mock, listed];
}
