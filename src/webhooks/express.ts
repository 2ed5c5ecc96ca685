/**
 * `forecasting-sdk/webhooks/express`: an Express middleware (Express 4 and 5) that reads the raw body,
 * verifies the call and puts the typed event on `req.webhookEvent`. Express is an optional peer
 * dependency and this module imports nothing of it, not even its types: the middleware is typed by the
 * few members it uses ({@link WebhookMiddlewareRequest}, {@link WebhookMiddlewareResponse}), which
 * Express 4 and 5 requests and responses have, so it compiles without `@types/express` too.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { webhookMiddleware } from 'forecasting-sdk/webhooks/express';
 *
 * const app = express();
 * app.post('/webhooks/forecasting', webhookMiddleware(process.env.WEBHOOK_SECRET!), (req, res) => {
 *   console.log(req.webhookEvent!.type);
 *   res.sendStatus(200);
 * });
 * app.use(express.json()); // the rest of the app; the middleware reads its own body either way
 * ```
 * @module
 */
import type { EventCoordinator } from '../core/event-coordination.js';
import { WebhookVerificationError } from '../core/webhook-errors.js';
import type { WebhookEvent } from './events.js';
import { checkCoordinatorTimeout, exactlyOnce, isRetriedStatus, RUNNING_ANSWER, runHook, type Delivery, type ExactlyOnce, type WebhookCoordinationOptions } from './exactly-once.js';
import { checkReceiverOptions, observe, readCapped, type Told, WebhookPayloadTooLargeError, onceAMinute, wrongSecretWarner, type WebhookReceiverOptions } from './receiver.js';
import { refusedByHeaders, toBody, toSecrets, verifyWebhook } from './verify.js';

export { WebhookVerificationError };
export type { WebhookEvent, WebhookReceiverOptions, WebhookCoordinationOptions, EventCoordinator };

declare global {
  // Express's own extension point for request properties (merged into `req` in handlers).
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The verified webhook event, set by `webhookMiddleware` before your handler runs. */
      webhookEvent?: WebhookEvent;
      /** `true` when `webhookMiddleware` with a `coordinator` answered a repeat delivery itself (your handler did not run). */
      webhookRepeat?: boolean;
    }
  }
}

/**
 * What {@link webhookMiddleware} uses of a request: its headers, its body stream, and `body` when a
 * body parser ran first. An Express 4 or 5 `req` (a Node `IncomingMessage`) has all of it.
 * @example
 * ```ts
 * // Anything with these members works, Express's request or another framework's:
 * const handler = webhookMiddleware(secret);
 * handler(req satisfies WebhookMiddlewareRequest, res, next);
 * ```
 */
export interface WebhookMiddlewareRequest extends AsyncIterable<Uint8Array | string> {
  /** The request headers, as Node gives them (lower-case names). */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** What a body parser left: bytes or text from `express.raw()` / `express.text()`, else anything or nothing. */
  body?: unknown;
  /**
   * The body's bytes as a parser that ran first kept them, the usual way to keep them with a global
   * `express.json()`: `express.json({ verify: (req, _res, buf) => { req.rawBody = buf; } })`. Read
   * before `body`, which such a parser may have left holding a string it decoded from other bytes.
   */
  rawBody?: unknown;
  /** Whether the body stream was read to its end (by a body parser that ran first). */
  readonly readableEnded: boolean;
  /** Set by the middleware before it calls `next()`. */
  webhookEvent?: WebhookEvent | undefined;
  /** Set to `true` by a middleware with a `coordinator` before it answers a repeat delivery itself. */
  webhookRepeat?: boolean | undefined;
}

/**
 * What {@link webhookMiddleware} uses of a response to refuse a call: an Express 4 or 5 `res` has it.
 * @example
 * ```ts
 * // What the middleware calls to refuse a call: res.status(400).type('text/plain').send(err.code)
 * const handler = webhookMiddleware(secret);
 * handler(req, res satisfies WebhookMiddlewareResponse, next);
 * ```
 */
export interface WebhookMiddlewareResponse {
  status(code: number): WebhookMiddlewareResponse;
  type(type: string): WebhookMiddlewareResponse;
  send(body: string): unknown;
  /**
   * With a `coordinator`: the answer's status, read when it is sent, to know whether the handler
   * failed. A Node response (Express's) has it, and the two below.
   */
  statusCode?: number;
  /** With a `coordinator`: sets `Retry-After` on the `503` of a delivery whose event another process is still handling (Node's). */
  setHeader?(name: string, value: string): unknown;
  /** Whether the whole answer was sent (read on `close`: closed before, the handler failed). */
  readonly writableFinished?: boolean;
  /**
   * Node's `once('finish' | 'close', …)`, to tell the coordinator how the handler ended. Without it,
   * neither a failure gives the event's claim back nor a success marks it done: the claim frees a
   * minute after the event came.
   */
  once?(event: 'finish' | 'close', listener: () => void): unknown;
}

/**
 * The `next` of a middleware: called with nothing to go on, or with an error. Express's `NextFunction` is one.
 * @example
 * ```ts
 * const next: WebhookMiddlewareNext = (err) => { if (err) console.error(err); };
 * await webhookMiddleware(secret)(req, res, next);
 * ```
 */
export type WebhookMiddlewareNext = (err?: unknown) => void;

/**
 * The middleware {@link webhookMiddleware} makes: an Express request handler (Express 4 and 5).
 * @example
 * ```ts
 * const verify: WebhookMiddleware = webhookMiddleware(process.env.WEBHOOK_SECRET!);
 * app.post('/webhooks/forecasting', verify, (req, res) => void res.sendStatus(200));
 * ```
 */
export type WebhookMiddleware = <Req extends WebhookMiddlewareRequest, Res extends WebhookMiddlewareResponse>(req: Req, res: Res, next: WebhookMiddlewareNext) => void;

/**
 * A request that went through {@link webhookMiddleware}: `webhookEvent` is set. Pass your framework's
 * request type to keep its members (`WebhookRequest<express.Request>`).
 *
 * @example
 * ```ts
 * app.post('/hooks', webhookMiddleware(secret), (req, res) => {
 *   const { webhookEvent } = req as WebhookRequest<express.Request>;
 *   res.sendStatus(200);
 * });
 * ```
 */
export type WebhookRequest<R extends WebhookMiddlewareRequest = WebhookMiddlewareRequest> = R & { webhookEvent: WebhookEvent };

/**
 * Options of {@link webhookMiddleware}: those of `verifyWebhook`, a body size cap, where its warnings
 * go, and a hook for every refused call.
 *
 * @example
 * ```ts
 * webhookMiddleware(secret, { toleranceSeconds: 300, maxBodyBytes: 64 * 1024, logger: console });
 * ```
 */
export interface WebhookMiddlewareOptions extends WebhookReceiverOptions, WebhookCoordinationOptions {
  /**
   * Called with the reason whenever a call is refused for its signature, age or body (before the
   * answer): log it, count it. It comes on top of the middleware's own warnings to `logger`, which
   * are only two: a body another parser already read (a set-up mistake, answered 500), and a fresh,
   * well-formed signature that matches no secret (a missed rotation; at most one a minute). Calls
   * refused for a missing, garbled or old signature are not logged, so a stranger cannot fill your logs.
   */
  onError?: ((error: WebhookVerificationError, req: WebhookMiddlewareRequest) => void) | undefined;
  /**
   * With a `coordinator`: called when a delivery is a repeat of an event a process already handled
   * (within the coordinator's `eventRetentionMs`), before the middleware answers it `200` itself, with
   * `req.webhookRepeat` set to `true`. Your handler does not run for it.
   */
  onRepeat?: ((event: WebhookEvent, req: WebhookMiddlewareRequest) => void) | undefined;
}

/** Whether a body parser already consumed the stream (body-parser sets `_body`; the stream may have ended). */
function streamConsumed(req: WebhookMiddlewareRequest): boolean {
  // `_body` is body-parser's private flag, so it stays out of the public request type.
  return (req as WebhookMiddlewareRequest & { _body?: boolean })._body === true || req.readableEnded;
}

/**
 * Makes a middleware that verifies a webhook call. It takes the raw body from `req.rawBody` when a
 * parser's `verify` hook kept it there, or from `express.raw()` or `express.text()` when one ran,
 * else reads the request stream itself, so it works with or without a body parser on the route. On
 * success it sets `req.webhookEvent` and calls `next()`. Its options are read once, here (a later
 * change to the object changes nothing). Otherwise:
 *
 * - a failed check (`missing_header`, `malformed_header`, `timestamp_out_of_range`,
 *   `no_matching_signature`, `malformed_payload`): `400` with the code as plain text, which fails the
 *   delivery for good (the service retries no 4xx);
 * - a body another parser already read (`express.json()` before this route) and kept no `rawBody`:
 *   the raw bytes are gone, so it answers `500 body_already_read`, warns, and tells `onError` a
 *   `WebhookVerificationError` of that code (a call the headers alone refuse, with no
 *   signature or a stale timestamp, gets its final `400` instead), and the service retries the delivery (for about
 *   three hours) until the route is fixed;
 * - a body over `maxBodyBytes`: `413 payload_too_large`, reading no further.
 *
 * With a `coordinator` (see {@link WebhookCoordinationOptions}), a verified event is published to
 * every process that shares it, and its id claimed: a repeat of a handled event sets
 * `req.webhookRepeat`, calls `onRepeat` and is answered `200 repeat` without calling `next()`; a
 * delivery whose event another process's handler still runs is answered `503 running` with
 * `Retry-After: 30` (the service retries it and then meets the outcome; a `200` would lose the event
 * should that run fail). Once the route's handler answers a status the service does not retry, the
 * claim is marked done; when it fails (`next(err)`, an answer of 408, 425, 429 or a 5xx, or a
 * connection closed before the answer), the claim is given back, so the service's retry runs the
 * handler again.
 *
 * @param secret - the signing secret (`whsec_…`), or several during a rotation
 * @example
 * ```ts
 * app.post('/webhooks', webhookMiddleware([newSecret, oldSecret]), async (req, res) => {
 *   const event = req.webhookEvent!;
 *   res.sendStatus(200); // answer within 10 seconds; work after
 *   if (isKnownWebhookEvent(event) && event.type === 'forecast.completed') await queue.add(event.data.taskId);
 * });
 *
 * // Many replicas: the handler runs once per event, and waits in every replica wake on it.
 * const coordinator = createRedisCoordinator(await createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }).on('error', () => {}).connect());
 * app.post('/webhooks', webhookMiddleware(secret, { coordinator }), (req, res) => void res.sendStatus(200));
 * ```
 */
export function webhookMiddleware(secret: string | readonly string[], options: WebhookMiddlewareOptions = {}): WebhookMiddleware {
  // Checked here, at start-up: a missing secret is a deployment mistake, not a bad request.
  const secrets = toSecrets(secret, 'webhookMiddleware');
  const { onError, onRepeat, coordinator, coordinatorTimeoutMs } = options ?? {};
  const fixed = checkReceiverOptions(options, 'webhookMiddleware');
  const warnWrongSecret = wrongSecretWarner(fixed, secrets.length);
  // Any caller can trigger it on a mis-mounted route, so it is rate-limited too.
  const warnSetupMistake = onceAMinute(fixed);
  const once = exactlyOnce(coordinator, onceAMinute(fixed), checkCoordinatorTimeout(coordinatorTimeoutMs, 'webhookMiddleware'));
  return (req, res, next) => {
    const seen = observe(req.headers);
    const told: Told = (...what) => void seen?.then((o) => o?.done(...what)).catch(() => undefined);
    /** Verifies, then, with a coordinator, publishes and claims. */
    const run = async (): Promise<Delivery> => {
      // Bytes a parser kept as received (a `verify` hook's `rawBody`: first, as `express.json()`
      // may leave a string it decoded in `body`), or bytes or text `express.raw()`/`.text()` left.
      const raw = toBody(req.rawBody) ?? toBody(req.body);
      // The bytes are gone: a call the headers refuse for good gets its final 400, any other a 500.
      if (raw === undefined && streamConsumed(req)) {
        throw (
          refusedByHeaders(req.headers, fixed) ??
          new WebhookVerificationError(
            'body_already_read',
            'Another body parser read the body first, so the signed bytes are gone: mount this route before express.json(), skip the parser on its path, or keep the bytes: express.json({ verify: (req, _res, buf) => { req.rawBody = buf } }).',
          )
        );
      }
      // The stream, or the bytes a parser kept: one cap, on the bytes as sent.
      const payload = await readCapped(raw === undefined ? req : [raw], req.headers, fixed.maxBodyBytes);
      const event = (req.webhookEvent = await verifyWebhook(payload, req.headers, secrets, fixed));
      return once.begin(event, (await seen)?.traceparent);
    };
    const answer = (status: number, text: string) => void res.status(status).type('text/plain').send(text);
    run().then(
      (delivery) => {
        const event = req.webhookEvent!;
        if (delivery === 'running') {
          told('duplicate', { event, status: RUNNING_ANSWER.status });
          res.setHeader?.('Retry-After', RUNNING_ANSWER.retryAfter);
          return answer(RUNNING_ANSWER.status, RUNNING_ANSWER.text);
        }
        if (delivery === 'repeat') {
          told('duplicate', { event, status: 200 });
          req.webhookRepeat = true;
          if (onRepeat) runHook(() => onRepeat(event, req));
          return answer(200, 'repeat');
        }
        told('verified', { event });
        if (coordinator) onAnswered(res, once, event);
        next();
      },
      (caught: unknown) => {
        if (caught instanceof WebhookVerificationError) {
          const setupMistake = caught.code === 'body_already_read';
          if (setupMistake) warnSetupMistake(`[forecasting-sdk] webhook refused (${caught.code}): ${caught.message}`);
          else warnWrongSecret(caught, req.headers);
          if (onError) runHook(() => onError(caught, req));
          // A set-up mistake gets a 5xx, which the service retries: the delivery waits for the fix
          // instead of failing for good, as it would on a 4xx.
          const status = setupMistake ? 500 : 400;
          told('refused', { reason: caught.code, status });
          answer(status, caught.code);
        } else if (caught instanceof WebhookPayloadTooLargeError) {
          told('refused', { reason: caught.code, status: 413 });
          answer(413, caught.code);
        } else {
          told('refused', { reason: 'error' });
          next(caught);
        }
      },
    );
  };
}

/**
 * Tells the coordinator, once, how the route's handler ended: failed when its answer has a status
 * the service retries (`next(err)` ends in Express's 500) or the connection closes before the answer
 * is sent (the claim is given back); else done (every later delivery is a repeat).
 */
function onAnswered(res: WebhookMiddlewareResponse, once: ExactlyOnce, event: WebhookEvent): void {
  if (typeof res.once !== 'function') return;
  let ended = false;
  const end = (failed: boolean) => {
    if (ended) return;
    ended = true;
    void (failed ? once.fail(event) : once.finish(event));
  };
  res.once('finish', () => end(isRetriedStatus(res.statusCode ?? 200)));
  res.once('close', () => end(res.writableFinished !== true));
}
