// The OpenAPI 3.1 document of the service (forecasting-sdk/openapi.json, and GET /openapi.json on the
// mock): valid for a real validator, and exactly the declared operations, so it grows with them.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../src/index.js';
import { declaredOperations } from '../src/api/index.js';
import { openApiDocument } from '../src/openapi.js';
import { recordSchemas } from '../src/schemas/records/index.js';
import { startMockServer, type MockServer } from '../src/testing/index.js';
import { canonicalJson } from '../src/testing/webhooks/body.js';
import { verifyWebhook } from '../src/webhooks/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const shipped = JSON.parse(readFileSync(`${root}dist/openapi.json`, 'utf8')) as Json;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of a document as `[METHOD path, operation object]`. */
function operationsOf(doc: Json): [string, Json][] {
  return Object.entries(doc['paths'] as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).filter(([m]) => METHODS.includes(m)).map(([m, op]): [string, Json] => [`${m.toUpperCase()} ${path}`, op as Json]),
  );
}
const byKey = new Map(operationsOf(shipped));
const declared = (method: string, path: string) => byKey.get(`${method} ${path}`)!;

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (swagger-parser: the 3.1 schema, then every $ref resolved)', async () => {
    await expect(SwaggerParser.validate(structuredClone(shipped) as never)).resolves.toBeTruthy();
    expect(shipped['openapi']).toBe('3.1.0');
  }, 60_000);

  it('is what the declarations give today (dist/ was built from this source)', () => {
    expect(shipped).toEqual(openApiDocument());
  });

  it('lists exactly the operations of the manifest, each once, named after its SDK method', () => {
    const listed = operationsOf(shipped);
    expect(listed.map(([key]) => key).sort()).toEqual(operations.map((o) => `${o.method} ${o.path}`).sort());
    for (const o of operations) expect(declared(o.method, o.path)['x-sdk-method']).toBe(o.sdkMethod);
    const ids = listed.map(([, op]) => op['operationId'] as string);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('states each operation’s scope in x-scope and its description, and its security: the key as a bearer token or in X-Api-Key', () => {
    expect(shipped['components']['securitySchemes']).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
    });
    for (const o of operations) {
      const op = declared(o.method, o.path);
      expect(op['x-scope'], o.sdkMethod).toBe(o.scope);
      expect(op['description'], o.sdkMethod).toContain(`Needs the scope \`${o.scope}\``);
      // No role in the requirement: linters read roles as OAuth scopes, which these schemes do not have.
      expect(op['security'], o.sdkMethod).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
    }
  });

  it('names each operation after the spec’s purpose, not `METHOD /path`, and describes every tag', () => {
    expect(declared('GET', '/questions')['summary']).toBe('List questions');
    expect(declared('POST', '/forecasts/batch')['summary']).toBe('Create several forecasts');
    for (const [key, op] of operationsOf(shipped)) expect(op['summary'], key).not.toBe(key);
    // Each its own sentence, not the fallback a namespace without one gets.
    for (const tag of shipped['tags'] as Json[]) expect(tag['description'], tag['name']).not.toMatch(/^In forecasting-sdk|^$/);
    expect(shipped['info']).toMatchObject({ license: { name: 'MIT', identifier: 'MIT' }, contact: { name: expect.any(String) } });
  });

  it('has the path parameters of each template, the query parameters of GET and DELETE, and bodies for the others', () => {
    for (const o of declaredOperations) {
      const op = declared(o.method, o.path);
      const params = (op['parameters'] ?? []) as Json[];
      expect(params.filter((p) => p['in'] === 'path').map((p) => p['name']), o.sdkMethod).toEqual([...o.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
      const query = params.filter((p) => p['in'] === 'query').map((p) => p['name'] as string);
      if (o.method === 'GET' || o.method === 'DELETE') {
        expect(op['requestBody'], o.sdkMethod).toBeUndefined();
        if (o.paging) expect(params.find((p) => p['name'] === 'limit')?.['description'], o.sdkMethod).toBe('Items per page.');
        if (o.paging === 'cursor') expect(query, o.sdkMethod).toEqual(expect.arrayContaining(['limit', 'cursor']));
        if (o.paging === 'offset') expect(query, o.sdkMethod).toEqual(expect.arrayContaining(['limit', 'offset']));
        if (!o.params) expect(query, o.sdkMethod).toEqual([]);
      } else {
        expect(query, o.sdkMethod).toEqual([]);
        // The preset file upload takes its JSON form too ({filename, contentBase64}), as the spec says.
        const types = o.sdkMethod === 'presets.files.upload' ? ['multipart/form-data', 'application/json'] : [o.multipart ? 'multipart/form-data' : 'application/json'];
        if (o.params) expect(Object.keys(op['requestBody']['content']), o.sdkMethod).toEqual(types);
      }
    }
    expect(declared('GET', '/forecasts')['parameters']).toContainEqual(
      expect.objectContaining({ name: 'status', in: 'query', style: 'form', explode: true }),
    );
  });

  it('sends multipart bodies with the file as binary', () => {
    const multipart = declaredOperations.filter((o) => o.multipart);
    for (const o of multipart) {
      const schema = declared(o.method, o.path)['requestBody']['content']['multipart/form-data']['schema'] as Json;
      // The body, or one branch of it (an upload that also takes a JSON form).
      const files = [schema, ...((schema['anyOf'] ?? []) as Json[])].map((s) => s['properties']?.['file']).filter(Boolean);
      expect(files[0], o.sdkMethod).toMatchObject({ type: 'string', contentMediaType: 'application/octet-stream' });
    }
  });

  it('declares the preset file upload as multipart (a file) and as JSON ({filename, contentBase64}), each with its own schema', () => {
    const content = declared('POST', '/forecast-presets/{preset_id}/files')['requestBody']['content'] as Json;
    expect(content['multipart/form-data']['schema']['properties']['file']).toMatchObject({ type: 'string', contentMediaType: 'application/octet-stream' });
    expect(content['multipart/form-data']['schema']['properties']).not.toHaveProperty('contentBase64');
    expect(content['application/json']['schema']).toMatchObject({ required: expect.arrayContaining(['filename', 'contentBase64']) });
    expect(content['application/json']['schema']['properties']).not.toHaveProperty('file');
    // Uploads that take only a file stay multipart only.
    expect(Object.keys(declared('POST', '/questions/{question_id}/files')['requestBody']['content'])).toEqual(['multipart/form-data']);
  });

  it('writes the options of the non-choice question types as an empty array, not the invalid `prefixItems: []`', () => {
    const text = JSON.stringify(shipped);
    expect(text).not.toContain('"prefixItems":[]');
    const definitions = (shipped['components']['schemas']['QuestionCreateParams']['anyOf'] as Json[]).find((b) => b['oneOf'])!['oneOf'] as Json[];
    const binary = definitions.find((d) => d['properties']['type']['const'] === 'binary')!;
    expect(binary['properties']['options']).toEqual({ type: 'array', items: {}, maxItems: 0 });
  });

  it('describes POST /forecasts once: exactly one of questionId or question, and the same body for each batch item', () => {
    const body = shipped['components']['schemas']['ForecastCreateParams'] as Json;
    expect(body['oneOf']).toEqual([{ required: ['questionId'] }, { required: ['question'] }]);
    expect(body['properties']['question']).toEqual({ $ref: '#/components/schemas/QuestionCreateParams' });
    expect(declared('POST', '/forecasts')['requestBody']['content']['application/json']['schema']).toEqual({ $ref: '#/components/schemas/ForecastCreateParams' });
    const batch = declared('POST', '/forecasts/batch')['requestBody']['content']['application/json']['schema'] as Json;
    expect(batch['properties']['items']['items']).toEqual({ $ref: '#/components/schemas/ForecastCreateParams' });
    expect(declared('POST', '/questions')['requestBody']['content']['application/json']['schema']).toEqual({ $ref: '#/components/schemas/QuestionCreateParams' });
  });

  it('declares the Retry-After of GET /forecasts/{task_id}, with the spec’s waits', () => {
    const header = declared('GET', '/forecasts/{task_id}')['responses']['200']['headers']['Retry-After'] as Json;
    expect(header).toMatchObject({ schema: { type: 'integer', minimum: 0 }, example: 120 });
    expect(header['description']).toContain('15 while queued, 120 while running');
  });

  it('gives ids the uuid format, timestamps date-time, and the task’s credits the integer type the spec states', () => {
    const schemas = shipped['components']['schemas'] as Json;
    const binary = schemas['BinaryQuestion']['properties'] as Json;
    expect(binary['id']).toEqual({ type: 'string', format: 'uuid' });
    expect(binary['createdAt']).toEqual({ type: 'string', format: 'date-time' });
    const task = schemas['ActiveForecastTask']['properties'] as Json;
    expect([task['creditsCharged']['type'], task['creditsRefunded']['type']]).toEqual(['integer', 'integer']);
    expect(task['finishedAt']['anyOf'] ?? task['finishedAt']).toContainEqual({ type: 'string', format: 'date-time' });
    expect(schemas['DecisionForecastRun']['properties']['items']['items']['properties']['taskId']).toMatchObject({ format: 'uuid' });
    for (const o of declaredOperations) {
      for (const p of (declared(o.method, o.path)['parameters'] ?? []) as Json[]) if (p['in'] === 'path') expect(p['schema'], `${o.sdkMethod} ${p['name']}`).toEqual({ type: 'string', format: 'uuid' });
    }
    // An event's own id is `<prefix>:<kind>:<id>`, not a UUID; the ids of its data are.
    expect(schemas['ForecastCompletedEvent']['properties']['id']).toEqual({ type: 'string' });
    expect(schemas['ForecastCompletedEvent']['properties']['data']['properties']['taskId']).toEqual({ type: 'string', format: 'uuid' });
  });

  it('describes every webhook event in `webhooks`: its body, the X-Service-* headers and the signature scheme', () => {
    const hooks = shipped['webhooks'] as Json;
    expect(Object.keys(hooks)).toEqual(['forecast.started', 'forecast.completed', 'forecast.failed', 'forecast.cancelled', 'forecast.report.completed', 'webhook.test']);
    for (const [kind, item] of Object.entries(hooks)) {
      const post = item['post'] as Json;
      const parameters = post['parameters'] as Json[];
      expect(parameters.map((p) => [p['in'], p['name'], p['required']]), kind).toEqual(
        ['X-Service-Signature', 'X-Service-Event-Id', 'X-Service-Event-Type', 'X-Service-Delivery-Id', 'User-Agent'].map((name) => ['header', name, true]),
      );
      expect(parameters[0]!['description'], kind).toMatch(/HMAC-SHA256, keyed with the whole signing secret \(including `whsec_`\),.*`<t>\.` followed by the raw body bytes.*5 minutes/);
      expect(parameters[2]!['schema'], kind).toEqual({ type: 'string', const: kind });
      expect(parameters[4]!['schema'], kind).toEqual({ type: 'string', const: 'Service-Webhooks/1' });
      const schema = post['requestBody']['content']['application/json']['schema'] as Json;
      expect(shipped['components']['schemas'][String(schema['$ref']).split('/').pop()!]['properties']['type'], kind).toEqual({ type: 'string', const: kind });
      expect(post['security'], kind).toEqual([]);
      expect(Object.keys(post['responses']), kind).toEqual(['2XX', 'default']);
    }
  });

  it('shows webhook calls that verify: each recorded signature checks out with the secret the recorded POST /webhooks answered', async () => {
    const secret = declared('POST', '/webhooks')['responses']['201']['content']['application/json']['examples']['example']['value']['signingSecret'] as string;
    for (const [kind, item] of Object.entries(shipped['webhooks'] as Json)) {
      const post = item['post'] as Json;
      const header = (name: string) => (post['parameters'] as Json[]).find((p) => p['name'] === name)!['example'] as string;
      const body = post['requestBody']['content']['application/json']['examples'][kind]['value'] as Json;
      const signature = header('X-Service-Signature');
      const t = Number(/^t=(\d+),/.exec(signature)![1]);
      // The bytes the service sent: keys in alphabetical order, no spaces.
      const event = await verifyWebhook(canonicalJson(body), { 'x-service-signature': signature }, secret, { now: t });
      expect([event.type, event.id], kind).toEqual([kind, header('X-Service-Event-Id')]);
    }
  });

  it('answers each record by reference, lists in the list envelope, errors in the error envelope', () => {
    const schemas = shipped['components']['schemas'] as Json;
    for (const name of Object.keys(recordSchemas)) expect(schemas[name], name).toBeDefined();
    for (const o of declaredOperations) {
      const responses = declared(o.method, o.path)['responses'] as Json;
      const status = String(o.status ?? (o.response ? 200 : 204));
      expect(Object.keys(responses).sort(), o.sdkMethod).toEqual([status, '4XX', '5XX'].sort());
      expect(responses['4XX']).toEqual({ $ref: '#/components/responses/Error' });
      const schema = responses[status]['content']?.['application/json']?.['schema'] as Json | undefined;
      if (!o.response) expect(schema, o.sdkMethod).toBeUndefined();
      else if (!o.paging) expect(schema, o.sdkMethod).toEqual({ $ref: `#/components/schemas/${o.response}` });
      else {
        expect(schema, o.sdkMethod).toEqual({ $ref: `#/components/schemas/${o.response}List` });
        expect(schemas[`${o.response}List`]['properties']['data']['items']).toEqual({ $ref: `#/components/schemas/${o.response}` });
      }
    }
    expect(schemas['Error']).toMatchObject({ required: ['type', 'error'], properties: { type: { const: 'error' } } });
  });

  it('takes an Idempotency-Key on exactly the declared idempotent operations: the spec’s four, as far as they are declared', () => {
    const spec = readFileSync(`${root}spec/service-spec.md`, 'utf8');
    const section = /Four operations accept the `Idempotency-Key` header: (.*)\. The key/.exec(spec)![1]!;
    const four = [...section.matchAll(/`(POST [^`]+)`/g)].map((m) => m[1]!);
    expect(four).toHaveLength(4);
    const keyed = operationsOf(shipped)
      .filter(([, op]) => ((op['parameters'] ?? []) as Json[]).some((p) => p['in'] === 'header' && p['name'] === 'Idempotency-Key'))
      .map(([key]) => key);
    expect(keyed.sort()).toEqual(declaredOperations.filter((o) => o.idempotent).map((o) => `${o.method} ${o.path}`).sort());
    const all = new Set(declaredOperations.map((o) => `${o.method} ${o.path}`));
    expect(keyed.sort()).toEqual(four.filter((k) => all.has(k)).sort());
    for (const key of keyed) {
      const success = Object.entries(byKey.get(key)!['responses'] as Record<string, Json>).filter(([status]) => status.startsWith('2'));
      expect(success.length, key).toBeGreaterThan(0);
      for (const [, response] of success) expect(response, key).toHaveProperty('headers.Idempotent-Replayed');
    }
  });

  it('writes no schema zod could not express, except the multipart files (binary)', () => {
    const text = JSON.stringify(shipped);
    expect(text).not.toContain('"$comment"');
    expect(text).not.toContain('"$schema"');
  });

  it('ships as forecasting-sdk/openapi.json, for require and import', () => {
    const out = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `
        import { createRequire } from 'node:module';
        import doc from 'forecasting-sdk/openapi.json' with { type: 'json' };
        const required = createRequire(import.meta.url)('forecasting-sdk/openapi.json');
        console.log(JSON.stringify([doc.openapi, required.openapi, Object.keys(doc.paths).length]));
      `],
      { cwd: root, encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toEqual(['3.1.0', '3.1.0', Object.keys(shipped['paths']).length]);
  });
});

describe('the mock serving the document', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer();
  });
  afterAll(() => mock.close());

  it('serves it at <baseURL>/openapi.json without a key, with itself as the server', async () => {
    const res = await fetch(`${mock.baseURL}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const served = (await res.json()) as Json;
    expect(served['servers']).toEqual([{ url: mock.baseURL, description: 'The forecasting-sdk mock service' }]);
    expect({ ...served, servers: shipped['servers'] }).toEqual(shipped);
    await expect(SwaggerParser.validate(served as never)).resolves.toBeTruthy();
  }, 60_000);

  it('serves it at <origin>/openapi.json too (where `forecasting mock` points), naming the mock’s address, not the placeholder', async () => {
    const origin = new URL(mock.baseURL).origin;
    const res = await fetch(`${origin}/openapi.json`);
    expect(res.status).toBe(200);
    const served = (await res.json()) as Json;
    expect(served['servers']).toEqual([{ url: mock.baseURL, description: 'The forecasting-sdk mock service' }]);
    expect(JSON.stringify(served['servers'])).not.toContain('{base_url}');
    // The very document of <baseURL>/openapi.json (openapi.md's table), not a variant of it.
    expect(served).toEqual(await (await fetch(`${mock.baseURL}/openapi.json`)).json());
  });

  it('answers other methods there 405 with Allow: GET, and unknown paths beside it 404 as before', async () => {
    const origin = new URL(mock.baseURL).origin;
    for (const url of [`${mock.baseURL}/openapi.json`, `${origin}/openapi.json`]) {
      const post = await fetch(url, { method: 'POST' });
      expect(post.status, url).toBe(405);
      expect(post.headers.get('allow')).toBe('GET');
    }
    for (const path of ['/openapi.jsonx', '/openapi.json/', '/openapi']) {
      const res = await fetch(`${mock.baseURL}${path}`, { headers: { authorization: `Bearer ${mock.apiKey}` } });
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as Json)['error']['type']).toBe('not_found');
    }
    for (const path of ['/api/openapi.json', '/v1/openapi.json', '/openapi.json/']) expect((await fetch(`${origin}${path}`)).status, path).toBe(404);
  });
});
