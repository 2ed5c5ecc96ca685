/**
 * Header names of a webhook call, case-insensitive header lookup over the header shapes frameworks
 * hand out, and the parser of `X-Service-Signature`.
 * @module
 */

/**
 * Name of the signature header, `t=<unix seconds>,v1=<hex>` (lowercase, as Node and Fetch report it).
 *
 * @example
 * ```ts
 * const header = request.headers.get(SIGNATURE_HEADER);
 * ```
 */
export const SIGNATURE_HEADER = 'x-service-signature';

/**
 * Name of the delivery id header: kept across retries and replays, so it identifies duplicates.
 *
 * @example
 * ```ts
 * if (deduper.seen(request.headers.get(DELIVERY_ID_HEADER) ?? '')) return new Response(null, { status: 200 });
 * ```
 */
export const DELIVERY_ID_HEADER = 'x-service-delivery-id';

/**
 * Name of the event id header (the body's `id`).
 *
 * @example
 * ```ts
 * const eventId = req.headers[EVENT_ID_HEADER];
 * ```
 */
export const EVENT_ID_HEADER = 'x-service-event-id';

/**
 * Name of the event type header (the body's `type`).
 *
 * @example
 * ```ts
 * const kind = request.headers.get(EVENT_TYPE_HEADER); // 'forecast.completed'
 * ```
 */
export const EVENT_TYPE_HEADER = 'x-service-event-type';

/**
 * Anything with a Fetch-style `get(name)`: the global `Headers`, undici's, Deno's, Bun's, Hono's.
 *
 * @example
 * ```ts
 * const headers: HeadersLike = new Headers({ 'X-Service-Signature': 't=1,v1=ab' });
 * ```
 */
export interface HeadersLike {
  get(name: string): string | null;
}

/**
 * The request headers, in any of the shapes frameworks use: a Fetch `Headers`, Node's
 * `IncomingHttpHeaders` (`req.headers` in Express), or a plain record. Names are matched
 * case-insensitively; a `string[]` value is joined as Fetch would join repeated headers.
 *
 * @example
 * ```ts
 * await verifyWebhook(req.body, req.headers, secret);            // Express / node:http
 * await verifyWebhook(body, request.headers, secret);            // fetch-style handler
 * await verifyWebhook(body, { 'X-Service-Signature': sig }, secret); // plain record
 * ```
 */
export type WebhookHeaders =
  | HeadersLike
  | Readonly<Record<string, string | readonly string[] | null | undefined>>;

/** Reads one header (`name` in lowercase); `undefined` when absent. @internal */
export function readHeader(headers: WebhookHeaders | null | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof headers.get === 'function') {
    // A custom `get()` may hand back anything: a value that is not a string counts as no header.
    const value: unknown = (headers as HeadersLike).get(name);
    return typeof value === 'string' ? value : undefined;
  }
  const record = headers as Readonly<Record<string, unknown>>;
  // Node lowercases names, so the direct hit is the common case; scan only when it misses.
  const value = record[name] ?? record[Object.keys(record).find((key) => key.toLowerCase() === name) ?? name];
  if (typeof value === 'string') return value;
  // Repeated headers, joined as Fetch joins them.
  return Array.isArray(value) ? value.join(', ') : undefined;
}

/** `t` (as sent, for the signed text) and every well-formed `v1`, decoded to bytes. @internal */
export interface ParsedSignature {
  timestamp: number;
  timestampText: string;
  signatures: Uint8Array[];
  /** How many `v1` entries there were, decodable or not (to tell "none" from "none matches"). */
  v1Count: number;
}

/** Parses `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`; other keys (`v0`, …) are ignored. Returns a reason string when malformed. @internal */
export function parseSignatureHeader(value: string): ParsedSignature | string {
  let timestampText: string | undefined;
  const signatures: Uint8Array[] = [];
  let v1Count = 0;
  // indexOf and slice rather than split and trim: this runs on every call, and allocates less.
  for (let start = 0; start <= value.length; ) {
    let end = value.indexOf(',', start);
    // Stryker disable next-line EqualityOperator: at end === 0 the header begins with "," and is refused either way (no key before it, or ",t" is no key)
    if (end < 0) end = value.length;
    const eq = value.indexOf('=', start);
    // Stryker disable next-line EqualityOperator: eq === 0 leaves an empty key as well, and eq === end cannot be ("=" is not ",")
    const key = eq < 0 || eq > end ? '' : value.slice(start, eq).trim();
    if (!key) return 'an entry is not of the form key=value';
    if (key === 't') {
      if (timestampText !== undefined) return 'it has more than one t';
      timestampText = value.slice(eq + 1, end).trim();
    } else if (key === 'v1') {
      // Stryker disable next-line UpdateOperator: only whether the count is 0 is read, and it stays 0 only without a v1 either way
      v1Count++;
      // A v1 of the wrong length or not hex can never match: skip it, no error.
      const bytes = hexToBytes(value.slice(eq + 1, end).trim());
      if (bytes) signatures.push(bytes);
    }
    start = end + 1;
  }
  if (timestampText === undefined) return 'it has no t (timestamp)';
  if (!/^\d{1,15}$/.test(timestampText)) return 't is not a whole number of seconds';
  return { timestamp: Number(timestampText), timestampText, signatures, v1Count };
}

/** Decodes a 64-digit hex SHA-256 signature; `undefined` for any other length or a non-hex digit. @internal */
export function hexToBytes(hex: string): Uint8Array | undefined {
  // The digits come from the call, not from a secret: no need to decode them in constant time.
  return /^[\da-f]{64}$/i.test(hex) ? Uint8Array.from(hex.match(/../g)!, (pair) => parseInt(pair, 16)) : undefined;
}

/** Lowercase hex of bytes. @internal */
export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += (b < 16 ? '0' : '') + b.toString(16);
  return out;
}
