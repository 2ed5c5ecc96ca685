// Documented behaviours of the mock's webhooks (docs/webhooks.md, "Where the spec is silent") not
// covered elsewhere: one mock server for the file, receivers on 127.0.0.1, time on a manual clock.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConflictError, ForecastingClient, RateLimitError, verifyWebhook } from '../../src/index.js';
import { ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';
import type { MockForecastEvent } from '../../src/testing/events.js';
import { sendWebhook } from '../../src/testing/webhooks/send.js';

const OWNER = 'u-documented';
const KEY = 'pre_documented';
let mock: MockServer;
let clock: ManualClock;
let client: ForecastingClient;

beforeAll(async () => {
  clock = new ManualClock(Math.floor(Date.now() / 1000) * 1000);
  // No answerTimeoutMs: the default (10 000 real ms) is in force.
  mock = await startMockServer({ clock, apiKeys: [{ key: KEY, userId: OWNER }], webhooks: { allowLoopbackReceivers: true } });
  client = new ForecastingClient({ apiKey: KEY, baseURL: mock.baseURL, maxRetries: 0, logLevel: 'off' });
});
afterAll(() => mock.close());

interface Receiver {
  url: string;
  close(): Promise<void>;
}
const open: Receiver[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const r of open.splice(0)) await r.close();
  await mock.service.webhooks.idle();
  mock.service.reset();
});

/** A receiver on 127.0.0.1 whose every request is handed to `handle`; closed after the test. */
async function receiverOf(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<Receiver> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handle(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.push(receiver);
  return receiver;
}

/** A receiver that holds each answer until the test releases it, and says when a call has arrived. */
async function holdingReceiver(): Promise<Receiver & { arrived: () => Promise<void>; release: (status: number) => void; count: () => number }> {
  const held: ServerResponse[] = [];
  let count = 0;
  let onArrival: (() => void) | undefined;
  const receiver = await receiverOf((_req, res) => {
    count++;
    held.push(res);
    onArrival?.();
  });
  return {
    ...receiver,
    count: () => count,
    arrived: () => (held.length > 0 ? Promise.resolve() : new Promise<void>((resolve) => (onArrival = resolve))),
    release: (status) => {
      for (const res of held.splice(0)) res.writeHead(status).end();
    },
  };
}

/** A receiver answering each call with the next status of `statuses` (the last one repeated). */
async function scriptedReceiver(statuses: number[]): Promise<Receiver & { signatures: string[] }> {
  const signatures: string[] = [];
  const receiver = await receiverOf((req, res) => {
    signatures.push(String(req.headers['x-service-signature']));
    res.writeHead(statuses[Math.min(signatures.length, statuses.length) - 1]!).end();
  });
  return { ...receiver, signatures };
}

const settle = () => mock.service.webhooks.idle();
const emitCompleted = (): void => {
  const event: MockForecastEvent = { type: 'forecast.completed', taskId: 'task-d', questionId: 'q-d', forecastId: 'fc-d', ownerId: OWNER, at: clock.now() };
  mock.service.events.emit(event);
};
async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('the answer limit', () => {
  it('defaults to 10 000 ms (real time, not the mock clock): no answer at 9 999 ms, aborted at 10 000 ms', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let aborted = false;
      const silent: typeof fetch = (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          });
        });
      const outcome = sendWebhook({ fetch: silent }, 'http://127.0.0.1:9/hooks', {}, '{}');
      await vi.advanceTimersByTimeAsync(9_999);
      expect(aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(aborted).toBe(true);
      expect(await outcome).toEqual({ status: null, error: 'no answer within 10000 ms' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('is the default the mock started without answerTimeoutMs arms for a real call', async () => {
    const receiver = await holdingReceiver();
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const hook = await client.webhooks.create({ url: receiver.url });
    await client.webhooks.test(hook.id);
    await receiver.arrived();
    expect(timers.mock.calls.some(([, ms]) => ms === 10_000)).toBe(true);
    receiver.release(200);
    await settle();
  });
});

describe('delivery states while a call is out', () => {
  it('shows in_progress while the receiver holds its answer, then succeeded', async () => {
    const receiver = await holdingReceiver();
    const hook = await client.webhooks.create({ url: receiver.url });
    const created = await client.webhooks.test(hook.id);
    expect(created.status).toBe('pending');
    await receiver.arrived();
    expect(await client.webhooks.deliveries.retrieve(created.id)).toMatchObject({ status: 'in_progress', attemptCount: 1, nextAttemptAt: null });
    expect((await client.webhooks.deliveries.list({ status: 'in_progress' })).data.map((d) => d.id)).toEqual([created.id]);
    receiver.release(200);
    await settle();
    expect(await client.webhooks.deliveries.retrieve(created.id)).toMatchObject({ status: 'succeeded', responseStatus: 200 });
  });

  it('keeps the attempt of a call out when cancelled, and stays cancelled whatever the answer', async () => {
    const receiver = await holdingReceiver();
    const hook = await client.webhooks.create({ url: receiver.url });
    emitCompleted();
    await receiver.arrived();
    const [delivery] = (await client.webhooks.deliveries.list({ webhookId: hook.id })).data;
    expect(delivery!.status).toBe('in_progress');
    await client.webhooks.update(hook.id, { url: 'https://hooks.example.com/elsewhere' }); // cancels waiting deliveries
    expect((await client.webhooks.deliveries.retrieve(delivery!.id)).status).toBe('cancelled');

    receiver.release(503); // would be retried were the delivery not cancelled
    await settle();
    const after = await client.webhooks.deliveries.retrieve(delivery!.id);
    expect(after).toMatchObject({ status: 'cancelled', attemptCount: 1, responseStatus: null, nextAttemptAt: null });
    const attempts = (await client.webhooks.deliveries.listAttempts(delivery!.id)).data;
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attemptNumber: 1, responseStatus: 503, errorMessage: 'receiver answered 503' });

    clock.advance(3 * 60 * 60 * 1000);
    await settle();
    expect(receiver.count()).toBe(1);
    expect(mock.service.webhooks.calls(delivery!.id)).toHaveLength(1);
    expect((await client.webhooks.deliveries.retrieve(delivery!.id)).status).toBe('cancelled');
  });
});

describe('pausing a webhook', () => {
  it('lets the retries of a delivery created before the pause go on', async () => {
    const receiver = await scriptedReceiver([503, 500, 200]);
    const hook = await client.webhooks.create({ url: receiver.url });
    emitCompleted();
    await settle();
    const [delivery] = (await client.webhooks.deliveries.list({ webhookId: hook.id })).data;
    expect(delivery).toMatchObject({ status: 'retrying', attemptCount: 1 });

    await client.webhooks.update(hook.id, { enabled: false });
    emitCompleted(); // made while paused: no delivery
    clock.advance(30_000);
    await settle();
    expect((await client.webhooks.deliveries.retrieve(delivery!.id)).status).toBe('retrying');
    clock.advance(120_000);
    await settle();
    expect(receiver.signatures).toHaveLength(3);
    expect(await client.webhooks.deliveries.retrieve(delivery!.id)).toMatchObject({ status: 'succeeded', attemptCount: 3, responseStatus: 200 });
    expect((await client.webhooks.deliveries.list({ webhookId: hook.id })).data).toHaveLength(1);
  });
});

describe('secret rotation', () => {
  it('drops the oldest secret on a second rotation within 24 h: at most two v1 values', async () => {
    const receiver = await scriptedReceiver([200]);
    const first = await client.webhooks.create({ url: receiver.url });
    const second = await client.webhooks.rotate(first.id);
    await client.webhooks.test(first.id);
    await settle();
    clock.advance(60 * 60 * 1000); // an hour later: still within the first overlap
    const third = await client.webhooks.rotate(first.id);
    await client.webhooks.test(first.id);
    await settle();

    const v1Count = (signature: string) => signature.split(',').filter((part) => part.startsWith('v1=')).length;
    expect(receiver.signatures.map(v1Count)).toEqual([2, 2]);
    const calls = mock.service.webhooks.calls();
    const last = calls[calls.length - 1]!;
    await expect(verifyWebhook(last.body, last.headers, third.signingSecret)).resolves.toMatchObject({ type: 'webhook.test' });
    await expect(verifyWebhook(last.body, last.headers, second.signingSecret)).resolves.toMatchObject({ type: 'webhook.test' });
    await expect(verifyWebhook(last.body, last.headers, first.signingSecret)).rejects.toThrow();
  });
});

describe('validation and limits', () => {
  it('refuses eventKinds: [] with 400 naming eventKinds', async () => {
    const response = await fetch(`${mock.baseURL}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://hooks.example.com/x', eventKinds: [] }),
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).toMatch(/eventKinds/);
    expect(text).toMatch(/at least one event kind/);
    expect((await client.webhooks.list()).data).toEqual([]);
  });

  it('counts tests and replays refused with 409 against the 20-a-minute limit', async () => {
    const hook = await client.webhooks.create({ url: 'https://hooks.example.com/x' }); // never called
    const delivery = await client.webhooks.test(hook.id); // 1
    await settle();
    expect((await client.webhooks.deliveries.retrieve(delivery.id)).status).toBe('retrying');
    for (let i = 0; i < 19; i++) {
      expect(await errorOf(client.webhooks.deliveries.replay(delivery.id))).toBeInstanceOf(ConflictError); // 2..20
    }
    expect(await errorOf(client.webhooks.test(hook.id))).toBeInstanceOf(RateLimitError);
    expect(await errorOf(client.webhooks.deliveries.replay(delivery.id))).toBeInstanceOf(RateLimitError);
    clock.advance(60_000);
    expect((await client.webhooks.test(hook.id)).status).toBe('pending');
  });
});

describe('the answer read', () => {
  it('reads at most 1 KB: an answer of 2 KB that never ends still records 200 succeeded', async () => {
    const receiver = await receiverOf((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('x'.repeat(2048)); // and never ends
    });
    const hook = await client.webhooks.create({ url: receiver.url });
    const delivery = await client.webhooks.test(hook.id);
    await settle();
    expect(await client.webhooks.deliveries.retrieve(delivery.id)).toMatchObject({ status: 'succeeded', responseStatus: 200, errorMessage: '' });
  });

  it('records a long error answer by status only, not its body', async () => {
    const receiver = await receiverOf((_req, res) => void res.writeHead(400).end('y'.repeat(64 * 1024)));
    const hook = await client.webhooks.create({ url: receiver.url });
    const delivery = await client.webhooks.test(hook.id);
    await settle();
    const state = await client.webhooks.deliveries.retrieve(delivery.id);
    expect(state).toMatchObject({ status: 'failed', responseStatus: 400, errorMessage: 'receiver answered 400' });
    const [attempt] = (await client.webhooks.deliveries.listAttempts(delivery.id)).data;
    expect(attempt).toMatchObject({ responseStatus: 400, errorMessage: 'receiver answered 400' });
  });
});
