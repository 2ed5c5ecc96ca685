// The examples of the OpenAPI document: recorded from the mock (scripts/openapi-examples.ts), kept
// fresh, valid against their own schemas, one per operation, and a check that the mock answers only
// fields its record schemas declare.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordOpenApiData, specSummaries } from '../scripts/openapi-examples.js';
import { declaredOperations } from '../src/api/index.js';
import { openApiDocument, type OpenApiData } from '../src/openapi.js';
import committed from '../src/openapi-data.json' with { type: 'json' };

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const root = fileURLToPath(new URL('..', import.meta.url));
const doc = openApiDocument() as Json;
const data = committed as unknown as OpenApiData;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every example in a document, with the schema it illustrates and where it sits. */
function examplesOf(document: Json): { where: string; schema: Json; value: unknown }[] {
  const out: { where: string; schema: Json; value: unknown }[] = [];
  const media = (where: string, content: Json | undefined) => {
    for (const [type, m] of Object.entries(content ?? {}) as [string, Json][]) {
      for (const [name, e] of Object.entries((m['examples'] ?? {}) as Json)) out.push({ where: `${where} ${type} ${name}`, schema: m['schema'], value: e['value'] });
      if ('example' in m) out.push({ where: `${where} ${type}`, schema: m['schema'], value: m['example'] });
    }
  };
  const parameter = (where: string, p: Json) => {
    const resolved = p['$ref'] ? document['components']['parameters'][String(p['$ref']).split('/').pop()!] : p;
    if ('example' in resolved) out.push({ where: `${where} ${resolved['in']} ${resolved['name']}`, schema: resolved['schema'], value: resolved['example'] });
  };
  const operation = (where: string, op: Json) => {
    for (const p of (op['parameters'] ?? []) as Json[]) parameter(where, p);
    media(`${where} request`, op['requestBody']?.['content']);
    for (const [status, r] of Object.entries((op['responses'] ?? {}) as Json)) {
      media(`${where} ${status}`, r['content']);
      for (const [name, h] of Object.entries((r['headers'] ?? {}) as Json)) if ('example' in h) out.push({ where: `${where} ${status} header ${name}`, schema: h['schema'], value: h['example'] });
    }
  };
  for (const [path, item] of Object.entries(document['paths'] as Json)) for (const m of METHODS) if (item[m]) operation(`${m.toUpperCase()} ${path}`, item[m]);
  for (const [kind, item] of Object.entries((document['webhooks'] ?? {}) as Json)) operation(`webhook ${kind}`, item['post']);
  return out;
}

/** A JSON Schema 2020-12 validator (with formats) that resolves the document's `#/components/...` references. */
function validatorFor(document: Json): (schema: Json) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // zod writes `format: base64` for z.base64(); ajv-formats names it `byte`.
  ajv.addFormat('base64', /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
  // The document as a schema resource, so a `$ref` into its components resolves.
  ajv.addSchema({ $id: 'openapi.json', components: document['components'] });
  const compiled = new Map<string, ValidateFunction>();
  return (schema) => {
    const text = JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/');
    let validate = compiled.get(text);
    if (!validate) compiled.set(text, (validate = ajv.compile(JSON.parse(text) as Json)));
    return validate;
  };
}

/**
 * The keys `value` carries that `schema` does not declare, as paths: an object schema names its
 * properties (any branch of a union counts); a map (`additionalProperties` alone) takes any key.
 */
function undeclaredKeys(document: Json, schema: Json, value: unknown, path = ''): string[] {
  const resolve = (s: Json): Json => (s['$ref'] ? resolve(document['components']['schemas'][String(s['$ref']).split('/').pop()!]) : s);
  const branches = (s: Json): Json[] => {
    const r = resolve(s);
    const union = [...(r['anyOf'] ?? []), ...(r['oneOf'] ?? []), ...(r['allOf'] ?? [])] as Json[];
    return [r, ...union.flatMap(branches)];
  };
  if (typeof value !== 'object' || value === null) return [];
  const all = branches(schema);
  if (Array.isArray(value)) {
    const items = all.map((b) => b['items']).filter((i): i is Json => typeof i === 'object');
    return items.length === 0 ? [] : value.flatMap((v, i) => undeclaredKeys(document, { anyOf: items }, v, `${path}[${i}]`));
  }
  const objects = all.filter((b) => b['properties']);
  const out: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    const declared = objects.map((b) => b['properties'][key]).filter(Boolean) as Json[];
    const free = all.map((b) => b['additionalProperties']).filter((a): a is Json => typeof a === 'object' && Object.keys(a).length > 0);
    if (declared.length > 0) out.push(...undeclaredKeys(document, { anyOf: declared }, v, `${path}.${key}`));
    else if (objects.length > 0) out.push(`${path}.${key}`);
    else if (free.length > 0) out.push(...undeclaredKeys(document, { anyOf: free }, v, `${path}.${key}`));
  }
  return out;
}

describe('the recorded examples (src/openapi-data.json)', () => {
  let fresh: OpenApiData;
  beforeAll(async () => {
    fresh = await recordOpenApiData();
  });

  it('are what the mock answers today: recording again gives the committed file (`-u` writes it anew)', async () => {
    await expect(`${JSON.stringify(fresh, null, 2)}\n`).toMatchFileSnapshot(`${root}src/openapi-data.json`);
  });

  it('record the same exchanges in every run: ids, secrets and times are seeded', async () => {
    expect(await recordOpenApiData()).toEqual(fresh);
  });

  it('give every operation the purpose of spec/operations.tsv as its summary', () => {
    const purposes = specSummaries(readFileSync(`${root}spec/operations.tsv`, 'utf8'));
    for (const o of declaredOperations) {
      const key = `${o.method} ${o.path}`;
      expect(doc['paths'][o.path][o.method.toLowerCase()]['summary'], key).toBe(purposes.get(key));
    }
    expect(doc['paths']['/questions']['get']['summary']).toBe('List questions');
  });

  it('give every operation a request example (of each body or query it takes) and a response example', () => {
    for (const o of declaredOperations) {
      const key = `${o.method} ${o.path}`;
      const op = doc['paths'][o.path][o.method.toLowerCase()] as Json;
      const exchanges = data.operations[key]?.examples ?? [];
      expect(exchanges.length, key).toBeGreaterThan(0);
      for (const p of (op['parameters'] ?? []) as Json[]) if (p['in'] === 'path') expect(p['example'], `${key} ${p['name']}`).toBeDefined();
      if (o.params && o.method !== 'GET' && o.method !== 'DELETE') {
        for (const [type, media] of Object.entries(op['requestBody']['content'] as Json)) expect(Object.keys(media['examples'] ?? {}), `${key} ${type}`).not.toEqual([]);
      }
      if (o.params && (o.method === 'GET' || o.method === 'DELETE') && o.paging) {
        expect((op['parameters'] as Json[]).some((p) => p['in'] === 'query' && p['example'] !== undefined), key).toBe(true);
      }
      const status = String(o.status ?? (o.response ? 200 : 204));
      // The mock answers the status the declaration gives.
      for (const x of exchanges) expect(x.response.status, `${key} ${x.name}`).toBe(Number(status));
      if (o.response) expect(Object.keys(op['responses'][status]['content']['application/json']['examples']), key).not.toEqual([]);
    }
  });

  it('give each webhook event kind a recorded call, with its headers', () => {
    for (const [kind, item] of Object.entries(doc['webhooks'] as Json)) {
      expect(Object.keys(item['post']['requestBody']['content']['application/json']['examples']), kind).toEqual([kind]);
      expect(data.webhooks[kind]!.headers['x-service-event-type']).toBe(kind);
    }
  });
});

describe('every example in the document', () => {
  it('validates against its own schema (JSON Schema 2020-12, formats checked)', () => {
    const compile = validatorFor(doc);
    const all = examplesOf(doc);
    // Requests, responses, parameters and headers of 126 operations, and the webhook calls.
    expect(all.length).toBeGreaterThan(2 * declaredOperations.length);
    const failures = all.flatMap(({ where, schema, value }) => {
      const validate = compile(schema);
      return validate(value) ? [] : [`${where}: ${JSON.stringify(validate.errors?.slice(0, 3))}`];
    });
    expect(failures).toEqual([]);
  });

  it('is checked: an example that breaks its schema is reported', () => {
    const compile = validatorFor(doc);
    const broken = structuredClone(doc);
    const media = broken['paths']['/forecasts/{task_id}']['get']['responses']['200']['content']['application/json'];
    media['examples']['completed']['value']['createdAt'] = 'yesterday';
    const [failure] = examplesOf(broken).filter(({ where, schema, value }) => where.includes('completed') && where.startsWith('GET /forecasts/{task_id}') && !compile(schema)(value));
    expect(failure?.where).toBe('GET /forecasts/{task_id} 200 application/json completed');
  });
});

describe('what the mock answers', () => {
  it('holds only fields its record schemas declare, in every recorded answer and webhook call', () => {
    const drift: string[] = [];
    for (const [key, { examples }] of Object.entries(data.operations)) {
      const [method, path] = key.split(' ') as [string, string];
      const op = doc['paths'][path][method.toLowerCase()] as Json;
      const schema = op['responses'][String(examples[0]!.response.status)]?.['content']?.['application/json']?.['schema'] as Json | undefined;
      if (!schema) continue;
      for (const x of examples) drift.push(...undeclaredKeys(doc, schema, x.response.body).map((k) => `${key} (${x.name}): ${k}`));
    }
    for (const [kind, call] of Object.entries(data.webhooks)) {
      const schema = doc['webhooks'][kind]['post']['requestBody']['content']['application/json']['schema'] as Json;
      drift.push(...undeclaredKeys(doc, schema, call.body).map((k) => `webhook ${kind}: ${k}`));
    }
    expect(drift).toEqual([]);
  });

  it('is checked: a field no record declares is reported, with its path', () => {
    const schedule = data.operations['GET /questions/{question_id}/schedule']!.examples[0]!.response.body as Json;
    const schema = { $ref: '#/components/schemas/Schedule' };
    expect(undeclaredKeys(doc, schema, { ...schedule, cadence: 'daily' })).toEqual(['.cadence']);
    const task = data.operations['GET /forecasts/{task_id}']!.examples.find((x) => x.name === 'completed')!.response.body as Json;
    const withExtra = { ...task, forecast: { ...task['forecast'], report: { ...task['forecast']['report'], wordCount: 100 } } };
    expect(undeclaredKeys(doc, { $ref: '#/components/schemas/ForecastTask' }, withExtra)).toEqual(['.forecast.report.wordCount']);
  });
});
