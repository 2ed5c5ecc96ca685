/**
 * Reading a request's input: the JSON body (POST/PUT/PATCH) or the query (GET/DELETE), checked with
 * the operation's declared `params` schema so the mock refuses exactly what the spec refuses.
 * @module
 */
import type * as z from 'zod/mini';
import { parseOrThrow } from '../core/validate.js';
import { ValidationError } from '../core/errors.js';
import { badRequest } from './http.js';

/** What a request body was, as read once for the handler and the request log. */
export type BodyRead =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'invalid_json'; text: string }
  | { kind: 'multipart' };

/** Reads the body once. Multipart bodies are left unread for the handler (`request.formData()`). */
export async function readBody(request: Request): Promise<BodyRead> {
  if (request.body === null) return { kind: 'none' };
  if ((request.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
    return { kind: 'multipart' };
  }
  const text = await request.text();
  if (text.trim() === '') return { kind: 'none' };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'invalid_json', text };
  }
}

/** The body as the request log shows it. */
export function loggedBody(body: BodyRead): unknown {
  switch (body.kind) {
    case 'json':
      return body.value;
    case 'invalid_json':
      return body.text;
    case 'multipart':
      return '[multipart/form-data]';
    default:
      return undefined;
  }
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
  const out: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    const kind = wantedKind(shape?.[key]);
    const converted = values.map((v) => coerce(v, kind));
    out[key] = converted.length > 1 || kind === 'array' ? converted : converted[0];
  }
  return out;
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
