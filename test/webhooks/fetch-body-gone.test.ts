// A Request whose body is gone before the fetch-style receivers get it (read already, or locked by a
// reader): the verifier refuses it with `malformed_payload`, never a bare TypeError; the handler
// answers it as the Express middleware does, `500 body_already_read` (a mistake in the app, which
// the service's retry outlives) unless the headers alone refuse the call for good (`400`).
import { describe, expect, it } from 'vitest';
import { signWebhook, WebhookVerificationError } from '../../src/webhooks/index.js';
import { createWebhookHandler, verifyWebhookRequest } from '../../src/webhooks/fetch.js';

const SECRET = 'whsec_body_gone';
const BODY = JSON.stringify({ id: 'evt_1', type: 'webhook.test', createdAt: '2026-11-30T10:00:00.000Z', data: { test: true, webhookId: 'wh_1' } });

const request = (headers: Record<string, string>) => new Request('http://127.0.0.1/webhooks', { method: 'POST', body: BODY, headers });
const signedRequest = async (timestamp?: number) => request({ 'x-service-signature': await signWebhook(BODY, SECRET, timestamp === undefined ? {} : { timestamp }) });
const gone = {
  read: async (r: Request) => void (await r.text()),
  locked: async (r: Request) => void r.body!.getReader(),
};

describe.each(Object.entries(gone))('a body %s before the receiver gets it', (_how, take) => {
  it('is refused by verifyWebhookRequest with malformed_payload, saying why', async () => {
    const r = await signedRequest();
    await take(r);
    const error = await verifyWebhookRequest(r, SECRET).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error).toMatchObject({ code: 'malformed_payload', message: expect.stringContaining('already read') });
  });

  it('is answered 500 body_already_read by createWebhookHandler, warned once a minute, its handler never run', async () => {
    const warnings: string[] = [];
    let ran = 0;
    const handle = createWebhookHandler(SECRET, () => void ran++, { logger: { warn: (m: string) => warnings.push(m) } });
    for (let i = 0; i < 2; i++) {
      const r = await signedRequest();
      await take(r);
      const answer = await handle(r);
      expect([answer.status, await answer.text()]).toEqual([500, 'body_already_read']);
    }
    expect(ran).toBe(0);
    expect(warnings).toEqual([expect.stringContaining('body_already_read')]);
    expect(warnings[0]).not.toContain(SECRET);
  });

  it('gets its final 400 when the headers alone refuse it: no signature, or an hour-old one', async () => {
    const handle = createWebhookHandler(SECRET, () => undefined, { logger: { warn: () => undefined } });
    const unsigned = request({});
    await take(unsigned);
    const stale = await signedRequest(Math.floor(Date.now() / 1000) - 3600);
    await take(stale);
    for (const [r, code] of [[unsigned, 'missing_header'], [stale, 'timestamp_out_of_range']] as const) {
      const answer = await handle(r);
      expect([answer.status, await answer.text()]).toEqual([400, code]);
    }
  });
});
