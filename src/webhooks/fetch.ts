/**
 * `forecasting-sdk/webhooks/fetch`: verification for fetch-style handlers (`(request: Request) =>
 * Response`): Next.js route handlers, Hono, Cloudflare Workers, Deno, Bun. No dependency, no Node import.
 *
 * @example
 * ```ts
 * import { createWebhookVerifier, WebhookPayloadTooLargeError, WebhookVerificationError } from 'forecasting-sdk/webhooks/fetch';
 *
 * const verify = createWebhookVerifier(process.env.WEBHOOK_SECRET!);
 * export async function POST(request: Request) {
 *   try {
 *     const event = await verify(request);
 *     await enqueue(event);
 *     return new Response(null, { status: 200 });
 *   } catch (err) {
 *     if (err instanceof WebhookPayloadTooLargeError) return new Response(err.code, { status: 413 });
 *     if (err instanceof WebhookVerificationError) return new Response(err.code, { status: 400 });
 *     throw err;
 *   }
 * }
 * ```
 * @module
 */
import { WebhookVerificationError } from '../core/webhook-errors.js';
import type { WebhookEvent } from './events.js';
import {
  checkMaxBodyBytes,
  readCapped,
  WebhookPayloadTooLargeError,
  wrongSecretWarner,
  type VerifyWebhookRequestOptions,
  type WebhookReceiverOptions,
} from './receiver.js';
import { toSecrets, verifyWebhook, type VerifyWebhookOptions } from './verify.js';

export { WebhookVerificationError, WebhookPayloadTooLargeError };
export type { WebhookEvent, VerifyWebhookOptions, VerifyWebhookRequestOptions, WebhookReceiverOptions };

/** The chunks of a body stream; leaving the loop early cancels the stream, so the rest is never read. */
async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) yield chunk.value;
  } finally {
    // After the last chunk this is a no-op; before it, it tells the sender to stop.
    reader.cancel().catch(() => undefined);
  }
}

/**
 * Verifies a Fetch `Request` carrying a webhook call: reads its body once, as bytes, up to
 * `maxBodyBytes` (default 1 MiB), and checks it with `verifyWebhook`. Rejects with
 * `WebhookVerificationError` (answer 400 with its `code`); a body that was already read is
 * `malformed_payload`, since the bytes are gone. A body over the cap rejects with
 * {@link WebhookPayloadTooLargeError} (answer 413): a `Content-Length` over it before anything is
 * read, and a body without one, or longer than it said, as soon as the cap is passed, cancelling the
 * rest of the stream.
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
  options?: VerifyWebhookRequestOptions,
): Promise<WebhookEvent> {
  const max = checkMaxBodyBytes(options?.maxBodyBytes, 'verifyWebhookRequest');
  if (request.bodyUsed) {
    throw new WebhookVerificationError(
      'malformed_payload',
      'The request body was already read, so the raw bytes the signature covers are gone: verify before reading it, or pass the text you read to verifyWebhook.',
    );
  }
  const stream = request.body;
  let body: Uint8Array;
  try {
    body = await readCapped(stream ? chunksOf(stream) : [], request.headers, max);
  } finally {
    // Refused on its Content-Length, the stream was never opened: cancel it all the same.
    if (stream && !stream.locked) stream.cancel().catch(() => undefined);
  }
  return verifyWebhook(body, request.headers, secret, options);
}

/**
 * Makes a `(request: Request) => Promise<WebhookEvent>` bound to the secret(s) and options, with the
 * same body cap as {@link verifyWebhookRequest}. A missing or empty secret, or a bad `maxBodyBytes`,
 * throws a `TypeError` here, at construction, not on each request. A call with a fresh, well-formed
 * signature that matches none of the secrets (what a missed rotation looks like) is logged to
 * `options.logger` (default `console`): the first, then at most one a minute, never with a secret or
 * the body.
 *
 * @example
 * ```ts
 * const verify = createWebhookVerifier([newSecret, oldSecret]); // during a rotation
 * export default { fetch: async (request: Request) => { const event = await verify(request); return new Response('ok'); } };
 * ```
 */
export function createWebhookVerifier(
  secret: string | readonly string[],
  options: WebhookReceiverOptions = {},
): (request: Request) => Promise<WebhookEvent> {
  // Checked here, at start-up: a missing secret is a deployment mistake, not a bad request.
  const secrets = toSecrets(secret, 'createWebhookVerifier');
  checkMaxBodyBytes(options.maxBodyBytes, 'createWebhookVerifier');
  const warnWrongSecret = wrongSecretWarner(options, secrets.length);
  return (request) =>
    verifyWebhookRequest(request, secrets, options).catch((err: unknown) => {
      warnWrongSecret(err, request.headers);
      throw err;
    });
}
