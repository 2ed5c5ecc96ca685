// The OpenAPI 3.1 document of the service (forecasting-sdk/openapi.json, and GET /openapi.json on the
// mock): valid for a real validator, and exactly the declared operations, so it grows with them.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../src/index.js';
import { declaredOperations } from '../src/operations.js';
import { openApiDocument } from '../src/openapi.js';
import { recordSchemas } from '../src/schemas/records/index.js';
import { startMockServer, type MockServer } from '../src/testing/index.js';

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

  it('states each operation’s scope as security: the key as a bearer token or in X-Api-Key', () => {
    expect(shipped['components']['securitySchemes']).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
    });
    for (const o of operations) {
      const op = declared(o.method, o.path);
      expect(op['x-scope'], o.sdkMethod).toBe(o.scope);
      expect(op['security'], o.sdkMethod).toEqual([{ bearerAuth: [o.scope] }, { apiKeyHeader: [o.scope] }]);
    }
  });

  it('has the path parameters of each template, the query parameters of GET and DELETE, and bodies for the others', () => {
    for (const o of declaredOperations) {
      const op = declared(o.method, o.path);
      const params = (op['parameters'] ?? []) as Json[];
      expect(params.filter((p) => p['in'] === 'path').map((p) => p['name']), o.sdkMethod).toEqual([...o.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
      const query = params.filter((p) => p['in'] === 'query').map((p) => p['name'] as string);
      if (o.method === 'GET' || o.method === 'DELETE') {
        expect(op['requestBody'], o.sdkMethod).toBeUndefined();
        if (o.paging === 'cursor') expect(query, o.sdkMethod).toEqual(expect.arrayContaining(['limit', 'cursor']));
        if (o.paging === 'offset') expect(query, o.sdkMethod).toEqual(expect.arrayContaining(['limit', 'offset']));
        if (!o.params) expect(query, o.sdkMethod).toEqual([]);
      } else {
        expect(query, o.sdkMethod).toEqual([]);
        if (o.params) expect(Object.keys(op['requestBody']['content']), o.sdkMethod).toEqual([o.multipart ? 'multipart/form-data' : 'application/json']);
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
