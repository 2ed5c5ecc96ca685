// A replica shutting down: once its coordinator is closed and its Redis connection quit, a delivery
// that still reaches its receiver (keep-alive connections outlive server.close()) must not run the
// handler again for an event another replica handled. It is answered 503 with Retry-After, so the
// service redelivers to a process that knows; with the connection still open, Redis answers "repeat".
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisCoordinator } from '../../src/redis/index.js';
import { signWebhook } from '../../src/webhooks/index.js';
import { webhookMiddleware } from '../../src/webhooks/express.js';
import { useRedis } from './_setup.js';

const redis = useRedis();
const SECRET = 'whsec_closed_claims';
const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
});

/** A receiver on its own Redis connection and coordinator, as one replica runs it; `runs` counts its handler's runs. */
async function replica(prefix: string) {
  const connection = await redis.client();
  const coordinator = createRedisCoordinator(connection, { prefix });
  const runs: string[] = [];
  const app = express();
  app.post('/hooks', webhookMiddleware(SECRET, { coordinator, logger: { warn: () => undefined } }), (req, res) => {
    runs.push(req.webhookEvent!.id);
    res.sendStatus(200);
  });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  servers.push(server);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const deliver = async (body: string) => {
    const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-service-signature': await signWebhook(body, SECRET) } });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() };
  };
  return { connection, coordinator, runs, deliver };
}

const eventBody = (id: string) => JSON.stringify({ createdAt: '2026-01-01T00:00:00.000Z', data: { taskId: 't1', questionId: 'q1', forecastId: id }, id: `evt:forecast.completed:${id}`, type: 'forecast.completed' });

describe('a receiver whose coordinator was closed', () => {
  it('answers 503 with Retry-After to an event another replica handled, once its Redis connection is quit: the handler never runs twice', async () => {
    const [a, b] = [await replica('closed-quit'), await replica('closed-quit')];
    const body = eventBody('f1');
    expect((await a.deliver(body)).status).toBe(200);
    expect(await b.deliver(body)).toMatchObject({ status: 200, text: 'repeat' });
    await a.coordinator.close();
    await a.connection.quit();
    expect(await a.deliver(body)).toEqual({ status: 503, retryAfter: '30', text: 'running' });
    // A new event too: this replica is leaving, so another one runs it (the service retries there).
    expect((await a.deliver(eventBody('f2'))).status).toBe(503);
    expect(a.runs).toEqual(['evt:forecast.completed:f1']);
    expect(b.runs).toEqual([]);
    expect((await b.deliver(eventBody('f2'))).status).toBe(200);
    expect(b.runs).toEqual(['evt:forecast.completed:f2']);
  });

  it('still answers "repeat" from Redis while its connection is open after close()', async () => {
    const [a, b] = [await replica('closed-open'), await replica('closed-open')];
    const body = eventBody('f3');
    expect((await b.deliver(body)).status).toBe(200);
    await a.coordinator.close();
    expect(await a.deliver(body)).toMatchObject({ status: 200, text: 'repeat' });
    expect(a.runs).toEqual([]);
  });
});
