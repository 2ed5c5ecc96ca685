// webhookMiddleware reading the body itself: size limits at their edges, bodies in many chunks or as
// text, and what it says when another parser read the body first.
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signWebhook, WebhookVerificationError } from '../../src/index.js';
import { webhookMiddleware, type WebhookMiddlewareOptions } from '../../src/webhooks/express.js';

const SECRET = 'whsec_express_body_tests';

/** A webhook.test event whose JSON is exactly `size` bytes long. */
function eventOfSize(size: number): string {
  const shell = JSON.stringify({ createdAt: '2026-01-01T00:00:00.000Z', data: { pad: '', test: true }, id: 'evt:webhook.test:d1', type: 'webhook.test' });
  const body = shell.replace('"pad":""', `"pad":"${'p'.repeat(size - shell.length)}"`);
  expect(body).toHaveLength(size);
  return body;
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
  vi.restoreAllMocks();
});

/** Serves one route, `before` then the middleware then a handler answering the event type, and posts `payload` signed. */
async function post(payload: string, options: WebhookMiddlewareOptions = {}, before: express.RequestHandler[] = []): Promise<{ status: number; text: string }> {
  const app = express();
  app.post('/hooks', ...before, webhookMiddleware(SECRET, options), (req, res) => res.status(200).send(req.webhookEvent!.type));
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-signature': await signWebhook(payload, SECRET) },
    body: payload,
  });
  return { status: res.status, text: await res.text() };
}

describe('body size', () => {
  it('verifies a body of exactly maxBodyBytes, and answers 413 to one byte more', async () => {
    expect(await post(eventOfSize(200), { maxBodyBytes: 200 })).toEqual({ status: 200, text: 'webhook.test' });
    expect(await post(eventOfSize(201), { maxBodyBytes: 200 })).toEqual({ status: 413, text: 'payload_too_large' });
  });

  it('takes bodies up to 1 MiB by default', async () => {
    expect((await post(eventOfSize(1024 * 1024))).status).toBe(200);
    expect(await post(eventOfSize(1024 * 1024 + 1))).toEqual({ status: 413, text: 'payload_too_large' });
  });

  it.each([0, -1, 1.5, Number.NaN, Infinity])('refuses maxBodyBytes %s at start-up, saying what it takes', (maxBodyBytes) => {
    expect(() => webhookMiddleware(SECRET, { maxBodyBytes })).toThrow(
      new TypeError(`webhookMiddleware: \`maxBodyBytes\` must be a whole number of bytes > 0, got ${String(maxBodyBytes)}.`),
    );
  });

  it('holds a body express.raw() or express.text() already read to the same cap: 413 one byte over, and no onError', async () => {
    const onError = vi.fn();
    const raw = express.raw({ type: 'application/json', limit: '2mb' });
    const text = express.text({ type: 'application/json', limit: '2mb' });
    for (const parser of [raw, text]) {
      expect(await post(eventOfSize(200), { maxBodyBytes: 200, onError }, [parser])).toEqual({ status: 200, text: 'webhook.test' });
      expect(await post(eventOfSize(201), { maxBodyBytes: 200, onError }, [parser])).toEqual({ status: 413, text: 'payload_too_large' });
    }
    expect(onError).not.toHaveBeenCalled();
  });

  it('counts the bytes of a text body, not its characters', async () => {
    // 300 characters, 100 of them of two bytes: 400 bytes.
    const body = eventOfSize(300).replace('p'.repeat(100), 'é'.repeat(100));
    expect(body).toHaveLength(300);
    const text = express.text({ type: 'application/json' });
    expect(await post(body, { maxBodyBytes: 399 }, [text])).toEqual({ status: 413, text: 'payload_too_large' });
    expect(await post(body, { maxBodyBytes: 400 }, [text])).toEqual({ status: 200, text: 'webhook.test' });
  });

  it('counts a character outside the BMP (a surrogate pair) as its 4 bytes, and a 3-byte one as 3', async () => {
    const text = express.text({ type: 'application/json' });
    // 300 characters: 50 pairs (100 units, 200 bytes) and 50 '€' (150 bytes) in the padding: 300 + 100 + 100 = 500 bytes.
    const body = eventOfSize(300).replace('p'.repeat(150), '😀'.repeat(50) + '€'.repeat(50));
    expect(body).toHaveLength(300);
    expect(Buffer.byteLength(body)).toBe(500);
    expect(await post(body, { maxBodyBytes: 499 }, [text])).toEqual({ status: 413, text: 'payload_too_large' });
    expect(await post(body, { maxBodyBytes: 500 }, [text])).toEqual({ status: 200, text: 'webhook.test' });
  });

  it('holds an ArrayBuffer another parser left as the body to the cap too', async () => {
    const asArrayBuffer: express.RequestHandler = (req, _res, next) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
        const bytes = Buffer.concat(chunks);
        (req as unknown as { body: ArrayBuffer }).body = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
        next();
      });
    };
    expect(await post(eventOfSize(200), { maxBodyBytes: 200 }, [asArrayBuffer])).toEqual({ status: 200, text: 'webhook.test' });
    expect(await post(eventOfSize(201), { maxBodyBytes: 200 }, [asArrayBuffer])).toEqual({ status: 413, text: 'payload_too_large' });
  });

  it('accepts a maxBodyBytes of 1', () => {
    expect(() => webhookMiddleware(SECRET, { maxBodyBytes: 1 })).not.toThrow();
  });
});

describe('reading the body', () => {
  it('verifies a body that arrives in many chunks, joined in order', async () => {
    expect(await post(eventOfSize(300_000))).toEqual({ status: 200, text: 'webhook.test' });
  });

  it('verifies a body the stream gives as text (after req.setEncoding)', async () => {
    const asText: express.RequestHandler = (req, _res, next) => {
      req.setEncoding('utf8');
      next();
    };
    expect(await post(eventOfSize(100_000).replace('ppp', 'p€p'), {}, [asText])).toEqual({ status: 200, text: 'webhook.test' });
  });
});

describe('a body another parser read first', () => {
  // onError is told the code the service is answered (a newcomer's log showed malformed_payload),
  // and only advice that works after a global express.json() (express.raw() on the route does not).
  it('answers 500 (which the service retries), tells onError body_already_read with the three ways out, and warns even with onError', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const errors: WebhookVerificationError[] = [];
    expect(await post(eventOfSize(200), { onError: (err) => errors.push(err) }, [express.json()])).toEqual({ status: 500, text: 'body_already_read' });
    expect(errors[0]).toMatchObject({ code: 'body_already_read' });
    expect(errors[0]!.message).toBe(
      'Another body parser read the body first, so the signed bytes are gone: mount this route before express.json(), skip the parser on its path, or keep the bytes: express.json({ verify: (req, _res, buf) => { req.rawBody = buf } }).',
    );
    expect(errors[0]!.message).not.toMatch(/express\.raw/);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('verifies the bytes a global express.json() kept as req.rawBody (its verify hook), and refuses them changed', async () => {
    const keep = express.json({ verify: (req, _res, buf) => void ((req as typeof req & { rawBody?: Buffer }).rawBody = buf) });
    expect(await post(eventOfSize(200), {}, [keep])).toEqual({ status: 200, text: 'webhook.test' });
    const tampered: express.RequestHandler = (req, _res, next) => {
      const kept = req as typeof req & { rawBody?: Buffer };
      kept.rawBody = Buffer.from(kept.rawBody!.toString('utf8').replace('ppp', 'qqq'));
      next();
    };
    expect(await post(eventOfSize(200), {}, [keep, tampered])).toEqual({ status: 400, text: 'no_matching_signature' });
  });

  // An attacker's review: with `strict: false`, express.json() decodes a JSON string literal (the
  // signed body, quoted) to the signed text, which verified: bytes the service never sent.
  it('verifies the bytes req.rawBody kept, not a string express.json() decoded from other bytes', async () => {
    const keep = express.json({ strict: false, verify: (req, _res, buf) => void ((req as typeof req & { rawBody?: Buffer }).rawBody = buf) });
    const signed = eventOfSize(200);
    const app = express();
    app.post('/hooks', keep, webhookMiddleware(SECRET), (req, res) => res.status(200).send(req.webhookEvent!.type));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-signature': await signWebhook(signed, SECRET) },
      body: JSON.stringify(signed),
    });
    expect([res.status, await res.text()]).toEqual([400, 'no_matching_signature']);
  });

  it('verifies a route a global express.json() skips (the other way out the message names)', async () => {
    const json = express.json();
    const skipHooks: express.RequestHandler = (req, res, next) => (req.path === '/hooks' ? next() : json(req, res, next));
    expect(await post(eventOfSize(200), {}, [skipHooks])).toEqual({ status: 200, text: 'webhook.test' });
  });

  it('warns by default with the reason and the message, to the logger when one is given', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect((await post(eventOfSize(200), {}, [express.json()])).status).toBe(500);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/^\[forecasting-sdk\] webhook refused \(body_already_read\): Another body parser read the body first/);
    const logged: string[] = [];
    await post(eventOfSize(200), { logger: { warn: (m) => void logged.push(m) } }, [express.json()]);
    expect(logged).toEqual([expect.stringMatching(/Another body parser/)]);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('warns once a minute at most, however many calls come to the mis-mounted route, and says how many it held back', async () => {
    let now = 0;
    const logged: string[] = [];
    const app = express();
    app.post('/hooks', express.json(), webhookMiddleware(SECRET, { logger: { warn: (m) => void logged.push(m) }, clock: () => now }), (_req, res) => res.sendStatus(200));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const body = eventOfSize(200);
    const send = async () => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': await signWebhook(body, SECRET) }, body })).status;
    for (let i = 0; i < 5; i++) expect(await send()).toBe(500);
    expect(logged).toHaveLength(1);
    now += 60_000;
    expect(await send()).toBe(500);
    expect(logged).toHaveLength(2);
    expect(logged[1]).toMatch(/Another body parser.*\(At most one such warning a minute; 4 more since the last\.\)$/);
  });

  it('answers a final 400 to a call its headers refuse (no signature, a malformed one, a stale timestamp), 500 only to a fresh signed one', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const app = express();
    app.use(express.json());
    app.post('/hooks', webhookMiddleware(SECRET), (_req, res) => res.sendStatus(200));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const send = async (signature?: string) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'x-service-signature': signature } : {}) }, body: '{}' });
      return [res.status, await res.text()];
    };
    expect(await send()).toEqual([400, 'missing_header']);
    expect(await send('t=abc')).toEqual([400, 'malformed_header']);
    const anHourAgo = Math.floor(Date.now() / 1000) - 3_600;
    expect(await send(await signWebhook('{}', SECRET, { timestamp: anHourAgo }))).toEqual([400, 'timestamp_out_of_range']);
    expect(warn).not.toHaveBeenCalled();
    expect(await send(await signWebhook('{}', SECRET))).toEqual([500, 'body_already_read']);
  });

  it('does not warn about a signed body that is not an event, read by the middleware itself', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const errors: WebhookVerificationError[] = [];
    expect(await post('[1,2]', { onError: (err) => errors.push(err) })).toEqual({ status: 400, text: 'malformed_payload' });
    expect(errors[0]!.message).toBe('The webhook payload is correctly signed but is not a JSON event object.');
    expect(await post('[1,2]')).toEqual({ status: 400, text: 'malformed_payload' });
    expect(warn).not.toHaveBeenCalled();
  });
});
