/**
 * The OpenAPI 3.1 document of the whole service, derived from the operation declarations (method,
 * path, scope, params schema, response record, paging, idempotency, multipart, status) and their zod
 * schemas through zod's JSON Schema output. Nothing here is written twice: a group declared in
 * `resources/` appears in the document by being declared.
 *
 * Built once at build time into `dist/openapi.json` (see tsup.config.ts), and by the mock service
 * for `GET /api/v1/external/openapi.json` (loaded only then).
 * @module
 * @internal
 */
import * as z from 'zod/mini';
import type { Operation } from './core/operation.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from './core/limits.js';
import { declaredOperations } from './operations.js';
import { recordSchemas } from './schemas/records/index.js';
import * as accountRecords from './schemas/records/account.js';
import * as chatRecords from './schemas/records/chat.js';
import * as forecastRecords from './schemas/records/forecasts.js';
import * as questionRecords from './schemas/records/questions.js';
import * as scheduleRecords from './schemas/records/schedules.js';
import * as webhookRecords from './schemas/records/webhooks.js';

type Schema = z.core.JSONSchema.BaseSchema;
type $ZodType = z.core.$ZodType;
type Json = Record<string, unknown>;

/** What zod could not express goes in as `{}` (any value) with this note. */
const UNEXPRESSED = 'not expressible in JSON Schema (a check the SDK runs in code): any value is accepted here';

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
  const schemas: Record<string, Schema> = { ...recordComponents(), Error: errorEnvelope() };
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
    tags: [...new Set(ops.map(tagOf))].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'The API key (begins `pre_`) as `Authorization: Bearer <key>`.' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'The API key (begins `pre_`) as `X-Api-Key: <key>`.' },
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
  'Derived by forecasting-sdk from its own operation declarations and schemas.',
  'Authenticate with an API key in `Authorization: Bearer <key>` or `X-Api-Key: <key>`; each operation lists the scope it needs',
  '(`x-scope`, and as the role of its security requirements). Lists answer `{type: "list", data, hasMore, nextCursor}`;',
  'errors answer `{type: "error", error: {type, message, ...}}`. Objects are open: the service may add fields, and',
  'enum-like strings may take new values.',
].join(' ');

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

function operationObject(op: Operation, schemas: Record<string, Schema>): Json {
  const query = op.method === 'GET' || op.method === 'DELETE';
  const parameters: Json[] = op.pathParams.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string', minLength: 1 } }));
  let requestBody: Json | undefined;
  if (op.params) {
    const schema = schemaOf(op.params, 'input', op.multipart === true);
    if (query) {
      for (const [name, { schema: property, required }] of Object.entries(propertiesOf(schema))) {
        parameters.push({ name, in: 'query', required, schema: property, ...(isArrayish(property) ? { style: 'form', explode: true } : {}) });
      }
    } else {
      requestBody = {
        required: !z.safeParse(op.params, {}).success,
        content: { [op.multipart ? 'multipart/form-data' : 'application/json']: { schema } },
      };
    }
  }
  if (op.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Repeating a request with the same key (and body) replays the first answer instead of acting twice; kept 24 hours per API key.',
      schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
    });
  }
  const status = String(op.status ?? (op.response ? 200 : 204));
  const success: Json = { description: op.response ? `${op.paging ? 'A page of ' : ''}${op.response}${op.paging ? ' records' : ''}` : 'No content' };
  if (op.response) {
    success['content'] = { 'application/json': { schema: op.paging ? listComponent(op.response, op.paging, schemas) : ref(op.response) } };
  }
  if (op.idempotent) {
    success['headers'] = { 'Idempotent-Replayed': { description: '`true` when this answer replays an earlier request with the same `Idempotency-Key`.', schema: { type: 'string', enum: ['true'] } } };
  }
  return {
    operationId: operationId(op),
    summary: `${op.method} ${op.path}`,
    description: `In forecasting-sdk: \`client.${op.sdkMethod}()\`. Needs the scope \`${op.scope}\`.${op.paging ? ` Pages by ${op.paging === 'cursor' ? '`limit` and `cursor`' : '`limit` and `offset`'}.` : ''}`,
    tags: [tagOf(op)],
    'x-scope': op.scope,
    'x-sdk-method': op.sdkMethod,
    security: [{ bearerAuth: [op.scope] }, { apiKeyHeader: [op.scope] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: { [status]: success, '4XX': { $ref: '#/components/responses/Error' }, '5XX': { $ref: '#/components/responses/Error' } },
  };
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

/** Every record schema as a component, cross-references (`Tag` inside `Question`) as `$ref`s. */
function recordComponents(): Record<string, Schema> {
  const registry = z.registry<{ id: string }>();
  const named = new Map<unknown, string>();
  for (const module of recordParts) for (const [name, value] of Object.entries(module)) if (isSchema(value)) named.set(value, name);
  // The response names last: they win where a schema has two names.
  for (const [name, schema] of Object.entries(recordSchemas)) named.set(schema, name);
  for (const [schema, name] of named) registry.add(schema as z.ZodMiniType, { id: name });
  const { schemas } = z.toJSONSchema(registry, {
    io: 'output',
    uri: (id: string) => `#/components/schemas/${id}`,
    unrepresentable: unexpressed(false),
  });
  const out: Record<string, Schema> = {};
  for (const [name, schema] of Object.entries(schemas)) out[name] = clean(schema);
  return out;
}

/** One schema, inline (no `$schema`); what zod cannot express becomes `{}` with a `$comment`, or a file in a multipart body. */
function schemaOf(schema: $ZodType, io: 'input' | 'output', multipart: boolean): Schema {
  return clean(z.toJSONSchema(schema, { io, unrepresentable: unexpressed(multipart) }));
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
