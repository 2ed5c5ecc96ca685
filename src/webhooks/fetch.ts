/**
 * `forecasting-sdk/webhooks/fetch`: verification for fetch-style handlers (`(request: Request) =>
 * Response`): Next.js route handlers, Hono, Cloudflare Workers, Deno, Bun. No dependency, no Node import.
 *
 * @example
 * ```ts
 * import { createWebhookVerifier, WebhookVerificationError } from 'forecasting-sdk/webhooks/fetch';
 *
 * const verify = createWebhookVerifier(process.env.WEBHOOK_SECRET!);
 * export async function POST(request: Request) {
 *   try {
 *     const event = await verify(request);
 *     await enqueue(event);
 *     return new Response(null, { status: 200 });
 *   } catch (err) {
 *     if (err instanceof WebhookVerificationError) return new Response(err.code, { status: 400 });
 *     throw err;
 *   }
 * }
 * ```
 * @module
 */
import { WebhookVerificationError } from '../core/errors.js';
import type { WebhookEvent } from '../schemas/events.js';
import { toSecrets, verifyWebhook, type VerifyWebhookOptions } from './verify.js';

export { WebhookVerificationError };
export type { WebhookEvent, VerifyWebhookOptions };

/**
 * Verifies a Fetch `Request` carrying a webhook call: reads its body once, as bytes, and checks it with
 * `verifyWebhook`. Rejects with `WebhookVerificationError` (answer 400 with its `code`); a body that
 * was already read is `malformed_payload`, since the bytes are gone.
 *
 * @example
 * ```ts
 * // Hono
 * app.post('/webhooks', async (c) => {
 *   const event = await verifyWebhookRequest(c.req.raw, c.env.WEBHOOK_SECRET);
 *   return c.body(null, 200);
 * });
 * ```
 */
export async function verifyWebhookRequest(
  request: Request,
  secret: string | readonly string[],
  options?: VerifyWebhookOptions,
): Promise<WebhookEvent> {
  if (request.bodyUsed) {
    throw new WebhookVerificationError(
      'malformed_payload',
      'The request body was already read, so the raw bytes the signature covers are gone: verify before reading it, or pass the text you read to verifyWebhook.',
    );
  }
  return verifyWebhook(new Uint8Array(await request.arrayBuffer()), request.headers, secret, options);
}

/**
 * Makes a `(request: Request) => Promise<WebhookEvent>` bound to the secret(s) and options. A
 * missing or empty secret throws a `TypeError` here, at construction, not on each request.
 *
 * @example
 * ```ts
 * const verify = createWebhookVerifier([newSecret, oldSecret]); // during a rotation
 * export default { fetch: async (request: Request) => { const event = await verify(request); return new Response('ok'); } };
 * ```
 */
export function createWebhookVerifier(
  secret: string | readonly string[],
  options?: VerifyWebhookOptions,
): (request: Request) => Promise<WebhookEvent> {
  // Checked here, at start-up: a missing secret is a deployment mistake, not a bad request.
  const secrets = toSecrets(secret, 'createWebhookVerifier');
  return (request) => verifyWebhookRequest(request, secrets, options);
}
