// The fetch-style helper: a Fetch `Request` in, the verified event out (no network involved).
import { describe, expect, it } from 'vitest';
import { signWebhook, WebhookVerificationError as RootError } from '../../src/index.js';
import { createWebhookVerifier, verifyWebhookRequest, WebhookVerificationError } from '../../src/webhooks/fetch.js';

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
