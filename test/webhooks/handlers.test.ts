// Handler set-up mistakes: a missing secret fails at start-up, and a refused call's reason is not hidden.
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signWebhook, WebhookVerificationError } from '../../src/index.js';
import { webhookMiddleware } from '../../src/webhooks/express.js';
import { createWebhookVerifier } from '../../src/webhooks/fetch.js';

const SECRET = 'whsec_handler_tests';
const body = JSON.stringify({ createdAt: '2026-01-01T00:00:00.000Z', data: { test: true, webhookId: 'w1' }, id: 'evt:webhook.test:d1', type: 'webhook.test' });

let server: Server | undefined;
afterEach(async () => {
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
  vi.restoreAllMocks();
});

/** Serves `app` on 127.0.0.1 and posts `payload` to `/hooks` with a signature made by `secret`. */
async function post(app: express.Express, secret = SECRET, payload = body): Promise<{ status: number; text: string }> {
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-signature': await signWebhook(payload, secret) },
    body: payload,
  });
  return { status: res.status, text: await res.text() };
}

describe('a missing secret fails at construction', () => {
  for (const [name, secret] of [
    ['undefined (an unset environment variable)', undefined],
    ['an empty string', ''],
    ['an empty array', []],
  ] as const) {
    it(`webhookMiddleware throws a TypeError for ${name}`, () => {
      expect(() => webhookMiddleware(secret as unknown as string)).toThrow(TypeError);
      expect(() => webhookMiddleware(secret as unknown as string)).toThrow(/webhookMiddleware: `secret` must be a non-empty string/);
    });
    it(`createWebhookVerifier throws a TypeError for ${name}`, () => {
      expect(() => createWebhookVerifier(secret as unknown as string)).toThrow(/createWebhookVerifier: `secret`/);
    });
  }

  it('webhookMiddleware refuses a maxBodyBytes that is not a whole number > 0', () => {
    expect(() => webhookMiddleware(SECRET, { maxBodyBytes: 0 })).toThrow(TypeError);
  });
});

describe('the reason for a refusal is not hidden', () => {
  it('gives onError the WebhookVerificationError of a call with a bad signature, then answers 400 with its code', async () => {
    const errors: WebhookVerificationError[] = [];
    const app = express();
    const logger = { warn: vi.fn() };
    app.post('/hooks', webhookMiddleware(SECRET, { onError: (err) => errors.push(err), logger }), (_req, res) => res.sendStatus(200));
    expect(await post(app, 'whsec_someone_else')).toEqual({ status: 400, text: 'no_matching_signature' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(WebhookVerificationError);
    expect(errors[0]!.code).toBe('no_matching_signature');
    expect(logger.warn).toHaveBeenCalledTimes(1); // the hook does not silence the wrong-secret warning
  });

  it('warns by default when express.json() read the body first, saying how to mount the route', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const app = express();
    app.use(express.json());
    app.post('/hooks', webhookMiddleware(SECRET), (_req, res) => res.sendStatus(200));
    expect(await post(app)).toEqual({ status: 500, text: 'body_already_read' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/mount this route before express\.json\(\)/);
  });

  it('warns by default about a fresh signature made with another secret, a missed rotation (rate-limited: wrong-secret.test.ts)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const app = express();
    app.post('/hooks', webhookMiddleware(SECRET), (_req, res) => res.sendStatus(200));
    expect((await post(app, 'whsec_someone_else')).status).toBe(400);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/matches none of the 1 secret\(s\)/);
  });

  it('still answers 400 when onError itself throws', async () => {
    const app = express();
    const logger = { warn: vi.fn() };
    app.post('/hooks', webhookMiddleware(SECRET, { onError: () => { throw new Error('logger down'); }, logger }), (_req, res) => res.sendStatus(200));
    expect(await post(app, 'whsec_someone_else')).toEqual({ status: 400, text: 'no_matching_signature' });
  });

  it('passes a good call through without calling onError', async () => {
    const onError = vi.fn();
    const app = express();
    app.post('/hooks', webhookMiddleware(SECRET, { onError }), (req, res) => res.status(200).send(req.webhookEvent!.type));
    expect(await post(app)).toEqual({ status: 200, text: 'webhook.test' });
    expect(onError).not.toHaveBeenCalled();
  });
});
