// Promises of docs/openapi.md that test/openapi*.test.ts leave open: the packaged server variable,
// how operation ids and tags are named, every array query parameter, the list and error envelopes
// of every operation, the Retry-After of task lists and starts, the optional Idempotency-Key, the
// paired examples, the retried webhook answers, the uuid format of every answered id, open objects,
// one cross-field rule, and a build that needs no mock.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { operations } from '../src/index.js';
import { WEBHOOK_RETRY_DELAYS_MS } from '../src/testing/webhooks/engine.js';

const root = fileURLToPath(new URL('..', import.meta.url));
type Json = { [key: string]: unknown };
const shipped = JSON.parse(readFileSync(`${root}dist/openapi.json`, 'utf8')) as Json;
const paths = shipped['paths'] as Record<string, Record<string, Json>>;
const components = shipped['components'] as { schemas: Record<string, Json>; responses: Record<string, Json> };

const obj = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
/** The operation object of `METHOD path`. */
const op = (method: string, path: string): Json => obj(paths[path]?.[method.toLowerCase()]);
/** The headers of an operation's successful answer. */
function successHeaders(method: string, path: string): Json {
  const responses = obj(op(method, path)['responses']);
  const status = Object.keys(responses).find((s) => s.startsWith('2'))!;
  return obj(obj(responses[status])['headers']);
}
const described = (header: unknown): string => String(obj(header)['description']);

describe('where the document is (openapi.md, the table)', () => {
  it('in the package, its server is a {base_url} variable, by default an address ending in /api/v1/external', () => {
    const [server, ...others] = list(shipped['servers']);
    expect(others).toEqual([]);
    expect(server?.['url']).toBe('{base_url}');
    expect(String(obj(obj(server?.['variables'])['base_url'])['default'])).toMatch(/^https:\/\/[^/]+\/api\/v1\/external$/);
  });
});

describe('what it holds: every operation (openapi.md)', () => {
  const camel = (sdkMethod: string) => sdkMethod.split('.').map((part, i) => (i === 0 ? part : `${part[0]!.toUpperCase()}${part.slice(1)}`)).join('');

  it('names each operationId after its SDK method in camel case (questions.forecasts.create is questionsForecastsCreate)', () => {
    for (const o of operations) expect(op(o.method, o.path)['operationId'], o.sdkMethod).toBe(camel(o.sdkMethod));
    expect(op('POST', '/questions/{question_id}/forecasts')['operationId']).toBe('questionsForecastsCreate');
    expect(op('POST', '/questions')['operationId']).toBe('questionsCreate');
  });

  it('gives each operation one tag, its resource group, and lists every tag used, each with a description', () => {
    const tags = list(shipped['tags']);
    const used = new Set<string>();
    for (const o of operations) {
      const own = op(o.method, o.path)['tags'];
      expect(own, o.sdkMethod).toEqual([o.sdkMethod.split('.')[0]]);
      used.add(String(list(own)[0]));
    }
    expect(tags.map((t) => t['name']).sort()).toEqual([...used].sort());
    for (const tag of tags) expect(String(tag['description']).length, String(tag['name'])).toBeGreaterThan(0);
  });
});

describe('what it holds: parameters (openapi.md)', () => {
  const isArray = (schema: Json): boolean => schema['type'] === 'array' || list(schema['anyOf']).some((b) => b['type'] === 'array');

  it('writes every array query parameter as repeated keys (style form, explode), as status=a&status=b', () => {
    let arrays = 0;
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const p of list(operation['parameters']).filter((q) => q['in'] === 'query' && isArray(obj(q['schema'])))) {
          arrays++;
          expect([p['style'], p['explode']], `${method} ${path} ${String(p['name'])}`).toEqual(['form', true]);
        }
      }
    }
    expect(arrays).toBeGreaterThan(1);
  });

  it('makes the Idempotency-Key header optional where it is taken', () => {
    const keyed = Object.values(paths).flatMap((item) => Object.values(item)).flatMap((o) => list(o['parameters']).filter((p) => p['name'] === 'Idempotency-Key'));
    expect(keyed).toHaveLength(4);
    for (const p of keyed) expect([p['in'], p['required']]).toEqual(['header', false]);
  });
});

describe('what it holds: answers (openapi.md)', () => {
  it('writes every list in the list envelope { type, data, hasMore, nextCursor }', () => {
    const envelopes = Object.entries(components.schemas).filter(([name]) => name.endsWith('List'));
    expect(envelopes.map(([name]) => name)).toContain('QuestionList');
    for (const [name, schema] of envelopes) {
      const props = obj(schema['properties']);
      expect(Object.keys(props).sort(), name).toEqual(['data', 'hasMore', 'nextCursor', 'type']);
      expect(props['type'], name).toEqual({ type: 'string', const: 'list' });
      expect(obj(props['data'])['type'], name).toBe('array');
      expect(obj(props['hasMore'])['type'], name).toBe('boolean');
      expect(obj(props['nextCursor'])['type'], name).toEqual(['string', 'null']);
    }
  });

  it("answers every error, 4XX and 5XX, with the error envelope { type: 'error', error: { type, message, … } }", () => {
    for (const o of operations) {
      const responses = obj(op(o.method, o.path)['responses']);
      expect([responses['4XX'], responses['5XX']], o.sdkMethod).toEqual([{ $ref: '#/components/responses/Error' }, { $ref: '#/components/responses/Error' }]);
    }
    expect(obj(obj(components.responses['Error'])['content'])['application/json']).toEqual({ schema: { $ref: '#/components/schemas/Error' } });
    const envelope = obj(components.schemas['Error']);
    const error = obj(obj(envelope['properties'])['error']);
    expect(obj(obj(envelope['properties'])['type'])['const']).toBe('error');
    expect(error['required']).toEqual(['type', 'message']);
    expect(error['additionalProperties']).toBe(true);
  });

  it('declares Retry-After on the task lists, the longest wait of the tasks on the page', () => {
    for (const path of ['/forecasts', '/questions/{question_id}/forecasts']) {
      const header = obj(successHeaders('GET', path)['Retry-After']);
      expect(header['schema'], path).toEqual({ type: 'integer', minimum: 0 });
      expect(described(header), path).toMatch(/longest/);
    }
  });

  it('declares 15 s on the starts, and 15 s for a completed task whose report is still written', () => {
    for (const [method, path] of [['POST', '/forecasts'], ['POST', '/forecasts/batch'], ['POST', '/questions/{question_id}/forecasts']] as const) {
      expect(described(successHeaders(method, path)['Retry-After']), path).toMatch(/\b15\b/);
    }
    expect(described(successHeaders('GET', '/forecasts/{task_id}')['Retry-After'])).toMatch(/15 for a completed task while its report is written/);
    expect(successHeaders('GET', '/questions/{question_id}/context/ready')).toHaveProperty('Retry-After');
  });

  it('gives every id the service answers (a field id or …Id) the uuid format, the error envelope included', () => {
    const loose: string[] = [];
    const visited = new Set<Json>();
    const visit = (schema: unknown, where: string): void => {
      const s = obj(schema);
      if (visited.has(s)) return;
      visited.add(s);
      // A request component reused in an answer (a drafted question's params) is what the caller sends, not an id the service hands out.
      if (typeof s['$ref'] === 'string') return s['$ref'].endsWith('Params') ? undefined : visit(components.schemas[s['$ref'].split('/').pop()!], s['$ref']);
      for (const [name, property] of Object.entries(obj(s['properties']))) {
        const p = obj(property);
        const isText = p['type'] === 'string' || list(p['anyOf']).some((b) => b['type'] === 'string');
        if ((name === 'id' || name.endsWith('Id')) && isText && !JSON.stringify(p).includes('"format":"uuid"')) loose.push(`${where}.${name}`);
      }
      for (const value of Object.values(s)) {
        if (Array.isArray(value)) value.forEach((v, i) => visit(v, `${where}[${i}]`));
        else if (typeof value === 'object' && value !== null) visit(value, where);
      }
    };
    for (const [path, item] of Object.entries(paths)) for (const [method, o] of Object.entries(item)) visit(o['responses'], `${method.toUpperCase()} ${path}`);
    visit(components.responses['Error'], '#/components/responses/Error');
    expect(loose).toEqual([]);
  });
});

describe('what it holds: examples and webhooks (openapi.md)', () => {
  const examples = (media: unknown) => obj(obj(media)['examples']);

  it('shows a task running and completed, and a preset file as json and as multipart', () => {
    const task = examples(obj(obj(obj(op('GET', '/forecasts/{task_id}')['responses'])['200'])['content'])['application/json']);
    expect(Object.keys(task)).toEqual(['running', 'completed']);
    expect([obj(task['running'])['value'], obj(task['completed'])['value']].map((v) => obj(v)['status'])).toEqual(['running_subforecasts', 'completed']);
    const upload = op('POST', '/forecast-presets/{preset_id}/files');
    const content = obj(obj(upload['requestBody'])['content']);
    expect(Object.keys(examples(content['application/json']))).toEqual(['json']);
    expect(Object.keys(examples(content['multipart/form-data']))).toEqual(['multipart']);
    expect(Object.keys(examples(obj(obj(obj(upload['responses'])['201'])['content'])['application/json']))).toEqual(['json', 'multipart']);
  });

  it('says which answers to a webhook call are retried, and when, as the mock delivers', () => {
    expect(WEBHOOK_RETRY_DELAYS_MS).toEqual([30_000, 120_000, 600_000, 1_800_000, 7_200_000]);
    for (const [kind, item] of Object.entries(obj(shipped['webhooks']))) {
      const failed = String(obj(obj(obj(obj(item)['post'])['responses'])['default'])['description']);
      expect(failed, kind).toMatch(/408, 425, 429 or 5xx: tried again after 30 seconds, 2 minutes, 10 minutes, 30 minutes and 2 hours/);
    }
  });
});

describe('open objects, and the one cross-field rule (openapi.md)', () => {
  /** Every schema node of the document, with where it sits. */
  function nodes(value: unknown, where = '#', out: [string, Json][] = []): [string, Json][] {
    if (Array.isArray(value)) value.forEach((v, i) => nodes(v, `${where}/${i}`, out));
    else if (typeof value === 'object' && value !== null) {
      out.push([where, value as Json]);
      for (const [key, v] of Object.entries(value)) nodes(v, `${where}/${key}`, out);
    }
    return out;
  }
  const all = nodes(shipped);

  it('closes no object: additionalProperties is never false', () => {
    expect(all.filter(([, n]) => n['additionalProperties'] === false).map(([where]) => where)).toEqual([]);
  });

  it('writes no cross-field rule but the one of POST /forecasts (exactly one of questionId or question)', () => {
    const requiredOnly = (b: Json) => Object.keys(b).length === 1 && Array.isArray(b['required']);
    const rules = all.filter(([, n]) => ['oneOf', 'anyOf'].some((k) => list(n[k]).length > 0 && list(n[k]).every(requiredOnly)) || 'dependentRequired' in n || 'dependentSchemas' in n || 'if' in n);
    expect(rules.map(([where]) => where)).toEqual(['#/components/schemas/ForecastCreateParams']);
  });
});

describe('where the examples come from (openapi.md)', () => {
  it('the build reads src/openapi-data.json: the generator needs neither the mock nor the recording script', async () => {
    const result = await build({ entryPoints: [`${root}src/openapi.ts`], bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', logLevel: 'silent' });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('src/openapi-data.json');
    // The mock's webhook constants (retry schedule, headers) are read, but no part of the service that answers requests.
    const service = /^src\/testing\/(index|service|server|router|pipeline|msw|control|handlers\/.*)\.ts$/;
    expect(inputs.filter((i) => service.test(i) || i.startsWith('scripts/'))).toEqual([]);
  });
});

