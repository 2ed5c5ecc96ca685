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
import type { EventCoordinator } from '../core/event-coordination.js';
import { WebhookVerificationError } from '../core/webhook-errors.js';
import type { WebhookEvent } from './events.js';
import { checkCoordinatorTimeout, exactlyOnce, isRetriedStatus, RUNNING_ANSWER, runHook, type WebhookCoordinationOptions } from './exactly-once.js';
import {
  checkReceiverOptions,
  maxBodyOf,
  observe,
  onceAMinute,
  readCapped,
  WebhookPayloadTooLargeError,
  wrongSecretWarner,
  type Told,
  type VerifyWebhookRequestOptions,
  type WebhookReceiverOptions,
} from './receiver.js';
import { refusedByHeaders, toSecrets, verifyWebhook, type VerifyWebhookOptions } from './verify.js';

export { WebhookVerificationError, WebhookPayloadTooLargeError };
export type { WebhookEvent, VerifyWebhookOptions, VerifyWebhookRequestOptions, WebhookReceiverOptions, WebhookCoordinationOptions, EventCoordinator };

/** Whether a request's body is gone: read already, or locked by a reader that may have taken part of it. */
const bodyGone = (request: Request): boolean => request.bodyUsed || request.body?.locked === true;

/**
 * Verifies a Fetch `Request` carrying a webhook call: reads its body once, as bytes, up to
 * `maxBodyBytes` (default 1 MiB), and checks it with `verifyWebhook`. Rejects with
 * `WebhookVerificationError` (answer 400 with its `code`); a body that was already read, or that a
 * reader has locked, is `malformed_payload`, since the bytes are gone. A body over the cap rejects with
 * {@link WebhookPayloadTooLargeError} (answer 413): a `Content-Length` over it before anything is
 * read, and a body without one, or longer than it said, as soon as the cap is passed, cancelling the
 * rest of the stream. A missing secret or a bad option rejects with a `TypeError` naming it, before
 * any of the body is read.
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
  // Set-up mistakes first, before any of the body is read.
  toSecrets(secret, 'verifyWebhookRequest');
  const max = maxBodyOf(options, 'verifyWebhookRequest');
  if (bodyGone(request)) {
    throw new WebhookVerificationError(
      'malformed_payload',
      'The request body was already read, so the signed bytes are gone: verify before reading it, or pass the text read to verifyWebhook.',
    );
  }
  const stream = request.body;
  let body: Uint8Array;
  try {
    // A stream's own iterator: leaving the loop early (over the cap) cancels it, so the rest is never read.
    body = await readCapped((stream as AsyncIterable<Uint8Array> | null) ?? [], request.headers, max);
  } finally {
    // Refused on its Content-Length, the stream was never opened: cancel it all the same.
    if (stream && !stream.locked) stream.cancel().catch(() => undefined);
  }
  return verifyWebhook(body, request.headers, secret, options);
}

/**
 * Makes a `(request: Request) => Promise<WebhookEvent>` bound to the secret(s) and options, with the
 * same body cap as {@link verifyWebhookRequest}. A missing or empty secret, or a bad `maxBodyBytes`,
 * throws a `TypeError` here, at construction, not on each request; the options are read then, once
 * (a later change to the object changes nothing). A call with a fresh, well-formed
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
  const fixed = checkReceiverOptions(options, 'createWebhookVerifier');
  const warnWrongSecret = wrongSecretWarner(fixed, secrets.length);
  return (request) =>
    verifyWebhookRequest(request, secrets, fixed).catch((err: unknown) => {
      warnWrongSecret(err, request.headers);
      throw err;
    });
}

/**
 * What {@link createWebhookHandler} runs for each verified event (once per event id with a
 * `coordinator`): return a `Response`, or nothing for `200`. Throwing, or returning a status the
 * service retries (408, 425, 429, 5xx), makes the delivery fail, so the service sends it again.
 * @example
 * ```ts
 * const onEvent: WebhookEventHandler = async (event) => {
 *   if (event.type === 'forecast.completed') await queue.add(event.id);
 * };
 * ```
 */
export type WebhookEventHandler = (event: WebhookEvent, request: Request) => Response | void | Promise<Response | void>;

/**
 * Options of {@link createWebhookHandler}: those of {@link createWebhookVerifier}, a `coordinator`
 * for many processes, and a hook for repeat deliveries.
 * @example
 * ```ts
 * createWebhookHandler(secret, onEvent, { coordinator, onRepeat: (event) => console.log('repeat', event.id) });
 * ```
 */
export interface WebhookHandlerOptions extends WebhookReceiverOptions, WebhookCoordinationOptions {
  /**
   * With a `coordinator`: called when a delivery is a repeat of an event a process already handled
   * (within the coordinator's `eventRetentionMs`), before it is answered `200` without running the handler.
   */
  onRepeat?: ((event: WebhookEvent, request: Request) => void) | undefined;
}

function text(status: number, body: string, headers?: Record<string, string>): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/plain', ...headers } });
}

/**
 * Makes a whole fetch-style webhook route, `(request: Request) => Promise<Response>`: it verifies the
 * call as {@link createWebhookVerifier} does (a refused call is answered `400` with its code, a body
 * over `maxBodyBytes` `413`), then runs `handler` with the event and answers what it returns (`200`
 * when it returns nothing). An error the handler throws is thrown on, for your framework to answer
 * (a 5xx, which the service retries). A request whose body something read before the route (or
 * holds locked) is a mistake in the app, not in the call: it is answered `500 body_already_read`,
 * with a warning at most once a minute, so the delivery outlives the fix; a call its headers alone
 * refuse (no signature, a stale one) still gets its final `400`. Its options are read once, here.
 *
 * With a `coordinator` (`createRedisCoordinator` of `forecasting-sdk/redis`), every verified event is
 * published to the processes that share it (waits there wake on their task's final event) and the
 * handler runs once per event id across them: a repeat of a handled event calls `onRepeat` and is
 * answered `200 repeat` without running it; a delivery whose event another process's handler still
 * runs is answered `503 running` with `Retry-After: 30` (the service retries it and then meets the
 * outcome; a `200` would lose the event should that run fail). Once the handler answers a status the
 * service does not retry, the claim is marked done; when it throws or answers 408, 425, 429 or a
 * 5xx, the claim is given back, so the service's retry runs it again.
 *
 * @param secret - the signing secret (`whsec_…`), or several during a rotation
 * @param handler - runs for each verified event; see {@link WebhookEventHandler}
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { createRedisCoordinator } from 'forecasting-sdk/redis';
 * import { createWebhookHandler } from 'forecasting-sdk/webhooks/fetch';
 *
 * const coordinator = createRedisCoordinator(await createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }).on('error', () => {}).connect());
 * export const POST = createWebhookHandler(process.env.WEBHOOK_SECRET!, async (event) => {
 *   await queue.add(event.id); // runs once per event across every replica
 * }, { coordinator });
 * ```
 */
export function createWebhookHandler(
  secret: string | readonly string[],
  handler: WebhookEventHandler,
  options: WebhookHandlerOptions = {},
): (request: Request) => Promise<Response> {
  const { coordinator, onRepeat, coordinatorTimeoutMs } = options ?? {};
  const secrets = toSecrets(secret, 'createWebhookHandler');
  const fixed = checkReceiverOptions(options, 'createWebhookHandler');
  const verify = createWebhookVerifier(secrets, fixed);
  // At start-up, as a missing secret: else the first signed call would fail on it.
  if (typeof handler != 'function') throw new TypeError('createWebhookHandler: `handler` must be a function.');
  // Any caller can trigger it on a mis-built route, so it is rate-limited.
  const warnSetupMistake = onceAMinute(fixed);
  const once = exactlyOnce(coordinator, onceAMinute(fixed), checkCoordinatorTimeout(coordinatorTimeoutMs, 'createWebhookHandler'));
  return async (request) => {
    const seen = observe(request.headers);
    const told: Told = (...what) => void seen?.then((o) => o?.done(...what)).catch(() => undefined);
    // Before verify reads it: a body read already is a mistake in the app, not in the call.
    const gone = bodyGone(request);
    let event: WebhookEvent;
    try {
      event = await verify(request);
    } catch (err) {
      let refused = err instanceof WebhookPayloadTooLargeError ? 413 : err instanceof WebhookVerificationError ? 400 : undefined;
      if (refused === undefined) {
        told('refused', { reason: 'error' });
        throw err;
      }
      let code = (err as WebhookVerificationError | WebhookPayloadTooLargeError).code;
      if (gone) {
        // A 5xx keeps the delivery alive until the app is fixed, where a 400 would lose it; a call
        // the headers alone refuse for good still gets its final 400.
        const byHeaders = refusedByHeaders(request.headers, fixed);
        if (byHeaders) code = byHeaders.code;
        else {
          [refused, code] = [500, 'body_already_read'];
          warnSetupMistake(`[forecasting-sdk] webhook refused (${code}): ${(err as Error).message}`);
        }
      }
      told('refused', { reason: code, status: refused });
      return text(refused, code);
    }
    const delivery = await once.begin(event, (await seen)?.traceparent);
    told(delivery === 'first' ? 'verified' : 'duplicate', { event, ...(delivery === 'first' ? {} : { status: delivery === 'running' ? RUNNING_ANSWER.status : 200 }) });
    if (delivery === 'running') return text(RUNNING_ANSWER.status, RUNNING_ANSWER.text, { 'retry-after': RUNNING_ANSWER.retryAfter });
    if (delivery === 'repeat') {
      // Stryker disable next-line ConditionalExpression: runHook would catch the call of a missing hook all the same.
      if (onRepeat) runHook(() => onRepeat(event, request));
      return text(200, 'repeat');
    }
    let response: Response;
    try {
      // Nothing returned: an empty 200.
      response = (await handler(event, request)) ?? new Response();
    } catch (err) {
      await once.fail(event);
      throw err;
    }
    await (isRetriedStatus(response.status) ? once.fail(event) : once.finish(event));
    return response;
  };
}
