/**
 * The OpenAPI 3.1 document of the whole service, derived from the operation declarations (method,
 * path, scope, params schema, response record, paging, idempotency, multipart, status) and their zod
 * schemas through zod's JSON Schema output. Nothing here is written twice: a group declared in
 * `resources/` appears in the document by being declared. What the declarations do not hold comes
 * from `openapi-data.json`: each operation's summary (the spec's purpose text) and its examples,
 * recorded from the mock service by `scripts/openapi-examples.ts`.
 *
 * Built once at build time into `dist/openapi.json` (see tsup.config.ts), and by the mock service
 * for `GET /api/v1/external/openapi.json` and `GET /openapi.json` (loaded only then).
 * @module
 * @internal
 */
import * as z from 'zod/mini';
import type { Operation } from './core/operation.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from './api/limits.js';
import { declaredOperations } from './api/index.js';
import { Timestamp } from './schemas/common.js';
import * as events from './schemas/events.js';
import { ForecastBatchParams, ForecastCreateParams } from './schemas/forecasts.js';
import { QuestionCreateParams } from './schemas/questions.js';
import { recordSchemas } from './schemas/records/index.js';
import * as accountRecords from './schemas/records/account.js';
import * as chatRecords from './schemas/records/chat.js';
import * as forecastRecords from './schemas/records/forecasts.js';
import * as questionRecords from './schemas/records/questions.js';
import * as scheduleRecords from './schemas/records/schedules.js';
import * as webhookRecords from './schemas/records/webhooks.js';
import { WEBHOOK_USER_AGENT } from './testing/webhooks/engine.js';
import { DELIVERY_ID_HEADER, EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER } from './webhooks/headers.js';
import data from './openapi-data.json' with { type: 'json' };

type Schema = z.core.JSONSchema.BaseSchema;
type $ZodType = z.core.$ZodType;
type Json = Record<string, unknown>;

/** What zod could not express goes in as `{}` (any value) with this note. */
const UNEXPRESSED = 'not expressible in JSON Schema (a check the SDK runs in code): any value is accepted here';

/** One request the recorder sent to the mock and the answer it got (see `scripts/openapi-examples.ts`). */
export interface RecordedExchange {
  /** The example's name in the document (`example`, or what sets it apart: `running`, `completed`). */
  name: string;
  request: {
    /** Path parameters by their name in the template. */
    path?: Record<string, string>;
    query?: Record<string, unknown>;
    headers?: Record<string, string>;
    contentType?: string;
    /** The JSON body, or the fields of a multipart body (`file` as its text). */
    body?: unknown;
  };
  response: { status: number; headers?: Record<string, string>; body?: unknown };
}

/** What `openapi-data.json` holds. */
export interface OpenApiData {
  /** By `METHOD /path`: the spec's purpose text and the recorded exchanges. */
  operations: Record<string, { summary: string; examples: RecordedExchange[] }>;
  /** By event kind: one call the mock made, with the headers a receiver gets. */
  webhooks: Record<string, { headers: Record<string, string>; body: unknown }>;
}

const recorded = data as unknown as OpenApiData;

/** Options of {@link openApiDocument}. */
export interface OpenApiOptions {
  /** The server to list, e.g. the mock's `http://127.0.0.1:<port>/api/v1/external`. Default: a `{base_url}` variable. */
  serverURL?: string;
  /** The declarations to describe (default: every declared operation). */
  operations?: readonly Operation[];
}

/**
 * The OpenAPI 3.1 document of the service.
 * @example
 * ```ts
 * const doc = openApiDocument({ serverURL: 'http://127.0.0.1:4010/api/v1/external' });
 * doc.paths['/questions'].post.operationId; // 'questionsCreate'
 * ```
 */
export function openApiDocument(options: OpenApiOptions = {}): Json {
  const ops = options.operations ?? declaredOperations;
  const schemas: Record<string, Schema> = { ...recordComponents(), ...requestComponents(), Error: errorEnvelope() };
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of ops) {
    const item = (paths[op.path] ??= {});
    item[op.method.toLowerCase()] = operationObject(op, schemas);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Forecasting Service',
      version: 'v1',
      summary: 'Probabilistic forecasts for binary, multiple-choice, numeric, discrete and date questions.',
      description: DESCRIPTION,
      // This document is part of forecasting-sdk (MIT); the service's own terms come from its operator.
      contact: { name: 'forecasting-sdk maintainers' },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      options.serverURL
        ? { url: options.serverURL, description: 'The forecasting-sdk mock service' }
        : {
            url: '{base_url}',
            description: "The service's base address, given by its operator; it ends in /api/v1/external",
            variables: { base_url: { default: 'https://forecasting.example/api/v1/external' } },
          },
    ],
    tags: [...new Set(ops.map(tagOf))].map((name) => ({ name, description: TAGS[name] ?? `In forecasting-sdk: \`client.${name}\`.` })),
    paths,
    webhooks: webhooks(),
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'The API key (begins `pre_`) as `Authorization: Bearer <key>`. Each operation names the scope it needs in `x-scope`.' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'The API key (begins `pre_`) as `X-Api-Key: <key>`. Each operation names the scope it needs in `x-scope`.' },
      },
      responses: {
        Error: {
          description: 'The error envelope; `error.type` names the case (see the `Error` schema).',
          headers: { 'Retry-After': { description: 'On 429 and 503: seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } } },
          content: { 'application/json': { schema: ref('Error') } },
        },
      },
    },
  };
}

const DESCRIPTION = [
  'Derived by forecasting-sdk from its own operation declarations and schemas; the examples were recorded from its mock service.',
  'Authenticate with an API key in `Authorization: Bearer <key>` or `X-Api-Key: <key>`; each operation names the scope it needs',
  'in `x-scope` (and in its description). Lists answer `{type: "list", data, hasMore, nextCursor}`;',
  'errors answer `{type: "error", error: {type, message, ...}}`. Objects are open: the service may add fields, and',
  'enum-like strings may take new values. Ids are UUIDs; timestamps are ISO 8601 in UTC with milliseconds.',
  'The service calls registered webhooks with signed events: see `webhooks`.',
].join(' ');

/** A sentence per tag (an SDK namespace), after the spec's groups. */
const TAGS: Record<string, string> = {
  questions: 'Questions (binary, multiple choice, numeric, discrete, date), and what hangs on one: its forecasts, context notes and files, schedule, watch, share links and subscription.',
  tags: 'The labels questions carry.',
  runModes: 'The run modes a forecast can take: rough time, price, and the default.',
  forecasts: 'Forecast tasks: start one or a batch, read and list them, cancel them, and chat about a completed one.',
  schedules: 'Every question schedule (repeated forecasts) of the caller.',
  watches: 'Every question watch (automatic reruns when the news moves the picture) of the caller.',
  credits: "The organization's credit balance, prices and plan.",
  webhooks: 'HTTPS addresses the service calls with signed forecast events, and the record of those calls (deliveries and attempts).',
  decisions: 'A choice among 2 to 4 options with a map of questions: drafts, nodes, links, notes, comments, conditions, forecasts and a summary.',
  presets: 'Forecast presets: notes, files and connections switched off, applied to the forecasts that use them.',
  questionTemplates: 'Question templates with blanks (`{key}`), to build questions from.',
  connections: 'Remote tool servers (MCP servers) that forecasts may call.',
};

function tagOf(op: Operation): string {
  return op.sdkMethod.split('.')[0]!;
}

/** `questions.forecasts.create` → `questionsForecastsCreate`. */
function operationId(op: Operation): string {
  return op.sdkMethod.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase());
}

function ref(name: string): Schema {
  return { $ref: `#/components/schemas/${name}` };
}

/**
 * What the document adds to the zod schemas, by schema: formats and the integer type the spec
 * states (the SDK's checks stay lenient), and the cross-field rule of `POST /forecasts`, which the
 * SDK checks in code.
 */
const annotations = z.registry<Record<string, unknown>>();
annotations.add(Timestamp, { format: 'date-time' });
annotations.add(forecastRecords.ActiveForecastTask.shape.creditsCharged, { type: 'integer' });
annotations.add(forecastRecords.ActiveForecastTask.shape.creditsRefunded, { type: 'integer' });
// Objects the records leave open on purpose, described as the spec does.
annotations.add(forecastRecords.ActiveForecastTask.shape.question, {
  description: 'The question forecast: the spec shows `{id, type, title}` in its samples, and every question field is present.',
  allOf: [ref('Question')],
});
annotations.add(questionRecords.NormalizeResult.shape.question._zod.def.innerType, {
  description: 'The drafted question, not saved: it can be passed to `POST /questions` or, as `question`, to `POST /forecasts`.',
  allOf: [ref('QuestionCreateParams')],
});
annotations.add(ForecastCreateParams, {
  description: 'Exactly one of `questionId` or `question`, and the run options.',
  oneOf: [{ required: ['questionId'] }, { required: ['question'] }],
});

/** Request schemas written once, as components: where they appear in a body, a `$ref`. */
const requestRefs = new Map<unknown, string>([
  [ForecastCreateParams, 'ForecastCreateParams'],
  // Typed as a forecast body and checked by the service item by item: the SDK's schema takes any object.
  [ForecastBatchParams.shape.items._zod.def.element, 'ForecastCreateParams'],
  [QuestionCreateParams, 'QuestionCreateParams'],
]);

function requestComponents(): Record<string, Schema> {
  return {
    ForecastCreateParams: schemaOf(ForecastCreateParams, 'input', false, ForecastCreateParams),
    QuestionCreateParams: schemaOf(QuestionCreateParams, 'input', false, QuestionCreateParams),
  };
}

/** The paging parameters every list takes, described once. */
const PAGING_PARAMETERS: Record<string, string> = {
  limit: 'Items per page.',
  cursor: 'The `nextCursor` of the previous page.',
  offset: 'How many items to skip.',
};

/** Headers the operations answer with beyond the envelope, by SDK method. */
const RESPONSE_HEADERS: Record<string, Record<string, Json>> = {
  'forecasts.retrieve': {
    'Retry-After': {
      description: 'While the task is not final: seconds to wait before reading it again (15 while queued, 120 while running).',
      schema: { type: 'integer', minimum: 0 },
    },
  },
};

function operationObject(op: Operation, schemas: Record<string, Schema>): Json {
  const key = `${op.method} ${op.path}`;
  const exchanges = recorded.operations[key]?.examples ?? [];
  const first = <T>(pick: (x: RecordedExchange) => T | undefined): T | undefined => exchanges.map(pick).find((v) => v !== undefined);
  const query = op.method === 'GET' || op.method === 'DELETE';
  const parameters: Json[] = op.pathParams.map((name) =>
    withExample(
      { name, in: 'path', required: true, description: `The ${name.replace(/_id$/, '').replaceAll('_', ' ')} id.`, schema: { type: 'string', format: 'uuid' } },
      first((x) => x.request.path?.[name]),
    ),
  );
  let requestBody: Json | undefined;
  if (op.params) {
    const schema = schemaOf(op.params, 'input', op.multipart === true);
    if (query) {
      for (const [name, { schema: property, required }] of Object.entries(propertiesOf(schema))) {
        parameters.push(
          withExample(
            {
              name,
              in: 'query',
              required,
              ...(op.paging && PAGING_PARAMETERS[name] ? { description: PAGING_PARAMETERS[name] } : {}),
              schema: property,
              ...(isArrayish(property) ? { style: 'form', explode: true } : {}),
            },
            first((x) => x.request.query?.[name]),
          ),
        );
      }
    } else {
      const content: Json = {};
      for (const [type, part] of bodyTypes(schema, op.multipart === true)) {
        content[type] = { schema: part, ...examplesOf(exchanges.filter((x) => x.request.contentType === type), (x) => x.request.body) };
      }
      requestBody = { required: !z.safeParse(op.params, {}).success, content };
    }
  }
  if (op.idempotent) {
    parameters.push(
      withExample(
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Repeating a request with the same key (and body) replays the first answer instead of acting twice; kept 24 hours per API key.',
          schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
        },
        first((x) => x.request.headers?.['Idempotency-Key']),
      ),
    );
  }
  const status = String(op.status ?? (op.response ? 200 : 204));
  const success: Json = { description: op.response ? `${op.paging ? 'A page of ' : ''}${op.response}${op.paging ? ' records' : ''}` : 'No content' };
  if (op.response) {
    success['content'] = {
      'application/json': {
        schema: op.paging ? listComponent(op.response, op.paging, schemas) : ref(op.response),
        ...examplesOf(exchanges, (x) => x.response.body),
      },
    };
  }
  const headers: Record<string, Json> = {};
  for (const [name, header] of Object.entries(RESPONSE_HEADERS[op.sdkMethod] ?? {})) {
    const raw = first((x) => x.response.headers?.[name.toLowerCase()]);
    // Header values are text on the wire; the example has the type of the header's schema.
    headers[name] = withExample({ ...header }, raw !== undefined && (header['schema'] as Schema).type === 'integer' ? Number(raw) : raw);
  }
  if (op.idempotent) {
    headers['Idempotent-Replayed'] = { description: '`true` when this answer replays an earlier request with the same `Idempotency-Key`.', schema: { type: 'string', enum: ['true'] } };
  }
  if (Object.keys(headers).length > 0) success['headers'] = headers;
  return {
    operationId: operationId(op),
    summary: recorded.operations[key]?.summary ?? key,
    description: `In forecasting-sdk: \`client.${op.sdkMethod}()\`. Needs the scope \`${op.scope}\`.${op.paging ? ` Pages by ${op.paging === 'cursor' ? '`limit` and `cursor`' : '`limit` and `offset`'}.` : ''}`,
    tags: [tagOf(op)],
    'x-scope': op.scope,
    'x-sdk-method': op.sdkMethod,
    // The scope is not a role of these schemes: OAuth scopes are the only ones linters know. It is in `x-scope`.
    security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: { [status]: success, '4XX': { $ref: '#/components/responses/Error' }, '5XX': { $ref: '#/components/responses/Error' } },
  };
}

/**
 * The body's content types: an upload is `multipart/form-data` (the branches with a binary `file`),
 * and `application/json` too when some branch takes none (a preset file's `{filename, contentBase64}`).
 */
function bodyTypes(schema: Schema, multipart: boolean): [string, Schema][] {
  if (!multipart) return [['application/json', schema]];
  const branches = (schema.anyOf ?? [schema]) as Schema[];
  const hasFile = (s: Schema) => (s.properties as Record<string, Schema> | undefined)?.['file']?.contentMediaType !== undefined;
  const one = (list: Schema[]): Schema => (list.length === 1 ? list[0]! : { anyOf: list });
  const files = branches.filter(hasFile);
  const json = branches.filter((s) => !hasFile(s));
  return [['multipart/form-data', one(files)] as [string, Schema], ...(json.length > 0 ? [['application/json', one(json)] as [string, Schema]] : [])];
}

/** A parameter or header with its recorded value as `example`, when there is one. */
function withExample(object: Json, example: unknown): Json {
  return example === undefined ? object : { ...object, example };
}

/** A media type's `examples`, by exchange name, from the exchanges that carry a value. */
function examplesOf(exchanges: readonly RecordedExchange[], pick: (x: RecordedExchange) => unknown): Json {
  const examples: Record<string, Json> = {};
  for (const x of exchanges) {
    const value = pick(x);
    if (value !== undefined) examples[x.name] ??= { value };
  }
  return Object.keys(examples).length > 0 ? { examples } : {};
}

/** The list envelope around a record, as a component `<Record>List` (offset pages answer `nextCursor: null`). */
function listComponent(record: string, paging: 'cursor' | 'offset', schemas: Record<string, Schema>): Schema {
  const name = `${record}List`;
  schemas[name] ??= {
    type: 'object',
    properties: {
      type: { type: 'string', const: 'list' },
      data: { type: 'array', items: ref(record) },
      hasMore: { type: 'boolean' },
      nextCursor: { type: ['string', 'null'], description: paging === 'offset' ? 'Offset-paged lists answer null: page with `offset`.' : 'Pass as `cursor` for the next page; null on the last.' },
    },
    required: ['data', 'hasMore'],
    additionalProperties: true,
  };
  return ref(name);
}

/**
 * Named parts of the records (`ForecastData`, `Subforecast`, `BinaryQuestion`, …): components too, so
 * a record refers to them instead of repeating them. A record module not listed here still appears
 * whole, through `recordSchemas`.
 */
const recordParts: readonly object[] = [accountRecords, chatRecords, forecastRecords, questionRecords, scheduleRecords, webhookRecords];

/** The webhook event bodies, by kind, with the spec's "emitted when". */
const EVENTS: readonly { kind: string; schema: string; when: string }[] = [
  { kind: 'forecast.started', schema: 'ForecastStartedEvent', when: 'A forecast was created and queued.' },
  { kind: 'forecast.completed', schema: 'ForecastCompletedEvent', when: 'A forecast has its answer.' },
  { kind: 'forecast.failed', schema: 'ForecastFailedEvent', when: 'A forecast failed.' },
  { kind: 'forecast.cancelled', schema: 'ForecastCancelledEvent', when: 'A forecast was cancelled.' },
  {
    kind: 'forecast.report.completed',
    schema: 'ForecastReportCompletedEvent',
    when: 'The report is done, or failed for the last time (`data.reportStatus`); arrives shortly after `forecast.completed`, and again when a failed report is rewritten.',
  },
  { kind: 'webhook.test', schema: 'WebhookTestEvent', when: 'A test call was requested (`POST /webhooks/{webhook_id}/test`), even while the webhook is paused. It cannot be subscribed to.' },
];

/** Every record schema as a component, cross-references (`Tag` inside `Question`) as `$ref`s; the event bodies too. */
function recordComponents(): Record<string, Schema> {
  const registry = z.registry<{ id: string }>();
  const named = new Map<unknown, string>();
  for (const module of recordParts) for (const [name, value] of Object.entries(module)) if (isSchema(value)) named.set(value, name);
  // The response names last: they win where a schema has two names.
  for (const [name, schema] of Object.entries(recordSchemas)) named.set(schema, name);
  for (const { schema } of EVENTS) named.set((events as unknown as Record<string, unknown>)[schema], schema);
  for (const [schema, name] of named) registry.add(schema as z.ZodMiniType, { id: name });
  const { schemas } = z.toJSONSchema(registry, {
    io: 'output',
    uri: (id: string) => `#/components/schemas/${id}`,
    metadata: annotations,
    unrepresentable: unexpressed(false),
    override: emptyTuples,
  });
  const eventNames = new Set(EVENTS.map((e) => e.schema));
  const out: Record<string, Schema> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    const cleaned = clean(schema);
    // An event's own `id` is `<prefix>:<kind>:<id>`, not a UUID: only the ids in its `data` are.
    if (eventNames.has(name)) uuidIds((cleaned.properties as Record<string, Schema>)['data']!);
    else uuidIds(cleaned);
    out[name] = cleaned;
  }
  return out;
}

/**
 * The spec's general rule, "ids are UUID strings": a string field named `id` or `…Id` (and the items
 * of a `…Ids` array) of what the service answers gets `format: uuid`.
 */
function uuidIds(schema: Schema): void {
  const strings = (s: Schema): Schema[] =>
    s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string')) ? [s] : ((s.anyOf ?? []) as Schema[]).filter((b) => b.type === 'string');
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    const s = value as Schema;
    for (const [name, property] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
      if (name === 'id' || /[a-z]Id$/.test(name)) for (const target of strings(property)) target.format ??= 'uuid';
      if (/[a-z]Ids$/.test(name) && property.type === 'array' && property.items) for (const target of strings(property.items as Schema)) target.format ??= 'uuid';
    }
    for (const child of Object.values(s)) visit(child);
  };
  visit(schema);
}

/**
 * One schema, inline (no `$schema`); what zod cannot express becomes `{}` with a `$comment`, or a file
 * in a multipart body. The request components appear as `$ref`s, except `self`: the one being written.
 */
function schemaOf(schema: $ZodType, io: 'input' | 'output', multipart: boolean, self?: unknown): Schema {
  return clean(
    z.toJSONSchema(schema, {
      io,
      metadata: annotations,
      unrepresentable: unexpressed(multipart),
      override: (ctx) => {
        emptyTuples(ctx);
        const name = ctx.zodSchema === self ? undefined : requestRefs.get(ctx.zodSchema);
        if (name) {
          for (const key of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as Json)[key];
          Object.assign(ctx.jsonSchema, ref(name));
        }
      },
    }),
  );
}

/**
 * An empty tuple (a field a question type does not take, `options: []`) is written as an array of
 * no items: zod's `prefixItems: []` is not valid JSON Schema 2020-12, which wants at least one.
 */
function emptyTuples({ zodSchema, jsonSchema }: { zodSchema: $ZodType; jsonSchema: Schema }): void {
  const def = zodSchema._zod.def as { type: string; items?: unknown[]; rest?: unknown };
  if (def.type !== 'tuple' || def.items?.length !== 0 || def.rest) return;
  delete jsonSchema.prefixItems;
  Object.assign(jsonSchema, { type: 'array', items: {}, maxItems: 0 });
}

function unexpressed(multipart: boolean) {
  return ({ zodSchema }: { zodSchema: $ZodType }): Schema =>
    multipart && zodSchema._zod.def.type === 'custom'
      ? { type: 'string', contentMediaType: 'application/octet-stream', description: 'The file: its bytes, as a multipart file part.' }
      : { $comment: UNEXPRESSED };
}

/** Drops the keys that belong to a standalone JSON Schema document, not to a schema inside OpenAPI. */
function clean(schema: Schema): Schema {
  const { $schema: _schema, $id: _id, ...rest } = schema as Schema & { $schema?: string; $id?: string };
  return rest;
}

/** The properties of an object schema, or of the branches of a union of objects (required only when every branch requires it). */
function propertiesOf(schema: Schema): Record<string, { schema: Schema; required: boolean }> {
  const branches = (schema.anyOf ?? schema.oneOf ?? [schema]) as Schema[];
  const out: Record<string, { schema: Schema; required: boolean }> = {};
  branches.forEach((branch, i) => {
    for (const [name, property] of Object.entries((branch.properties ?? {}) as Record<string, Schema>)) {
      const required = (branch.required ?? []).includes(name) && (i === 0 || out[name]?.required === true);
      out[name] ??= { schema: property, required };
      out[name].required = required;
    }
  });
  // A property some branch lacks is never required.
  for (const name of Object.keys(out)) if (!branches.every((b) => name in ((b.properties ?? {}) as object))) out[name]!.required = false;
  return out;
}

function isSchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

function isArrayish(schema: Schema): boolean {
  return schema.type === 'array' || ((schema.anyOf ?? []) as Schema[]).some((s) => s.type === 'array');
}

/** `x-service-signature` → `X-Service-Signature`. */
function headerName(name: string): string {
  return name.replace(/(^|-)(\w)/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

const SIGNATURE_SCHEME = [
  '`t=<unix seconds>,v1=<signature>`. The signature is HMAC-SHA256, keyed with the whole signing secret (including `whsec_`),',
  'over the text `<t>.` followed by the raw body bytes, written as lowercase hex. Accept the call when your result equals any `v1`',
  '(compare in constant time; for 24 hours after a secret rotation two `v1` values appear, one per secret), and refuse a `t`',
  'more than 5 minutes from your clock. Every attempt is signed anew, with a new `t`. In forecasting-sdk:',
  '`verifyWebhook(body, headers, secret)` from `forecasting-sdk/webhooks`.',
].join(' ');

/** The headers of a webhook call of `kind`, with the values of the call the mock made as examples. */
function webhookHeaders(kind: string): Json[] {
  const sent = recorded.webhooks[kind]?.headers ?? {};
  const header = (name: string, description: string, schema: Schema): Json =>
    withExample({ name: headerName(name), in: 'header', required: true, description, schema }, sent[name]);
  return [
    header(SIGNATURE_HEADER, `The signature: ${SIGNATURE_SCHEME}`, { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' }),
    header(EVENT_ID_HEADER, 'The body `id`: service prefix, event kind and forecast id joined by colons; a resent event keeps it.', { type: 'string' }),
    header(EVENT_TYPE_HEADER, 'The body `type`.', { type: 'string', const: kind }),
    header(DELIVERY_ID_HEADER, 'The delivery id, kept across retries and replays: calls can arrive more than once and out of order, and this identifies duplicates.', { type: 'string', format: 'uuid' }),
    header('user-agent', 'The agent token of the service’s webhook calls.', { type: 'string', const: WEBHOOK_USER_AGENT }),
  ];
}

/** OpenAPI 3.1 `webhooks`: the signed `POST` the service makes to a registered webhook, per event kind. */
function webhooks(): Json {
  const out: Json = {};
  for (const { kind, schema, when } of EVENTS) {
    const call = recorded.webhooks[kind];
    out[kind] = {
      post: {
        operationId: `on${kind.replace(/(^|\.)(\w)/g, (_, _dot: string, c: string) => c.toUpperCase())}`,
        summary: kind,
        description: [
          when,
          'The service calls each enabled webhook subscribed to the kind (`eventKinds`) with a signed HTTPS `POST`; events that happen while a webhook is paused are not sent later.',
          'Verify `X-Service-Signature` (its scheme is under that header) over the raw body before trusting it.',
        ].join(' '),
        tags: ['webhooks'],
        // Signed (see X-Service-Signature), not sent with an API key.
        security: [],
        parameters: webhookHeaders(kind),
        requestBody: {
          required: true,
          description: 'JSON with keys in alphabetical order and no spaces: ids and a link, never the forecast itself. Verify the signature over these exact bytes, before parsing them.',
          content: { 'application/json': { schema: ref(schema), ...(call ? { examples: { [kind]: { value: call.body } } } : {}) } },
        },
        responses: {
          '2XX': { description: 'Received. Answer within 10 seconds; at most 1 KB of the answer is read, then ignored.' },
          default: {
            description:
              'Not received. No answer within 10 seconds, no connection, 408, 425, 429 or 5xx: tried again after 30 seconds, 2 minutes, 10 minutes, 30 minutes and 2 hours (6 attempts in all). Any other answer, a redirect included: failed at once, with no retry.',
          },
        },
      },
    };
  }
  return out;
}

/** The error envelope, with the spec's `error.type` values. */
function errorEnvelope(): Schema {
  return {
    type: 'object',
    description: 'Every error answer. `error.message` names the offending field where relevant.',
    properties: {
      type: { type: 'string', const: 'error' },
      error: {
        type: 'object',
        properties: {
          type: {
            type: 'string',
            description: 'Known values; others may come (decision conflicts, for example).',
            examples: ERROR_TYPES,
          },
          message: { type: 'string' },
          activeTaskId: { type: 'string', description: 'On `forecast_already_running`: the running task.' },
          files: { type: 'array', description: 'On `context_not_ready`: the files still processing.', items: {} },
        },
        required: ['type', 'message'],
        additionalProperties: true,
      },
    },
    required: ['type', 'error'],
  };
}

const ERROR_TYPES = [
  'invalid_request_error',
  'invalid_api_key',
  'permission_denied',
  'uploads_disabled',
  'not_found',
  'forecast_already_running',
  'context_not_ready',
  'idempotency_in_progress',
  'rate_limit_error',
  'too_many_active_forecasts',
  'overloaded_error',
];
