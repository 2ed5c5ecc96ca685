// The fetch-style helper: a Fetch `Request` in, the verified event out (no network involved).
import { describe, expect, it } from 'vitest';
import { ForecastingError, signWebhook, WebhookVerificationError as RootError } from '../../src/index.js';
import { createWebhookVerifier, verifyWebhookRequest, WebhookPayloadTooLargeError, WebhookVerificationError } from '../../src/webhooks/fetch.js';

const SECRET = 'whsec_fetch_helper_secret';
const body = JSON.stringify({ createdAt: '2026-01-01T00:00:00.000Z', data: { test: true, webhookId: 'w1' }, id: 'evt:webhook.test:d1', type: 'webhook.test' });
const post = (payload: BodyInit, headers: Record<string, string>) =>
  new Request('https://receiver.example/hooks', { method: 'POST', body: payload, headers });

describe('fetch-style verification', () => {
  it('reads the body of a Request and returns the typed event', async () => {
    const verify = createWebhookVerifier(SECRET);
    const event = await verify(post(body, { 'X-Service-Signature': await signWebhook(body, SECRET) }));
    expect(event).toMatchObject({ type: 'webhook.test', data: { webhookId: 'w1' } });
  });

  it('checks the signature over the raw bytes, even bytes that are not valid UTF-8', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode(body.slice(0, -1)), 0xff, 0x7d]);
    const header = await signWebhook(bytes, SECRET);
    // The signature matches (so the code is not no_matching_signature); the stray byte then breaks the JSON.
    await expect(verifyWebhookRequest(post(bytes, { 'x-service-signature': header }), SECRET)).rejects.toMatchObject({ code: 'malformed_payload' });
    await expect(verifyWebhookRequest(post(bytes, { 'x-service-signature': await signWebhook(new Uint8Array([1]), SECRET) }), SECRET)).rejects.toMatchObject({
      code: 'no_matching_signature',
    });
  });

  it('rejects with the reason code, as the root class, for a tampered body or a wrong secret', async () => {
    const header = await signWebhook(body, SECRET);
    const tampered = verifyWebhookRequest(post(body.replace('w1', 'w2'), { 'x-service-signature': header }), SECRET);
    await expect(tampered).rejects.toBeInstanceOf(RootError);
    await expect(verifyWebhookRequest(post(body, { 'x-service-signature': header }), 'whsec_other')).rejects.toMatchObject({ code: 'no_matching_signature' });
  });

  it('refuses a Request whose body was already read, explaining why', async () => {
    const request = post(body, { 'x-service-signature': await signWebhook(body, SECRET) });
    await request.json();
    const err = await verifyWebhookRequest(request, SECRET).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookVerificationError);
    expect(err).toMatchObject({ code: 'malformed_payload', message: expect.stringMatching(/already read/) });
  });
});

describe('the body cap', () => {
  /**
   * A body stream of `chunks` chunks of `size` bytes, made only as they are read: `pulled` counts the
   * bytes handed out, `cancelled` says whether the reader stopped it.
   */
  function lazyBody(chunks: number, size: number) {
    const state = { pulled: 0, cancelled: false };
    let left = chunks;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (left-- === 0) return controller.close();
        state.pulled += size;
        controller.enqueue(new Uint8Array(size).fill(0x20));
      },
      cancel() {
        state.cancelled = true;
      },
    });
    return { stream, state };
  }
  const streamed = (stream: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
    new Request('https://receiver.example/hooks', { method: 'POST', body: stream, headers: { 'x-service-signature': 't=1,v1=00', ...headers }, duplex: 'half' } as RequestInit);
  const MiB = 1024 * 1024;

  it('refuses a Content-Length over the default 1 MiB with a 413 error before reading the body, and cancels it', async () => {
    const { stream, state } = lazyBody(256, MiB); // 256 MiB, unsigned
    const err = await verifyWebhookRequest(streamed(stream, { 'content-length': String(256 * MiB) }), SECRET).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookPayloadTooLargeError);
    expect(err).toMatchObject({ code: 'payload_too_large', status: 413, maxBodyBytes: MiB, message: 'The webhook body is over maxBodyBytes (1048576); answer 413.' });
    expect(err).toBeInstanceOf(ForecastingError);
    expect(err).not.toBeInstanceOf(WebhookVerificationError);
    expect(state.pulled).toBeLessThanOrEqual(MiB); // at most the one chunk a stream fetches ahead
    expect(state.cancelled).toBe(true);
  });

  it('stops reading a body without Content-Length at the cap, and cancels the rest of the stream', async () => {
    const { stream, state } = lazyBody(256, 64 * 1024); // 16 MiB in 64 KiB chunks
    await expect(verifyWebhookRequest(streamed(stream), SECRET)).rejects.toBeInstanceOf(WebhookPayloadTooLargeError);
    expect(state.pulled).toBeLessThanOrEqual(MiB + 2 * 64 * 1024);
    expect(state.cancelled).toBe(true);
  });

  it('stops at the cap when Content-Length says less than the body holds', async () => {
    const { stream, state } = lazyBody(64, 1024);
    const verify = createWebhookVerifier(SECRET, { maxBodyBytes: 4096 });
    await expect(verify(streamed(stream, { 'content-length': '10' }))).rejects.toMatchObject({ code: 'payload_too_large', maxBodyBytes: 4096 });
    expect(state.pulled).toBeLessThanOrEqual(6 * 1024);
    expect(state.cancelled).toBe(true);
  });

  it('verifies a body of exactly maxBodyBytes, streamed or not, and refuses one byte more', async () => {
    const exact = body.length;
    const signed = async (payload: string) => post(payload, { 'x-service-signature': await signWebhook(payload, SECRET) });
    await expect(verifyWebhookRequest(await signed(body), SECRET, { maxBodyBytes: exact })).resolves.toMatchObject({ type: 'webhook.test' });
    const chunks = new TextEncoder().encode(body);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < chunks.length; i += 7) controller.enqueue(chunks.subarray(i, i + 7));
        controller.close();
      },
    });
    const request = streamed(stream, { 'x-service-signature': await signWebhook(body, SECRET) });
    await expect(verifyWebhookRequest(request, SECRET, { maxBodyBytes: exact })).resolves.toMatchObject({ type: 'webhook.test' });
    await expect(verifyWebhookRequest(await signed(`${body} `), SECRET, { maxBodyBytes: exact })).rejects.toBeInstanceOf(WebhookPayloadTooLargeError);
  });

  it('reads a request without a body as empty', async () => {
    const request = new Request('https://receiver.example/hooks', { method: 'POST', headers: { 'x-service-signature': await signWebhook('', SECRET) } });
    await expect(verifyWebhookRequest(request, SECRET)).rejects.toMatchObject({ code: 'malformed_payload', message: expect.stringMatching(/correctly signed/) });
  });

  it.each([0, -1, 1.5, Number.NaN, Infinity])('refuses maxBodyBytes %s: createWebhookVerifier at construction, verifyWebhookRequest on the call', async (maxBodyBytes) => {
    expect(() => createWebhookVerifier(SECRET, { maxBodyBytes })).toThrow(
      new TypeError(`createWebhookVerifier: \`maxBodyBytes\` must be a whole number of bytes > 0, got ${String(maxBodyBytes)}.`),
    );
    await expect(verifyWebhookRequest(post(body, {}), SECRET, { maxBodyBytes })).rejects.toThrow(/^verifyWebhookRequest: `maxBodyBytes` must be/);
  });
});
