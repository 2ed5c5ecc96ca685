/**
 * The request pipeline every method goes through: check the input, build the request, send it with
 * retries, read the answer, emit events. Resources only name an operation and pass arguments.
 * @module
 */
import { EventEmitter } from 'eventemitter3';
import type * as z from 'zod/mini';
import { APIPromise } from './api-promise.js';
import { clip, ForecastingError, toJSONText, ValidationError, type ErrorRules } from './errors.js';
import { checkIdempotencyKey, idempotencyKeyFor } from './idempotency.js';
import { DEFAULT_OFFSET_PAGE_SIZE } from './operation.js';
import { leveled, type LeveledLogger } from './logger.js';
import { buildPath, checkIdCount, type HttpMethod, type Operation, type OutputOf } from './operation.js';
import { API_PATH, apiPathWarning, checkRequestOptions, hasApiPath, resolveOptions, type ClientOptions, type RequestOptions, type ResolvedOptions } from './options.js';
import { Page, PagePromise, PageWalk, type ListEnvelope, type PageFetcher, type PageParams } from './pagination.js';
import { decideRetry, WAIT_MODE, WaitDeadlineReached, type AttemptOutcome, type WaitRequestOptions } from './retry.js';
import type { ClientClock } from './clock.js';
import { RequestBudget } from './request-budget.js';
import { MAX_TIMER_MS } from './sleep.js';
import { AttemptFailure, Transport, decodeBody, errorFromResponse, invalidAnswer, toSearchParams, type PreparedRequest, type Received } from './transport.js';
import { endUpload, toMultipart, type MultipartBody } from './uploads.js';
import { parseOrThrow, unknownKeyMessage, unknownKeys } from './validate.js';
import { VERSION } from '../version.js';

/**
 * Fields of every client event. Never holds a key or a body.
 * @example
 * ```ts
 * client.on('request', (e: RequestEvent) => console.log(e.method, e.path, `attempt ${e.attempt}`));
 * ```
 */
export interface RequestEvent {
  /** Dotted client method, for example `questions.create`. */
  operation: string;
  method: string;
  /** Path below the base URL, ids included. */
  path: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** The `Idempotency-Key` sent, for keyed operations. */
  idempotencyKey: string | undefined;
}
/**
 * Emitted for every HTTP answer, errors included.
 * @example
 * ```ts
 * client.on('response', (e: ResponseEvent) => console.log(e.status, `${e.durationMs} ms`, e.replayed ? '(replayed)' : ''));
 * ```
 */
export interface ResponseEvent extends RequestEvent {
  status: number;
  /** Milliseconds from sending to the answer's headers. */
  durationMs: number;
  /** The server replayed an earlier answer (`Idempotent-Replayed: true`). */
  replayed: boolean;
}
/**
 * Emitted before waiting for a retry.
 * @example
 * ```ts
 * client.on('retry', (e: RetryEvent) => console.warn(`${e.error} (status ${e.status}); next try in ${e.delayMs} ms`));
 * ```
 */
export interface RetryEvent extends RequestEvent {
  /** HTTP status of the failed attempt, or `undefined` when there was no answer. */
  status: number | undefined;
  /** Name of the error class of the failed attempt. */
  error: string;
  /** How long the client waits before the next attempt, in ms. */
  delayMs: number;
}
/**
 * The events a client emits, with their listener signatures.
 * @example
 * ```ts
 * const onRetry: ClientEvents['retry'] = (e) => console.warn(`retry ${e.attempt} of ${e.operation} in ${e.delayMs} ms`);
 * client.on('retry', onRetry);
 * ```
 */
export interface ClientEvents {
  request: (event: RequestEvent) => void;
  response: (event: ResponseEvent) => void;
  retry: (event: RetryEvent) => void;
}

type InputOf<O extends Operation> = O['params'] extends z.ZodMiniType ? z.input<O['params']> : never;

/**
 * Finds the schema of a declared response by its record name (for a list, the envelope around it).
 * Given to the client as a loader, so the record schemas load only when `validateResponses` is on.
 * @internal
 */
export type RecordSchemas = (name: string, list: boolean) => z.ZodMiniType | undefined;

/**
 * Options of the generic methods (`client.get` and `client.delete`): the usual request options
 * plus a query.
 * @example
 * ```ts
 * const page = await client.get<{ data: unknown[] }>('/tags', { query: { limit: 5 } });
 * ```
 */
export interface GenericQueryOptions extends RequestOptions {
  /** Query parameters: arrays repeat their key, `undefined` and `null` are left out, objects go as JSON. */
  query?: Record<string, unknown>;
}

/**
 * Options of the generic methods with a body (`client.post`, `put` and `patch`).
 * @example
 * ```ts
 * await client.post('/forecasts', { body: { questionId }, idempotencyKey: 'job-42', timeout: 10_000 });
 * ```
 */
export interface GenericBodyOptions extends GenericQueryOptions {
  /** The body, sent as JSON (a `FormData` is sent as `multipart/form-data`). */
  body?: unknown;
}

/** One call, ready to prepare: the operation, its filled path, and what goes in the query or body. */
interface Call {
  op: Operation;
  path: string;
  query: Record<string, unknown> | undefined;
  body: unknown;
  options: RequestOptions;
  /** The `Idempotency-Key` to send, if any. */
  idempotencyKey: string | undefined;
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');
/** Most distinct unknown keys a client warns about in its life. */
const MAX_WARNED_KEYS = 1000;

/**
 * The core every resource calls into. {@link ForecastingClient} adds the resources.
 */
export class BaseClient {
  // Private fields: invisible to util.inspect, JSON.stringify and Object.keys, so the key never leaks.
  readonly #options: ResolvedOptions;
  readonly #transport: Transport;
  readonly #events = new EventEmitter<ClientEvents>();
  readonly #log: LeveledLogger;
  readonly #budget: RequestBudget | undefined;
  /** Headers of every request, built once; `#auth` again on its own so a caller's header cannot replace it. */
  readonly #headers: Record<string, string>;
  readonly #auth: Record<string, string>;

  /** The base URL does not end in `/api/v1/external`: a 404 then names the URL and the missing path. */
  readonly #apiPathMissing: boolean;
  /** The unknown keys already warned about, by operation and path (bounded: see {@link #warnUnknownKeys}). */
  readonly #warned = new Set<string>();

  /** The record schemas, loading, when `validateResponses` is on. */
  readonly #schemas: Promise<RecordSchemas> | undefined;
  /** The service's error codes and their classes; the core knows only the statuses. */
  readonly #errorRules: ErrorRules | undefined;

  /**
   * @param options - see {@link ClientOptions}
   * @param loadSchemas - loads the record schemas for `validateResponses` (a chunk of its own)
   * @param errorRules - the service's error classes by `status error.type`, and its unknown-code rules
   * @internal
   */
  constructor(options: ClientOptions = {}, loadSchemas?: () => Promise<RecordSchemas>, errorRules?: ErrorRules) {
    this.#options = resolveOptions(options);
    this.#errorRules = errorRules;
    if (this.#options.validateResponses) {
      if (!loadSchemas) throw new ValidationError('this client cannot check responses: it was built without the record schemas', 'validateResponses');
      this.#schemas = loadSchemas();
      // Not awaited here: a failure to load surfaces on the first call that needs the schemas.
      this.#schemas.catch(() => undefined);
    }
    this.#transport = new Transport(this.#options.baseURL, this.#options.fetch);
    this.#log = leveled(options.logger ?? console, options.logLevel ?? 'warn');
    this.#apiPathMissing = !hasApiPath(this.#options.baseURL);
    if (this.#apiPathMissing) this.#log.warn(apiPathWarning(this.#options.baseURL));
    const { apiKey, authHeader, defaultHeaders } = this.#options;
    this.#auth = authHeader === 'x-api-key' ? { 'x-api-key': apiKey } : { authorization: `Bearer ${apiKey}` };
    this.#headers = Object.freeze({ accept: 'application/json', 'user-agent': `forecasting-sdk/${VERSION}`, ...lower(defaultHeaders), ...this.#auth });
    const { requestsPerMinute, clock } = this.#options;
    this.#budget = requestsPerMinute ? new RequestBudget(requestsPerMinute, clock) : undefined;
  }

  /** The time source of waits and of the request budget. @internal */
  get _clock(): ClientClock {
    return this.#options.clock;
  }

  /** The base URL requests go to (no trailing slash). */
  get baseURL(): string {
    return this.#options.baseURL;
  }

  /**
   * Listens to `request`, `response` or `retry` events.
   * @example
   * ```ts
   * client.on('retry', (e) => console.log(`${e.operation} retry in ${e.delayMs} ms after ${e.error}`));
   * ```
   */
  on<E extends keyof ClientEvents>(event: E, listener: ClientEvents[E]): this {
    this.#events.on(event, listener as never);
    return this;
  }
  /** Listens to one occurrence of an event. */
  once<E extends keyof ClientEvents>(event: E, listener: ClientEvents[E]): this {
    this.#events.once(event, listener as never);
    return this;
  }
  /** Removes a listener. */
  off<E extends keyof ClientEvents>(event: E, listener: ClientEvents[E]): this {
    this.#events.off(event, listener as never);
    return this;
  }

  /**
   * `GET` any path below the base URL, with the client's auth, errors, events and retries. Resolves
   * with the parsed JSON (`undefined` for an empty answer), typed `unknown` unless you give a type.
   * For operations the SDK has no method for yet.
   * @param path - relative to the base URL, beginning with `/`, for example `'/questions/abc'`
   * @example
   * ```ts
   * const tags = await client.get<{ data: { name: string }[] }>('/tags', { query: { limit: 5 } });
   * ```
   */
  get<T = unknown>(path: string, options?: GenericQueryOptions): APIPromise<T> {
    return this.#generic('GET', path, options);
  }
  /**
   * `POST` to any path below the base URL (see {@link get}). It is retried after it was sent only
   * when you pass `idempotencyKey`, which is then sent as `Idempotency-Key`.
   * @example
   * ```ts
   * const task = await client.post('/forecasts', { body: { questionId }, idempotencyKey: 'job-42' });
   * ```
   */
  post<T = unknown>(path: string, options?: GenericBodyOptions): APIPromise<T> {
    return this.#generic('POST', path, options);
  }
  /**
   * `PUT` to any path below the base URL (see {@link get}).
   * @example
   * ```ts
   * await client.put(`/questions/${questionId}/watch`, { body: { enabled: true, changeThreshold: 0.1 } });
   * ```
   */
  put<T = unknown>(path: string, options?: GenericBodyOptions): APIPromise<T> {
    return this.#generic('PUT', path, options);
  }
  /**
   * `PATCH` any path below the base URL (see {@link post} for retries).
   * @example
   * ```ts
   * await client.patch(`/questions/${questionId}`, { body: { description: 'More detail' } });
   * ```
   */
  patch<T = unknown>(path: string, options?: GenericBodyOptions): APIPromise<T> {
    return this.#generic('PATCH', path, options);
  }
  /**
   * `DELETE` any path below the base URL (see {@link get}).
   * @example
   * ```ts
   * await client.delete(`/questions/${questionId}/watch`);
   * ```
   */
  delete<T = unknown>(path: string, options?: GenericQueryOptions): APIPromise<T> {
    return this.#generic('DELETE', path, options);
  }

  #generic<T>(method: HttpMethod, path: string, options: GenericBodyOptions = {}): APIPromise<T> {
    const op = GENERIC[method];
    const received = this.#perform(op, () => {
      checkRequestOptions(options);
      const { query, body, ...rest } = options;
      if (query !== undefined && (typeof query !== 'object' || query === null || Array.isArray(query))) {
        throw new ValidationError('must be an object of query parameters', 'query');
      }
      if (body !== undefined && (method === 'GET' || method === 'DELETE')) throw new ValidationError(`a ${method} request takes no body`, 'body');
      const key = rest.idempotencyKey === undefined ? undefined : checkIdempotencyKey(rest.idempotencyKey);
      return { op, path: checkGenericPath(path), query, body, options: rest, idempotencyKey: key };
    });
    return new APIPromise(received, (r) => decodeBody(r, 'json') as T);
  }

  /** Performs `op` and resolves with its parsed answer. @internal */
  _call<O extends Operation>(op: O, ids: readonly string[], params: InputOf<O> | undefined, options?: RequestOptions): APIPromise<OutputOf<O>> {
    const received = this.#perform(op, () => this.#operationCall(op, ids, params as Record<string, unknown> | undefined, options ?? {}));
    return new APIPromise(received, (r) => this.#decode(op, r, false) as OutputOf<O> | Promise<OutputOf<O>>);
  }

  /** Performs a list `op` and resolves with its first page. @internal */
  _list<O extends Operation>(op: O, ids: readonly string[], params: InputOf<O> | undefined, options?: RequestOptions): PagePromise<OutputOf<O>> {
    type Item = OutputOf<O>;
    let query = { ...(params as PageParams | undefined) };
    // Offset lists send `limit` on every page, so each page is the same size.
    if (op.paging === 'offset' && query['limit'] === undefined) query = { ...query, limit: DEFAULT_OFFSET_PAGE_SIZE };
    // Stryker disable next-line StringLiteral: every paging other than 'offset' walks by cursor
    const paging = op.paging ?? 'cursor';
    const request = (pageParams: PageParams) => this.#perform(op, () => this.#operationCall(op, ids, pageParams, options ?? {}));
    const page = (r: Received, pageParams: PageParams, walk: PageWalk) =>
      andThen(this.#decode(op, r, true), (envelope) => new Page(envelope as ListEnvelope<Item>, paging, pageParams, next, walk));
    const next: PageFetcher<Item> = (pageParams, walk) => new APIPromise(request(pageParams), (r) => page(r, pageParams, walk));
    const walk = PageWalk.start(query['cursor']);
    return new PagePromise(request(query), (r) => page(r, query, walk));
  }

  /** Checks a declared operation's input and fills its path. */
  #operationCall(op: Operation, ids: readonly unknown[], params: Record<string, unknown> | undefined, options: RequestOptions): Call {
    checkIdCount(op, ids, params, options);
    checkRequestOptions(options);
    const hasBody = op.method !== 'GET' && op.method !== 'DELETE';
    // A body is sent as the schema gives it back (a `Date` given for a date bound goes as seconds);
    // a query, which holds no such field, as given, in the caller's order.
    let body = hasBody ? params : undefined;
    if (op.params && (params !== undefined || hasBody)) {
      const parsed = parseOrThrow(op.params, params ?? {}) as Record<string, unknown>;
      if (body !== undefined) body = parsed;
      if (params !== undefined && this.#log.enabled('warn')) this.#warnUnknownKeys(op, op.params, params);
    }
    return {
      op,
      path: buildPath(op, ids),
      query: hasBody ? undefined : params,
      body,
      options,
      idempotencyKey: idempotencyKeyFor(op, options.idempotencyKey),
    };
  }

  /**
   * Unknown keys pass (the service may know fields this SDK does not), but a typo would be dropped
   * in silence: each is named once per operation and place, with the known key it resembles.
   */
  #warnUnknownKeys(op: Operation, schema: z.ZodMiniType, params: unknown): void {
    for (const found of unknownKeys(schema, params)) {
      const id = `${op.sdkMethod} ${found.pattern}`;
      // Bounded, so a stream of made-up keys cannot grow it without end.
      if (this.#warned.has(id) || this.#warned.size >= MAX_WARNED_KEYS) continue;
      this.#warned.add(id);
      this.#log.warn(`${op.sdkMethod}: ${unknownKeyMessage(found)}`);
    }
  }

  /** Checks and prepares the call, then sends it with retries. Every refusal rejects; nothing throws synchronously. */
  #perform(op: Operation, check: () => Call): Promise<Received> {
    try {
      const call = check();
      // An upload with a `file` goes as multipart (an upload without one, such as a preset file's JSON form, as JSON).
      const file = (call.body as { file?: unknown } | undefined)?.file;
      const form = op.multipart && file !== undefined ? toMultipart(call.body as Record<string, unknown>) : undefined;
      return this.#send(op, this.#prepare(call, form), call.options);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /**
   * A successful answer as the operation's result; {@link InvalidResponseError} when it cannot be.
   * Synchronous unless `validateResponses` is on (the schemas may still be loading).
   */
  #decode(op: Operation, received: Received, list: boolean): unknown {
    const expected = !op.response ? 'nothing' : op.read ? 'json' : list ? 'list' : 'record';
    let data = decodeBody(received, expected);
    if (op.read) {
      data = op.read.from(data);
      if (data === undefined) throw invalidAnswer(received, `expected ${op.read.expects}`);
    }
    const name = op.response;
    if (!this.#schemas || name === undefined) return data;
    return this.#schemas.then((schemaOf) => {
      const schema = schemaOf(name, list);
      return schema ? parseOrThrow(schema, data, 'response') : data;
    });
  }

  #prepare(call: Call, form: MultipartBody | undefined): PreparedRequest {
    // The shared headers as they are when nothing is added (ky copies them into its own Headers).
    let headers = this.#headers;
    if (call.options.headers) headers = { ...headers, ...lower(call.options.headers), ...this.#auth };
    if (call.idempotencyKey) headers = { ...headers, 'idempotency-key': call.idempotencyKey };
    let body: PreparedRequest['body'] = form?.body;
    if (form) headers = { ...headers, 'content-type': form.type };
    else if (call.body instanceof FormData) body = call.body;
    else if (call.body !== undefined && !form) {
      body = toJSONText(call.body, 'body');
      headers = { ...headers, 'content-type': 'application/json' };
    }
    // A generic method's query is one option, `query`; an operation's parameters are fields of their own.
    const query = toSearchParams(call.query, call.op === GENERIC[call.op.method] ? 'query' : undefined);
    return { method: call.op.method, path: call.path, query, body, headers };
  }

  async #send(op: Operation, req: PreparedRequest, options: RequestOptions): Promise<Received> {
    const o = this.#options;
    // A long wait's request retries until the wait's deadline rather than `maxRetries` (unless given).
    const wait = (options as WaitRequestOptions)[WAIT_MODE];
    // A stream is read as it is sent: once sent, its bytes are gone, so it is never sent twice.
    const maxRetries = req.body instanceof ReadableStream ? 0 : (options.maxRetries ?? (wait ? Infinity : o.maxRetries));
    const timeout = options.timeout ?? o.timeout;
    const sleepSignal = options.signal ?? wait?.sleepSignal;
    const idempotencyKey = req.headers['idempotency-key'];
    // A request with a key cannot take effect twice; GET, PUT and DELETE are repeatable by nature.
    const safeToRepeat = op.method === 'GET' || op.method === 'PUT' || op.method === 'DELETE' || idempotencyKey !== undefined;
    const clock = o.clock;
    const started = clock.now();
    const events = this.#events;
    for (let attempt = 1; ; attempt++) {
      // Built only when someone listens: this runs on every attempt of every call.
      const event = (): RequestEvent => ({ operation: op.sdkMethod, method: req.method, path: req.path, attempt, idempotencyKey });
      // Every attempt takes a slot of the budget, so retries and wait loops share it too.
      if (this.#budget) {
        // Aborted while waiting for a slot: nothing was sent, but an upload's source is still let go.
        await this.#budget.acquire(options.signal).catch((err: unknown) => {
          endUpload(req.body, () => err);
          throw err;
        });
      }
      if (events.listenerCount('request') > 0) events.emit('request', event());
      if (this.#log.enabled('debug')) this.#log.debug(`${req.method} ${clip(req.path, 200)} (attempt ${attempt})`);
      const sentAt = Date.now();
      let outcome: AttemptOutcome;
      let error: ForecastingError;
      try {
        const received = await this.#transport.send(req, wait ? attemptTimeout(timeout, wait.deadline, clock.now()) : timeout, options.signal);
        const { response } = received;
        if (events.listenerCount('response') > 0) {
          events.emit('response', {
            ...event(),
            status: response.status,
            durationMs: Date.now() - sentAt,
            replayed: response.headers.get('idempotent-replayed') === 'true',
          });
        }
        if (response.ok) return received;
        const apiError = errorFromResponse(received, this.#errorRules, op.unknownCode);
        if (apiError.status === 404 && this.#apiPathMissing) {
          apiError.message += `; requested ${clip(`${this.#options.baseURL}${req.path}`, 200)}: is ${API_PATH} missing from baseURL?`;
        }
        outcome = { kind: 'response', status: apiError.status, type: apiError.type, retryAfter: response.headers.get('retry-after') };
        error = apiError;
      } catch (err) {
        if (!(err instanceof AttemptFailure)) throw err;
        outcome = err.outcome;
        error = err.error;
      }
      const decision = decideRetry(outcome, {
        attempt,
        maxRetries,
        safeToRepeat,
        maxRetryAfter: o.maxRetryAfter,
        remaining: wait ? (wait.deadline ?? Infinity) - clock.now() : o.retryDeadline - (clock.now() - started),
        initialDelay: o.initialDelay,
        maxDelay: o.maxDelay,
        random: Math.random,
        now: Date.now(),
        wait: wait !== undefined,
      });
      if (!decision.retry) {
        if (decision.deadline && wait?.deadline !== undefined) {
          // A wait times out at its deadline, not before: sleep there, then let the wait say so.
          await clock.sleep(Math.max(0, wait.deadline - clock.now()), sleepSignal);
          throw new WaitDeadlineReached(`the wait's deadline came while ${req.method} ${clip(req.path, 200)} was failing`, { cause: error });
        }
        if (decision.retryAfterTooLong !== undefined) {
          this.#log.warn(`${req.method} ${clip(req.path, 200)}: server asked to wait ${decision.retryAfterTooLong} ms, more than maxRetryAfter; not retrying`);
        }
        throw error;
      }
      // Stryker disable next-line ConditionalExpression: outcomes without an answer have no status either
      const status = outcome.kind === 'response' ? outcome.status : undefined;
      events.emit('retry', { ...event(), status, error: error.name, delayMs: decision.delay });
      this.#log.info(`${req.method} ${clip(req.path, 200)} failed (${status ?? error.name}); retry ${attempt}${wait ? '' : ` of ${maxRetries}`} in ${decision.delay} ms`);
      // On the client's clock, like every other wait (tests against the mock run it on the mock's time).
      await clock.sleep(decision.delay, sleepSignal);
    }
  }

  /** A safe summary: never the key. */
  toJSON(): { baseURL: string; authHeader: string; maxRetries: number; timeout: number } {
    const { baseURL, authHeader, maxRetries, timeout } = this.#options;
    return { baseURL, authHeader, maxRetries, timeout };
  }

  /** What `util.inspect` / `console.log` show: never the key. @internal */
  [INSPECT](): string {
    return `${this.constructor.name} ${JSON.stringify(this.toJSON())}`;
  }
}

/**
 * A long wait's attempt gets at most the time left before the wait's deadline (on the client's
 * clock), and at least a second, so one stuck attempt cannot carry the wait far past it.
 */
function attemptTimeout(timeout: number, deadline: number | undefined, now: number): number {
  if (deadline === undefined) return timeout;
  // Within what one timer holds (a timeout of days would otherwise fire at once).
  const left = Math.min(MAX_TIMER_MS, Math.max(1000, deadline - now));
  return timeout === 0 ? left : Math.min(timeout, left);
}

/** `fn(value)`, after `value` settles when it is a promise: the synchronous path stays synchronous. */
function andThen<T, R>(value: T | Promise<T>, fn: (value: T) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}

/** The pseudo-operations of the generic methods: no schema, no path parameters. */
const GENERIC = Object.fromEntries(
  (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).map((method) => [
    method,
    Object.freeze({ method, path: '', scope: 'questions:read', sdkMethod: method.toLowerCase(), pathParams: [], pathParts: [''], reservedSegments: new Map() }),
  ]),
) as unknown as Record<HttpMethod, Operation>;

/**
 * A generic method's path: below the base URL, so the key can only go there. Refused: anything not
 * starting with one `/`, a `.` or `..` segment (also percent-encoded), `\`, `#`, `?` (pass `query`),
 * whitespace and control characters. @internal
 */
export function checkGenericPath(path: unknown): string {
  const fail = (why: string): never => {
    throw new ValidationError(why, 'path');
  };
  if (typeof path !== 'string') return fail(`must be text such as '/questions/abc', got ${typeof path}`);
  if (!path.startsWith('/') || path.startsWith('//')) fail(`must begin with a single "/" (relative to the base URL), such as '/questions/abc'`);
  if (/[\\#\s\u0000-\u001f\u007f]/.test(path)) fail('must not hold "\\", "#", whitespace or control characters');
  if (path.includes('?')) fail('must not hold a query: pass it as `query`');
  for (const segment of path.split('/')) {
    if (/^(\.|%2e){1,2}$/i.test(segment)) fail('must not hold "." or ".." segments');
  }
  return path;
}

function lower(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value;
  return out;
}
