// A review of the receivers' options once they were read where given: what the first version still
// let through. Each case failed before its fix.
import diagnostics from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { CHANNELS, type WebhookMessage } from '../../src/core/channels.js';
import { webhookMiddleware } from '../../src/webhooks/express.js';
import { createWebhookHandler, createWebhookVerifier, verifyWebhookRequest } from '../../src/webhooks/fetch.js';
import { SIGNATURE_HEADER, signWebhook } from '../../src/webhooks/index.js';
import { refusedByHeaders } from '../../src/webhooks/verify.js';

const SECRET = 'whsec_options_review_tests';
const BODY = JSON.stringify({ createdAt: '2026-01-01T00:00:00.000Z', data: { test: true }, id: 'evt:webhook.test:r1', type: 'webhook.test' });
const post = async (headers: Record<string, string> = {}) => new Request('http://127.0.0.1/hooks', { method: 'POST', headers: { [SIGNATURE_HEADER]: await signWebhook(BODY, SECRET), ...headers }, body: BODY });

describe('the receivers\' options', () => {
  it('verifyWebhookRequest reads only what it uses: a logger or clock that cannot be read fails nothing', async () => {
    const options = {
      get logger(): never {
        throw new Error('not read');
      },
      get clock(): never {
        throw new Error('not read');
      },
    };
    await expect(verifyWebhookRequest(await post(), SECRET, options as never)).resolves.toMatchObject({ type: 'webhook.test' });
  });

  it('verifyWebhookRequest refuses a missing secret before it reads or judges the body', async () => {
    let pulled = 0;
    const stream = new ReadableStream({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const request = new Request('http://127.0.0.1/hooks', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    await expect(verifyWebhookRequest(request, '')).rejects.toThrow(/^verifyWebhookRequest: `secret` must be/);
    expect(pulled).toBeLessThan(2);
    const used = await post();
    await used.text();
    await expect(verifyWebhookRequest(used, '')).rejects.toThrow(TypeError);
  });

  it('takes null options as none, as createWebhookVerifier does', async () => {
    const handle = createWebhookHandler(SECRET, () => new Response(null, { status: 204 }), null as never);
    expect((await handle(await post())).status).toBe(204);
    expect(() => webhookMiddleware(SECRET, null as never)).not.toThrow();
  });

  it('refuses a second secret passed as the options (JavaScript), saying where it goes and never showing it', async () => {
    const old = 'whsec_the_old_one_still_signing';
    const expected = (caller: string) => new TypeError(`${caller}: two secrets go in one array, [newSecret, oldSecret]; options in an object.`);
    expect(() => createWebhookVerifier(SECRET, old as never)).toThrow(expected('createWebhookVerifier'));
    // Nor any other options that are no object: the old secret in an array of its own, a number meant as the tolerance, bytes.
    for (const options of [[old], 300, true, () => old, Buffer.from(old), Symbol('x')]) {
      expect(() => createWebhookVerifier(SECRET, options as never), String(typeof options)).toThrow(expected('createWebhookVerifier'));
      expect(() => webhookMiddleware(SECRET, options as never)).toThrow(expected('webhookMiddleware'));
    }
    expect(() => createWebhookHandler(SECRET, () => new Response(), old as never)).toThrow(expected('createWebhookHandler'));
    expect(() => webhookMiddleware(SECRET, old as never)).toThrow(expected('webhookMiddleware'));
    await expect(verifyWebhookRequest(await post(), SECRET, old as never)).rejects.toThrow(expected('verifyWebhookRequest'));
    // As an array, both are taken: a call signed with the old secret only is accepted.
    const signedWithOld = new Request('http://127.0.0.1/hooks', { method: 'POST', headers: { [SIGNATURE_HEADER]: await signWebhook(BODY, old) }, body: BODY });
    await expect(createWebhookVerifier([SECRET, old])(signedWithOld)).resolves.toMatchObject({ type: 'webhook.test' });
  });

  it('names createWebhookHandler when its secret is missing', () => {
    expect(() => createWebhookHandler('', () => {})).toThrow(/^createWebhookHandler: `secret` must be/);
  });

  it('answers a call refused by its headers only with a refusal: any other error is thrown on (a 5xx), never a 400 with no code', () => {
    let reads = 0;
    // Valid when checked, then a value that breaks the arithmetic.
    const options = {
      get now(): number {
        return (reads++ > 0 ? 1n : 1_700_000_000) as number;
      },
    };
    expect(() => refusedByHeaders({ [SIGNATURE_HEADER]: 't=1700000000,v1=' + '0'.repeat(64) }, options)).toThrow(TypeError);
  });
});

describe('a body read through a stream of the app\'s own', () => {
  it('stops at the cap when a chunk is no bytes (its size unknown), reading no further', async () => {
    let pulled = 0;
    let cancelled = false;
    const stream = new ReadableStream({
      pull(controller) {
        pulled++;
        controller.enqueue(pulled === 1 ? (7 as never) : new Uint8Array(1024));
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request('http://127.0.0.1/hooks', { method: 'POST', headers: { [SIGNATURE_HEADER]: await signWebhook(BODY, SECRET) }, body: stream, duplex: 'half' } as RequestInit);
    await expect(verifyWebhookRequest(request, SECRET, { maxBodyBytes: 10_240 })).rejects.toMatchObject({ code: 'payload_too_large' });
    expect(pulled).toBeLessThan(5);
    expect(cancelled).toBe(true);
  });
});

describe('the webhook trace of a call whose delivery id cannot be read', () => {
  it('is published all the same, without the id', async () => {
    const seen: WebhookMessage[] = [];
    const subscriber = { start() {}, end() {}, asyncStart() {}, error() {}, asyncEnd: (m: unknown) => void seen.push(m as WebhookMessage) } as unknown as diagnostics.TracingChannelSubscribers<object>;
    const channel = diagnostics.tracingChannel(CHANNELS.webhook);
    channel.subscribe(subscriber);
    try {
      const request = await post();
      const get = request.headers.get.bind(request.headers);
      Object.defineProperty(request.headers, 'get', {
        value: (name: string) => {
          if (name === 'x-service-delivery-id') throw new Error('unreadable');
          return get(name);
        },
      });
      const handle = createWebhookHandler(SECRET, () => new Response(null, { status: 204 }));
      expect((await handle(request)).status).toBe(204);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(seen.map((m) => [m.outcome, m.eventType, 'deliveryId' in m])).toEqual([['verified', 'webhook.test', false]]);
    } finally {
      channel.unsubscribe(subscriber);
    }
  });
});
