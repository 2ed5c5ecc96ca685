// Hostile review of verification: option values that must fail closed, and a repeated signature
// header that must never verify piece by piece. Pins properties no other file checks.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER, WebhookVerificationError, verifyWebhook } from '../../src/webhooks/index.js';

const SECRET = 'whsec_aG9zdGlsZS1yZXZpZXc';
const NOW = 1_700_000_000;
const BODY = JSON.stringify({ createdAt: '2023-11-14T22:13:20.000Z', data: { taskId: 't_1' }, id: 'svc:forecast.completed:t_1', type: 'forecast.completed' });
const good = (t: number | string = NOW, secret = SECRET) => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.`).update(BODY).digest('hex')}`;

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WebhookVerificationError);
  return (err as WebhookVerificationError).code;
}

describe('verification fails closed', () => {
  it('verifies nothing under a NaN clock: a TypeError naming now', async () => {
    await expect(verifyWebhook(BODY, { [SIGNATURE_HEADER]: good() }, SECRET, { now: Number.NaN })).rejects.toThrow(new TypeError('verifyWebhook: `now` must be Unix seconds, got NaN.'));
  });

  // Not a refusal (a 400 the service would not retry: every delivery lost), a set-up mistake.
  it.each([
    ['a NaN tolerance', Number.NaN],
    ['a negative tolerance', -1],
  ])('verifies nothing under %s: a TypeError naming toleranceSeconds', async (_, toleranceSeconds) => {
    await expect(verifyWebhook(BODY, { [SIGNATURE_HEADER]: good() }, SECRET, { now: NOW, toleranceSeconds })).rejects.toThrow(
      new TypeError(`verifyWebhook: \`toleranceSeconds\` must be a number of seconds >= 0, got ${toleranceSeconds}.`),
    );
  });
});

describe('a repeated signature header', () => {
  // Node and Fetch join repeated headers with ", ": a forger who adds a second header (a fresh t and
  // a garbage v1) next to a captured, stale but genuine one must not get either t paired with the other's v1.
  it.each([
    ['a record with a string[] (stale genuine first)', { [SIGNATURE_HEADER]: [good(NOW - 3600), `t=${NOW},v1=${'0'.repeat(64)}`] }],
    ['a record with a string[] (fresh forged first)', { [SIGNATURE_HEADER]: [`t=${NOW},v1=${'0'.repeat(64)}`, good(NOW - 3600)] }],
    ['Fetch Headers with two values', new Headers([[SIGNATURE_HEADER, good(NOW - 3600)], [SIGNATURE_HEADER, `t=${NOW}`]])],
  ])('is refused as malformed_header, never verified against a t of the other value: %s', async (_, headers) => {
    expect(await codeOf(verifyWebhook(BODY, headers, SECRET, { now: NOW }))).toBe('malformed_header');
  });

  it('with no second t, is the one header with more v1 entries: a stale genuine signature stays stale', async () => {
    const headers = { [SIGNATURE_HEADER]: [good(NOW - 3600), `v1=${'0'.repeat(64)}`] };
    expect(await codeOf(verifyWebhook(BODY, headers, SECRET, { now: NOW }))).toBe('timestamp_out_of_range');
  });
});
