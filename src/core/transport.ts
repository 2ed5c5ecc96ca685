/**
 * The transport: one HTTP attempt through ky (URL, query, headers, body), the whole answer read
 * under one deadline, and the reading of that answer. Retrying is the caller's business (see
 * `retry.ts`); ky's own retry and timeout are off.
 * @module
 */
import ky, { type KyInstance, type Options } from 'ky';
import { whenAborted } from './abort.js';
import { APIConnectionError, APITimeoutError, InvalidResponseError, makeAPIError, toJSONText, ValidationError, type APIError, type ErrorRules, type UnknownCodeRule } from './errors.js';
import { clip, cut, isRecord, thrownText } from './text.js';
import type { AttemptOutcome } from './retry.js';
import { redactedHeaders, redactorOf, causeWithoutKey, type Redact } from './redact.js';
import { endUpload, uploadSourceFailure } from './uploads.js';

/** One request, ready to send. @internal */
export interface PreparedRequest {
  method: string;
  /** Path below the base URL, beginning with `/`. */
  path: string;
  query: URLSearchParams | undefined;
  /** JSON text, or an upload: a form, a `Blob` or a stream (see `uploads.ts`). */
  body: FormData | Blob | ReadableStream<Uint8Array> | string | undefined;
  headers: Record<string, string>;
}

/** An HTTP answer with its body already read, as text. @internal */
export interface Received {
  response: Response;
  text: string;
  /** `METHOD /path` of the request, for error messages (never holds a secret). */
  request: string;
  /** Puts `[redacted]` for the client's key in text the answer holds (`text` already has it done): a server may echo the key back. */
  redact?: Redact | undefined;
  /** The call's result, when its trace read it ahead (`traced.ts`): the caller's read takes it rather than decoding twice. */
  decoded?: [unknown];
}

/** An attempt that got no complete HTTP answer, with the retry policy's view of it. @internal */
export class AttemptFailure {
  constructor(
    readonly outcome: Extract<AttemptOutcome, { kind: 'refused' | 'network' | 'timeout' }>,
    readonly error: APIConnectionError,
  ) {}
}

/** Error codes that mean nothing was sent: the connection never opened. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * The most bytes of one answer read (32 MiB): far above any answer of the service (a page of 100 tasks
 * with their reports is a few MiB), low enough that a server streaming without end cannot exhaust memory.
 * @internal
 */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** The option that carries an attempt's signal through ky to fetch. */
const ATTEMPT_SIGNAL = 'forecastingAttemptSignal';

/** The abort reason of an attempt that ran out of time (never seen outside this module). */
const TIMED_OUT = Symbol('timed out');

/** @internal */
export class Transport {
  readonly #ky: KyInstance;
  readonly #baseURL: string;
  readonly #fetch: typeof fetch | undefined;
  /** The base URL's host, named in connection errors. */
  readonly #host: string;
  /** Takes the key out of what the server sends: a private field, out of `inspect` like the key. */
  readonly #redact: Redact | undefined;

  /** `secret`: the client's key, redacted from every answer's text and from the errors made of it. */
  constructor(baseURL: string, fetchImpl: typeof fetch | undefined, secret?: string) {
    this.#baseURL = baseURL;
    this.#redact = secret === undefined ? undefined : redactorOf(secret);
    this.#host = new URL(baseURL).host;
    this.#fetch = fetchImpl;
    this.#ky = ky.create({
      prefixUrl: baseURL,
      retry: 0,
      // The deadline is ours: ky's timer stops at the headers, ours covers the body too.
      timeout: false,
      throwHttpErrors: false,
      // The service never redirects; following one would carry the key to the `Location`.
      redirect: 'manual',
      // The attempt's signal rides to fetch as an option ky does not know (ky passes those to fetch),
      // rather than as ky's `signal`, which ky would merge with AbortSignal.any on every request.
      fetch: (input, init) => {
        const { [ATTEMPT_SIGNAL]: signal, ...rest } = init as RequestInit & { [ATTEMPT_SIGNAL]?: AbortSignal };
        // globalThis.fetch is read per request, so test interceptors installed later still apply.
        return (fetchImpl ?? globalThis.fetch)(input, signal ? { ...rest, signal } : rest);
      },
    });
  }

  /**
   * Sends one attempt and reads its whole answer within `timeout` ms (0: no limit). Resolves with
   * any HTTP answer; rejects with {@link AttemptFailure} when there is none or it broke off, or with
   * the caller's abort reason the moment `signal` aborts.
   */
  async send(req: PreparedRequest, timeout: number, signal: AbortSignal | undefined): Promise<Received> {
    signal?.throwIfAborted();
    // One controller per attempt, held by this frame, the timer and the caller's listener until the
    // body is read: ky's own combined signal is only weakly held, and garbage collection could
    // otherwise lose an abort that arrives mid-body. One listener settles the attempt on abort,
    // whatever the fetch implementation does with the signal: it rejects the wait for the headers,
    // or cancels the body reader (which also lets the connection go).
    const controller = new AbortController();
    const attempt = controller.signal;
    let rejectHeaders: ((reason: unknown) => void) | undefined;
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    attempt.addEventListener(
      'abort',
      () => {
        rejectHeaders?.(attempt.reason);
        reader?.cancel(attempt.reason).catch(() => undefined);
      },
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: the attempt's signal aborts at most once
      { once: true },
    );
    const stopRelay = signal && whenAborted(signal, () => controller.abort(signal.reason));
    const timer = timeout > 0 ? setTimeout(() => controller.abort(TIMED_OUT), timeout) : undefined;
    try {
      // Only the options in use: ky deep-merges every key it is given, on every request.
      const options = { method: req.method, headers: req.headers, [ATTEMPT_SIGNAL]: attempt } as Options;
      // Stryker disable next-line ConditionalExpression: a body of undefined is no body to ky; the check only keeps the key out.
      if (req.body !== undefined) options.body = req.body;
      // The query goes into the URL here: ky's `searchParams` would build the Request a second time.
      const input = req.query === undefined ? req.path.slice(1) : `${req.path.slice(1)}?${req.query.toString()}`;
      const response = await new Promise<Response>((resolve, reject) => {
        rejectHeaders = reject;
        // A body that is an object (a multipart stream or form) is an upload: straight to fetch, see #upload.
        (typeof req.body === 'object' ? this.#upload(req, attempt) : this.#ky(input, options)).then(resolve, reject);
      });
      rejectHeaders = undefined;
      // A caller's fetch may resolve with anything: what is not a Response is no answer.
      if (!response?.headers?.get) throw new TypeError('fetch failed', { cause: new Error('fetch resolved with no Response') });
      let text = '';
      if (response.body) {
        reader = response.body.getReader();
        const decoder = new TextDecoder();
        let bytes = 0;
        // Cancelling settles a pending read() as done; the check after the loop tells it from the end.
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
          bytes += chunk.value.byteLength;
          // A hostile or broken server must not fill memory: the rest is not read, and not asked for again.
          if (bytes > MAX_RESPONSE_BYTES) {
            await reader.cancel().catch(() => undefined);
            throw invalidAnswer({ response, request: `${req.method} ${req.path}`, redact: this.#redact }, `the answer is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB`);
          }
          text += decoder.decode(chunk.value, { stream: true });
        }
        attempt.throwIfAborted();
        text += decoder.decode();
      }
      const redact = this.#redact;
      const received: Received = { response, text: redact ? redact(text) : text, request: `${req.method} ${req.path}`, redact };
      // Refused before the whole upload was sent (a 413 for a body over the cap): the rest is not
      // wanted. A success is left to fetch, which may still read the body (msw reads it after answering).
      if (!response.ok) endUpload(req.body, () => errorFromResponse(received));
      return received;
    } catch (err) {
      let failure: unknown;
      try {
        failure = err instanceof InvalidResponseError ? err : this.#failure(err, attempt, timeout, req.body);
      } catch {
        // What a caller's fetch threw cannot even be looked at (a revoked Proxy): a connection error all the same.
        failure = this.#failure(undefined, attempt, timeout, req.body);
      }
      // However the attempt broke off (a reset, a broken pipe, a timeout, an abort), fetch may go on
      // pulling an upload stream after it settled: the stream and its source stop here, and the
      // source sees the error the call rejects with.
      endUpload(req.body, () => (failure instanceof AttemptFailure ? failure.error : failure));
      throw failure;
    } finally {
      clearTimeout(timer);
      stopRelay?.();
    }
  }

  /**
   * An upload goes straight to fetch, so that no byte of it is kept once sent: ky copies every request
   * for its retries (`Request.clone()`), and the copy of a body nobody reads keeps every byte; and
   * Node's fetch keeps every byte of a body it might send again to a redirect's `Location` unless
   * redirects are an error (nodejs/undici#4058). The service never redirects: for an upload a
   * redirect ends in `APIConnectionError` (its cause says "unexpected redirect").
   */
  #upload(req: PreparedRequest, signal: AbortSignal): Promise<Response> {
    const query = req.query ? `?${req.query}` : '';
    const init = { method: req.method, headers: req.headers, body: req.body, signal, redirect: 'error', duplex: 'half' } as RequestInit;
    return (this.#fetch ?? globalThis.fetch)(`${this.#baseURL}${req.path}${query}`, init);
  }

  #failure(err: unknown, attempt: AbortSignal, timeout: number, body: unknown): unknown {
    if (attempt.aborted && attempt.reason !== TIMED_OUT) return attempt.reason;
    if (attempt.aborted) {
      return new AttemptFailure({ kind: 'timeout' }, new APITimeoutError(`Request timed out after ${timeout} ms.`));
    }
    // An upload whose own source failed: the source's error, not the network's (never retried: a stream is sent once).
    const source = uploadSourceFailure(body);
    if (source) {
      if (source.error instanceof ValidationError) return source.error;
      // Its text is the caller's source's (which may hold the key, or throw when read): one line, cut, the key out, as a fetch's error's.
      const said = thrownText(source.error);
      const what = source.error instanceof Error ? ` (${clip(this.#redact ? this.#redact(said) : said, 200)})` : '';
      return new AttemptFailure({ kind: 'network' }, new APIConnectionError(`The upload's file stream failed${what}: the request to ${this.#host} was cut off.`, { cause: causeWithoutKey(source.error, this.#redact) }));
    }
    // What went wrong and where, for the one line a log or a CLI shows; the host holds no secret, a
    // caller's fetch may put the key in its error, or throw what cannot be read (a getter that throws).
    let code: string | undefined;
    let reason: string | undefined;
    try {
      reason = code = errorCode(err);
      reason ??= reasonOf(err);
    } catch {
      // Said as a connection error all the same.
    }
    // Stryker disable next-line ConditionalExpression: NOT_SENT holds no undefined; the check is for the type.
    const refused = code !== undefined && NOT_SENT.has(code);
    const detail = reason && this.#redact ? this.#redact(reason) : reason;
    const cause = causeWithoutKey(err, this.#redact);
    const error = new APIConnectionError(`Connection error${detail ? ` (${detail})` : ''} reaching ${this.#host}.`, cause === undefined ? undefined : { cause });
    return new AttemptFailure({ kind: refused ? 'refused' : 'network' }, error);
  }
}

/** The message of what made fetch fail (its direct cause), when it is a short line such as "bad port". */
function reasonOf(err: unknown): string | undefined {
  const cause = (err as { cause?: unknown } | null | undefined)?.cause;
  const message = cause instanceof Error ? cause.message : undefined;
  return message && message.length <= 100 && !/[\r\n]/.test(message) ? message : undefined;
}

function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A body's text as JSON: an empty body, or one that is not JSON, keeps only its text. @internal */
export function parseBody(text: string): { json: unknown; text: string; isJSON: boolean } {
  // Empty bodies are common (204, DELETE): no SyntaxError thrown and caught for each.
  // Stryker disable next-line ConditionalExpression,StringLiteral: JSON.parse('') fails into the same answer
  if (text === '') return { json: undefined, text, isJSON: false };
  try {
    return { json: JSON.parse(text), text, isJSON: true };
  } catch {
    return { json: undefined, text, isJSON: false };
  }
}

/** Longest body text kept on an {@link InvalidResponseError}, and shown in its message. */
const MAX_INVALID_BODY = 2000;
const MAX_BODY_IN_MESSAGE = 120;

/**
 * Builds the typed error for an HTTP error answer; a non-JSON body still gets its status's class.
 * `rules` and `unknownCode` are the service's (see {@link makeAPIError}). @internal
 */
export function errorFromResponse({ response, text, request, redact }: Received, rules?: ErrorRules, unknownCode?: UnknownCodeRule): APIError {
  const { json, isJSON } = parseBody(text);
  const envelope = isJSON && isErrorEnvelope(json) ? json.error : undefined;
  const { type, message, ...extras } = envelope ?? {};
  const status = response.status;
  const redirect = response.type === 'opaqueredirect' || (status >= 300 && status < 400);
  let fallback = text ? `HTTP ${status}: ${clip(text, MAX_BODY_IN_MESSAGE)}` : `HTTP ${status}`;
  if (redirect) {
    const location = response.headers.get('location');
    fallback = `the service answered with a redirect${location ? ` to ${clip(redact ? redact(location) : location, MAX_BODY_IN_MESSAGE)}` : ''}, which is not followed (the service never redirects)`;
  }
  return makeAPIError({
    status,
    type: typeof type === 'string' ? type : undefined,
    message: typeof message === 'string' ? message : fallback,
    headers: redactedHeaders(response.headers, redact),
    body: isJSON ? json : text,
    extras,
    request,
  }, rules, unknownCode);
}

/** What a successful answer must hold: nothing, any JSON, a JSON record, or a list envelope. @internal */
export type Expected = 'nothing' | 'json' | 'record' | 'list';

/**
 * Reads a successful answer as `expected`, or throws {@link InvalidResponseError} saying what was
 * expected. Lenient past that: unknown fields pass, and the fields of records are not checked here
 * (`validateResponses` does that). @internal
 */
export function decodeBody({ response, text, request, redact }: Received, expected: Expected): unknown {
  if (expected === 'nothing') return undefined;
  const invalid = (what: string) =>
    new InvalidResponseError({
      status: response.status,
      type: undefined,
      message: `expected ${what}${text ? `, got: ${clip(text, MAX_BODY_IN_MESSAGE)}` : ', got an empty body'}`,
      headers: redactedHeaders(response.headers, redact),
      body: cut(text, MAX_INVALID_BODY),
      request,
    });
  if (text === '') {
    if (expected === 'json') return undefined;
    throw invalid(expected === 'list' ? 'a list envelope' : 'a JSON record');
  }
  const { json, isJSON } = parseBody(text);
  if (!isJSON) throw invalid('a JSON body');
  if (expected === 'json') return json;
  if (!isRecord(json)) throw invalid(expected === 'list' ? 'a list envelope (an object)' : 'a JSON record (an object)');
  if (expected === 'record') return json;
  const { data } = json;
  if (!Array.isArray(data)) throw invalid('a list envelope whose `data` is an array');
  const bad = data.findIndex((item) => !isRecord(item));
  if (bad >= 0) throw invalid(`list items that are objects (data.${bad} is not)`);
  return json;
}

/** An {@link InvalidResponseError} for a successful answer that is not what was expected. @internal */
export function invalidAnswer({ response, request, redact }: Pick<Received, 'response' | 'redact'> & { request?: string }, message: string): InvalidResponseError {
  return new InvalidResponseError({ status: response.status, type: undefined, message, headers: redactedHeaders(response.headers, redact), body: undefined, request });
}

function isErrorEnvelope(value: unknown): value is { error: Record<string, unknown> } {
  const error = (value as { error?: unknown } | null)?.error;
  return isRecord(error);
}

/**
 * Query string from params: arrays repeat their key (`status=a&status=b`), `undefined`/`null` are left
 * out, objects go as JSON. A value that cannot be JSON is a `ValidationError` on its key, or on
 * `field` (naming the key) when given. @internal
 */
export function toSearchParams(params: Record<string, unknown> | undefined, field?: string, redact?: Redact): URLSearchParams | undefined {
  if (!params) return undefined;
  const query = new URLSearchParams();
  const add = (key: string, value: unknown) => {
    if (value === undefined || value === null) return;
    query.append(key, typeof value === 'object' ? toJSONText(value, field ?? key, field ? `${JSON.stringify(key)} ` : '', redact) : String(value));
  };
  for (const [key, value] of Object.entries(params)) {
    if (Array.isArray(value)) for (const item of value) add(key, item);
    else add(key, value);
  }
  return query.size > 0 ? query : undefined;
}
