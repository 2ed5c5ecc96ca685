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
import { operationIdOf } from './api/operation-id.js';
import * as z from 'zod/mini';
import type { Operation } from './core/operation.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from './api/limits.js';
import { declaredOperations } from './api/index.js';
import { paramsOf } from './schemas/params.js';
import { examplesOf, recorded, withExample, type Json, type RecordedExchange } from './openapi-recorded.js';
import { closeOpenBranches, isArrayish, propertiesOf, recordComponents, ref, requestComponents, schemaOf, type Schema } from './openapi-schemas.js';
import { eventSchemas, webhooks } from './openapi-webhooks.js';

export type { OpenApiData, RecordedExchange } from './openapi-recorded.js';

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
  const schemas: Record<string, Schema> = { ...recordComponents(eventSchemas()), ...requestComponents(), Error: errorEnvelope() };
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of ops) {
    const item = (paths[op.path] ??= {});
    item[op.method.toLowerCase()] = operationObject(op, schemas);
  }
  closeOpenBranches(schemas);
  closeOpenBranches(schemas, paths);
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


const PAGING_PARAMETERS: Record<string, string> = {
  limit: 'Items per page.',
  cursor: 'The `nextCursor` of the previous page.',
  offset: 'How many items to skip.',
};

/** Headers the operations answer with beyond the envelope, by SDK method. */
const readAgain = (description: string): Record<string, Json> => ({ 'Retry-After': { description, schema: { type: 'integer', minimum: 0 } } });
const onStart = readAgain('Seconds to wait before the first read of the started task (15: it is queued).');
const onPage = readAgain('When a task on the page is not final (or its report is still being written): seconds to wait before reading them again, the longest of their waits.');
const RESPONSE_HEADERS: Record<string, Record<string, Json>> = {
  'forecasts.retrieve': readAgain(
    'While the task is not final: seconds to wait before reading it again (15 while queued, 120 while running); 15 for a completed task while its report is written.',
  ),
  'forecasts.create': onStart,
  'forecasts.createBatch': readAgain('When an item started: seconds to wait before the first read of the started tasks (15: they are queued).'),
  'questions.forecasts.create': onStart,
  'forecasts.list': onPage,
  'questions.forecasts.list': onPage,
  'questions.context.ready': readAgain('While a file is still processing: seconds until the next one is done.'),
};

function operationObject(op: Operation, schemas: Record<string, Schema>): Json {
  const key = `${op.method} ${op.path}`;
  const exchanges = recorded.operations[key]?.examples ?? [];
  const first = <T>(pick: (x: RecordedExchange) => T | undefined): T | undefined => exchanges.map(pick).find((v) => v !== undefined);
  const query = op.method === 'GET' || op.method === 'DELETE';
  const parameters: Json[] = op.pathParams.map((name) =>
    withExample(
      // Every id the service hands out is a UUID; another path parameter (a slug) is only text.
      name.endsWith('_id')
        ? { name, in: 'path', required: true, description: `The ${name.slice(0, -3).replaceAll('_', ' ')} id.`, schema: { type: 'string', format: 'uuid' } }
        : { name, in: 'path', required: true, description: `The ${name.replaceAll('_', ' ')}.`, schema: { type: 'string' } },
      first((x) => x.request.path?.[name]),
    ),
  );
  let requestBody: Json | undefined;
  const params = paramsOf(op);
  if (params) {
    const schema = schemaOf(params, 'input', op.multipart === true);
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
      requestBody = { required: !z.safeParse(params, {}).success, content };
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
    operationId: operationIdOf(op.sdkMethod),
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
          activeTaskId: { type: 'string', format: 'uuid', description: 'On `forecast_already_running`: the running task.' },
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

