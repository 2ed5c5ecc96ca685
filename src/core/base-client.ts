/**
 * The client's public surface: events, the generic requests, and the entry points of the resources
 * (`_call`, `_list`), which check a call's input and hand it to the request pipeline (`pipeline.ts`).
 * Resources only name an operation and pass arguments.
 * @module
 */
import { EventEmitter } from 'eventemitter3';
import type * as z from 'zod/mini';
import { APIPromise } from './api-promise.js';
import { ValidationError, type ErrorRules } from './errors.js';
import { checkIdempotencyKey, idempotencyKeyFor } from './idempotency.js';
import type { LeveledLogger } from './logger.js';
import { buildPath, checkGenericPath, checkIdCount, DEFAULT_OFFSET_PAGE_SIZE, hasBody, type HttpMethod, type InputOf, type Operation, type OutputOf } from './operation.js';
import { apiPathWarning, checkRequestOptions, hasApiPath, resolveOptions, type ClientOptions, type RequestOptions, type ResolvedOptions } from './options.js';
import { Page, PagePromise, PageWalk, type ListEnvelope, type PageFetcher, type PageParams } from './pagination.js';
import { Call, Pipeline, type AttemptStep, type CallStep, type DeclaredAt } from './pipeline.js';
import { budgetStep, decodeStep, eventsStep, lowerCaseNames, prepareStep, transportStep, type ClientEvents, type RecordCheck } from './pipeline-steps.js';
import { serviceMs, type ClientClock } from './clock.js';
import type { HoldOptions } from './coordination.js';
import type { TrackerCoordination } from './coordinated-tracker.js';
import { Transport, type Received } from './transport.js';
import { redactorOf, type Redact } from './redact.js';
import { ParamsChecks, snapshot, unreadable, type ParamsCheck, type ParamsLoader } from './params-check.js';
import { VERSION } from '../version.js';

export type { ClientEvents, RequestEvent, ResponseEvent, RetryEvent } from './pipeline-steps.js';

/**
 * How a client answers a coordinator's question "which of these held tasks are final?", from the
 * service; given the client, so the core names no operation. @internal
 */
export type ReconcileWith = (client: BaseClient) => NonNullable<HoldOptions['reconcile']>;

/**
 * What a client is built from besides its options: the loaders of the schemas (each a chunk of its
 * own, loaded only when needed), the service's error table, and how held tasks are reconciled.
 * @internal
 */
export interface ClientParts {
  /** Loads the params schemas by name and the code that reads them: with the first call that checks params. */
  params?: ParamsLoader;
  /** Loads the check of answers against the record schemas: when `validateResponses` is on. */
  records?: () => Promise<RecordCheck>;
  /** The service's error classes by `status error.type`, and its unknown-code rules. */
  errorRules?: ErrorRules;
  /** With a coordinator: reads which held tasks are final (see {@link ReconcileWith}). */
  reconcileWith?: ReconcileWith;
  /** The declared operation a generic call's method and path name, as far as a retry needs it. */
  declaredAt?: DeclaredAt;
}

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
  query?: Record<string, unknown> | undefined;
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

const INSPECT = Symbol.for('nodejs.util.inspect.custom');
/** Most distinct unknown keys a client warns about in its life. */
const MAX_WARNED_KEYS = 1000;

/**
 * The core every resource calls into. {@link ForecastingClient} adds the resources.
 */
export class BaseClient {
  // Private fields: invisible to util.inspect, JSON.stringify and Object.keys, so the key never leaks.
  readonly #options: ResolvedOptions;
  readonly #events = new EventEmitter<ClientEvents>();
  readonly #log: LeveledLogger;
  readonly #pipeline: Pipeline;
  /** The unknown keys already warned about, by operation and path (bounded: see {@link #warnUnknownKeys}). */
  readonly #warned = new Set<string>();
  /** The params check, loaded with the first call that needs it (see {@link #checked}). */
  readonly #checks: ParamsChecks;
  /** Takes the key out of the text of an error of the caller's that is quoted in ours. */
  readonly #redact: Redact | undefined;

  /**
   * @param options - see {@link ClientOptions}
   * @param parts - see {@link ClientParts}
   * @internal
   */
  constructor(options: ClientOptions = {}, parts: ClientParts = {}) {
    const o = (this.#options = resolveOptions(options));
    this.#redact = redactorOf(o.apiKey);
    const { errorRules, reconcileWith, declaredAt } = parts;
    this.#checks = new ParamsChecks(parts.params);
    let schemas: Promise<RecordCheck> | undefined;
    if (o.validateResponses) {
      const loadSchemas = parts.records;
      if (!loadSchemas) throw new ValidationError('this client cannot check responses: it was built without the record schemas', 'validateResponses');
      schemas = loadSchemas();
      // Not awaited here: a failure to load surfaces on the first call that needs the schemas.
      schemas.catch(() => undefined);
    }
    const log = (this.#log = o.log);
    const apiPathMissing = !hasApiPath(o.baseURL);
    if (apiPathMissing) log.warn(apiPathWarning(o.baseURL));
    const auth: Record<string, string> = o.authHeader === 'x-api-key' ? { 'x-api-key': o.apiKey } : { authorization: `Bearer ${o.apiKey}` };
    const headers = Object.freeze({ accept: 'application/json', 'user-agent': `forecasting-sdk/${VERSION}`, ...lowerCaseNames(o.defaultHeaders), ...auth });
    // The attempt steps in call order; the budget only when one is set (an attempt without it skips a step).
    const attempt: AttemptStep[] = [eventsStep(this.#events, log), transportStep(new Transport(o.baseURL, o.fetch, o.apiKey))];
    const call: CallStep[] = [];
    let decode = decodeStep(schemas);
    const coordinator = o.coordinator;
    if (coordinator) {
      // The coordinator learns the key's hash (its namespace, and the check that its clients share a key), never the key.
      const apiKey = o.apiKey;
      coordinator.attach({ keyHash: (sha256Hex) => sha256Hex(apiKey), clock: o.clock, warn: (message) => log.warn(message), info: (message) => log.info(message) });
      // The steps' code loads now and each call awaits it: a client without a coordinator never loads it.
      const plain = decode;
      const steps = import('./pipeline-slots.js').then((m) => m.coordinationSteps(coordinator, reconcileWith?.(this), plain, (message) => log.warn(message)));
      steps.catch(() => undefined);
      attempt.unshift(async (c, next) => (await steps).budget(c, next));
      call.push(async (c, attempts) => (await steps).slots(c, attempts));
      decode = async (c, received) => (await steps).decode(c, received);
    } else if (o.requestsPerMinute) {
      // Likewise the budget's code, for a client that sets one.
      const { requestsPerMinute, clock } = o;
      const step = import('./request-budget.js').then((m) => budgetStep(new m.RequestBudget(requestsPerMinute, clock)));
      step.catch(() => undefined);
      attempt.unshift(async (c, next) => (await step)(c, next));
    }
    this.#pipeline = new Pipeline({ options: o, log, events: this.#events, apiPathMissing, errorRules, declaredAt }, { prepare: prepareStep(headers, auth, this.#redact), call, attempt, decode });
  }

  /** The time source of waits and of the request budget. @internal */
  get _clock(): ClientClock {
    return this.#options.clock;
  }

  /** The coordinator waits are woken through, and their safety cadence; `undefined` without one. @internal */
  get _coordination(): TrackerCoordination | undefined {
    const coordinator = this.#options.coordinator;
    // The cadence is the service's time: 600 times shorter for a client of the mock's fast clock.
    return coordinator && { coordinator, interval: serviceMs(this.#options.clock, this.#options.coordinatedPollInterval) };
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
   * when the service cannot act on it twice: `idempotencyKey` (sent as `Idempotency-Key`) given to an
   * operation that reads the key (the spec's four starts), or a cancel. Other operations ignore the
   * key, so a failure after sending is thrown there, never retried.
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
    let call: Call;
    try {
      checkRequestOptions(options, this.#redact);
      const { query, body, ...rest } = options;
      if (query !== undefined && (typeof query !== 'object' || query === null || Array.isArray(query))) {
        throw new ValidationError('must be an object of query parameters', 'query');
      }
      if (body !== undefined && (method === 'GET' || method === 'DELETE')) throw new ValidationError(`a ${method} request takes no body`, 'body');
      const key = rest.idempotencyKey === undefined ? undefined : checkIdempotencyKey(rest.idempotencyKey);
      // A call without an operation: no schema, no scope, no path parameters.
      // The query read now (a getter that throws is refused here, as an operation's params are).
      call = new Call(undefined, method, checkGenericPath(path), query && { ...query }, body, rest, key);
    } catch (err) {
      return refused(unreadable(err, this.#redact));
    }
    return this.#start(call) as APIPromise<T>;
  }

  /** Performs `op` and resolves with its parsed answer. @internal */
  _call<O extends Operation>(op: O, ids: readonly string[], params: InputOf<O> | undefined, options?: RequestOptions): APIPromise<OutputOf<O>> {
    const sent = this.#checked(op, params as Record<string, unknown> | undefined, options, (p, o) => this.#operationCall(op, ids, p, o, false));
    return new APIPromise(sent.received, (r) => this.#pipeline.decode(sent.call!, r)) as APIPromise<OutputOf<O>>;
  }

  /** Performs a list `op` and resolves with its first page. @internal */
  _list<O extends Operation>(op: O, ids: readonly string[], params: InputOf<O> | undefined, options?: RequestOptions): PagePromise<OutputOf<O>> {
    type Item = OutputOf<O>;
    let query: PageParams;
    try {
      query = { ...(params as PageParams | undefined) };
    } catch (err) {
      return new PagePromise(Promise.reject(unreadable(err, this.#redact)), neverParsed);
    }
    // Offset lists send `limit` on every page, so each page is the same size.
    if (op.paging === 'offset' && query['limit'] === undefined) query = { ...query, limit: DEFAULT_OFFSET_PAGE_SIZE };
    // Stryker disable next-line StringLiteral: every paging other than 'offset' walks by cursor
    const paging = op.paging ?? 'cursor';
    const pipeline = this.#pipeline;
    // One call per page; the first page's promise can also walk the items (`for await`, `toArray`).
    const request = (pageParams: PageParams, walk: PageWalk, first: boolean): APIPromise<Page<Item>> => {
      const sent = this.#checked(op, pageParams, options, (p, o) => this.#operationCall(op, ids, p, o, true));
      const page = (r: Received) => andThen(pipeline.decode(sent.call!, r), (envelope) => new Page(envelope as ListEnvelope<Item>, paging, pageParams, next, walk));
      return first ? new PagePromise(sent.received, page) : new APIPromise(sent.received, page);
    };
    const next: PageFetcher<Item> = (pageParams, walk) => request(pageParams, walk, false);
    return request(query, PageWalk.start(query['cursor']), true) as PagePromise<Item>;
  }

  /** Sends a checked call down the pipeline; its data is decoded when awaited. */
  #start(call: Call): APIPromise<unknown> {
    const pipeline = this.#pipeline;
    return new APIPromise(pipeline.send(call), (r) => pipeline.decode(call, r));
  }

  /**
   * Builds a call with `make` and sends it down the pipeline; `call` is set once it is built. Once
   * the params check has loaded, at once. Until then, a call whose params need the check waits for
   * it to load, and so does any call made meanwhile (calls keep their order), with a copy of its
   * params and options as given (see `params-check.ts`). Every refusal rejects: nothing throws.
   */
  #checked(
    op: Operation,
    params: Record<string, unknown> | undefined,
    options: RequestOptions | undefined,
    make: (params: Record<string, unknown> | undefined, options: RequestOptions) => Call,
  ): { received: Promise<Received>; call?: Call } {
    const sent: { received: Promise<Received>; call?: Call } = { received: undefined as never };
    const needs = op.params !== undefined && (params !== undefined || hasBody(op));
    try {
      if (!this.#checks.mustWait(needs)) {
        sent.received = this.#pipeline.send((sent.call = make(params, options ?? {})));
      } else {
        const [given, opts] = [snapshot(params), snapshot(options ?? {})];
        // What the copy left as it was (a class instance's getters) is read by `make`: a throw there is refused as above.
        sent.received = this.#checks.wait(needs, opts, this.#options.timeout).then(() => {
          try {
            sent.call = make(given, opts);
          } catch (err) {
            throw unreadable(err, this.#redact);
          }
          return this.#pipeline.send(sent.call);
        });
      }
    } catch (err) {
      sent.received = Promise.reject(unreadable(err, this.#redact));
    }
    return sent;
  }

  /** Checks a declared operation's input and fills its path. */
  #operationCall(op: Operation, ids: readonly unknown[], params: Record<string, unknown> | undefined, options: RequestOptions, list: boolean): Call {
    checkIdCount(op, ids, params, options);
    checkRequestOptions(options, this.#redact);
    const withBody = hasBody(op);
    // A body is sent as the schema gives it back (a `Date` given for a date bound goes as seconds);
    // a query, which holds no such field, as given, in the caller's order.
    let body = withBody ? params : undefined;
    if (op.params !== undefined && (params !== undefined || withBody)) {
      // Loaded by now: #checked waits for it before building a call with params to check.
      const check = this.#checks.loaded!;
      const schema = check.schemaOf(op.params);
      if (!schema) throw new ValidationError(`${op.sdkMethod} declares params \`${op.params}\`, which this client has no schema for`, 'params');
      const parsed = check.validate.parseOrThrow(schema, params ?? {}) as Record<string, unknown>;
      if (body !== undefined) body = parsed;
      // Only saves the walk: no params hold no unknown key, and a warning below the log level is not shown.
      // Stryker disable next-line ConditionalExpression,LogicalOperator: see above
      if (params !== undefined && this.#log.enabled('warn')) this.#warnUnknownKeys(op, schema, params, check.validate);
    }
    const key = idempotencyKeyFor(op, options.idempotencyKey);
    // The options copied as checked: the attempts never read a getter of the caller's again.
    const call = new Call(op, op.method, buildPath(op, ids), withBody ? undefined : params, body, { ...options }, key, list);
    // Checked strings by now (buildPath refuses any other).
    call.ids = ids as readonly string[];
    return call;
  }

  /**
   * Unknown keys pass (the service may know fields this SDK does not), but a typo would be dropped
   * in silence: each is named once per operation and place, with the known key it resembles.
   */
  #warnUnknownKeys(op: Operation, schema: z.ZodMiniType, params: unknown, { unknownKeys, unknownKeyMessage }: ParamsCheck['validate']): void {
    for (const found of unknownKeys(schema, params)) {
      const id = `${op.sdkMethod} ${found.pattern}`;
      // Bounded, so a stream of made-up keys cannot grow it without end.
      if (this.#warned.has(id) || this.#warned.size >= MAX_WARNED_KEYS) continue;
      this.#warned.add(id);
      this.#log.warn(`${op.sdkMethod}: ${unknownKeyMessage(found, hasBody(op))}`);
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

/** A call refused before it was sent: it rejects (nothing throws synchronously), and has no data to read. */
function refused(err: unknown): APIPromise<never> {
  return new APIPromise(Promise.reject(err), neverParsed);
}

function neverParsed(): never {
  throw new Error('a refused call has no answer to read');
}

/** `fn(value)`, after `value` settles when it is a promise: the synchronous path stays synchronous. */
function andThen<T, R>(value: T | Promise<T>, fn: (value: T) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}
