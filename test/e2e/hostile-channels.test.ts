// What a hostile answer, a hostile caller of a webhook receiver or a careless subscriber can put on
// the diagnostics channels, and into the requests: ids that look like ids only, at most 12; no
// header that breaks a request or adds credentials; a delivery id of printable characters only.
import diagnostics from 'node:diagnostics_channel';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNELS, ForecastingClient, type OperationMessage, type WebhookMessage } from '../../src/index.js';
import { signWebhook } from '../../src/webhooks/index.js';
import { createWebhookHandler } from '../../src/webhooks/fetch.js';

/** A service that answers every request with `answer`, recording the headers it got. */
let answer = '{}';
const received: IncomingHttpHeaders[] = [];
const server = createServer((req, res) => {
  received.push(req.headers);
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
});
let baseURL = '';
beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/external`;
});
afterAll(() => void server.close());
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  received.length = 0;
});

/** Subscribes `handlers` (the others do nothing) to a tracing channel for this test. */
function on(name: string, handlers: { start?: (m: never) => void; asyncEnd?: (m: never) => void }) {
  const ignore = () => undefined;
  const all = { start: ignore, end: ignore, asyncStart: ignore, asyncEnd: ignore, error: ignore, ...handlers } as unknown as diagnostics.TracingChannelSubscribers<object>;
  diagnostics.tracingChannel(name).subscribe(all);
  stops.push(() => diagnostics.tracingChannel(name).unsubscribe(all));
}

describe('hostile input on the channels', () => {
  it("passes on only the ids of a write's answer that look like ids, 12 at most", async () => {
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}Id`, `id_${i}`]));
    answer = JSON.stringify({ id: 'task_1', questionId: 'q_1', echoId: 'Bearer pre_secret_key', bodyId: '{"password":"x"}', ctlId: 'a\u001b[2J\r\nb', [`${'x'.repeat(5000)}Id`]: 'long', ...many });
    const ended: OperationMessage[] = [];
    on(CHANNELS.operation, { asyncEnd: (m: OperationMessage) => void ended.push(m) });
    await new ForecastingClient({ apiKey: 'pre_k', baseURL, logLevel: 'off' }).post('/anything', { body: {} });
    const ids = ended[0]!.answerIds!;
    expect(ids).toMatchObject({ id: 'task_1', question_id: 'q_1' });
    expect(Object.keys(ids)).toHaveLength(12);
    expect(JSON.stringify(ids)).not.toMatch(/Bearer|password|\\u001b|xxxxx/);
  });

  it('sends no header a subscriber adds that would break the request or add credentials', async () => {
    on(CHANNELS.operation, {
      start: (m: OperationMessage) =>
        void Object.assign(m.headers, { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', expect: '100-continue', 'transfer-encoding': 'chunked', connection: 'close', authorization: 'Bearer attacker', 'x-api-key': 'attacker', 'x-wide': 'snow ☃' }),
    });
    const client = new ForecastingClient({ apiKey: 'pre_k', baseURL, logLevel: 'off' });
    await client.get('/anything');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', authorization: 'Bearer pre_k' });
    expect(received[0]!['x-api-key']).toBeUndefined();
    expect(received[0]!['x-wide']).toBeUndefined();
    expect(received[0]!['expect']).toBeUndefined();
  });

  it("passes on a webhook call's delivery id only when it is printable characters", async () => {
    const calls: WebhookMessage[] = [];
    on(CHANNELS.webhook, { asyncEnd: (m: WebhookMessage) => void calls.push(m) });
    const handle = createWebhookHandler('whsec_hostile_0123456789', () => undefined);
    const body = JSON.stringify({ id: 'evt_h', type: 'webhook.test', createdAt: new Date().toISOString(), data: { test: true } });
    const signature = await signWebhook(body, 'whsec_hostile_0123456789');
    await handle(new Request('http://127.0.0.1/hook', { method: 'POST', body, headers: { 'x-service-signature': signature, 'x-service-delivery-id': 'd\u0007x' } }));
    await handle(new Request('http://127.0.0.1/hook', { method: 'POST', body, headers: { 'x-service-signature': signature, 'x-service-delivery-id': 'dlv_ok' } }));
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(calls.map((c) => c.deliveryId)).toEqual([undefined, 'dlv_ok']);
  });
});
