/**
 * The request pipeline every method goes through: check the input, build the request, send it with
 * retries, read the answer, emit events. Resources only name an operation and pass arguments.
 * @module
 */
import { EventEmitter } from 'eventemitter3';
import type * as z from 'zod/mini';
import { listEnvelope } from '../schemas/common.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import { ForecastingError } from './errors.js';
import { idempotencyKeyFor } from './idempotency.js';
import { DEFAULT_OFFSET_PAGE_SIZE } from './limits.js';
import { leveled, type LeveledLogger } from './logger.js';
import { buildPath, type Operation } from './operation.js';
import { resolveOptions, type ClientOptions, type RequestOptions, type ResolvedOptions } from './options.js';
import { Page, PagePromise, type ListEnvelope, type PageParams } from './pagination.js';
import { decideRetry, type AttemptOutcome } from './retry.js';
import type { ClientClock } from './clock.js';
import { RequestBudget } from './request-budget.js';
import { AttemptFailure, Transport, errorFromResponse, parseBody, toSearchParams, type PreparedRequest } from './transport.js';
import { toFormData } from './uploads.js';
import { parseOrThrow } from './validate.js';
import { VERSION } from '../version.js';

/** Fields of every client event. Never holds a key or a body. */
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
/** Emitted for every HTTP answer, errors included. */
export interface ResponseEvent extends RequestEvent {
  status: number;
  /** Milliseconds from sending to the answer's headers. */
  durationMs: number;
  /** The server replayed an earlier answer (`Idempotent-Replayed: true`). */
  replayed: boolean;
}
/** Emitted before waiting for a retry. */
export interface RetryEvent extends RequestEvent {
  /** HTTP status of the failed attempt, or `undefined` when there was no answer. */
  status: number | undefined;
  /** Name of the error class of the failed attempt. */
  error: string;
  /** How long the client waits before the next attempt, in ms. */
  delayMs: number;
}
/** The events a client emits, with their listener signatures. */
export interface ClientEvents {
  request: (event: RequestEvent) => void;
  response: (event: ResponseEvent) => void;
  retry: (event: RetryEvent) => void;
}

type InputOf<O extends Operation> = O['params'] extends z.ZodMiniType ? z.input<O['params']> : never;
type OutputOf<O extends Operation> = O['response'] extends z.ZodMiniType ? z.output<O['response']> : void;

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

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

  constructor(options: ClientOptions = {}) {
    this.#options = resolveOptions(options);
    this.#transport = new Transport(this.#options.baseURL, this.#options.fetch);
    this.#log = leveled(options.logger ?? console, options.logLevel ?? 'warn');
    const { apiKey, authHeader, defaultHeaders } = this.#options;
    this.#auth = authHeader === 'x-api-key' ? { 'x-api-key': apiKey } : { authorization: `Bearer ${apiKey}` };
    this.#headers = { accept: 'application/json', 'user-agent': `forecasting-sdk/${VERSION}`, ...lower(defaultHeaders), ...this.#auth };
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

  /** Performs `op` and resolves with its parsed answer. @internal */
  _call<O extends Operation>(op: O, ids: readonly string[], params: InputOf<O> | undefined, options?: RequestOptions): APIPromise<OutputOf<O>> {
    return new APIPromise(this.#perform(op, ids, params as Record<string, unknown> | undefined, options ?? {}, false));
  }

  /** Performs a list `op` and resolves with its first page. @internal */
  _list<O extends Operation>(op: O, ids: readonly string[], params: InputOf<O> | undefined, options?: RequestOptions): PagePromise<OutputOf<O>> {
    let query = { ...(params as PageParams | undefined) };
    // Offset lists send `limit` on every page, so each page is the same size.
    if (op.paging === 'offset' && query['limit'] === undefined) query = { ...query, limit: DEFAULT_OFFSET_PAGE_SIZE };
    const fetchPage = (pageParams: PageParams): Promise<WithResponse<Page<OutputOf<O>>>> =>
      this.#perform(op, ids, pageParams, options ?? {}, true).then(({ data, response }) => ({
        data: new Page(data as ListEnvelope<OutputOf<O>>, op.paging ?? 'cursor', pageParams, fetchPage),
        response,
      }));
    return new PagePromise(fetchPage(query));
  }

  async #perform(op: Operation, ids: readonly string[], params: Record<string, unknown> | undefined, options: RequestOptions, list: boolean): Promise<WithResponse<never>> {
    const hasBody = op.method !== 'GET' && op.method !== 'DELETE';
    if (op.params && (params !== undefined || hasBody)) parseOrThrow(op.params, params ?? {});
    // Only uploads need to wait before sending (to read a stream); everything else is prepared in place.
    const form = op.multipart && params !== undefined ? await toFormData(params) : undefined;
    const request = this.#prepare(op, ids, params, options, form);
    const response = await this.#send(op, request, options);
    let data = parseBody(await response.text()).json;
    if (this.#options.validateResponses && op.response) {
      const schema = list ? listSchemaOf(op.response) : op.response;
      data = parseOrThrow(schema, data, 'response');
    }
    return { data: data as never, response };
  }

  #prepare(op: Operation, ids: readonly string[], params: Record<string, unknown> | undefined, options: RequestOptions, form: FormData | undefined): PreparedRequest {
    const path = buildPath(op, ids);
    const hasBody = op.method !== 'GET' && op.method !== 'DELETE';
    const idempotencyKey = idempotencyKeyFor(op, options.idempotencyKey);
    const headers = options.headers ? { ...this.#headers, ...lower(options.headers), ...this.#auth } : { ...this.#headers };
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    let body: FormData | string | undefined = form;
    if (hasBody && params !== undefined && !form) {
      body = JSON.stringify(params);
      headers['content-type'] = 'application/json';
    }
    return { method: op.method, path, query: hasBody ? undefined : toSearchParams(params), body, headers };
  }

  async #send(op: Operation, req: PreparedRequest, options: RequestOptions): Promise<Response> {
    const o = this.#options;
    const maxRetries = options.maxRetries ?? o.maxRetries;
    const timeout = options.timeout ?? o.timeout;
    const safeToRepeat = op.method === 'GET' || op.method === 'PUT' || op.method === 'DELETE' || Boolean(op.idempotent);
    const clock = o.clock;
    const started = clock.now();
    for (let attempt = 1; ; attempt++) {
      const event: RequestEvent = {
        operation: op.sdkMethod,
        method: req.method,
        path: req.path,
        attempt,
        idempotencyKey: req.headers['idempotency-key'],
      };
      // Every attempt takes a slot of the budget, so retries and wait loops share it too.
      if (this.#budget) await this.#budget.acquire(options.signal);
      this.#events.emit('request', event);
      if (this.#log.enabled('debug')) this.#log.debug(`${req.method} ${req.path} (attempt ${attempt})`);
      const sentAt = Date.now();
      let outcome: AttemptOutcome;
      let error: ForecastingError;
      try {
        const response = await this.#transport.send(req, timeout, options.signal);
        if (this.#events.listenerCount('response') > 0) {
          this.#events.emit('response', {
            ...event,
            status: response.status,
            durationMs: Date.now() - sentAt,
            replayed: response.headers.get('idempotent-replayed') === 'true',
          });
        }
        if (response.ok) return response;
        const apiError = await errorFromResponse(response, `${req.method} ${req.path}`);
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
        remaining: o.retryDeadline - (clock.now() - started),
        initialDelay: o.initialDelay,
        maxDelay: o.maxDelay,
        random: Math.random,
        now: Date.now(),
      });
      if (!decision.retry) {
        if (decision.retryAfterTooLong !== undefined) {
          this.#log.warn(`${req.method} ${req.path}: server asked to wait ${decision.retryAfterTooLong} ms, more than maxRetryAfter; not retrying`);
        }
        throw error;
      }
      const status = outcome.kind === 'response' ? outcome.status : undefined;
      this.#events.emit('retry', { ...event, status, error: error.name, delayMs: decision.delay });
      this.#log.info(`${req.method} ${req.path} failed (${status ?? error.name}); retry ${attempt} of ${maxRetries} in ${decision.delay} ms`);
      // On the client's clock, like every other wait (tests against the mock run it on the mock's time).
      await clock.sleep(decision.delay, options.signal);
    }
  }

  /** A safe summary: never the key. */
  toJSON(): { baseURL: string; authHeader: string; maxRetries: number; timeout: number } {
    const { baseURL, authHeader, maxRetries, timeout } = this.#options;
    return { baseURL, authHeader, maxRetries, timeout };
  }

  /** What `util.inspect` / `console.log` show: never the key. */
  [INSPECT](): string {
    return `${this.constructor.name} ${JSON.stringify(this.toJSON())}`;
  }
}

/** The list envelope schema of each item schema, built once (only `validateResponses` uses it). */
const listSchemas = new WeakMap<z.ZodMiniType, z.ZodMiniType>();
function listSchemaOf(item: z.ZodMiniType): z.ZodMiniType {
  let schema = listSchemas.get(item);
  if (!schema) listSchemas.set(item, (schema = listEnvelope(item)));
  return schema;
}

function lower(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value;
  return out;
}
