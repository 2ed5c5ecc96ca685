/**
 * `signWebhook`: builds a valid `X-Service-Signature` value, for users' tests of their handlers.
 * @module
 */
import { cryptoBackend } from './crypto.js';
import { bytesToHex } from './headers.js';
import { toBody, toSecrets, type WebhookPayload } from './verify.js';

/**
 * Options of {@link signWebhook}.
 *
 * @example
 * ```ts
 * await signWebhook(body, secret, { timestamp: 1_700_000_000 });
 * ```
 */
export interface SignWebhookOptions {
  /** The `t` to sign, in Unix seconds (a whole number). Default: now. */
  timestamp?: number | undefined;
}

/**
 * Signs a payload as the service does and returns the `X-Service-Signature` value,
 * `t=<timestamp>,v1=<hex>`. Pass several secrets to get one `v1` per secret, as the service
 * sends during the 24 hours after a rotation.
 *
 * @example
 * ```ts
 * const body = JSON.stringify({ id: 'evt', type: 'webhook.test', createdAt: new Date().toISOString(), data: { test: true, webhookId: 'wh_1' } });
 * const signature = await signWebhook(body, 'whsec_test');
 * const res = await app.request('/webhooks', { method: 'POST', body, headers: { 'X-Service-Signature': signature } });
 * ```
 */
export async function signWebhook(
  payload: WebhookPayload,
  secret: string | readonly string[],
  options?: SignWebhookOptions,
): Promise<string> {
  const timestamp = options?.timestamp ?? Math.floor(Date.now() / 1000);
  // Past 1e11 (the year 5138) it is milliseconds (`Date.now()`): a signature that would never verify.
  if (!Number.isSafeInteger(timestamp) || timestamp < 0 || timestamp > 1e11) {
    throw new TypeError('signWebhook: `timestamp` must be whole Unix seconds (not milliseconds).');
  }
  const body = toBody(payload);
  if (body === undefined) throw new TypeError('signWebhook: `payload` must be a string or bytes.');
  const secrets = toSecrets(secret, 'signWebhook');
  const crypto = cryptoBackend();
  let header = `t=${timestamp}`;
  for (const s of secrets) header += `,v1=${bytesToHex(await crypto.hmac(s, `${timestamp}.`, body))}`;
  return header;
}
