/**
 * The mock service object: Fetch `Request` in, `Response` out. The HTTP server and the msw
 * handlers are thin adapters over it.
 * @module
 */
import type { Operation } from '../core/operation.js';
import { declaredOperations } from '../operations.js';
import { generateKey, KeyRing, redactHeaders, requireScope, type MockApiKey, type Principal } from './auth.js';
import { ManualClock, ScaledClock, type MockClock } from './clock.js';
import { delay, FaultInjector, faultResponse, MockConnectionDropped, type FaultRule } from './faults.js';
import { allHandlers } from './handlers/index.js';
import type { HandlerContext, OperationHandler } from './handlers/types.js';
import { badRequest, errorResponse, jsonResponse, methodNotAllowed, MockHttpError, notFound, Reply } from './http.js';
import { bodyFingerprint, bodyRefusal, formObject, loggedBody, protoKeyPath, queryObject, readBody, validate, type BodyRead } from './input.js';
import { RateLimiter } from './rate-limit.js';
import { RequestLog, type RecordedRequest } from './request-log.js';
import { API_PREFIX, Router, type RouteMatch } from './router.js';
import { MockStore } from './store.js';
import { MockEventBus } from './events.js';
import { IdempotencyLedger } from './idempotency.js';
import { insertCompletedForecast } from './models/forecasts/task.js';
import { ForecastControls } from './models/forecasts/controls.js';
import { ContextControls, UploadSwitch } from './models/context/controls.js';
import { ConnectionControls } from './models/connections.js';
import { MockWebhookEngine, type MockWebhookOptions } from './webhooks/engine.js';
import { DecisionControls, watchDecisions } from './models/decision.js';
import { isOpenApiPath, openApiResponse } from './openapi.js';
import { controlResponse, isControlPath } from './control.js';

/**
 * The general request limit, or `false` for none.
 * @example
 * ```ts
 * createMockService({ rateLimit: { requestsPerMinute: 60 } }); // the spec's default for a key
 * ```
 */
export type RateLimitSetting = { requestsPerMinute: number } | false;

/**
 * Options of {@link createMockService}.
 *
 * @example
 * ```ts
 * const service = createMockService({
 *   apiKeys: [{ key: 'pre_test', scopes: ['questions:read'] }],
 *   faults: [{ operation: 'questions.create', status: 503 }],
 * });
 * ```
 */
export interface MockServiceOptions {
  /** Keys the service accepts (default: one generated `pre_` key with every scope). */
  apiKeys?: MockApiKey[];
  /**
   * The clock (default: a {@link ManualClock} at 2025-01-01T00:00:00.000Z; `startMockServer`'s
   * default is a running {@link ScaledClock} instead).
   */
  clock?: MockClock;
  /** With no `clock`: run a {@link ScaledClock} this many times faster than real time (600 → 1.5 h in 9 s). */
  timeScale?: number;
  /**
   * The spec's request limit (60 a minute per key), counted on the mock clock. Default `false`:
   * with a manual clock that stands still, a test making more than 60 requests would hit it.
   * The 20-a-minute drafting limit, the 30-a-minute chat limit and the 10-a-minute limit on decision
   * calls that use a model are always on.
   */
  rateLimit?: RateLimitSetting;
  /** Fault rules active from the start (see {@link MockService.faults}). */
  faults?: FaultRule[];
  /** The webhook delivery engine: `{ allowLoopbackReceivers: true }` lets it call receivers on 127.0.0.1. */
  webhooks?: MockWebhookOptions;
  /**
   * The organization setting that refuses file uploads with 403 `uploads_disabled`: `true` for every
   * organization, or the ids of some (default: uploads on). See also `contextControls.setUploadsDisabled`.
   */
  uploadsDisabled?: boolean | readonly string[];
  /**
   * Makes forecast numbers reproducible: with a seed they derive from it, the question's content and
   * the forecast's place among the question's forecasts (the first, the second, …), not from the
   * random ids. The same seed and the same requests in the same order give the same numbers in
   * every run. Default: none (numbers vary from run to run, as ids do).
   */
  seed?: string | number;
  /**
   * Serve the HTTP control surface at `/__mock` (the server root): the clock, outcomes, credits,
   * faults, the request log and reset, for tests in other languages (see `MOCK_CONTROLS`). It needs
   * one of the service's keys. Default `false`; `forecasting mock` turns it on.
   */
  httpControls?: boolean;
  /** Replaces the handler table (a declared operation without a handler answers 501). @internal */
  handlers?: readonly OperationHandler[];
}

/**
 * An in-memory imitation of the Forecasting Service, faithful to its spec: routes, auth and
 * scopes, validation, errors, paging, rate limits. Drive it with Fetch `Request`s, over HTTP with
 * {@link startMockServer}, or inside `fetch` with `mockHandlers` from `forecasting-sdk/testing/msw`.
 *
 * @example
 * ```ts
 * const service = createMockService();
 * const res = await service.handle(new Request('http://mock/api/v1/external/questions', {
 *   method: 'POST',
 *   headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
 *   body: JSON.stringify({ type: 'binary', title: 'Will it rain in Paris tomorrow?' }),
 * }));
 * res.status; // 201
 * ```
 */
export class MockService {
  /** The default API key (the first of `apiKeys`, or the generated one); holds every scope unless configured. */
  readonly apiKey: string;
  /** The clock every timestamp and limit of the service reads. */
  readonly clock: MockClock;
  /** The resources the service holds. Read it to check results; write to it to seed data. */
  readonly store = new MockStore();
  /** Fault rules: `faults.add(rule)`, `faults.clear()`. */
  readonly faults: FaultInjector;
  /** Every request that reached the service, oldest first. */
  readonly requests = new RequestLog();
  /** Forecast events as they happen (the webhook engine listens here). */
  readonly events = new MockEventBus();
  /** Webhook deliveries: `await service.webhooks.idle()` waits for calls in flight; `calls()` lists them. */
  readonly webhooks: MockWebhookEngine;

  private readonly keys: KeyRing;
  private readonly router = new Router(declaredOperations);
  private readonly handlers = new Map<string, OperationHandler>();
  private readonly limiter: RateLimiter;
  private readonly idempotency: IdempotencyLedger;
  private rateLimitSetting: RateLimitSetting;
  private readonly uploads: UploadSwitch;
  private readonly httpControls: boolean;

  constructor(options: MockServiceOptions = {}) {
    if (options.clock && options.timeScale !== undefined) throw new TypeError('Pass clock or timeScale, not both');
    this.clock =
      options.clock ?? (options.timeScale !== undefined ? new ScaledClock({ timeScale: options.timeScale }) : new ManualClock());
    const keys = options.apiKeys?.length ? options.apiKeys : [{ key: generateKey() }];
    this.keys = new KeyRing(keys);
    this.apiKey = keys[0]!.key;
    this.faults = new FaultInjector(options.faults);
    this.limiter = new RateLimiter(this.clock);
    this.idempotency = new IdempotencyLedger(this.clock);
    this.rateLimitSetting = options.rateLimit ?? false;
    this.uploads = new UploadSwitch(options.uploadsDisabled);
    this.httpControls = options.httpControls ?? false;
    if (options.seed !== undefined) this.store.seed = String(options.seed);
    this.webhooks = new MockWebhookEngine({ store: this.store, clock: this.clock, events: this.events }, options.webhooks);
    // Decisions hear completed forecasts: their conditions trigger and, in live mode, their summaries are rewritten.
    watchDecisions({ store: this.store, clock: this.clock, events: this.events });
    const declared = new Set(declaredOperations.map((op) => op.sdkMethod));
    for (const handler of options.handlers ?? allHandlers) {
      if (!declared.has(handler.sdkMethod)) throw new Error(`Handler for undeclared operation ${handler.sdkMethod}`);
      if (this.handlers.has(handler.sdkMethod)) throw new Error(`Two handlers for ${handler.sdkMethod}`);
      this.handlers.set(handler.sdkMethod, handler);
    }
  }

  /** The general request limit in force. */
  get rateLimit(): RateLimitSetting {
    return this.rateLimitSetting;
  }

  /**
   * Turns the spec's request limit on (for example `{ requestsPerMinute: 60 }`) or off (`false`).
   * @example
   * ```ts
   * service.setRateLimit({ requestsPerMinute: 60 });
   * ```
   */
  setRateLimit(setting: RateLimitSetting): void {
    if (setting && !(setting.requestsPerMinute >= 1)) throw new RangeError('requestsPerMinute must be at least 1');
    this.rateLimitSetting = setting;
  }

  /**
   * Adds an API key while the service runs.
   * @example
   * ```ts
   * service.addApiKey({ key: 'pre_reader', scopes: ['questions:read'] });
   * ```
   */
  addApiKey(key: MockApiKey): void {
    this.keys.add(key);
  }

  /** Revokes a key: its later requests answer 401 `invalid_api_key`. */
  revokeApiKey(key: string): void {
    this.keys.revoke(key);
  }

  /**
   * A safe summary for `JSON.stringify`: never an API key (nor the store, which holds secrets of its own).
   * @example
   * ```ts
   * JSON.stringify(service); // {"apiKey":"[redacted]","apiKeys":1,"now":0,"requests":0}
   * ```
   */
  toJSON(): { apiKey: '[redacted]'; apiKeys: number; now: number; requests: number } {
    return { apiKey: '[redacted]', apiKeys: this.keys.size, now: this.clock.now(), requests: this.requests.length };
  }

  /** What `util.inspect` / `console.log` show: the summary of {@link MockService.toJSON}, never an API key. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `MockService ${JSON.stringify(this.toJSON())}`;
  }

  /**
   * Test hook: records a forecast on a question, which locks its fields other than `description`,
   * `resolutionCriteria`, `finePrint`, `visibility` and `tags` (edits to them answer 409).
   * @example
   * ```ts
   * service.markForecasted(question.id);
   * ```
   */
  markForecasted(questionId: string): void {
    const record = this.store.questions.get(questionId);
    if (!record) throw new Error(`No question ${questionId}`);
    // A real (completed) forecast record, so reads and lists of forecasts agree with the lock.
    insertCompletedForecast(this.store, record, this.clock.now());
  }

  /**
   * Test hooks of the forecast lifecycle: outcomes (a failing task or report), credit balances,
   * context files still processing, news that moves a watched question; and the record of API
   * forecasts (`activity()`: the most that ran at once, refusals by reason).
   * @example
   * ```ts
   * service.forecastControls.setOutcome(questionId, { report: 'failed' });
   * service.forecastControls.setCredits({ balance: 0 });
   * service.forecastControls.activity().maxActive; // ≤ 50
   * ```
   */
  get forecastControls(): ForecastControls {
    // Hooks default to the organization of the service's default key.
    const principal = this.keys.find(this.apiKey);
    const organizationId = principal?.organizationId ?? this.keys.defaultOrganizationId;
    return new ForecastControls({ store: this.store, clock: this.clock, events: this.events }, organizationId, principal?.userId);
  }

  /**
   * Test hooks of the decisions: prices that change between an estimate and a start, conditional
   * links that fail.
   * @example
   * ```ts
   * service.decisionControls.setPrice('forecast.light', 3);
   * service.decisionControls.setLinkOutcome('failed', 'No causal path found');
   * ```
   */
  get decisionControls(): DecisionControls {
    return new DecisionControls(this.store);
  }

  /**
   * Test hooks of question context and presets: a file that fails, uploads turned off, a question's
   * own preset.
   * @example
   * ```ts
   * service.contextControls.failFile(fileId);
   * service.contextControls.setUploadsDisabled(true);
   * ```
   */
  get contextControls(): ContextControls {
    return new ContextControls({ store: this.store, clock: this.clock, events: this.events }, this.uploads);
  }

  /**
   * Test hooks of the simulated network behind connections (nothing is ever contacted): what a host
   * resolves to, which servers fail, and finishing an `oauth` sign-in as the person would.
   * @example
   * ```ts
   * service.connectionControls.resolve('mcp.example.com', '192.168.1.20');
   * service.connectionControls.setFailing('tools.example.com');
   * ```
   */
  get connectionControls(): ConnectionControls {
    return new ConnectionControls(this.store, () => new Date(this.clock.now()).toISOString());
  }

  /** Empties the store, the request log, the fault rules and the rate-limit counts; keys and clock stay. */
  reset(): void {
    this.store.clear();
    this.requests.clear();
    this.faults.clear();
    this.limiter.reset();
    this.idempotency.reset();
    this.webhooks.reset();
  }

  /**
   * Answers one request. Rejects with {@link MockConnectionDropped} when a fault drops the connection.
   * @example
   * ```ts
   * const res = await service.handle(new Request(`http://mock/api/v1/external/questions/${id}`, {
   *   headers: { 'x-api-key': service.apiKey },
   * }));
   * ```
   */
  async handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    // The control surface answers beside the service: not logged, no faults, its own small body cap.
    if (this.httpControls && isControlPath(url.pathname)) return controlResponse(this, request, (headers) => this.keys.authenticate(headers));
    const method = request.method.toUpperCase();
    // HEAD is answered as GET without the body (RFC 9110); the log and the faults see HEAD.
    const head = method === 'HEAD';
    const route = this.router.match(head ? 'GET' : method, url.pathname);
    const operation = route.kind === 'operation' ? route.operation : undefined;
    const path = url.pathname.startsWith(`${API_PREFIX}/`) ? url.pathname.slice(API_PREFIX.length) : url.pathname;
    const body = await readBody(request, operation?.multipart === true);
    const entry: RecordedRequest = {
      method,
      path: this.keys.redact(`${path}${url.search}`),
      operation: operation?.sdkMethod,
      status: null,
      dropped: false,
      idempotencyKey: request.headers.get('idempotency-key') ?? undefined,
      headers: redactHeaders(request.headers, (value) => this.keys.redact(value)),
      body: loggedBody(body),
      at: this.clock.now(),
      requestId: `req_${crypto.randomUUID()}`,
    };
    this.requests.add(entry);
    // A body over its cap was never read: refused first, as a server's HTTP layer would.
    if (body.kind === 'too_large') {
      const response = errorResponse(bodyRefusal(body)!);
      response.headers.set('x-request-id', entry.requestId);
      entry.status = response.status;
      return response;
    }

    // Keyed operations follow the spec's idempotency rules. The key is claimed before any delay, so a
    // second request meanwhile finds the first in progress.
    const claim = operation?.idempotent ? this.idempotency.claim(request.headers, `${method} ${path} ${bodyFingerprint(body)}`) : undefined;
    if (claim?.kind === 'answer') {
      claim.response.headers.set('x-request-id', entry.requestId);
      entry.status = claim.response.status;
      noteAnswer(entry, claim.response);
      return claim.response;
    }
    const keyed = claim?.kind === 'proceed' ? claim : undefined;
    const fault = this.faults.take({ method, path, template: operation?.path, operation: operation?.sdkMethod });
    if (fault?.delayMs) {
      await delay(fault.delayMs, request.signal).catch((err: unknown) => {
        keyed?.release();
        throw err;
      });
    }
    if (fault?.drop && !fault.afterHandling) {
      keyed?.release();
      entry.dropped = true;
      throw new MockConnectionDropped();
    }
    const injected = fault ? faultResponse(fault) : undefined;
    const response =
      injected instanceof Response
        ? injected
        : injected
          ? errorResponse(injected)
          : await this.answer(route, request, url, body);
    response.headers.set('x-request-id', entry.requestId);
    entry.status = response.status;
    noteAnswer(entry, response);
    await keyed?.settle(response);
    if (fault?.drop) {
      entry.dropped = true;
      throw new MockConnectionDropped('connection dropped by an injected fault after the request was handled');
    }
    return head ? await withoutBody(response) : response;
  }

  /**
   * The methods the spec declares for a path (its `Allow` header), or `undefined` when no route has
   * the path. The HTTP server answers from it the methods a Fetch `Request` cannot carry (`TRACE`).
   * @example
   * ```ts
   * service.allowedMethods('/api/v1/external/questions'); // ['GET', 'POST']
   * service.allowedMethods('/api/v1/external/nowhere'); // undefined
   * ```
   */
  allowedMethods(pathname: string): string[] | undefined {
    return this.router.allowed(pathname);
  }

  /** Routing, auth, limits, input checks and the handler; every refusal becomes the error envelope. */
  private async answer(route: RouteMatch, request: Request, url: URL, body: BodyRead): Promise<Response> {
    try {
      // The service's OpenAPI document, beside the API (and at the root) and open to all (no operation has these paths).
      if (route.kind === 'not_found' && isOpenApiPath(url.pathname)) return await openApiResponse(request, url, this.httpControls);
      if (route.kind === 'not_found') throw notFound(`No route for ${request.method} ${url.pathname}`);
      // OPTIONS asks what a path takes: 204 with `Allow`, no key needed.
      if (route.kind === 'method_not_allowed' && request.method.toUpperCase() === 'OPTIONS') return new Response(null, { status: 204, headers: { allow: route.allow.join(', ') } });
      if (route.kind === 'method_not_allowed') throw methodNotAllowed(request.method, route.allow);
      const { operation, pathParams } = route;
      const principal = this.keys.authenticate(request.headers);
      requireScope(principal, operation.scope);
      if (this.rateLimitSetting) this.limiter.hit('requests', principal.key, this.rateLimitSetting.requestsPerMinute);
      const handler = this.handlers.get(operation.sdkMethod);
      if (!handler) {
        throw new MockHttpError(501, 'not_implemented', `${operation.sdkMethod} is not implemented by the mock service yet`);
      }
      // The body was read once, above: a multipart handler gets the bytes back as a request of its own.
      const forHandler = body.kind === 'multipart' ? new Request(request, { body: body.bytes }) : request;
      const ctx = this.context(operation, pathParams, await inputOf(operation, url, body, request), principal, forHandler);
      return toResponse(await handler.handle(ctx), operation);
    } catch (err) {
      if (err instanceof MockHttpError) return errorResponse(err);
      const message = err instanceof Error ? err.message : String(err);
      return errorResponse(new MockHttpError(500, 'api_error', `The mock service failed: ${message}`));
    }
  }

  private context(
    operation: Operation,
    pathParams: Record<string, string>,
    input: unknown,
    principal: Principal,
    request: Request,
  ): HandlerContext {
    return {
      operation,
      pathParams,
      input,
      principal,
      store: this.store,
      clock: this.clock,
      events: this.events,
      timestamp: () => new Date(this.clock.now()).toISOString(),
      limit: (name, perMinute) => this.limiter.hit(name, principal.key, perMinute),
      request,
      uploadsDisabled: this.uploads.disabled(principal.organizationId),
    };
  }
}

/** A HEAD answer: the GET answer's status and headers, its length kept, no body. */
async function withoutBody(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  if (response.body) headers.set('content-length', String((await response.arrayBuffer()).byteLength));
  return new Response(null, { status: response.status, statusText: response.statusText, headers });
}

/** The checked body (POST/PUT/PATCH; an upload's form with its files) or query (GET/DELETE). */
async function inputOf(operation: Operation, url: URL, body: BodyRead, request: Request): Promise<unknown> {
  const refusal = bodyRefusal(body);
  if (refusal) throw refusal;
  const query = operation.method === 'GET' || operation.method === 'DELETE';
  const form = operation.multipart && body.kind === 'multipart';
  const raw = query ? queryObject(url.searchParams, operation.params) : body.kind === 'json' ? body.value : form ? await formObject(body.bytes, request.headers) : {};
  const proto = protoKeyPath(raw);
  if (proto !== undefined) throw badRequest('is not a field the service takes', proto);
  return operation.params ? validate(operation.params, raw) : raw;
}

/** Notes in the log what a test may ask of an answer: its `Retry-After`, and whether it was a replay. */
function noteAnswer(entry: RecordedRequest, response: Response): void {
  const retryAfter = response.headers.get('retry-after');
  if (retryAfter !== null) entry.retryAfter = retryAfter;
  if (response.headers.get('idempotent-replayed') === 'true') entry.replayed = true;
}

function toResponse(result: unknown, operation: Operation): Response {
  if (result instanceof Reply) return jsonResponse(result.status ?? operation.status ?? 200, result.body, result.headers);
  if (result === undefined) return new Response(null, { status: operation.status ?? 204 });
  return jsonResponse(operation.status ?? 200, result);
}

/**
 * Creates a mock service. The default clock is a {@link ManualClock}: time moves only when a test
 * calls `service.clock.advance(ms)`.
 *
 * @example
 * ```ts
 * import { createMockService } from 'forecasting-sdk/testing';
 * const service = createMockService();
 * service.faults.add({ operation: 'questions.create', status: 503, retryAfter: 1 });
 * ```
 */
export function createMockService(options: MockServiceOptions = {}): MockService {
  return new MockService(options);
}
