/**
 * The mock service object: Fetch `Request` in, `Response` out. The HTTP server and the msw
 * handlers are thin adapters over it.
 * @module
 */
import { declaredOperations } from '../api/index.js';
import { generateKey, KeyRing, redactedAnswer, type MockApiKey } from './auth.js';
import { ManualClock, ScaledClock, type MockClock } from './clock.js';
import { FaultInjector, type FaultRule } from './faults.js';
import { allHandlers } from './handlers/index.js';
import type { OperationHandler } from './handlers/types.js';
import { RateLimiter, type RateLimitSetting } from './rate-limit.js';
import { RequestLog } from './request-log.js';
import { Router } from './router.js';
import { MockStore } from './store.js';
import { MockEventBus } from './events.js';
import { IdempotencyLedger } from './idempotency.js';
import { insertCompletedForecast } from './models/forecasts/task.js';
import type { ForecastControls } from './models/forecasts/controls.js';
import { UploadSwitch, type ContextControls } from './models/context/controls.js';
import type { ConnectionControls } from './models/connections.js';
import { MockWebhookEngine, type MockWebhookOptions } from './webhooks/engine.js';
import { watchDecisions, type DecisionControls } from './models/decision.js';
import { controlResponse, isControlPath } from './control.js';
import { buildControls, type ControlEnv, type MockControls } from './controls.js';
import { answer, claimKey, injectFault, receive, refuseUnread, reply, type PipelineParts } from './pipeline.js';

export type { RateLimitSetting } from './rate-limit.js';

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
  apiKeys?: MockApiKey[] | undefined;
  /**
   * The clock (default: a {@link ManualClock} at 2025-01-01T00:00:00.000Z; `startMockServer`'s
   * default is a running {@link ScaledClock} instead).
   */
  clock?: MockClock | undefined;
  /** With no `clock`: run a {@link ScaledClock} this many times faster than real time (600 → 1.5 h in 9 s). */
  timeScale?: number | undefined;
  /**
   * The spec's request limit (60 a minute per key), counted on the mock clock. Default `false`:
   * with a manual clock that stands still, a test making more than 60 requests would hit it.
   * The 20-a-minute drafting limit, the 30-a-minute chat limit and the 10-a-minute limit on decision
   * calls that use a model are always on.
   */
  rateLimit?: RateLimitSetting | undefined;
  /** Fault rules active from the start (see {@link MockService.faults}). */
  faults?: FaultRule[] | undefined;
  /** The webhook delivery engine: `{ allowLoopbackReceivers: true }` lets it call receivers on 127.0.0.1. */
  webhooks?: MockWebhookOptions | undefined;
  /**
   * The organization setting that refuses file uploads with 403 `uploads_disabled`: `true` for every
   * organization, or the ids of some (default: uploads on). See also `contextControls.setUploadsDisabled`.
   */
  uploadsDisabled?: boolean | readonly string[] | undefined;
  /**
   * Makes forecast numbers reproducible: with a seed they derive from it, the question's content and
   * the forecast's place among the question's forecasts (the first, the second, …), not from the
   * random ids. The same seed and the same requests in the same order give the same numbers in
   * every run. Default: none (numbers vary from run to run, as ids do).
   */
  seed?: string | number | undefined;
  /**
   * Serve the HTTP control surface at `/__mock` (the server root): the clock, outcomes, credits,
   * faults, the request log and reset, for tests in other languages (`GET /__mock` lists the
   * routes). It needs one of the service's keys. Default `false`; `forecasting mock` turns it on.
   */
  httpControls?: boolean | undefined;
  /**
   * The most requests the request log ({@link MockService.requests}) keeps: when it is full, the
   * oldest is dropped (`requests.dropped` counts them), so a mock served for hours holds a bounded
   * log. A positive whole number, or `Infinity` to keep every one (a test that counts requests over
   * a long run). Default 10,000.
   * @example
   * ```ts
   * const service = createMockService({ requestLogLimit: Infinity }); // count every request of a long run
   * ```
   */
  requestLogLimit?: number | undefined;
  /** Replaces the handler table (a declared operation without a handler answers 501). @internal */
  handlers?: readonly OperationHandler[] | undefined;
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
  /** The requests that reached the service, oldest first: the latest `requestLogLimit` (default 10,000), fewer if those would take over 128 MiB. */
  readonly requests: RequestLog;
  /** Forecast events as they happen (the webhook engine listens here). */
  readonly events = new MockEventBus();
  /** Webhook deliveries: `await service.webhooks.idle()` waits for calls in flight; `calls()` lists them. */
  readonly webhooks: MockWebhookEngine;

  /**
   * The test hooks, one object per group, built once: `controls.forecasts`, `controls.decisions`,
   * `controls.context`, `controls.connections` (the `…Controls` getters are the same objects).
   */
  readonly controls: MockControls;

  private readonly keys: KeyRing;
  private readonly handlers = new Map<string, OperationHandler>();
  private rateLimitSetting: RateLimitSetting;
  private readonly uploads: UploadSwitch;
  private readonly httpControls: boolean;
  /** What the request steps share (see `pipeline.ts`). */
  private readonly parts: PipelineParts;

  constructor(options: MockServiceOptions = {}) {
    if (options.clock && options.timeScale !== undefined) throw new TypeError('Pass clock or timeScale, not both');
    this.requests = new RequestLog(options.requestLogLimit);
    this.clock =
      options.clock ?? (options.timeScale !== undefined ? new ScaledClock({ timeScale: options.timeScale }) : new ManualClock());
    const keys = options.apiKeys?.length ? options.apiKeys : [{ key: generateKey() }];
    this.keys = new KeyRing(keys);
    this.apiKey = keys[0]!.key;
    this.faults = new FaultInjector(options.faults);
    this.rateLimitSetting = options.rateLimit ?? false;
    this.uploads = new UploadSwitch(options.uploadsDisabled);
    this.httpControls = options.httpControls ?? false;
    if (options.seed !== undefined) this.store.seed = String(options.seed);
    const env: ControlEnv = { store: this.store, clock: this.clock, events: this.events, uploads: this.uploads, defaultCaller: () => this.defaultCaller() };
    this.webhooks = new MockWebhookEngine(env, options.webhooks);
    // Decisions hear completed forecasts: their conditions trigger and, in live mode, their summaries are rewritten.
    watchDecisions(env);
    this.controls = buildControls(env);
    const declared = new Set(declaredOperations.map((op) => op.sdkMethod));
    for (const handler of options.handlers ?? allHandlers) {
      if (!declared.has(handler.sdkMethod)) throw new Error(`Handler for undeclared operation ${handler.sdkMethod}`);
      if (this.handlers.has(handler.sdkMethod)) throw new Error(`Two handlers for ${handler.sdkMethod}`);
      this.handlers.set(handler.sdkMethod, handler);
    }
    this.parts = {
      env,
      keys: this.keys,
      router: new Router(declaredOperations),
      handlers: this.handlers,
      limiter: new RateLimiter(this.clock),
      idempotency: new IdempotencyLedger(this.clock),
      faults: this.faults,
      requests: this.requests,
      rateLimit: () => this.rateLimitSetting,
      httpControls: this.httpControls,
    };
  }

  /** Who the controls act for by default: the default key's organization and user. */
  private defaultCaller(): { organizationId: string; userId: string } {
    const principal = this.keys.find(this.apiKey);
    return { organizationId: principal?.organizationId ?? this.keys.defaultOrganizationId, userId: principal?.userId ?? '' };
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
    return this.controls.forecasts;
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
    return this.controls.decisions;
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
    return this.controls.context;
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
    return this.controls.connections;
  }

  /** Empties the store, the request log, the fault rules and the rate-limit counts; keys and clock stay. */
  reset(): void {
    this.store.clear();
    this.requests.clear();
    this.faults.clear();
    this.parts.limiter.reset();
    this.parts.idempotency.reset();
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
    // Its answers, and every refusal, never show a key a client put in a path, an id or a body.
    if (this.httpControls && isControlPath(url.pathname)) return redactedAnswer(await controlResponse(this, request, (headers) => this.keys.authenticate(headers)), this.keys);
    // The steps in request order, as the client sends: each answers, or hands on to the next.
    const call = await receive(this.parts, request, url);
    const response = refuseUnread(call) ?? (await claimKey(this.parts, call)) ?? (await injectFault(this.parts, call)) ?? (await answer(this.parts, call));
    return reply(call, response.status >= 400 ? await redactedAnswer(response, this.keys) : response);
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
    return this.parts.router.allowed(pathname);
  }
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
