/**
 * The "Mock control" tag of the mock's OpenAPI document: each control route named as a person would
 * (`advanceClock`, `setQuestionOutcome`), with the schema of its answer, its fields described, and an
 * example (a test checks the examples and the routes' real answers against these schemas).
 * @module
 */
import * as z from 'zod/mini';
import { MOCK_CONTROL_PREFIX, MOCK_CONTROLS, controlBodySchema, controlQuerySchema } from './control.js';

type Json = Record<string, unknown>;

const integer = (description: string): Json => ({ type: 'integer', description });
const string = (description: string): Json => ({ type: 'string', description });

const CLOCK: Json = {
  type: 'object',
  properties: {
    now: integer("The mock's time, in ms since the epoch."),
    iso: { type: 'string', format: 'date-time', description: 'The same time as an ISO 8601 timestamp.' },
    kind: { type: 'string', enum: ['manual', 'scaled'], description: '`manual`: time moves only when advanced; `scaled`: it runs `timeScale` times faster than real time.' },
    timeScale: { type: ['number', 'null'], description: 'How much faster than real time a scaled clock runs; `null` for a manual one.' },
  },
  required: ['now', 'iso', 'kind', 'timeScale'],
};
const CLOCK_EXAMPLE = { now: 1798761600000, iso: '2027-01-01T00:00:00.000Z', kind: 'manual', timeScale: null };

const CREDITS: Json = {
  type: 'object',
  properties: { balance: integer("The organization's credit balance."), unlimited: { type: 'boolean', description: 'Whether starts are never refused for credits.' } },
  required: ['balance', 'unlimited'],
};

const FAULT_RULE: Json = {
  type: 'object',
  description: 'The rule as it matches: `operation` as the SDK names it, `path` below /api/v1/external.',
  properties: {
    operation: string('The operation it matches, as the SDK names it (`questions.retrieve`).'),
    method: string('The HTTP method it matches.'),
    path: string('The path template or concrete path it matches, below /api/v1/external.'),
    times: { type: ['integer', 'null'], minimum: 1, description: 'How many matching requests it applies to (`null`: every one until removed).' },
    status: integer('The status it answers.'),
    type: string("The error envelope's `error.type`."),
    message: string("The error envelope's `error.message`."),
    retryAfter: integer('The `Retry-After` it sends, in seconds.'),
    delayMs: integer('How long it waits first, in real ms.'),
    drop: { type: 'boolean', description: 'Whether it closes the connection without an answer.' },
    afterHandling: { type: 'boolean', description: 'With `drop`: whether the request is handled first.' },
    malformed: { type: 'boolean', description: 'Whether it answers a body that is not JSON.' },
  },
};
const FAULT: Json = {
  type: 'object',
  properties: {
    rule: FAULT_RULE,
    remaining: { type: ['number', 'null'], description: 'How many more matching requests it applies to (`null`: every one, `times: null`).' },
    hits: integer('How many requests it has applied to so far.'),
  },
  required: ['rule', 'remaining', 'hits'],
};
const FAULT_EXAMPLE = { rule: { operation: 'questions.retrieve', status: 503, retryAfter: 2 }, remaining: 1, hits: 0 };

const REQUEST: Json = {
  type: 'object',
  properties: {
    method: string('Upper-case HTTP method.'),
    path: string('Path below /api/v1/external, with the query.'),
    operation: { type: ['string', 'null'], description: 'The operation as the SDK names it; absent when no route matched.' },
    status: { type: ['integer', 'null'], description: 'The status answered; `null` when the connection was dropped first.' },
    dropped: { type: 'boolean', description: 'Whether a fault dropped the connection.' },
    idempotencyKey: string('The `Idempotency-Key` header, if sent.'),
    headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'Request headers, lower-case names, the API key `[redacted]`.' },
    body: { description: 'The parsed JSON body, the raw text, or a short `[…]` description of a refused, clipped or multipart one.' },
    at: integer("When it arrived, on the mock's clock (ms since the epoch)."),
  },
  required: ['method', 'path', 'status', 'dropped', 'headers', 'at'],
};
const REQUEST_EXAMPLE = {
  method: 'GET',
  path: '/questions?limit=2',
  operation: 'questions.list',
  status: 200,
  dropped: false,
  headers: { authorization: '[redacted]', accept: 'application/json' },
  at: 1798761600000,
};

const REQUESTS: Json = {
  type: 'object',
  properties: {
    requests: { type: 'array', items: REQUEST, description: 'The requests the log keeps (the latest `requestLogLimit`, default 10,000, fewer if those would take over 128 MiB), oldest first.' },
    dropped: {
      type: 'integer',
      minimum: 0,
      description: "How many older requests the log dropped to stay within `requestLogLimit` (or 128 MiB), since the mock started or was last reset (a request's own `dropped` is a dropped connection).",
    },
    next: {
      type: 'integer',
      minimum: 0,
      description: 'Pass it as `since` for the requests after these. Requests are counted from the start (or the last reset), dropped ones included; a `since` below `dropped` starts at the oldest kept.',
    },
  },
  required: ['requests', 'dropped', 'next'],
};

/** What each query parameter of `GET /requests` means (its type comes from the route's schema). */
const REQUESTS_QUERY: Record<string, string> = {
  since: 'The `next` of the previous page: the requests from that count on (default 0, the oldest kept); past the requests so far it is a 400.',
  limit: 'At most this many requests (default: every one kept from `since`).',
};

const ACTIVITY: Json = {
  type: 'object',
  description: "The mock's record of one user's API-started forecasts (single starts, batch items, starts on a question).",
  properties: {
    id: string('The user id.'),
    started: { type: 'integer', minimum: 0, description: 'Forecasts started through the API.' },
    active: { type: 'integer', minimum: 0, description: 'Those running now.' },
    maxActive: { type: 'integer', minimum: 0, description: 'The most that ran at once, counted at each start (the service allows 50).' },
    maxActiveAt: { type: ['integer', 'null'], description: "When that most was first reached, on the mock's clock (ms since the epoch); `null` before any start." },
    refused: {
      type: 'object',
      additionalProperties: { type: 'integer', minimum: 1 },
      description: 'Starts refused, by reason: the error type (`too_many_active_forecasts`, `forecast_already_running`, …), or `insufficient_credits`; a batch item refused inside a 202 answer counts too.',
    },
  },
  required: ['id', 'started', 'active', 'maxActive', 'maxActiveAt', 'refused'],
};

/** The name, answer schema and example of each route, by `<METHOD> <path>`. */
const DESCRIBED: Record<string, { operationId: string; schema?: Json; example?: unknown; query?: Record<string, string> }> = {
  'GET ': {
    operationId: 'listControlRoutes',
    schema: {
      type: 'object',
      properties: { routes: { type: 'array', items: { type: 'object', properties: { method: string('HTTP method.'), path: string('Path from the server root.'), summary: string('What it does.') }, required: ['method', 'path', 'summary'] } } },
      required: ['routes'],
    },
    example: { routes: [{ method: 'GET', path: '/__mock/clock', summary: "Read the mock's clock" }] },
  },
  'GET /clock': { operationId: 'getClock', schema: CLOCK, example: CLOCK_EXAMPLE },
  'POST /clock/advance': { operationId: 'advanceClock', schema: CLOCK, example: { ...CLOCK_EXAMPLE, now: 1798761660000, iso: '2027-01-01T00:01:00.000Z' } },
  'PUT /questions/{question_id}/outcome': {
    operationId: 'setQuestionOutcome',
    schema: {
      type: 'object',
      description: 'How later forecasts of the question end.',
      properties: { task: { type: 'string', enum: ['completed', 'failed', 'cancelled'] }, message: string("A failed task's `error.message`."), report: { type: 'string', enum: ['completed', 'failed'] } },
    },
    example: { task: 'failed', message: 'The model could not resolve the question.' },
  },
  'GET /credits': { operationId: 'getCredits', schema: CREDITS, example: { balance: 480, unlimited: false } },
  'PUT /credits': { operationId: 'setCredits', schema: CREDITS, example: { balance: 0, unlimited: false } },
  'GET /forecasts/activity': {
    operationId: 'getForecastActivity',
    schema: ACTIVITY,
    example: { id: 'user_default', started: 52, active: 50, maxActive: 50, maxActiveAt: 1798761600000, refused: { too_many_active_forecasts: 2 } },
  },
  'POST /faults': { operationId: 'addFault', schema: FAULT, example: FAULT_EXAMPLE },
  'GET /faults': { operationId: 'listFaults', schema: { type: 'object', properties: { faults: { type: 'array', items: FAULT } }, required: ['faults'] }, example: { faults: [FAULT_EXAMPLE] } },
  'DELETE /faults': { operationId: 'clearFaults' },
  'GET /requests': { operationId: 'listRequests', schema: REQUESTS, example: { requests: [REQUEST_EXAMPLE], dropped: 0, next: 1 }, query: REQUESTS_QUERY },
  'POST /reset': { operationId: 'resetMock' },
};

/** What a control route answers, as described in the document: its name, schema and example. @internal */
export function controlAnswer(method: string, path: string): { operationId: string; schema?: Json; example?: unknown; query?: Record<string, string> } {
  const described = DESCRIBED[`${method} ${path}`];
  if (!described) throw new Error(`control route ${method} ${path} is not described`);
  return described;
}

/**
 * The control routes as OpenAPI paths under the tag "Mock control", each with the mock's `origin` as
 * its server. @internal
 */
export function mockControlsOpenApi(origin: string): { tag: { name: string; description: string }; paths: Record<string, Record<string, unknown>> } {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of MOCK_CONTROLS) {
    const path = `${MOCK_CONTROL_PREFIX}${r.path}`;
    const item = (paths[path] ??= { servers: [{ url: origin, description: 'The mock itself (outside /api/v1/external)' }] });
    const body = controlBodySchema(r);
    const querySchema = controlQuerySchema(r);
    const { operationId, schema, example, query = {} } = controlAnswer(r.method, r.path);
    const fromQuery = Object.entries((querySchema ? jsonSchemaOf(querySchema)['properties'] : undefined) ?? {}).map(([name, type]) => ({ name, in: 'query', required: false, ...(query[name] ? { description: query[name] } : {}), schema: type }));
    const params = [...[...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } })), ...fromQuery];
    item[r.method.toLowerCase()] = {
      tags: [MOCK_CONTROL_TAG],
      summary: r.summary.replaceAll('`', ''),
      operationId,
      security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
      ...(params.length ? { parameters: params } : {}),
      ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(body) } } } } : {}),
      responses: {
        [String(r.status ?? 200)]: schema ? { description: 'Done', content: { 'application/json': { schema, example } } } : { description: 'Done' },
        default: { description: 'A typed error (400, 401, 404, 405, 413)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    };
  }
  return {
    tag: { name: MOCK_CONTROL_TAG, description: `Only in the mock service: steer it from a test in any language (${MOCK_CONTROL_PREFIX}, at the server root; the mock's API key).` },
    paths,
  };
}

const MOCK_CONTROL_TAG = 'Mock control';

function jsonSchemaOf(schema: z.ZodMiniType): Record<string, unknown> {
  // `z.int()`'s safe-integer range is no bound a reader needs (the API's document drops it too: tidyIntegers).
  const override = ({ jsonSchema: s }: { jsonSchema: { minimum?: number; maximum?: number } }) => {
    if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
    if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
  };
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', override }) as Record<string, unknown>;
  return rest;
}
