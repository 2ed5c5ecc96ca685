// Promises of README.md and docs/getting-started.md that no other test pinned down: the size of the
// manifest, the Node version, what the development commands run, the OpenAPI document as compact
// JSON, the scope each step of the first forecast needs, and no CORS headers. The mock runs over
// HTTP on 127.0.0.1; nothing here sleeps.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient, PermissionDeniedError, operations } from '../../src/index.js';
import { ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const text = (path: string) => readFileSync(`${root}${path}`, 'utf8');
const readme = text('README.md').replace(/\s+/g, ' ');
const guide = text('docs/getting-started.md').replace(/\s+/g, ' ');
const pkg = JSON.parse(text('package.json')) as { engines: Record<string, string>; scripts: Record<string, string> };

describe('README: the manifest', () => {
  it('lists all 126 operations the README counts, each as { method, path, scope, sdkMethod }', () => {
    expect(readme).toContain('A client with all 126 operations');
    expect(readme).toContain('an app holding the client, 126 operations');
    expect(operations).toHaveLength(126);
    for (const o of operations) expect(Object.keys(o).sort(), o.sdkMethod).toEqual(['method', 'path', 'scope', 'sdkMethod']);
    expect(new Set(operations.map((o) => o.sdkMethod)).size).toBe(126);
  });
});

describe('README and getting-started: the runtime and the commands', () => {
  it('asks for the Node version the docs name, 20.19 or later', () => {
    expect(readme).toContain('Node ≥ 20.19');
    expect(guide).toContain('Node 20.19 or later');
    expect(pkg.engines['node']).toBe('>=20.19.0');
  });

  it('runs what the Development table says: npm test builds and type-checks first, the demo builds then runs', () => {
    const { scripts } = pkg;
    expect(scripts['pretest']).toMatch(/^tsup\b.*&& tsc --noEmit$/);
    expect(scripts['test']).toBe('vitest run');
    expect(scripts['demo']).toMatch(/^tsup\b.*&& node examples\/demo\.mjs$/);
    expect(scripts['bench']).toMatch(/^tsup\b.*&& node bench\/run\.mjs$/);
    expect(scripts['docs']).toBe('typedoc');
    expect(scripts['check:package']).toBe('publint --strict && attw --pack .');
  });

  it('writes the API reference to docs/api/ (npm run docs)', () => {
    expect(readme).toContain('`npm run docs` writes it to `docs/api/`');
    expect((JSON.parse(text('typedoc.json')) as { out: string }).out).toBe('docs/api');
  });

  it('ships the OpenAPI document as compact JSON', () => {
    expect(readme).toContain('the OpenAPI document (compact JSON)');
    const shipped = text('dist/openapi.json');
    expect(shipped).toBe(`${JSON.stringify(JSON.parse(shipped))}\n`);
  });
});

describe('getting-started, 2. Give it a key', () => {
  const USER = '6f9619ff-8b86-d011-b42d-00c04fc964ff';
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({
      clock: new ManualClock(),
      // Three keys of one user, so that each sees the others' questions and tasks: only the scopes differ.
      apiKeys: [
        { key: 'pre_questions_only', scopes: ['questions:write'], userId: USER },
        { key: 'pre_writer', scopes: ['questions:write', 'forecasts:write'], userId: USER },
        { key: 'pre_reader', scopes: ['forecasts:read'], userId: USER },
      ],
    });
  });
  afterAll(() => mock.close());

  const as = (apiKey: string) => new ForecastingClient({ apiKey, baseURL: mock.baseURL, maxRetries: 0, logLevel: 'off' });
  const refusal = (p: Promise<unknown>) => p.then(() => 'allowed', (e: unknown) => (e instanceof PermissionDeniedError ? 'permission_denied' : e));

  it('declares questions:write to create questions, forecasts:write to start forecasts, forecasts:read to read them', () => {
    const scope = (sdkMethod: string) => operations.find((o) => o.sdkMethod === sdkMethod)?.scope;
    expect(['questions.create', 'forecasts.create', 'forecasts.retrieve', 'forecasts.list'].map(scope)).toEqual(['questions:write', 'forecasts:write', 'forecasts:read', 'forecasts:read']);
  });

  it('lets a key do only what its scopes allow', async () => {
    const question = await as('pre_questions_only').questions.create({ type: 'binary', title: 'Will it rain in Paris on 1 June 2027?' });
    expect(await refusal(as('pre_questions_only').forecasts.create({ questionId: question.id, runMode: 'light' }))).toBe('permission_denied');
    const task = await as('pre_writer').forecasts.create({ questionId: question.id, runMode: 'light' });
    expect(await refusal(as('pre_writer').forecasts.retrieve(task.id))).toBe('permission_denied');
    expect(await refusal(as('pre_reader').forecasts.create({ questionId: question.id, runMode: 'light' }))).toBe('permission_denied');
    await expect(as('pre_reader').forecasts.retrieve(task.id)).resolves.toMatchObject({ id: task.id });
  });

  it('sends no CORS headers: not on an answer to a page of another origin, nor on a preflight', async () => {
    const answers = [
      await fetch(`${mock.baseURL}/questions`, { headers: { authorization: 'Bearer pre_questions_only', origin: 'https://app.example.com' } }),
      await fetch(`${mock.baseURL}/questions`, { method: 'OPTIONS', headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' } }),
    ];
    for (const answer of answers) {
      await answer.arrayBuffer();
      expect([...answer.headers.keys()].filter((name) => name.startsWith('access-control-')), `${answer.status}`).toEqual([]);
    }
    expect(guide).toContain('the service sends no CORS headers');
  });
});
