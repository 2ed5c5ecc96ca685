// webhookMiddleware with a request and a response made by hand (no server): where it takes the body
// from, what it answers, and when it warns. Each request says exactly what a body parser left.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signWebhook, type WebhookVerificationError } from '../../src/index.js';
import { webhookMiddleware, type WebhookMiddlewareOptions } from '../../src/webhooks/express.js';

const SECRET = 'whsec_express_unit_tests';
const EVENT = JSON.stringify({ createdAt: '2026-01-01T00:00:00.000Z', data: { test: true }, id: 'evt:webhook.test:u1', type: 'webhook.test' });

afterEach(() => vi.restoreAllMocks());

interface FakeRequest {
  headers: Record<string, string>;
  body?: unknown;
  readableEnded: boolean;
  _body?: boolean;
  webhookEvent?: { type: string };
  [Symbol.asyncIterator](): AsyncIterator<Uint8Array | string>;
}

/** A request whose stream gives `chunks` (or throws `streamError`), signed over `signed`. */
async function request(init: { signed?: string; body?: unknown; chunks?: Array<Uint8Array | string>; readableEnded?: boolean; _body?: boolean; streamError?: Error; unsigned?: boolean }): Promise<FakeRequest> {
  const { chunks = [], streamError } = init;
  const headers: Record<string, string> = init.unsigned ? {} : { 'x-service-signature': await signWebhook(init.signed ?? EVENT, SECRET) };
  const req: FakeRequest = {
    headers,
    readableEnded: init.readableEnded ?? false,
    async *[Symbol.asyncIterator]() {
      if (streamError) throw streamError;
      yield* chunks;
    },
  };
  if ('body' in init) req.body = init.body;
  if (init._body !== undefined) req._body = init._body;
  return req;
}

/** Runs the middleware once: what it answered (status, type, body), or what it passed to `next`. */
async function run(req: FakeRequest, options: WebhookMiddlewareOptions = {}) {
  const answer: { status?: number; type?: string; body?: string } = {};
  const res = {
    status(code: number) {
      answer.status = code;
      return res;
    },
    type(type: string) {
      answer.type = type;
      return res;
    },
    send(body: string) {
      answer.body = body;
      return res;
    },
  };
  const nextArgs = await new Promise<unknown[] | undefined>((resolve) => {
    webhookMiddleware(SECRET, options)(req as never, res as never, (...args: unknown[]) => resolve(args));
    // An answer ends the call too: poll for it.
    const timer = setInterval(() => {
      if (answer.body !== undefined) {
        clearInterval(timer);
        resolve(undefined);
      }
    }, 1);
  });
  return { answer, nextArgs };
}

describe('where the body comes from', () => {
  it.each([
    ['text (express.text())', EVENT],
    ['bytes (express.raw())', new TextEncoder().encode(EVENT)],
  ])('takes a body a parser left as %s, without reading the stream', async (_, body) => {
    const req = await request({ body, chunks: ['not', 'the', 'body'] });
    const { nextArgs } = await run(req);
    expect(nextArgs).toEqual([]);
    expect(req.webhookEvent?.type).toBe('webhook.test');
  });

  it('reads the stream when no parser left the body, text chunks as UTF-8 and byte chunks as they are', async () => {
    const bytes = new TextEncoder().encode(EVENT);
    const req = await request({ chunks: [EVENT.slice(0, 10), bytes.subarray(10)] });
    expect((await run(req)).nextArgs).toEqual([]);
    expect(req.webhookEvent?.type).toBe('webhook.test');
  });

  it("treats a body parser's _body flag alone as a consumed stream: answers 500 body_already_read, reading nothing", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    // The stream would give the signed event: it must not be read.
    const req = await request({ body: JSON.parse(EVENT), _body: true, chunks: [EVENT] });
    const { answer, nextArgs } = await run(req);
    expect(nextArgs).toBeUndefined();
    expect(answer).toEqual({ status: 500, type: 'text/plain', body: 'body_already_read' });
  });

  it('treats an ended stream as consumed, with no _body flag', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const req = await request({ body: JSON.parse(EVENT), readableEnded: true, chunks: [EVENT] });
    expect((await run(req)).answer).toEqual({ status: 500, type: 'text/plain', body: 'body_already_read' });
  });
});

describe('answers', () => {
  it('answers 400 with the reason as plain text', async () => {
    const { answer } = await run(await request({ unsigned: true, chunks: [EVENT] }));
    expect(answer).toEqual({ status: 400, type: 'text/plain', body: 'missing_header' });
  });

  it('answers 413 payload_too_large as plain text to a body over maxBodyBytes', async () => {
    const { answer } = await run(await request({ chunks: [EVENT] }), { maxBodyBytes: EVENT.length - 1 });
    expect(answer).toEqual({ status: 413, type: 'text/plain', body: 'payload_too_large' });
  });

  it('answers 413 to a Content-Length over maxBodyBytes without reading the stream', async () => {
    const req = await request({ streamError: new Error('the stream must not be read') });
    req.headers['content-length'] = String(EVENT.length);
    const { answer } = await run(req, { maxBodyBytes: EVENT.length - 1 });
    expect(answer).toEqual({ status: 413, type: 'text/plain', body: 'payload_too_large' });
  });

  it('stops at maxBodyBytes when Content-Length says less than the stream gives', async () => {
    const req = await request({ chunks: [EVENT] });
    req.headers['content-length'] = '2';
    expect((await run(req, { maxBodyBytes: EVENT.length - 1 })).answer).toEqual({ status: 413, type: 'text/plain', body: 'payload_too_large' });
  });

  it('passes a failure to read the stream to next(err), answering nothing', async () => {
    const broken = new Error('socket hang up');
    const { answer, nextArgs } = await run(await request({ streamError: broken }));
    expect(nextArgs).toEqual([broken]);
    expect(answer).toEqual({});
  });
});

describe('the setup-mistake warning', () => {
  it('does not warn or reword a signed non-event a parser left as text (the body was not lost)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const errors: WebhookVerificationError[] = [];
    await run(await request({ signed: '[1,2]', body: '[1,2]' }), { onError: (e) => errors.push(e) });
    expect(errors.map((e) => [e.code, e.message])).toEqual([['malformed_payload', 'The webhook payload is correctly signed but is not a JSON event object.']]);
    expect((await run(await request({ signed: '[1,2]', body: '[1,2]' }))).answer.body).toBe('malformed_payload');
    expect(warn).not.toHaveBeenCalled();
  });

  it('does not warn about a missing signature on a body another parser left readable (an ArrayBuffer)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const errors: WebhookVerificationError[] = [];
    const { answer } = await run(await request({ unsigned: true, body: new TextEncoder().encode(EVENT).buffer, _body: true }), { onError: (e) => errors.push(e) });
    expect(answer.body).toBe('missing_header');
    expect(errors[0]!.message).not.toMatch(/another body parser/);
    await run(await request({ unsigned: true, body: new TextEncoder().encode(EVENT).buffer, _body: true }));
    expect(warn).not.toHaveBeenCalled();
  });
});
