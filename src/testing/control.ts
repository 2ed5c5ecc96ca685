/**
 * The mock's control surface over HTTP: what an in-process test does with `service.forecastControls`,
 * `service.clock` and `service.faults`, for a test written in any language. It lives at the server
 * root under `/__mock`, outside `/api/v1/external`, so it can never clash with a path of the service,
 * and only in a mock started with `httpControls: true` (as `forecasting mock` is).
 *
 * {@link MOCK_CONTROLS} is the one table: the routes are matched from it, the served OpenAPI document
 * describes them from it (tag "Mock control") and docs/cli.md's table is checked against
 * {@link mockControlsMarkdown}. Each route calls the same control objects an in-process test calls.
 *
 * Safe by construction: every route needs one of the mock's API keys, a body over
 * {@link MAX_CONTROL_BODY_BYTES} is refused unread, and every refusal is the service's typed error
 * envelope (400, 401, 404, 405, 413), never a 500.
 * @module
 */
import * as z from 'zod/mini';
import { FORECAST_OUTCOMES } from './models/forecasts/task.js';
import { errorResponse, jsonResponse, MockHttpError, notFound } from './http.js';
import { queryObject, readAtMost, utf8, validate } from './input.js';
import { ScaledClock, type MockClock } from './clock.js';
import type { ActiveFault, FaultInjector, FaultRule } from './faults.js';
import type { RequestLog } from './request-log.js';
import type { MockStore } from './store.js';
import type { MockControls } from './controls.js';

/**
 * What the control routes steer: the parts of a mock service they call. The service builds on
 * the control surface, not the reverse.
 */
interface ControlledService {
  readonly clock: MockClock;
  readonly store: MockStore;
  readonly faults: FaultInjector;
  readonly requests: RequestLog;
  readonly controls: Pick<MockControls, 'forecasts'>;
  reset(): void;
}

/**
 * Where the control surface lives, at the server root.
 * @example
 * ```ts
 * await fetch(`http://127.0.0.1:${port}${MOCK_CONTROL_PREFIX}/clock`, { headers: { authorization: `Bearer ${apiKey}` } });
 * ```
 */
export const MOCK_CONTROL_PREFIX = '/__mock';

/**
 * The largest body a control route reads, in bytes (8 KiB); a larger one answers 413 unread.
 * @example
 * ```ts
 * const tooBig = JSON.stringify({ message: 'x'.repeat(MAX_CONTROL_BODY_BYTES) }); // answers 413 request_too_large
 * ```
 */
export const MAX_CONTROL_BODY_BYTES = 8 * 1024;

/**
 * One control route: what the table holds for each.
 * @example
 * ```ts
 * for (const route of MOCK_CONTROLS) console.log(route.method, `${MOCK_CONTROL_PREFIX}${route.path}`, route.summary);
 * ```
 */
export interface MockControlRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Below {@link MOCK_CONTROL_PREFIX}; `{question_id}` is a path parameter. */
  path: string;
  /** One line, for the docs table and the OpenAPI summary. */
  summary: string;
  /** What it does in-process, for the docs table. */
  inProcess: string;
  /** The status of a success (default 200). */
  status?: number;
}

/** A route as the mock runs it: its body schema and its action (kept out of the published types). */
interface ControlRoute extends MockControlRoute {
  /** The JSON body it takes, if any. */
  body?: z.ZodMiniType;
  /** The query it reads, if any (checked as an operation's query is). */
  query?: z.ZodMiniType;
  run(service: ControlledService, input: unknown, params: Record<string, string>, query: unknown): unknown;
}

const Outcome = z.strictObject({
  task: z.optional(z.enum(['completed', 'failed', 'cancelled'])),
  report: z.optional(z.enum(['completed', 'failed'])),
  message: z.optional(z.string().check(z.maxLength(1000))),
});
const Credits = z.strictObject({
  balance: z.optional(z.int().check(z.gte(0))),
  unlimited: z.optional(z.boolean()),
});
// Not strict: a query parameter the route does not read is ignored, as on the API.
const RequestsPage = z.object({ since: z.optional(z.int().check(z.gte(0))), limit: z.optional(z.int().check(z.gte(1))) });
const Advance = z.strictObject({ ms: z.int().check(z.gte(0), z.lte(366 * 24 * 3_600_000)) });
const Fault = z.strictObject({
  operation: z.optional(z.string()),
  method: z.optional(z.string()),
  path: z.optional(z.string()),
  // `null`: every matching request until the rule is removed (JSON has no Infinity).
  times: z.optional(z.nullable(z.int().check(z.gte(1)))),
  status: z.optional(z.int()),
  type: z.optional(z.string()),
  message: z.optional(z.string().check(z.maxLength(1000))),
  retryAfter: z.optional(z.int().check(z.gte(0))),
  delayMs: z.optional(z.int().check(z.gte(0), z.lte(60_000))),
  drop: z.optional(z.boolean()),
  afterHandling: z.optional(z.boolean()),
  malformed: z.optional(z.boolean()),
});

/** A route, its input typed by its body schema (or its query by its query schema). */
function route<S extends z.ZodMiniType>(
  r: MockControlRoute & { body: S; run(service: ControlledService, input: z.output<S>, params: Record<string, string>): unknown },
): ControlRoute;
function route<Q extends z.ZodMiniType>(
  r: MockControlRoute & { query: Q; run(service: ControlledService, input: undefined, params: Record<string, string>, query: z.output<Q>): unknown },
): ControlRoute;
function route(r: Omit<ControlRoute, 'body'>): ControlRoute;
function route(r: ControlRoute): ControlRoute {
  return r;
}

/**
 * A time of the mock's clock as the control answers show it: whole ms, as their schemas say (a
 * clock at a fractional scale, or advanced by a fraction, keeps fractions a typed decoder refuses).
 */
const wholeMs = <T extends number | null>(ms: T): T => (ms === null ? ms : (Math.floor(ms) as T));

/** The clock as the control surface shows it. */
function clockView(service: ControlledService) {
  const now = wholeMs(service.clock.now());
  const scaled = service.clock instanceof ScaledClock;
  return { now, iso: new Date(now).toISOString(), kind: scaled ? 'scaled' : 'manual', timeScale: scaled ? (service.clock as ScaledClock).timeScale : null };
}

const faultView = (fault: ActiveFault) => ({ rule: fault.rule, remaining: fault.remaining, hits: fault.hits });

/** Every control route with its action; {@link MOCK_CONTROLS} is its public view. */
const CONTROL_ROUTES: readonly ControlRoute[] = [
  route({
    method: 'GET',
    path: '',
    summary: 'List the control routes',
    inProcess: '(this table)',
    run: () => ({ routes: MOCK_CONTROLS.map((r) => ({ method: r.method, path: `${MOCK_CONTROL_PREFIX}${r.path}`, summary: r.summary.replaceAll('`', '') })) }),
  }),
  route({
    method: 'GET',
    path: '/clock',
    summary: "Read the mock's clock: `now` (ms), `iso`, `kind` (`manual` or `scaled`), `timeScale`",
    inProcess: '`service.clock.now()`',
    run: (service) => clockView(service),
  }),
  route({
    method: 'POST',
    path: '/clock/advance',
    summary: 'Move the clock forward `{"ms": 60000}`: forecasts, reports and webhook retries due by then happen',
    inProcess: '`service.clock.advance(ms)`',
    body: Advance,
    run: (service, input) => {
      service.clock.advance(input.ms);
      return clockView(service);
    },
  }),
  route({
    method: 'PUT',
    path: '/questions/{question_id}/outcome',
    summary: 'How later forecasts of a question end, halfway through: `{"task": "failed", "message": "…"}`, `{"task": "cancelled"}`; or `{"report": "failed"}`',
    inProcess: '`service.forecastControls.setOutcome(id, outcome)`',
    body: Outcome,
    run: (service, input, params) => {
      const id = params['question_id']!;
      if (!service.store.questions.get(id)) throw notFound(`No question ${id}`);
      service.controls.forecasts.setOutcome(id, input);
      return service.store.collection(FORECAST_OUTCOMES).get(id);
    },
  }),
  route({
    method: 'GET',
    path: '/credits',
    summary: "Read the organization's credits: `{balance, unlimited}`",
    inProcess: '`service.forecastControls.credits()`',
    run: (service) => service.controls.forecasts.credits(),
  }),
  route({
    method: 'PUT',
    path: '/credits',
    summary: 'Set the balance or the unlimited flag: `{"balance": 0}`',
    inProcess: '`service.forecastControls.setCredits(change)`',
    body: Credits,
    run: (service, input) => service.controls.forecasts.setCredits(input),
  }),
  route({
    method: 'GET',
    path: '/forecasts/activity',
    summary:
      "The default key's user's API-started forecasts: `started`, `active` (running now), `maxActive` (the most at once) and `maxActiveAt`, and the starts refused by reason (`refused`: the error type, or `insufficient_credits`; batch items included)",
    inProcess: '`service.forecastControls.activity()`',
    run: (service) => {
      const { id, started, active, maxActive, maxActiveAt, refused } = service.controls.forecasts.activity();
      // In the order the docs and the schema list them.
      return { id, started, active, maxActive, maxActiveAt: wholeMs(maxActiveAt), refused };
    },
  }),
  route({
    method: 'POST',
    path: '/faults',
    summary:
      "Inject a fault on the next `times` requests (default 1; `null` for every one until removed) matching `operation` (the SDK's `questions.retrieve` or the OpenAPI operationId `questionsRetrieve`; an unknown one is a 400 naming the closest), `method` or `path` (`/questions/{question_id}`, with or without `/api/v1/external`): answer `status` with `type` and `message`, `retryAfter`; `drop` the connection (`afterHandling: true`: after the work is done); a `malformed` body; or wait `delayMs`",
    inProcess: '`service.faults.add(rule)`',
    body: Fault,
    status: 201,
    // In place, so the rule answered keeps the order it was posted in.
    // `operation` is any text here: faults.add checks it, naming the closest on a typo.
    run: (service, input) => faultView(service.faults.add((input.times === null ? { ...input, times: Infinity } : input) as FaultRule)),
  }),
  route({
    method: 'GET',
    path: '/faults',
    summary: 'The faults still active, with `hits` and `remaining`',
    inProcess: '`service.faults.list()`',
    run: (service) => ({ faults: service.faults.list().map(faultView) }),
  }),
  route({
    method: 'DELETE',
    path: '/faults',
    summary: 'Remove every fault',
    inProcess: '`service.faults.clear()`',
    status: 204,
    run: (service) => service.faults.clear(),
  }),
  route({
    method: 'GET',
    path: '/requests',
    summary:
      'The requests that reached the service, oldest first, keys redacted (control calls are not in it); `?since=<next>&limit=<n>` pages through them',
    inProcess: '`service.requests.list()`',
    // `dropped`: how many older requests the log let go (`requestLogLimit`), so a count stays whole.
    // `since` and `next` count every request since the start (or a reset), so a page stays put while older ones drop.
    query: RequestsPage,
    run: (service, _input, _params, { since = 0, limit }) => {
      const { dropped, length } = service.requests;
      // A count from the future (or from before a reset) would skip the requests up to it unseen.
      if (since > dropped + length) throw new MockHttpError(400, 'invalid_request_error', `since: must be at most ${dropped + length}, the requests so far (a reset counts from 0 again)`);
      const from = Math.max(since, dropped);
      const page = service.requests.list().slice(from - dropped, limit === undefined ? undefined : from - dropped + limit);
      return { requests: page.map((r) => ({ ...r, at: wholeMs(r.at) })), dropped, next: from + page.length };
    },
  }),
  route({
    method: 'POST',
    path: '/reset',
    summary: 'Empty the store, the request log, the faults, the limits and the forecast activity; keys and clock stay',
    inProcess: '`service.reset()`',
    status: 204,
    run: (service) => service.reset(),
  }),
];

/**
 * Every control route, in one table: the routes, the OpenAPI tag "Mock control" and docs/cli.md's
 * table all come from it.
 * @example
 * ```ts
 * MOCK_CONTROLS.map((r) => `${r.method} ${MOCK_CONTROL_PREFIX}${r.path}`); // ['GET /__mock', 'GET /__mock/clock', …]
 * ```
 */
export const MOCK_CONTROLS: readonly MockControlRoute[] = CONTROL_ROUTES;

/** Whether `pathname` belongs to the control surface. @internal */
export function isControlPath(pathname: string): boolean {
  return pathname === MOCK_CONTROL_PREFIX || pathname.startsWith(`${MOCK_CONTROL_PREFIX}/`);
}

function decodeOrUndefined(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The route and path parameters of `pathname`, or the methods the path allows. */
function match(method: string, pathname: string): { route: ControlRoute; params: Record<string, string> } | { allow: string[] } {
  const segments = pathname.slice(MOCK_CONTROL_PREFIX.length).split('/').filter(Boolean);
  const allow: string[] = [];
  for (const r of CONTROL_ROUTES) {
    const template = r.path.split('/').filter(Boolean);
    if (template.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const fits = template.every((part, i) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (name === undefined) return part === segments[i];
      // A malformed escape names no question: no route, as in the API's own router.
      const value = decodeOrUndefined(segments[i]!);
      if (value !== undefined) params[name] = value;
      return value !== undefined;
    });
    if (!fits) continue;
    if (r.method === method) return { route: r, params };
    allow.push(r.method);
  }
  return { allow };
}

/** The body as JSON (empty is `{}`), read up to {@link MAX_CONTROL_BODY_BYTES}. */
async function readControlBody(request: Request): Promise<unknown> {
  if (request.body === null) return {};
  const tooLarge = () => new MockHttpError(413, 'request_too_large', `A control body may be at most ${MAX_CONTROL_BODY_BYTES} bytes`);
  if (Number(request.headers.get('content-length') ?? NaN) > MAX_CONTROL_BODY_BYTES) {
    await request.body.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const bytes = await readAtMost(request.body, MAX_CONTROL_BODY_BYTES);
  if (bytes === undefined) throw tooLarge();
  const text = utf8(bytes);
  if (text === undefined) throw new MockHttpError(400, 'invalid_request_error', 'The control body is not valid UTF-8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new MockHttpError(400, 'invalid_request_error', 'The control body is not JSON');
  }
}

/**
 * Answers a request to the control surface. `authenticate` throws 401 unless the request carries
 * one of the mock's keys. Never throws: every failure is the typed error envelope.
 * @internal
 */
export async function controlResponse(service: ControlledService, request: Request, authenticate: (headers: Headers) => unknown): Promise<Response> {
  try {
    authenticate(request.headers);
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const found = match(method === 'HEAD' ? 'GET' : method, url.pathname);
    if ('allow' in found) {
      if (found.allow.length === 0) throw notFound(`No control route ${url.pathname}; GET ${MOCK_CONTROL_PREFIX} lists them`);
      const allow = found.allow.join(', ');
      throw new MockHttpError(405, 'invalid_request_error', `${method} is not allowed here; allowed: ${allow}`, {}, { allow });
    }
    const { route: r, params } = found;
    const raw = r.body ? await readControlBody(request) : {};
    const input = r.body ? validate(r.body, raw) : undefined;
    const query = r.query ? validate(r.query, queryObject(url.searchParams, r.query)) : undefined;
    const result = await r.run(service, input, params, query);
    return jsonResponse(r.status ?? 200, r.status === 204 || method === 'HEAD' ? undefined : result);
  } catch (err) {
    if (err instanceof MockHttpError) return errorResponse(err);
    // The control objects throw only on values they refuse (a fault rule that matches nothing, …).
    return errorResponse(new MockHttpError(400, 'invalid_request_error', err instanceof Error ? err.message : String(err)));
  }
}

/** The body schema of a control route, if it takes one. @internal */
export function controlBodySchema(route: MockControlRoute): z.ZodMiniType | undefined {
  return (route as ControlRoute).body;
}

/** The query schema of a control route, if it reads one. @internal */
export function controlQuerySchema(route: MockControlRoute): z.ZodMiniType | undefined {
  return (route as ControlRoute).query;
}

/**
 * The control routes as a markdown table, as docs/cli.md shows them (a test keeps the two equal).
 * @example
 * ```ts
 * console.log(mockControlsMarkdown()); // | Route | What it does | In-process | …
 * ```
 */
export function mockControlsMarkdown(): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const rows = MOCK_CONTROLS.map((r) => `| \`${r.method} ${MOCK_CONTROL_PREFIX}${r.path}\` | ${cell(r.summary)} | ${cell(r.inProcess)} |`);
  return ['| Route | What it does | In-process |', '| --- | --- | --- |', ...rows].join('\n');
}
