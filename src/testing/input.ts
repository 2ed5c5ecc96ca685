/**
 * Reading a request's input: the JSON body (POST/PUT/PATCH) or the query (GET/DELETE), checked with
 * the operation's declared `params` schema so the mock refuses exactly what the spec refuses.
 * @module
 */
import type * as z from 'zod/mini';
import { MAX_FILE_BYTES } from '../api/limits.js';
import { parseOrThrow } from '../core/validate.js';
import { ValidationError } from '../core/errors.js';
import { badRequest, MockHttpError } from './http.js';

/**
 * The largest JSON body the mock reads, in bytes (1 MiB); a larger one answers 413 unread.
 * @example
 * ```ts
 * const big = 'x'.repeat(MAX_JSON_BODY_BYTES); // a body this size answers 413 request_too_large, unread
 * ```
 */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
/**
 * The largest multipart body: one file at the spec's 10 MiB, plus 64 KiB for the form's other fields and boundaries.
 * @example
 * ```ts
 * console.log(MAX_MULTIPART_BODY_BYTES); // 10 MiB + 64 KiB: a larger upload answers 413
 * ```
 */
export const MAX_MULTIPART_BODY_BYTES = MAX_FILE_BYTES + 64 * 1024;
/**
 * The largest JSON body an upload route reads: one file at the spec's 10 MiB as base64 (4 characters
 * for every 3 bytes, about 13.3 MiB) plus 64 KiB for the other fields. So a preset file sent as
 * `{filename, contentBase64}` meets the same 10 MiB limit as one sent as multipart: a larger file is
 * refused by the shared schema (400 naming `contentBase64`), a larger body answers 413 unread.
 * @example
 * ```ts
 * console.log(MAX_JSON_UPLOAD_BODY_BYTES); // 4 * ceil(10 MiB / 3) + 64 KiB
 * ```
 */
export const MAX_JSON_UPLOAD_BODY_BYTES = 4 * Math.ceil(MAX_FILE_BYTES / 3) + 64 * 1024;
/**
 * The deepest nesting of objects and arrays a JSON body may have; deeper answers 400.
 * @example
 * ```ts
 * const deep = JSON.parse('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1)); // as a body: 400
 * ```
 */
export const MAX_JSON_DEPTH = 64;
/**
 * Bodies up to this many bytes are kept whole in the request log; larger ones are clipped.
 * @example
 * ```ts
 * // A body over MAX_LOGGED_BODY_BYTES is logged as '[JSON body of <n> bytes, clipped] …'
 * console.log(service.requests.last()?.body);
 * ```
 */
export const MAX_LOGGED_BODY_BYTES = 64 * 1024;
/** How much of a clipped body the request log keeps, in characters. */
const LOG_PREVIEW_CHARS = 1024;

/** What a request body was, as read once for the handler and the request log. */
export type BodyRead =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; text: string }
  | { kind: 'invalid_json'; text: string; notUtf8?: true }
  | { kind: 'too_deep'; text: string }
  | { kind: 'multipart'; bytes: Uint8Array<ArrayBuffer> }
  | { kind: 'too_large'; limit: number; multipart: boolean };

const isMultipart = (request: Request) => (request.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data');

/**
 * Reads the body once, never more than its cap: a declared `Content-Length` over it is refused
 * unread, and reading stops (the stream is cancelled) as soon as the count passes it. The upload
 * caps hold only on routes that take uploads (`uploadRoute`), for a multipart body or a JSON one
 * carrying the file in base64: any other route keeps the JSON cap, whatever content type is claimed.
 */
export async function readBody(request: Request, uploadRoute = false): Promise<BodyRead> {
  if (request.body === null) return { kind: 'none' };
  const multipart = isMultipart(request);
  const limit = !uploadRoute ? MAX_JSON_BODY_BYTES : multipart ? MAX_MULTIPART_BODY_BYTES : MAX_JSON_UPLOAD_BODY_BYTES;
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    await request.body.cancel().catch(() => undefined);
    return { kind: 'too_large', limit, multipart };
  }
  const bytes = await readAtMost(request.body, limit);
  if (bytes === undefined) return { kind: 'too_large', limit, multipart };
  if (multipart) return { kind: 'multipart', bytes };
  const text = utf8(bytes);
  // The wire format is UTF-8: bytes that are not are refused, never stored as U+FFFD.
  if (text === undefined) return { kind: 'invalid_json', text: new TextDecoder().decode(bytes), notUtf8: true };
  if (text.trim() === '') return { kind: 'none' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // A parser that recurses runs out of stack on deep nesting: the same refusal as the depth check.
    return err instanceof RangeError ? { kind: 'too_deep', text } : { kind: 'invalid_json', text };
  }
  return depthExceeds(value, MAX_JSON_DEPTH) ? { kind: 'too_deep', text } : { kind: 'json', value, text };
}

/** `bytes` as UTF-8 text, or `undefined` when they are not UTF-8. @internal */
export function utf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The stream's bytes, or `undefined` (and the stream cancelled) once they pass `limit`. */
export async function readAtMost(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * Whether `value` nests objects and arrays deeper than `max` levels. Iterative, so the check itself
 * cannot overflow the stack that a recursive validator or `JSON.stringify` would.
 */
export function depthExceeds(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The path (`templateValues.__proto__`) of the first `__proto__` key in a body, form or query, else
 * `undefined`. No field has that name, and code copying it onto an object sets a prototype instead
 * (or silently drops it, as zod does): the mock refuses it, 400 naming it.
 */
export function protoKeyPath(value: unknown): string | undefined {
  // Containers only, and a path made only for them: a 1 MiB array of numbers walks with no allocation.
  const stack: [object, string][] = value !== null && typeof value === 'object' ? [[value, '']] : [];
  const at = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const child: unknown = v[i];
        if (child !== null && typeof child === 'object') stack.push([child, at(path, i)]);
      }
      continue;
    }
    for (const key of Object.keys(v)) {
      if (key === '__proto__') return at(path, key);
      const child = (v as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object') stack.push([child, at(path, key)]);
    }
  }
  return undefined;
}

/** The refusal of a body that could not be taken, or `undefined` when it may go on. */
export function bodyRefusal(body: BodyRead): MockHttpError | undefined {
  if (body.kind === 'too_large') {
    const what = body.multipart ? 'A multipart body' : 'A JSON body';
    const size = body.limit === MAX_JSON_BODY_BYTES ? '1 MiB' : `${body.limit} bytes`;
    return new MockHttpError(413, 'request_too_large', `${what} may be at most ${size} (${body.limit} bytes)`);
  }
  if (body.kind === 'too_deep') return badRequest(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  if (body.kind === 'invalid_json') return badRequest(body.notUtf8 ? 'The request body is not valid UTF-8' : 'The request body is not valid JSON');
  return undefined;
}

/** Body fields the log never shows: secrets a client sends (a connection's `api_key`). */
const SECRET_FIELDS: ReadonlySet<string> = new Set(['api_key']);

/** `value` with every secret field's value replaced by `[redacted]` (the same object when it holds none). */
function redacted(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  // Copied only where something changed: a large body with no secret is walked, never rebuilt.
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const kept = redacted(item);
      if (kept !== item) (out ??= value.slice())[i] = kept;
    }
    return out ?? value;
  }
  let changed: Map<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const kept = SECRET_FIELDS.has(key) ? '[redacted]' : redacted(item);
    if (kept !== item) (changed ??= new Map()).set(key, kept);
  }
  // fromEntries defines members: one named `__proto__` stays a member, never a prototype.
  return changed ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, changed.has(key) ? changed.get(key) : item])) : value;
}

/** A quoted key, `:`, and its value: a string (perhaps cut short) or a bare token (not an object or array). */
const KEY_VALUE = /("(?:[^"\\]|\\.)*")(\s*:\s*)("(?:[^"\\]|\\.)*"?|[^\s,:{}[\]"]*)/g;

/** A quoted JSON key as its name reads once unescaped (`"api\u005fkey"` is `api_key`), leniently. */
const keyName = (quoted: string) =>
  quoted
    .slice(1, -1)
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\(.)/g, '$1');

/**
 * Secret fields in text that is not JSON (a broken body), blanked as well as the text allows: the
 * value after any key whose unescaped name is secret (`"api_key"`, `"api\u005fkey"`, …).
 */
const redactText = (text: string) =>
  text.replace(KEY_VALUE, (match, key: string, colon: string) => (SECRET_FIELDS.has(keyName(key)) ? `${key}${colon}"[redacted]"` : match));

/** Clips `text` for the log when it is over {@link MAX_LOGGED_BODY_BYTES}. */
function clipped(text: string, what: string): string | undefined {
  const bytes = new TextEncoder().encode(text).byteLength;
  if (bytes <= MAX_LOGGED_BODY_BYTES) return undefined;
  return `[${what} of ${bytes} bytes, clipped] ${text.slice(0, LOG_PREVIEW_CHARS)}…`;
}

/**
 * The body as the request log shows it: parsed JSON, or the text that was not JSON, up to
 * {@link MAX_LOGGED_BODY_BYTES}; anything larger, or refused, as a short descriptive string. Secret
 * fields (`api_key`) show as `[redacted]`.
 */
export function loggedBody(body: BodyRead): unknown {
  switch (body.kind) {
    case 'json': {
      const value = redacted(body.value);
      return clipped(value === body.value ? body.text : JSON.stringify(value), 'JSON body') ?? value;
    }
    case 'invalid_json': {
      const text = redactText(body.text);
      return clipped(text, 'body') ?? text;
    }
    case 'too_deep':
      return `[JSON body of ${body.text.length} characters, nested deeper than ${MAX_JSON_DEPTH} levels]`;
    case 'multipart':
      return `[multipart/form-data, ${body.bytes.byteLength} bytes]`;
    case 'too_large':
      return `[body over ${body.limit} bytes: not read]`;
    default:
      return undefined;
  }
}

/** What identifies a body for idempotency: the same JSON value, however it was spaced. */
export function bodyFingerprint(body: BodyRead): string {
  switch (body.kind) {
    case 'json':
      return JSON.stringify(body.value); // depth-checked, so this cannot overflow
    case 'invalid_json':
    case 'too_deep':
      return body.text;
    case 'multipart':
      return `multipart:${body.bytes.byteLength}`;
    default:
      return '';
  }
}

/**
 * A multipart body's fields as an object: each file part as a `File`, each other part as text (a
 * repeated name keeps its last value). A body that is not a valid form answers 400.
 */
export async function formObject(bytes: Uint8Array<ArrayBuffer>, headers: Headers): Promise<Record<string, unknown>> {
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'content-type': headers.get('content-type') ?? '' } }).formData();
  } catch {
    throw badRequest('The multipart/form-data body could not be read');
  }
  const fields = new Map<string, unknown>();
  form.forEach((value, key) => fields.set(key, value));
  return Object.fromEntries(fields);
}

type Def = { type: string; innerType?: z.ZodMiniType; shape?: Record<string, z.ZodMiniType> };
const defOf = (schema: z.ZodMiniType): Def => schema._zod.def as Def;

/** The JSON kind a field schema wants, looking through optional/nullable/default wrappers. */
function wantedKind(schema: z.ZodMiniType | undefined): string | undefined {
  let def = schema ? defOf(schema) : undefined;
  while (def?.innerType) def = defOf(def.innerType);
  return def?.type;
}

/**
 * The query as an object: a repeated key becomes an array, and a text is turned into the number,
 * boolean or one-item array the schema expects for that key. Text that does not convert stays text,
 * so the schema names the field in its refusal.
 */
export function queryObject(params: URLSearchParams, schema: z.ZodMiniType | undefined): Record<string, unknown> {
  const shape = schema ? defOf(schema).shape : undefined;
  return Object.fromEntries(
    [...new Set(params.keys())].map((key) => {
      const kind = wantedKind(shape && Object.hasOwn(shape, key) ? shape[key] : undefined);
      const converted = params.getAll(key).map((v) => coerce(v, kind));
      return [key, converted.length > 1 || kind === 'array' ? converted : converted[0]];
    }),
  );
}

function coerce(text: string, kind: string | undefined): unknown {
  if (kind === 'number' && /^-?\d+(\.\d+)?$/.test(text.trim())) return Number(text);
  if (kind === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** Checks `value` against `schema`; a violation is a 400 `invalid_request_error` naming the field. */
export function validate<S extends z.ZodMiniType>(schema: S, value: unknown, prefix = ''): z.output<S> {
  try {
    return parseOrThrow(schema, value, prefix);
  } catch (err) {
    if (err instanceof ValidationError) throw badRequest(err.message);
    throw err;
  }
}
