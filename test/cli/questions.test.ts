// `forecasting questions …` against the mock over HTTP: every field a flag, the SDK's own messages for bad values.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient, type QuestionCreateParams } from '../../src/index.js';
import { startMockServer, type MockServer } from '../../src/testing/index.js';
import { envFor, run } from './_cli.js';

let mock: MockServer;
let env: Record<string, string>;
beforeAll(async () => {
  mock = await startMockServer();
  env = envFor(mock);
});
afterAll(() => mock.close());

/** The message the SDK itself gives for these params, nothing sent. */
async function sdkMessage(params: unknown): Promise<string> {
  const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });
  const err = await client.questions.create(params as QuestionCreateParams).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(err?.name).toBe('ValidationError');
  return err!.message;
}

describe('forecasting questions create', () => {
  it('creates a binary question and prints "<id>  binary  <title>"', async () => {
    const r = await run(['questions', 'create', '--type', 'binary', '--title', 'Will it rain in Paris tomorrow?'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const [id, type, title] = r.stdout.trim().split('  ');
    expect([type, title]).toEqual(['binary', 'Will it rain in Paris tomorrow?']);
    expect(mock.service.store.questions.get(id!)?.question.title).toBe('Will it rain in Paris tomorrow?');
  });

  it('takes every field of each type as a flag (--json prints the question)', async () => {
    const mc = await run(
      ['questions', 'create', '--type', 'multiple_choice', '--title', 'Who wins?', '--option', 'A', '--option', 'B', '--option', 'C',
        '--options-are-mutually-exclusive', 'false', '--options-are-comprehensive', 'no', '--tag', 'sports', '--tag', 'cli',
        '--description', 'd', '--resolution-criteria', 'rc', '--fine-print', 'fp', '--visibility', 'organization', '--json'],
      { env },
    );
    expect(mc.code).toBe(0);
    expect(JSON.parse(mc.stdout)).toMatchObject({
      type: 'multiple_choice', options: ['A', 'B', 'C'], optionsAreMutuallyExclusive: false, optionsAreComprehensive: false,
      tags: [{ name: 'sports', slug: 'sports' }, { name: 'cli', slug: 'cli' }], description: 'd', resolutionCriteria: 'rc', finePrint: 'fp', visibility: 'organization',
    });

    const numeric = await run(['questions', 'create', '--type', 'numeric', '--title', 'Brent on 1 June?', '--lower-bound', '40', '--upper-bound', '140.5', '--scale-type', 'logarithmic', '--open-upper-bound', '--json'], { env });
    expect(JSON.parse(numeric.stdout)).toMatchObject({ lowerBound: 40, upperBound: 140.5, scaleType: 'logarithmic', openUpperBound: true, openLowerBound: false });

    const discrete = await run(['questions', 'create', '--type', 'discrete', '--title', 'How many goals?', '--lower-bound', '0', '--upper-bound', '10', '--open-lower-bound', 'true', '--json'], { env });
    expect(JSON.parse(discrete.stdout)).toMatchObject({ type: 'discrete', lowerBound: 0, upperBound: 10, openLowerBound: true });

    // A date bound takes Unix seconds or an ISO date.
    const date = await run(['questions', 'create', '--type', 'date', '--title', 'When?', '--lower-bound', '2030-01-01', '--upper-bound', String(Date.UTC(2031, 0, 1) / 1000), '--json'], { env });
    expect(JSON.parse(date.stdout)).toMatchObject({ type: 'date', lowerBound: Date.UTC(2030, 0, 1) / 1000, upperBound: Date.UTC(2031, 0, 1) / 1000 });
  });

  it.each([
    ['a bound that is not a number', ['--type', 'numeric', '--title', 'x', '--lower-bound', 'abc', '--upper-bound', '5', '--scale-type', 'linear'], { type: 'numeric', title: 'x', lowerBound: 'abc', upperBound: 5, scaleType: 'linear' }],
    ['bounds out of order', ['--type', 'numeric', '--title', 'x', '--lower-bound', '5', '--upper-bound', '1', '--scale-type', 'linear'], { type: 'numeric', title: 'x', lowerBound: 5, upperBound: 1, scaleType: 'linear' }],
    ['an unknown type', ['--type', 'ternary', '--title', 'x'], { type: 'ternary', title: 'x' }],
    ['options on a binary question', ['--type', 'binary', '--title', 'x', '--option', 'A', '--option', 'B'], { type: 'binary', title: 'x', options: ['A', 'B'] }],
    ['a boolean that is not one', ['--type', 'binary', '--title', 'x', '--open-lower-bound', 'maybe'], { type: 'binary', title: 'x', openLowerBound: 'maybe' }],
    ['a discrete span too wide', ['--type', 'discrete', '--title', 'x', '--lower-bound', '0', '--upper-bound', '100000'], { type: 'discrete', title: 'x', lowerBound: 0, upperBound: 100000 }],
  ])('refuses %s with the SDK\'s ValidationError message, exit 2, nothing sent', async (_name, flags, params) => {
    const before = mock.service.requests.count();
    const r = await run(['questions', 'create', ...flags], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`ValidationError: ${await sdkMessage(params)}\n`);
    expect(mock.service.requests.count()).toBe(before);
  });

  it('asks for --type when neither a type nor a template is given', async () => {
    const r = await run(['questions', 'create', '--title', 'x'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^UsageError: --type is required/);
  });
});

describe('forecasting questions list, get, browse', () => {
  it('lists, reads and searches, in lines or JSON', async () => {
    const made = await run(['questions', 'create', '--type', 'binary', '--title', 'Will the aardvark census grow?', '--json'], { env });
    const q = JSON.parse(made.stdout) as { id: string };

    const list = await run(['questions', 'list', '--limit', '2'], { env });
    expect(list.code).toBe(0);
    expect(list.stdout.trim().split('\n')).toHaveLength(2);
    expect(list.stdout.split('\n')[0]).toBe(`${q.id}  binary  Will the aardvark census grow?`);
    const all = await run(['questions', 'list', '--all', '--json'], { env });
    expect((JSON.parse(all.stdout) as unknown[]).length).toBe(mock.service.store.questions.size);

    const get = await run(['questions', 'get', q.id, '--json'], { env });
    expect(JSON.parse(get.stdout)).toMatchObject({ id: q.id, title: 'Will the aardvark census grow?' });

    const browse = await run(['questions', 'browse', '--query', 'aardvark'], { env });
    expect(browse.code).toBe(0);
    expect(browse.stdout).toBe(`${q.id}  binary  Will the aardvark census grow?\n`);
  });

  it('ends an unknown id with the API error on one line, exit 3', async () => {
    const r = await run(['questions', 'get', 'no-such-question'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^NotFoundError: 404 /);
  });
});

describe('forecasting questions get, of a record the service left fields out of', () => {
  /** A server that answers each question id with a record of its own, as a service may send it. */
  const records: Record<string, unknown> = {
    bare: { id: 'bare' },
    odd: { id: 'odd', type: 'numeric', title: { en: 'Brent?' }, options: 'A,B', lowerBound: 40, upperBound: null },
    listed: { id: 'listed', type: 'multiple_choice', title: 'Who?', options: ['A', null, 3] },
  };
  let server: Server;
  let partialEnv: Record<string, string>;
  beforeAll(async () => {
    server = createServer((req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(records[req.url!.split('/').pop()!] ?? {})));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    partialEnv = { FORECASTING_API_KEY: mock.apiKey, FORECASTING_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/external` };
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ['bare', 'bare  -  -\n'],
    ['odd', 'odd  numeric  {"en":"Brent?"}\nbounds: 40 to -\n'],
    ['listed', 'listed  multiple_choice  Who?\noptions: A | - | 3\n'],
  ])('%s: "-" for what is missing, never "undefined" nor a crash', async (id, stdout) => {
    const r = await run(['questions', 'get', id], { env: partialEnv });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(stdout);
    expect(r.code).toBe(0);
  });
});
