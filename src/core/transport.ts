/**
 * The transport: one HTTP attempt through ky (URL, query, headers, body, timeout), and the reading
 * of its answer. Retrying is the caller's business (see `retry.ts`); ky's own retry is off.
 * @module
 */
import ky, { TimeoutError, type KyInstance, type Options } from 'ky';
import { APIConnectionError, APITimeoutError, makeAPIError, type APIError } from './errors.js';
import type { AttemptOutcome } from './retry.js';

/** One request, ready to send. @internal */
export interface PreparedRequest {
  method: string;
  /** Path below the base URL, beginning with `/`. */
  path: string;
  query: URLSearchParams | undefined;
  body: FormData | string | undefined;
  headers: Record<string, string>;
}

/** An attempt that got no HTTP answer, with the retry policy's view of it. @internal */
export class AttemptFailure {
  constructor(
    readonly outcome: Extract<AttemptOutcome, { kind: 'refused' | 'network' | 'timeout' }>,
    readonly error: APIConnectionError,
  ) {}
}

/** Error codes that mean nothing was sent: the connection never opened. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** @internal */
export class Transport {
  readonly #ky: KyInstance;

  constructor(baseURL: string, fetchImpl: typeof fetch | undefined) {
    this.#ky = ky.create({
      prefixUrl: baseURL,
      retry: 0,
      throwHttpErrors: false,
      // ky reads globalThis.fetch per request unless one is given, so test interceptors still apply.
      ...(fetchImpl ? { fetch: fetchImpl } : {}),
    });
  }

  /**
   * Sends one attempt. Resolves with any HTTP answer; rejects with {@link AttemptFailure} when there
   * is none, or with the caller's abort reason.
   */
  send(req: PreparedRequest, timeout: number, signal: AbortSignal | undefined): Promise<Response> {
    // Only the options in use: ky deep-merges every key it is given, on every request.
    const options: Options = { method: req.method, headers: req.headers, timeout: timeout > 0 ? timeout : false };
    if (req.body !== undefined) options.body = req.body;
    if (req.query !== undefined) options.searchParams = req.query;
    if (signal !== undefined) options.signal = signal;
    return this.#ky(req.path.slice(1), options).catch((err: unknown) => {
      if (signal?.aborted) throw signal.reason;
      // ky's TimeoutError holds the Request, headers and key included: it is never kept as a cause.
      if (err instanceof TimeoutError) {
        throw new AttemptFailure({ kind: 'timeout' }, new APITimeoutError(`Request timed out after ${timeout} ms.`));
      }
      const code = errorCode(err);
      const refused = code !== undefined && NOT_SENT.has(code);
      const error = new APIConnectionError(`Connection error${code ? ` (${code})` : ''}.`, { cause: err });
      throw new AttemptFailure({ kind: refused ? 'refused' : 'network' }, error);
    });
  }
}

function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A body's text as JSON: an empty body is `undefined`; a body that is not JSON keeps only its text. @internal */
export function parseBody(text: string): { json: unknown; text: string; isJSON: boolean } {
  if (text === '') return { json: undefined, text, isJSON: false };
  try {
    return { json: JSON.parse(text), text, isJSON: true };
  } catch {
    return { json: undefined, text, isJSON: false };
  }
}

/** Builds the typed error for an HTTP error answer; a non-JSON body still gets its status's class. @internal */
export async function errorFromResponse(response: Response, request: string): Promise<APIError> {
  const { json, text, isJSON } = parseBody(await response.text());
  const envelope = isJSON && isErrorEnvelope(json) ? json.error : undefined;
  const { type, message, ...extras } = envelope ?? {};
  return makeAPIError({
    status: response.status,
    type: typeof type === 'string' ? type : undefined,
    message:
      typeof message === 'string' ? message : text ? `HTTP ${response.status}: ${text.slice(0, 200)}` : `HTTP ${response.status}`,
    headers: response.headers,
    body: isJSON ? json : text,
    extras,
    request,
  });
}

function isErrorEnvelope(value: unknown): value is { error: Record<string, unknown> } {
  const error = (value as { error?: unknown } | null)?.error;
  return typeof error === 'object' && error !== null && !Array.isArray(error);
}

/**
 * Query string from params: arrays repeat their key (`status=a&status=b`), `undefined`/`null` are left
 * out, objects go as JSON. @internal
 */
export function toSearchParams(params: Record<string, unknown> | undefined): URLSearchParams | undefined {
  if (!params) return undefined;
  const query = new URLSearchParams();
  const add = (key: string, value: unknown) => {
    if (value === undefined || value === null) return;
    query.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  };
  for (const [key, value] of Object.entries(params)) {
    if (Array.isArray(value)) for (const item of value) add(key, item);
    else add(key, value);
  }
  return query.size > 0 ? query : undefined;
}
