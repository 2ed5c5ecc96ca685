// An audit of the client side against spec/service-spec.md: each test asserts what the spec says
// where the SDK once said otherwise (a record typed too strictly, a spec limit left unchecked, a path
// the TSDoc names that the spec has not). Records are checked with `validateResponses` on a client
// whose fetch answers the spec's shapes; params checks use a client whose fetch records what it sent.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ForecastingClient, ValidationError, type ForecastTask } from '../../src/index.js';
import { question as fixtureQuestion } from '../core/helpers.js';

const BASE = 'https://api.test/api/v1/external';
const ts = '2026-11-30T10:00:00.000Z';

/** A client whose fetch records each request and answers `answer` (JSON) with `status`. */
function client(answer: unknown = {}, status = 200) {
  const sent: Request[] = [];
  const fetch = async (input: Request | URL | string, init?: RequestInit) => {
    sent.push(new Request(input, init));
    return Response.json(answer, { status });
  };
  return { sent, client: new ForecastingClient({ apiKey: 'pre_audit', baseURL: BASE, fetch, maxRetries: 0, logLevel: 'off', validateResponses: true }) };
}

/** The ValidationError `call` rejects with, having sent nothing. */
async function refused(call: (c: ForecastingClient) => Promise<unknown>, sent: Request[], c: ForecastingClient): Promise<ValidationError> {
  const err = await call(c).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ValidationError);
  expect(sent).toHaveLength(0);
  return err as ValidationError;
}

/** A question as the service shows it (the shared fixture), titled as the forecasts below name it. */
const question = fixtureQuestion('q1', { title: 'Will it rain in Paris tomorrow?' });

const runningTask = {
  id: 't1',
  type: 'forecast_task',
  status: 'running_subforecasts',
  createdAt: ts,
  startedAt: ts,
  finishedAt: null,
  question: { id: 'q1', type: 'binary', title: question.title },
  pollingUrl: '/api/v1/external/forecasts/t1',
  progressMessage: 'Researching',
  partial: true,
  completedSubforecastCount: 1,
  plannedSubforecastCount: 4,
  creditsCharged: 5,
  creditsRefunded: 0,
  runMode: 'standard',
  preset: null,
};

const credits = {
  balance: 120,
  unlimited: false,
  prices: [{ key: 'forecast.standard', credits: 5 }],
  plan: { key: 'payg', name: 'Pay as you go', status: 'active', currentPeriodEnd: null, cancelAtPeriodEnd: false, creditsPerPeriod: 0 },
};

describe('records: fields the spec shows without their shape are read as they come', () => {
  // Spec, "Gaps in the record shapes": "Items of `topUps`: not shown."
  it.each([
    ['text', ['2026-11-01: 100 credits']],
    ['numbers', [100, 250]],
    ['objects', [{ credits: 100, at: ts }]],
  ])('reads a credits record whose topUps items are %s', async (_, topUps) => {
    const { client: c } = client({ ...credits, topUps });
    await expect(c.credits.retrieve()).resolves.toMatchObject({ topUps });
  });

  // Spec, Forecast task: "connections | array | connections the forecast could call: `{name, owner,
  // calls (integer), status}`": owner's type is not shown.
  it.each([
    ['a text', 'organization'],
    ['an object', { id: 'u1', name: 'Ada' }],
    ['null', null],
  ])('reads a task whose connection owner is %s', async (_, owner) => {
    const connections = [{ name: 'crm', owner, calls: 2, status: 'used' }];
    const { client: c } = client({ ...runningTask, connections });
    await expect(c.forecasts.retrieve('t1')).resolves.toMatchObject({ connections });
  });

  // Spec, Question: "sourceTemplate | object | present when built from a template": no fields shown.
  it('reads a question whose sourceTemplate holds other fields than the SDK reads', async () => {
    const sourceTemplate = { templateId: 'tpl1', values: { city: 'Paris' } };
    const { client: c } = client({ ...question, sourceTemplate });
    await expect(c.questions.retrieve('q1')).resolves.toMatchObject({ sourceTemplate });
  });

  // Spec, Forecast task: "warnings | array | items carry a `code`: `template_content_readable_by_others`,
  // `preset_content_may_show_in_forecast`, `connection_results_readable_by_others`". Checked by tsc.
  it('types a warning code with the three codes the spec lists, and reads another as it comes', async () => {
    type Code = NonNullable<ForecastTask['warnings']>[number]['code'];
    expectTypeOf<Code>().not.toEqualTypeOf<string>();
    expectTypeOf<'template_content_readable_by_others' | 'preset_content_may_show_in_forecast' | 'connection_results_readable_by_others'>().toMatchTypeOf<Code>();
    const warnings = [{ code: 'connection_results_readable_by_others' }, { code: 'a_code_added_later' }];
    const { client: c } = client({ ...runningTask, warnings });
    await expect(c.forecasts.retrieve('t1')).resolves.toMatchObject({ warnings });
  });
});

describe('params: the options of a question are distinct wherever they are sent', () => {
  // Spec, Questions: "`multiple_choice` takes 2 to 200 distinct options"; Limits: "Options | 2 to 200 distinct".
  const twice = ['Lions', 'Tigers', 'Lions'];

  it('refuses repeated options in an edit, naming options, and sends nothing', async () => {
    const { client: c, sent } = client(question);
    const err = await refused((x) => x.questions.update('q1', { options: twice }), sent, c);
    expect(err.message).toContain('options: must be distinct');
  });

  it('refuses repeated options sent over a template, in a question and in a forecast body', async () => {
    const { client: c, sent } = client(question, 201);
    await refused((x) => x.questions.create({ templateId: 'tpl1', templateValues: { team: 'Bears' }, options: twice }), sent, c);
    const err = await refused((x) => x.forecasts.create({ question: { templateId: 'tpl1', options: twice } }), sent, c);
    expect(err.message).toContain('question.options: must be distinct');
  });

  it('still sends distinct options in an edit', async () => {
    const { client: c, sent } = client({ ...question, type: 'multiple_choice', options: ['Lions', 'Tigers'] });
    await c.questions.update('q1', { options: ['Lions', 'Tigers'] });
    expect(sent).toHaveLength(1);
    expect(await sent[0]!.json()).toEqual({ options: ['Lions', 'Tigers'] });
  });
});

describe('TSDoc: every operation the client code names is one of the spec', () => {
  // Spec, Endpoints: "The whole interface has 126 operations, all listed under Endpoints."
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const spec = new Set(
    readFileSync(join(root, 'spec/operations.tsv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t').slice(0, 2).join(' ')),
  );
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
    });

  it('names no method and path the spec lacks in src/api, src/schemas or src/resources', () => {
    const named = ['src/api', 'src/schemas', 'src/resources'].flatMap((dir) =>
      files(join(root, dir)).flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/[\w{}/-]+)/g)].map((m) => ({ file: file.slice(root.length), op: `${m[1]} ${m[2]}` })),
      ),
    );
    expect(named.length).toBeGreaterThan(100);
    expect(named.filter((n) => !spec.has(n.op))).toEqual([]);
  });
});
