// docs/webhooks.md, "Express (4 and 5)": "Every call refused for its signature, age or body (`400`,
// and the `500` of a body already read) goes to `onError(err, req)` with its
// `WebhookVerificationError` before the answer is sent [...]; a body over the cap (`413`) is refused
// before it is read, with no `onError`."
// On a real Express app (5 and 4) on 127.0.0.1: inside onError the response has not started
// (`res.headersSent` is false, nothing written), and the answer's `finish` comes after onError.
// The docs do not say the answer waits for an async onError (its type returns void), so that is
// not tested here.
import express from 'express';
import express4 from 'express4';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { signWebhook, WebhookVerificationError } from '../../src/index.js';
import { webhookMiddleware, type WebhookMiddlewareRequest } from '../../src/webhooks/express.js';

const SECRET = 'whsec_documented_onerror';
const EVENT = JSON.stringify({ createdAt: '2026-01-01T00:00:00.000Z', data: { test: true, webhookId: 'w1' }, id: 'evt:webhook.test:d1', type: 'webhook.test' });

/** What onError saw of the answer, and what happened in what order. */
interface Seen {
  code: string;
  isVerificationError: boolean;
  headersSent: boolean | undefined;
  writableEnded: boolean | undefined;
  /** 'onError' and 'finish' (the answer handed to the OS), in the order they came. */
  order: string[];
}

const versions = [
  ['Express 5', express],
  ['Express 4', express4],
] as const;

describe.each(versions)('webhookMiddleware onError on %s: called before the answer is sent', (_name, createExpress) => {
  let server: Server;
  let origin = '';
  /** The response of each request, for onError (which gets only the request) to look at. */
  const responses = new WeakMap<object, express.Response>();
  const orders = new WeakMap<object, string[]>();
  let seen: Seen[] = [];
  const silent = { warn: () => undefined };

  /** Remembers `res`, and when its answer finishes, for onError. */
  const capture: express.RequestHandler = (req, res, next) => {
    const order: string[] = [];
    responses.set(req, res);
    orders.set(req, order);
    res.once('finish', () => order.push('finish'));
    next();
  };
  const onError = (err: WebhookVerificationError, req: WebhookMiddlewareRequest) => {
    const res = responses.get(req);
    const order = orders.get(req) ?? [];
    order.push('onError');
    seen.push({ code: err.code, isVerificationError: err instanceof WebhookVerificationError, headersSent: res?.headersSent, writableEnded: res?.writableEnded, order });
  };
  const verified: express.RequestHandler = (req, res) => void res.status(200).send(req.webhookEvent!.type);

  beforeAll(async () => {
    const app = createExpress();
    app.post('/hooks', capture, webhookMiddleware(SECRET, { onError, logger: silent, maxBodyBytes: 4096 }), verified);
    // express.json() before the middleware: the body is already read (500 body_already_read).
    app.post('/parsed', express.json(), capture, webhookMiddleware(SECRET, { onError, logger: silent }), verified);
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen = [];
  });

  async function post(path: string, body: string, signature: string | undefined): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (signature !== undefined) headers['x-service-signature'] = signature;
    const res = await fetch(`${origin}${path}`, { method: 'POST', headers, body });
    return { status: res.status, text: await res.text() };
  }

  const now = () => Math.floor(Date.now() / 1000);
  const refusals: [string, () => Promise<{ body: string; signature: string | undefined }>][] = [
    ['missing_header', async () => ({ body: EVENT, signature: undefined })],
    ['malformed_header', async () => ({ body: EVENT, signature: 'not-a-signature' })],
    ['no_matching_signature', async () => ({ body: EVENT, signature: await signWebhook(EVENT, 'whsec_someone_else') })],
    ['timestamp_out_of_range', async () => ({ body: EVENT, signature: await signWebhook(EVENT, SECRET, { timestamp: now() - 3600 }) })],
    ['malformed_payload', async () => ({ body: '[1,2]', signature: await signWebhook('[1,2]', SECRET) })],
  ];

  it.each(refusals)('a call refused with 400 %s: onError gets the error while the answer is not yet sent, and the 400 follows', async (code, make) => {
    const { body, signature } = await make();
    expect(await post('/hooks', body, signature)).toEqual({ status: 400, text: code });
    // The answer's `finish` is an event of its own: waited for, it must come after onError.
    await vi.waitFor(() => expect(seen).toEqual([{ code, isVerificationError: true, headersSent: false, writableEnded: false, order: ['onError', 'finish'] }]));
  });

  it('a body another parser already read (500 body_already_read): onError gets its WebhookVerificationError before the 500 is sent', async () => {
    expect(await post('/parsed', EVENT, await signWebhook(EVENT, SECRET))).toEqual({ status: 500, text: 'body_already_read' });
    await vi.waitFor(() => expect(seen).toEqual([{ code: expect.any(String), isVerificationError: true, headersSent: false, writableEnded: false, order: ['onError', 'finish'] }]));
  });

  it('a body over the cap (413) and a verified call do not go to onError', async () => {
    const big = JSON.stringify({ ...(JSON.parse(EVENT) as object), pad: 'p'.repeat(5000) });
    expect(await post('/hooks', big, await signWebhook(big, SECRET))).toEqual({ status: 413, text: 'payload_too_large' });
    expect(await post('/hooks', EVENT, await signWebhook(EVENT, SECRET))).toEqual({ status: 200, text: 'webhook.test' });
    expect(seen).toEqual([]);
  });
});
