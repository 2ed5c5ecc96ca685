/**
 * What the two ready-made receivers, the Express middleware and the fetch-style verifier, share: the
 * body cap and the reading up to it, and the warning about a secret that no longer matches.
 * @module
 */
import { ForecastingError } from '../core/error-base.js';
import { WebhookVerificationError } from '../core/webhook-errors.js';
import type { Logger } from '../core/logger.js';
import { webhookChannel } from '../core/channels.js';
import { eventNotice } from './exactly-once.js';
import { DELIVERY_ID_HEADER, readHeader, type WebhookHeaders } from './headers.js';
import type { Observation } from './observed.js';
import { looksSignedWithAnotherSecret, shown, toleranceOf, type VerifyWebhookOptions } from './verify.js';

/** Default `maxBodyBytes`: 1 MiB, far above any event the service sends. @internal */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Least time between two warnings of one kind from one receiver. @internal */
export const WRONG_SECRET_WARNING_EVERY_MS = 60_000;

/**
 * Options of `verifyWebhookRequest`: those of `verifyWebhook`, and a body size cap.
 * @example
 * ```ts
 * await verifyWebhookRequest(request, secret, { maxBodyBytes: 64 * 1024 });
 * ```
 */
export interface VerifyWebhookRequestOptions extends VerifyWebhookOptions {
  /**
   * Largest body read, in bytes (default 1 MiB). A larger one is refused as `payload_too_large` (413),
   * by its `Content-Length` before any of it is read, else as soon as this much has been read.
   */
  maxBodyBytes?: number | undefined;
}

/**
 * Options of the ready-made receivers (`webhookMiddleware`, `createWebhookVerifier`): a body cap, and
 * where their warnings go.
 * @example
 * ```ts
 * createWebhookVerifier(secret, { maxBodyBytes: 64 * 1024, logger: myLogger });
 * ```
 */
export interface WebhookReceiverOptions extends VerifyWebhookRequestOptions {
  /**
   * Where the receiver's warnings go (default `console`): a call that looks signed with another secret
   * (the first, then at most one a minute), and, for the middleware, a body another parser read
   * first. A warning never holds a secret or a body. No `warn`: a `TypeError`.
   */
  logger?: Pick<Logger, 'warn'> | undefined;
  /** The warnings' clock in ms, for tests. Default `Date.now`, also used when it throws or gives no finite number. */
  clock?: (() => number) | undefined;
}

/**
 * A webhook call's body is over `maxBodyBytes`: it was not read further, nor verified. Answer `413`.
 * The service's events are small, so a genuine call never gets this with the default cap.
 * @example
 * ```ts
 * catch (err) {
 *   if (err instanceof WebhookPayloadTooLargeError) return new Response(err.code, { status: 413 });
 *   if (err instanceof WebhookVerificationError) return new Response(err.code, { status: 400 });
 *   throw err;
 * }
 * ```
 */
export class WebhookPayloadTooLargeError extends ForecastingError {
  override name = 'WebhookPayloadTooLargeError';
  readonly code = 'payload_too_large';
  /** The status to answer. */
  readonly status = 413;
  constructor(
    /** The cap the body went over. */
    readonly maxBodyBytes: number,
  ) {
    super(`The webhook body is over maxBodyBytes (${maxBodyBytes}); answer 413.`);
  }
}

/** A receiver's options as {@link checkReceiverOptions} read them: the cap with its default. @internal */
export type ReceiverSettings = WebhookReceiverOptions & { maxBodyBytes: number };

/**
 * The body cap of `options` (or its default), checked with `toleranceSeconds` and `now` where they
 * are given, or a `TypeError` naming the caller. @internal
 */
export function maxBodyOf(options: VerifyWebhookRequestOptions | undefined, caller: string): number {
  notASecret(options, caller);
  toleranceOf(options, caller);
  const value = options?.maxBodyBytes;
  const max = value ?? DEFAULT_MAX_BODY_BYTES;
  if (Number.isInteger(max) && max > 0) return max;
  throw new TypeError(`${caller}: \`maxBodyBytes\` must be a whole number of bytes > 0, got ${shown(value)}.`);
}

/**
 * Options that are no object, or an array or bytes: `(newSecret, oldSecret)` or `(newSecret,
 * [oldSecret])` from JavaScript, whose old secret would be ignored (every call signed with it
 * refused), or a number meant as the tolerance: a `TypeError` saying where secrets go, never showing
 * one. Any other object is options (a class's, one with no prototype; a `String` object too).
 */
function notASecret(options: unknown, caller: string): void {
  if (options != null && (typeof options != 'object' || Array.isArray(options) || ArrayBuffer.isView(options))) {
    throw new TypeError(`${caller}: two secrets go in one array, [newSecret, oldSecret]; options in an object.`);
  }
}

/**
 * A receiver's options checked as {@link maxBodyOf} does, and read once, own or inherited: the
 * receiver then works with these, so a later change to the object changes nothing. @internal
 */
export function checkReceiverOptions(options: WebhookReceiverOptions | undefined, caller: string): ReceiverSettings {
  notASecret(options, caller);
  const { toleranceSeconds, now, maxBodyBytes, logger, clock } = options ?? {};
  const fixed = { toleranceSeconds, now, maxBodyBytes, logger, clock };
  fixed.maxBodyBytes = maxBodyOf(fixed, caller);
  // Else every warning is lost in silence (a warning never fails a call's answer).
  if (logger != null && typeof logger.warn != 'function') throw new TypeError(`${caller}: \`logger\` must have a \`warn\` function, got ${shown(logger)}.`);
  if (clock != null && typeof clock != 'function') throw new TypeError(`${caller}: \`clock\` must be a function, got ${shown(clock)}.`);
  return fixed as ReceiverSettings;
}

const encoder = new TextEncoder();

/**
 * Reads a body from its chunks, stopping at `max` bytes: a `Content-Length` over it is refused before
 * reading anything, and a body longer than it said (or with none) is cut off at the cap, leaving the
 * loop (which ends the source: a stream is cancelled or destroyed). @internal
 */
export async function readCapped(chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>, headers: WebhookHeaders, max: number): Promise<Uint8Array> {
  if (Number(readHeader(headers, 'content-length')) > max) throw new WebhookPayloadTooLargeError(max);
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    size += bytes.byteLength;
    // Written so that a chunk that is no bytes (a size of NaN) stops the read too.
    if (!(size <= max)) throw new WebhookPayloadTooLargeError(max);
    parts.push(bytes);
  }
  const body = new Uint8Array(size);
  size = 0;
  for (const part of parts) {
    body.set(part, size);
    size += part.byteLength;
  }
  return body;
}

/**
 * A receiver's wrong-secret warning: given each refusal, it warns when the call carried a well-formed
 * signature, fresh, that matches none of the secrets (what a missed rotation looks like, and what a
 * careful forger sends: hence the rate limit), the first time and then at most once a minute. Other
 * refusals (no or garbled header, an old call) are what strangers send, and stay quiet. @internal
 */
export function wrongSecretWarner(options: WebhookReceiverOptions, secretCount: number): (error: unknown, headers: WebhookHeaders) => void {
  const warn = onceAMinute(options);
  return (error, headers) => {
    // Runs in a refusal's handler: options changed since they were checked (a tolerance now NaN, a
    // getter that throws) must not leave the call unanswered; they tell nothing.
    try {
      if (error instanceof WebhookVerificationError && error.code === 'no_matching_signature' && looksSignedWithAnotherSecret(headers, options)) {
        warn(`[forecasting-sdk] webhook refused (no_matching_signature): a fresh signature matches none of the ${secretCount} secret(s): a missed rotation (pass [newSecret, oldSecret]), or a changed body?`);
      }
    } catch {}
  };
}

/**
 * A warning that anyone can trigger by sending calls, rate-limited: the first at once, then at most
 * one a minute, each saying how many were held back since the last. @internal
 */
export function onceAMinute(options: WebhookReceiverOptions): (message: string) => void {
  // None (or null, as the client takes it) is console.
  const { clock } = options;
  const logger = options.logger ?? console;
  let last = -Infinity;
  let quiet = 0;
  return (message) => {
    // A logger that throws loses the warning, never the call's answer (this runs as a call is refused).
    try {
      // None, or one that gives no time (NaN, nothing, a throw), is the system's: else the limit
      // would be off, or every warning lost.
      let told;
      try {
        told = clock?.();
      } catch {}
      const now = Number.isFinite(told) ? told! : Date.now();
      // A clock stepped back (the system's can be) starts the minute again there: a silence of at
      // most a minute, never a flood from a clock that keeps going back.
      if (now < last) last = now;
      if (now - last < WRONG_SECRET_WARNING_EVERY_MS) {
        quiet++;
        return;
      }
      logger.warn(`${message} (At most one such warning a minute${quiet > 0 ? `; ${quiet} more since the last` : ''}.)`);
      last = now;
      quiet = 0;
    } catch {}
  };
}

/** Tells a call's observation what the call was (see {@link observe}). @internal */
export type Told = (...what: Parameters<Observation['done']>) => void;

/**
 * Starts observing a call on the `forecasting-sdk:webhook` channel while someone subscribes (the
 * code that does, `observed.ts`, loads then); else `undefined`, and nothing is built. @internal
 */
export function observe(headers: WebhookHeaders): Promise<Observation | undefined> | undefined {
  const channel = webhookChannel;
  if (!channel?.hasSubscribers) return undefined;
  const startTime = Date.now();
  // A receiver never fails for its observer: a module that cannot load observes nothing.
  return import('./observed.js').then((m) => m.startObservation(channel, () => readHeader(headers, DELIVERY_ID_HEADER), startTime, eventNotice)).catch(() => undefined);
}

