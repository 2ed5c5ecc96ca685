/**
 * `verifyWebhook`: checks the signature and age of a webhook call, then parses its body.
 * Errors explain what to fix, stripe-node style, and never contain the secret.
 * @module
 */
import { WebhookVerificationError } from '../core/webhook-errors.js';
import { WEBHOOK_TOLERANCE_SECONDS } from '../api/limits.js';
import type { KnownWebhookEvent, WebhookEvent } from './events.js';
import { cryptoBackend } from './crypto.js';
import { SIGNATURE_HEADER, parseSignatureHeader, readHeader, type WebhookHeaders } from './headers.js';

/**
 * The raw request body exactly as received: a `string`, a `Buffer`/`Uint8Array`, or an `ArrayBuffer`.
 * Never the parsed JSON: re-serializing changes the bytes and the signature no longer matches.
 *
 * @example
 * ```ts
 * const payload: WebhookPayload = await request.text(); // or req.body from express.raw()
 * ```
 */
export type WebhookPayload = string | Uint8Array | ArrayBuffer;

/**
 * Options of {@link verifyWebhook}.
 *
 * @example
 * ```ts
 * await verifyWebhook(body, headers, secret, { toleranceSeconds: 60 });
 * ```
 */
export interface VerifyWebhookOptions {
  /**
   * How far `t` may be from now, either way, in seconds (exactly this far is still accepted). Default
   * 300, the spec's 5 minutes. `Infinity` turns the check off. One that is no number of seconds
   * (`NaN`, below 0, text) rejects with a `TypeError` naming it, verifying nothing (the receivers
   * throw it at construction): as a refusal, it would answer every delivery 400, which is not retried.
   */
  toleranceSeconds?: number | undefined;
  /**
   * The current time in Unix seconds (`Date.now() / 1000`), for tests. Default: the system clock. One
   * that is no such time from 2001 (1e9) to the year 5138 (1e11) (a time in milliseconds, NaN, a
   * function, `performance.now()`) is a `TypeError` naming it, as a bad `toleranceSeconds` is: it
   * would refuse every call as `timestamp_out_of_range`.
   */
  now?: number | undefined;
}

const SIG = 'X-Service-Signature';
const FORMAT = '; expected "t=<unix seconds>,v1=<hex>".';

function fail(code: WebhookVerificationError['code'], message: string): WebhookVerificationError {
  return new WebhookVerificationError(code, message);
}

function describe(value: unknown): string {
  if (value == null) return String(value);
  return Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The body as bytes or text, untouched; `undefined` when it is neither. @internal */
export function toBody(payload: unknown): string | Uint8Array | undefined {
  if (typeof payload === 'string' || payload instanceof Uint8Array) return payload;
  return payload instanceof ArrayBuffer ? new Uint8Array(payload) : undefined;
}

/** What a bad `secret` is, without showing it. */
function describeSecret(secret: unknown): string {
  if (secret === '') return 'an empty string';
  if (!Array.isArray(secret)) return describe(secret);
  if (secret.length === 0) return 'an empty array';
  return secret.includes('') ? 'an array holding an empty string' : 'an array holding another value';
}

/** The secrets as a list, or a `TypeError` naming the caller; never shows a secret. @internal */
export function toSecrets(secret: unknown, caller: string): readonly string[] {
  const list: readonly unknown[] = Array.isArray(secret) ? secret : [secret];
  if (list.length > 0 && list.every((s) => typeof s === 'string' && s !== '')) return list as readonly string[];
  throw new TypeError(
    `${caller}: \`secret\` must be a non-empty string (the "whsec_…" signing secret) or an array of them, got ${describeSecret(secret)}. Is its environment variable set?`,
  );
}

const decoder = new TextDecoder();

/**
 * Verifies a webhook call and returns its event.
 *
 * Checks, in order: the payload is the raw body; `X-Service-Signature` is present and well-formed;
 * some `v1` equals the HMAC-SHA256 of `<t>.` + body under some `secret` (compared in constant time);
 * `t` is within `toleranceSeconds` of now; the body is a JSON event object. Any failure rejects with
 * a {@link WebhookVerificationError} whose `code` says why; it never throws synchronously. A missing
 * or empty `secret` (a programming error, not a bad request) rejects with a `TypeError`.
 *
 * Calls can arrive more than once and out of order: de-duplicate by `X-Service-Delivery-Id`
 * (see {@link createDeliveryDeduper}).
 *
 * @param payload - the raw request body, exactly as received
 * @param headers - the request headers (Fetch `Headers`, Node `req.headers`, or a plain record)
 * @param secret - the signing secret (`whsec_…`), or several during a rotation: any match is accepted
 * @returns the event; narrow it with {@link isKnownWebhookEvent} and `switch (event.type)`
 *
 * @example
 * ```ts
 * // Express: the route needs the raw body
 * app.post('/webhooks', express.raw({ type: 'application/json' }), async (req, res) => {
 *   try {
 *     const event = await verifyWebhook(req.body, req.headers, process.env.WEBHOOK_SECRET!);
 *     if (isKnownWebhookEvent(event) && event.type === 'forecast.completed') await onForecast(event.data.taskId);
 *     res.sendStatus(200);
 *   } catch (err) {
 *     if (err instanceof WebhookVerificationError) return res.status(400).send(err.code);
 *     throw err;
 *   }
 * });
 * ```
 */
export async function verifyWebhook(
  payload: WebhookPayload,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options?: VerifyWebhookOptions,
): Promise<WebhookEvent> {
  // A missing secret first: a bug in the receiver, whatever the call.
  const secrets = toSecrets(secret, 'verifyWebhook');
  const body = toBody(payload);
  if (body === undefined) {
    throw fail(
      'malformed_payload',
      `The webhook payload must be the raw request body (string, Buffer or Uint8Array), not ${describe(payload)}: ` +
        'the signature covers the exact bytes sent, which re-serialized JSON does not reproduce. ' +
        "In Express, use `express.raw({ type: 'application/json' })` on this route and pass `req.body`; " +
        'in fetch-style handlers, pass `await request.text()`.',
    );
  }
  const tolerance = toleranceOf(options);

  const parsed = signatureOf(headers);
  const crypto = cryptoBackend();
  const prefix = `${parsed.timestampText}.`;
  let matched = false;
  for (const s of secrets) {
    const result = crypto.hmac(s, prefix, body);
    // Node signs synchronously: no extra await (and microtask hop) on that path.
    const mac = result instanceof Uint8Array ? result : await result;
    for (const candidate of parsed.signatures) {
      if (crypto.equal(mac, candidate)) matched = true;
    }
    if (matched) break;
  }
  if (!matched) {
    throw fail(
      'no_matching_signature',
      `No v1 signature in the ${SIG} header matches: pass the raw body as received (not re-serialized JSON) ` +
        'and the whole signing secret, "whsec_" included' +
        (secrets.some((s) => !s.startsWith('whsec_')) ? ' (a secret given lacks it)' : '') +
        '; during a rotation, pass both secrets in an array.',
    );
  }

  checkFresh(parsed, options, tolerance);

  let event: unknown;
  try {
    event = JSON.parse(typeof body === 'string' ? body : decoder.decode(body));
    // Stryker disable next-line BlockStatement: `event` is still undefined when parsing throws
  } catch {
    event = undefined;
  }
  if (!isEventShape(event)) {
    throw fail('malformed_payload', 'The webhook payload is correctly signed but is not a JSON event object.');
  }
  return event;
}

/** The signature header, parsed: else `missing_header`, `malformed_header`, or `no_matching_signature` when it has no v1. */
function signatureOf(headers: WebhookHeaders): Exclude<ReturnType<typeof parseSignatureHeader>, string> {
  const header = readHeader(headers, SIGNATURE_HEADER)?.trim();
  if (!header) {
    throw fail(
      'missing_header',
      `The ${SIG} header is missing or empty; pass the request headers unchanged (\`req.headers\`, \`request.headers\`).`,
    );
  }
  const parsed = parseSignatureHeader(header);
  if (typeof parsed === 'string') throw fail('malformed_header', `Malformed ${SIG} header: ${parsed}${FORMAT}`);
  if (parsed.v1Count === 0) throw fail('no_matching_signature', `The ${SIG} header has no v1 signature${FORMAT}`);
  return parsed;
}

function checkFresh(parsed: { timestamp: number; timestampText: string }, options: VerifyWebhookOptions | undefined, tolerance: number): void {
  const age = ageOf(parsed.timestamp, options);
  if (!isFresh(age, tolerance)) {
    throw fail(
      'timestamp_out_of_range',
      // Stryker disable next-line EqualityOperator: an age of 0 is fresh, never told here
      `Signature timestamp t=${parsed.timestampText} is ${Math.round(Math.abs(age))} s in the ${age > 0 ? 'past' : 'future'}, ` +
        `beyond the ${tolerance} s tolerance: an old or replayed call, or a skewed clock.`,
    );
  }
}

/**
 * What refuses a call for good whatever its body: no signature header, a malformed one, no v1, or a
 * stale timestamp. A receiver whose body another parser consumed judges these without the bytes. @internal
 */
export function refusedByHeaders(headers: WebhookHeaders, options?: VerifyWebhookOptions): WebhookVerificationError | undefined {
  // A bad tolerance throws its TypeError out of here: a set-up mistake, never a refusal for good.
  const tolerance = toleranceOf(options);
  try {
    checkFresh(signatureOf(headers), options, tolerance);
    return undefined;
  } catch (err) {
    // Only a refusal: any other error (a `now` that breaks the arithmetic) is a set-up mistake, a 5xx.
    if (err instanceof WebhookVerificationError) return err;
    throw err;
  }
}

/** Seconds from `t` to now (`options.now`, else the system clock); negative for a `t` ahead. */
function ageOf(timestamp: number, options: VerifyWebhookOptions | undefined): number {
  return (options?.now ?? Date.now() / 1000) - timestamp;
}

/**
 * `toleranceSeconds`, checked, and `now` with it: a tolerance that is no number of seconds (NaN,
 * below 0, text) or a `now` that is no time in Unix seconds from 2001 to the year 5138 (NaN, a
 * function, a time in milliseconds, `performance.now()`) would refuse every call for good (a 400,
 * which the service does not retry), so either throws a `TypeError`. @internal
 */
export function toleranceOf(options: VerifyWebhookOptions | undefined, caller = 'verifyWebhook'): number {
  const tolerance = options?.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  // Absent (or null) is the system clock's, not checked.
  const now = options?.now ?? 1e9;
  if (!(typeof now == 'number' && now <= 1e11 && now >= 1e9)) throw new TypeError(`${caller}: \`now\` must be Unix seconds, got ${shown(now)}.`);
  if (typeof tolerance == 'number' && tolerance >= 0) return tolerance;
  throw new TypeError(`${caller}: \`toleranceSeconds\` must be a number of seconds >= 0, got ${shown(tolerance)}.`);
}

/** A value in a message: an object or a function by its type (its text is the caller's code, which may throw). @internal */
export const shown = (value: unknown): string => (Object(value) === value ? typeof value : String(value));

/** Written so that a NaN tolerance or clock fails closed. */
function isFresh(age: number, tolerance: number): boolean {
  return Math.abs(age) <= tolerance;
}

/**
 * Whether a call refused as `no_matching_signature` carried a well-formed `v1` and a `t` within the
 * tolerance: what a call signed with another secret looks like (a missed rotation), as opposed to a
 * missing, garbled or old signature. @internal
 */
export function looksSignedWithAnotherSecret(headers: WebhookHeaders, options?: VerifyWebhookOptions): boolean {
  const parsed = parseSignatureHeader(readHeader(headers, SIGNATURE_HEADER) ?? '');
  return (
    typeof parsed !== 'string' &&
    parsed.signatures.length > 0 &&
    isFresh(ageOf(parsed.timestamp, options), toleranceOf(options))
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The envelope every event has; the fields inside `data` are the service's (the body is signed). */
function isEventShape(value: unknown): value is WebhookEvent {
  return (
    isRecord(value) &&
    typeof value['id'] === 'string' &&
    typeof value['type'] === 'string' &&
    typeof value['createdAt'] === 'string' &&
    isRecord(value['data'])
  );
}

/** The kinds the spec names, checked against the schemas both ways (here and by {@link AllListed}). */
const KNOWN_TYPES = ['forecast.started', 'forecast.completed', 'forecast.failed', 'forecast.cancelled', 'forecast.report.completed', 'webhook.test'] as const satisfies readonly KnownWebhookEvent['type'][];
/** `true`, or a compile error where it is used: a kind the schemas name is missing from `KNOWN_TYPES`. @internal */
export type AllListed = [Exclude<KnownWebhookEvent['type'], (typeof KNOWN_TYPES)[number]>] extends [never] ? true : never;

/**
 * Tells an event of a kind the spec names from one added later, so that `switch (event.type)`
 * narrows `event.data` to the kind's fields. It looks at `type` only; the signed body is trusted.
 *
 * @example
 * ```ts
 * const event = await verifyWebhook(body, headers, secret);
 * if (!isKnownWebhookEvent(event)) return; // a kind added after this SDK version
 * switch (event.type) {
 *   case 'forecast.completed': console.log(event.data.forecastId); break; // string
 *   case 'forecast.report.completed': console.log(event.data.reportStatus); break;
 * }
 * ```
 */
export function isKnownWebhookEvent(event: WebhookEvent): event is KnownWebhookEvent {
  return (KNOWN_TYPES as readonly string[]).includes(event.type);
}
