// webhookMiddleware with a coordinator, on real Express apps (5 and 4) and a real Redis: two apps
// with a coordinator each stand for two replicas. The handler runs once per event across them, a
// failed handler lets the retry run it, and every verified event reaches waiters elsewhere.
import express from 'express';
import express4 from 'express4';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRedisCoordinator, type TaskFinalNotice } from '../../src/redis/index.js';
import { webhookMiddleware, type WebhookMiddlewareOptions } from '../../src/webhooks/express.js';
import { testClock } from '../redis/_clock.js';
import { processOn, useRedis } from '../redis/_setup.js';
import { brokenCoordinator, deliveryHeaders, forecastEvent, SECRET } from './_coordinator.js';

const redis = useRedis();

/** What a route's handler does: answer, fail with next(err), or throw. */
type Behaviour = 'ok' | 'next-error' | 'status-500' | 'status-429' | 'hang-up' | 'wait';

interface Replica {
  url: string;
  /** Event ids the handler ran for, in order. */
  handled: string[];
  repeats: { id: string; flag: boolean | undefined }[];
  behave(next: Behaviour): void;
  /** Lets a handler that waits (behaviour `wait`) answer 200. */
  release(): void;
  close(): Promise<void>;
}

async function replica(createExpress: typeof express, options: WebhookMiddlewareOptions): Promise<Replica> {
  const app = createExpress();
  const handled: string[] = [];
  const repeats: Replica['repeats'] = [];
  let behaviour: Behaviour = 'ok';
  let release = () => undefined as void;
  app.post(
    '/hooks',
    webhookMiddleware(SECRET, { ...options, onRepeat: (event, req) => repeats.push({ id: event.id, flag: req.webhookRepeat }) }),
    (req: express.Request, res: express.Response, next: express.NextFunction) => {
      handled.push(req.webhookEvent!.id);
      if (behaviour === 'next-error') return next(new Error('the database is down'));
      if (behaviour === 'hang-up') return void res.socket?.destroy();
      if (behaviour === 'wait') return void new Promise<void>((resolve) => (release = resolve)).then(() => res.sendStatus(200));
      res.sendStatus(behaviour === 'status-500' ? 500 : behaviour === 'status-429' ? 429 : 200);
    },
  );
  // Express's default error handler would print the error's stack: answer 500 quietly instead.
  app.use((_err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(500).send('failed'));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    handled,
    repeats,
    behave: (next) => void (behaviour = next),
    release: () => release(),
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** One delivery attempt of `body` to `url`: its status and answer, or `hung up`. */
async function deliver(url: string, body: string): Promise<string> {
  try {
    const response = await fetch(url, { method: 'POST', body, headers: await deliveryHeaders(body) });
    return `${response.status} ${await response.text()}`;
  } catch {
    return 'hung up';
  }
}

describe.each([
  ['Express 5', express],
  ['Express 4', express4 as unknown as typeof express],
])('webhookMiddleware with a coordinator on %s', (name, createExpress) => {
  const prefix = `hooks-${name.replace(' ', '')}`;
  let a: Replica;
  let b: Replica;
  const clock = testClock();

  beforeAll(async () => {
    const [pa, pb] = await Promise.all([processOn(redis, clock, { prefix }), processOn(redis, clock, { prefix })]);
    [a, b] = await Promise.all([replica(createExpress, { coordinator: pa.coordinator }), replica(createExpress, { coordinator: pb.coordinator })]);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('runs the handler once for an event delivered to two replicas and once more to the first; repeats get 200 and are flagged', async () => {
    const event = forecastEvent('completed');
    expect(await deliver(a.url, event.body)).toBe('200 OK');
    // The claim is marked done when the answer is sent: a delivery in the same instant may meet it still running (503).
    await vi.waitFor(async () => expect(await deliver(b.url, event.body)).toBe('200 repeat'));
    expect(await deliver(a.url, event.body)).toBe('200 repeat');
    expect([...a.handled, ...b.handled].filter((id) => id === event.id)).toEqual([event.id]);
    expect([...a.repeats, ...b.repeats].filter((r) => r.id === event.id)).toEqual([
      { id: event.id, flag: true },
      { id: event.id, flag: true },
    ]);
    const { coordinator } = await processOn(redis, clock, { prefix });
    expect(await coordinator.stats()).toMatchObject({ eventsDeduplicated: 2 });
  });

  it.each<[string, Behaviour, string]>([
    ['next(err)', 'next-error', '500 failed'],
    ['an answer of 500', 'status-500', '500 Internal Server Error'],
    ['an answer of 429 (retried by the service too)', 'status-429', '429 Too Many Requests'],
    ['a connection closed before the answer', 'hang-up', 'hung up'],
  ])('lets the retry run the handler again after %s', async (_what, failure, answer) => {
    const event = forecastEvent('completed');
    a.behave(failure);
    try {
      expect(await deliver(a.url, event.body)).toBe(answer);
    } finally {
      a.behave('ok');
    }
    // The claim is given back when the answer is sent or the connection closes: the retry may come at once.
    await vi.waitFor(async () => expect(await deliver(b.url, event.body)).toBe('200 OK'));
    await vi.waitFor(async () => expect(await deliver(a.url, event.body)).toBe('200 repeat'));
    expect(b.handled.filter((id) => id === event.id)).toEqual([event.id]);
  });

  it('answers 503 with Retry-After: 30 to a delivery while another replica still runs the event, without running the handler', async () => {
    const event = forecastEvent('completed');
    a.behave('wait');
    const first = deliver(a.url, event.body);
    try {
      await vi.waitFor(() => expect(a.handled).toContain(event.id));
      const response = await fetch(b.url, { method: 'POST', body: event.body, headers: await deliveryHeaders(event.body) });
      expect([response.status, response.headers.get('retry-after'), await response.text()]).toEqual([503, '30', 'running']);
      expect(b.repeats.filter((r) => r.id === event.id)).toEqual([]);
    } finally {
      a.behave('ok');
      a.release();
    }
    expect(await first).toBe('200 OK');
    await vi.waitFor(async () => expect(await deliver(b.url, event.body)).toBe('200 repeat'));
    expect([...a.handled, ...b.handled].filter((id) => id === event.id)).toEqual([event.id]);
  });

  it("publishes every verified event: a task's final event wakes a watch in another process", async () => {
    const { coordinator: waiter } = await processOn(redis, clock, { prefix });
    const seen: TaskFinalNotice[] = [];
    const started = forecastEvent('started');
    const failed = forecastEvent('failed', started.taskId);
    waiter.watch([started.taskId], (notice) => seen.push(notice));
    const client = await redis.client();
    await vi.waitFor(async () => expect((await client.pubSubNumSub(`{${prefix}}:events`))[`{${prefix}}:events`]).toBeGreaterThan(0));
    await deliver(a.url, started.body);
    await deliver(b.url, failed.body);
    await vi.waitFor(() => expect(seen).toEqual([{ taskId: started.taskId, status: 'failed' }]));
    // Receiving while its link to Redis is shared: a health check that timed out on a loaded machine turns it local for a moment.
    await vi.waitFor(() => expect(waiter.receiving()).toBe(true), { timeout: 10_000 });
  });
});

describe('webhookMiddleware with a coordinator that does not answer', () => {
  it('goes on without it after coordinatorTimeoutMs: the handler runs, one warning', async () => {
    const warn = vi.fn();
    const hang = () => new Promise<never>(() => undefined);
    const app = await replica(express, { coordinator: { publish: hang, claimEvent: hang, finishEvent: hang, unclaimEvent: hang }, coordinatorTimeoutMs: 20, logger: { warn } });
    try {
      const event = forecastEvent('completed');
      expect(await deliver(app.url, event.body)).toBe('200 OK');
      expect(await deliver(app.url, event.body)).toBe('200 OK');
      expect(app.handled).toEqual([event.id, event.id]);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]![0]).toMatch(/webhook coordinator failed \(TimeoutError\)/);
    } finally {
      await app.close();
    }
  });
});

describe('webhookMiddleware with a coordinator that has no key namespace (a receiver process with no client, no key, no prefix)', () => {
  it('runs the handler and warns that the set-up mistake it names lasts until fixed, not as an outage that passes', async () => {
    vi.stubEnv('FORECASTING_API_KEY', undefined);
    const client = await redis.client();
    const coordinator = createRedisCoordinator(client);
    const warn = vi.fn();
    const app = await replica(express, { coordinator, logger: { warn } });
    try {
      const event = forecastEvent('completed');
      expect(await deliver(app.url, event.body)).toBe('200 OK');
      expect(app.handled).toEqual([event.id]);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]![0]).toMatch(/^\[forecasting-sdk\] webhook coordinator failed \(ValidationError: prefix: createRedisCoordinator has no key namespace: pass the `prefix` option, .*, or set FORECASTING_API_KEY\.\): .* until it works again \(a set-up mistake: until fixed\)\. \(At most one such warning a minute\.\)$/);
    } finally {
      vi.unstubAllEnvs();
      await app.close();
      await coordinator.close();
      await client.quit();
    }
  });
});

describe('webhookMiddleware with a coordinator that fails', () => {
  it('still verifies and runs the handler (not a repeat), warns once without the error text, and never hangs', async () => {
    const warn = vi.fn();
    const coordinator = brokenCoordinator();
    const app = await replica(express, { coordinator, logger: { warn } });
    try {
      const event = forecastEvent('completed');
      expect(await deliver(app.url, event.body)).toBe('200 OK');
      expect(await deliver(app.url, event.body)).toBe('200 OK');
      app.behave('status-500');
      expect(await deliver(app.url, event.body)).toBe('500 Internal Server Error');
      expect(app.handled).toEqual([event.id, event.id, event.id]);
      await vi.waitFor(() => expect(coordinator.calls).toContain('unclaimEvent'));
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]![0]).toMatch(/^\[forecasting-sdk\] webhook coordinator failed \(TypeError\)/);
      expect(warn.mock.calls[0]![0]).not.toMatch(/hunter2|10\.0\.0\.5/);
      // A forged call is refused before the coordinator is asked anything.
      const before = coordinator.calls.length;
      const refused = await fetch(app.url, { method: 'POST', body: event.body, headers: { 'x-service-signature': 't=1,v1=00' } });
      expect(refused.status).toBe(400);
      expect(coordinator.calls).toHaveLength(before);
    } finally {
      await app.close();
    }
  });
});
