// createWebhookHandler: a whole fetch-style route, with and without a coordinator. With one (real
// Redis, two coordinators standing for two processes), the handler runs once per event id, a
// failure lets the retry run it, and every verified event reaches waiters elsewhere.
import diagnostics from 'node:diagnostics_channel';
import { describe, expect, it, vi } from 'vitest';
import { CHANNELS, type WebhookMessage } from '../../src/core/channels.js';
import { createRedisCoordinator, type TaskFinalNotice } from '../../src/redis/index.js';
import { createWebhookHandler, type WebhookEventHandler, type WebhookHandlerOptions } from '../../src/webhooks/fetch.js';
import { testClock } from '../redis/_clock.js';
import { processOn, useRedis } from '../redis/_setup.js';
import { brokenCoordinator, deliveryHeaders, forecastEvent, SECRET } from './_coordinator.js';

/** The outcome and own status of each webhook call while `fn` runs, from the `webhook` channel (as docs/observability.md says them). */
async function outcomes(fn: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const subscriber = { asyncEnd: (m: unknown) => void seen.push(`${(m as WebhookMessage).outcome} ${(m as WebhookMessage).status ?? ''}`.trim()) } as unknown as diagnostics.TracingChannelSubscribers<object>;
  const channel = diagnostics.tracingChannel(CHANNELS.webhook);
  channel.subscribe(subscriber);
  try {
    await fn();
  } finally {
    channel.unsubscribe(subscriber);
  }
  return seen;
}

const redis = useRedis();
const clock = testClock();

const post = async (body: string) => new Request('https://receiver.example/hooks', { method: 'POST', body, headers: await deliveryHeaders(body) });

/** A handler that records the events it ran for and answers as `answers` says (then 200). */
function recording(answers: Array<'throw' | number> = []): WebhookEventHandler & { handled: string[] } {
  const handled: string[] = [];
  const handler = (event: { id: string }) => {
    handled.push(event.id);
    const answer = answers.shift();
    if (answer === 'throw') throw new Error('the database is down');
    return answer === undefined ? undefined : new Response('from the handler', { status: answer });
  };
  return Object.assign(handler, { handled });
}

/** Two handlers (two processes) on one prefix, sharing `handler`. */
async function replicas(prefix: string, handler: WebhookEventHandler, options: WebhookHandlerOptions = {}) {
  const [a, b] = await Promise.all([processOn(redis, clock, { prefix }), processOn(redis, clock, { prefix })]);
  return [createWebhookHandler(SECRET, handler, { ...options, coordinator: a.coordinator }), createWebhookHandler(SECRET, handler, { ...options, coordinator: b.coordinator })] as const;
}

const answerOf = async (response: Response) => `${response.status} ${await response.text()}`;

describe('createWebhookHandler', () => {
  it("answers 200 when the handler returns nothing, else the handler's own Response", async () => {
    const handle = createWebhookHandler(SECRET, recording([202]));
    expect(await answerOf(await handle(await post(forecastEvent('started').body)))).toBe('202 from the handler');
    expect(await answerOf(await handle(await post(forecastEvent('started').body)))).toBe('200 ');
  });

  it('answers a refused call 400 with its code and an oversized body 413, without running the handler', async () => {
    const handler = recording();
    const { body } = forecastEvent('completed');
    const forged = new Request('https://receiver.example/hooks', { method: 'POST', body, headers: { 'x-service-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` } });
    expect(await answerOf(await createWebhookHandler(SECRET, handler)(forged))).toBe('400 no_matching_signature');
    expect(await answerOf(await createWebhookHandler(SECRET, handler, { maxBodyBytes: 64 })(await post(body)))).toBe('413 payload_too_large');
    expect(handler.handled).toEqual([]);
  });

  it('runs the handler once for an event delivered to two processes and once more to the first; repeats get 200 and onRepeat', async () => {
    const handler = recording();
    const onRepeat = vi.fn();
    const [a, b] = await replicas('fetch-once', handler, { onRepeat });
    const event = forecastEvent('completed');
    expect(await answerOf(await a(await post(event.body)))).toBe('200 ');
    expect(await answerOf(await b(await post(event.body)))).toBe('200 repeat');
    expect(await answerOf(await a(await post(event.body)))).toBe('200 repeat');
    expect(handler.handled).toEqual([event.id]);
    expect(onRepeat.mock.calls.map(([e]) => (e as { id: string }).id)).toEqual([event.id, event.id]);
  });

  it.each<[string, 'throw' | number]>([
    ['throws (the error goes on to the framework)', 'throw'],
    ['answers 503', 503],
    ['answers 408', 408],
  ])('lets the retry run the handler again when it %s', async (_what, failure) => {
    const handler = recording([failure]);
    const [a, b] = await replicas('fetch-retry', handler);
    const event = forecastEvent('completed');
    const first = a(await post(event.body));
    if (failure === 'throw') await expect(first).rejects.toThrow('the database is down');
    else expect((await first).status).toBe(failure);
    expect(await answerOf(await b(await post(event.body)))).toBe('200 ');
    expect(await answerOf(await a(await post(event.body)))).toBe('200 repeat');
    expect(handler.handled).toEqual([event.id, event.id]);
  });

  it('keeps the claim when the handler answers a status the service does not retry (a 4xx other than 408, 425, 429)', async () => {
    const handler = recording([400]);
    const [a, b] = await replicas('fetch-4xx', handler);
    const event = forecastEvent('completed');
    expect((await a(await post(event.body))).status).toBe(400);
    expect(await answerOf(await b(await post(event.body)))).toBe('200 repeat');
  });

  it('answers 503 with Retry-After: 30 to a delivery while another process still runs the event, without running the handler; a repeat once it succeeded', async () => {
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const handled: string[] = [];
    const [a, b] = await replicas('fetch-running', async (event) => {
      handled.push(event.id);
      await gate;
    });
    const event = forecastEvent('completed');
    const counted = await outcomes(async () => {
      const first = a(await post(event.body));
      await vi.waitFor(() => expect(handled).toHaveLength(1));
      const second = await b(await post(event.body));
      expect([second.status, second.headers.get('retry-after'), await second.text()]).toEqual([503, '30', 'running']);
      finish();
      expect((await first).status).toBe(200);
      expect(await answerOf(await b(await post(event.body)))).toBe('200 repeat');
    });
    expect(handled).toEqual([event.id]);
    // The call answered 503 is counted a duplicate (docs/observability.md), as the repeat is.
    expect(counted.sort()).toEqual(['duplicate 200', 'duplicate 503', 'verified']);
  });

  it('runs the handler on the retry of a delivery that met a running claim whose run then failed: the event is not lost', async () => {
    let fail!: () => void;
    const gate = new Promise<void>((resolve) => (fail = resolve));
    const handled: string[] = [];
    const [a, b] = await replicas('fetch-lost', async (event) => {
      handled.push(event.id);
      if (handled.length === 1) {
        await gate;
        throw new Error('the database is down');
      }
    });
    const event = forecastEvent('completed');
    const counted = await outcomes(async () => {
      const first = a(await post(event.body));
      await vi.waitFor(() => expect(handled).toHaveLength(1));
      expect((await b(await post(event.body))).status).toBe(503);
      fail();
      await expect(first).rejects.toThrow('the database is down');
      expect(await answerOf(await b(await post(event.body)))).toBe('200 ');
    });
    expect(handled).toEqual([event.id, event.id]);
    // The service's call again after the 503 is counted again, as verified: the other run failed.
    expect(counted.sort()).toEqual(['duplicate 503', 'verified', 'verified']);
  });

  it('goes on without a coordinator that does not answer within coordinatorTimeoutMs: the handler runs, one warning', async () => {
    const warn = vi.fn();
    const calls: string[] = [];
    const hang = (name: string) => () => (calls.push(name), new Promise<never>(() => undefined));
    const coordinator = { publish: hang('publish'), claimEvent: hang('claimEvent'), finishEvent: hang('finishEvent'), unclaimEvent: hang('unclaimEvent') };
    const handler = recording();
    const handle = createWebhookHandler(SECRET, handler, { coordinator, coordinatorTimeoutMs: 20, logger: { warn } });
    const event = forecastEvent('completed');
    expect(await answerOf(await handle(await post(event.body)))).toBe('200 ');
    expect(await answerOf(await handle(await post(event.body)))).toBe('200 ');
    expect(handler.handled).toEqual([event.id, event.id]);
    expect(calls).toEqual(['publish', 'claimEvent', 'finishEvent', 'publish', 'claimEvent', 'finishEvent']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/^\[forecasting-sdk\] webhook coordinator failed \(TimeoutError\)/);
  });

  it('waits 2 seconds for a coordinator by default', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const hang = () => new Promise<never>(() => undefined);
      const handler = recording();
      const handle = createWebhookHandler(SECRET, handler, { coordinator: { publish: hang, claimEvent: hang, finishEvent: hang, unclaimEvent: hang }, logger: { warn: () => undefined } });
      let answered = false;
      const answer = handle(await post(forecastEvent('completed').body)).then((r) => ((answered = true), r));
      await vi.advanceTimersByTimeAsync(1_999);
      expect([handler.handled.length, answered]).toEqual([0, false]);
      await vi.advanceTimersByTimeAsync(1);
      // The handler ran; marking its claim done waits its own 2 seconds.
      await vi.waitFor(() => expect(handler.handled).toHaveLength(1));
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(2_000);
      expect((await answer).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a coordinatorTimeoutMs that is not a positive number, at construction', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createWebhookHandler(SECRET, recording(), { coordinatorTimeoutMs: bad })).toThrow(/coordinatorTimeoutMs/);
    }
  });

  it('says once, naming `prefix`, that a coordinator with no key namespace (no prefix, no FORECASTING_API_KEY) cannot share events', async () => {
    vi.stubEnv('FORECASTING_API_KEY', '');
    try {
      const warn = vi.fn();
      const coordinator = createRedisCoordinator(await redis.client());
      const handler = recording();
      const handle = createWebhookHandler(SECRET, handler, { coordinator, logger: { warn } });
      for (let i = 0; i < 3; i++) expect((await handle(await post(forecastEvent('completed').body))).status).toBe(200);
      expect(handler.handled).toHaveLength(3);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]![0]).toMatch(/no key namespace: pass the `prefix` option/);
      await coordinator.close();
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("publishes every verified event: a task's final event wakes a watch in another process", async () => {
    const [a] = await replicas('fetch-fan', recording());
    const { coordinator: waiter } = await processOn(redis, clock, { prefix: 'fetch-fan' });
    const seen: TaskFinalNotice[] = [];
    const event = forecastEvent('cancelled');
    waiter.watch([event.taskId], (notice) => seen.push(notice));
    const client = await redis.client();
    await vi.waitFor(async () => expect(await client.pubSubNumSub('{fetch-fan}:events')).toEqual({ '{fetch-fan}:events': 1 }));
    await a(await post(forecastEvent('started', event.taskId).body));
    await a(await post(event.body));
    await vi.waitFor(() => expect(seen).toEqual([{ taskId: event.taskId, status: 'cancelled' }]));
    expect(await waiter.stats()).toMatchObject({ eventsPublished: 2, receiversSeen: 1 });
  });

  it('with a coordinator that fails: still runs the handler (not a repeat) and warns once, without the error text', async () => {
    const warn = vi.fn();
    const handler = recording(['throw']);
    const coordinator = brokenCoordinator();
    const handle = createWebhookHandler(SECRET, handler, { coordinator, logger: { warn } });
    const event = forecastEvent('completed');
    await expect(handle(await post(event.body))).rejects.toThrow('the database is down');
    expect((await handle(await post(event.body))).status).toBe(200);
    expect(handler.handled).toEqual([event.id, event.id]);
    expect(coordinator.calls).toEqual(['publish', 'claimEvent', 'unclaimEvent', 'publish', 'claimEvent', 'finishEvent']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).not.toMatch(/hunter2|10\.0\.0\.5/);
  });
});
