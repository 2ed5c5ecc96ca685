// What docs/questions.md promises that the other suites leave unasserted: every limit taken at its
// edge, bounds that must differ, the discrete example's error word for word, an edit that sends a
// date bound as it is for the service to judge, edits that change only what is sent, the lock once a
// forecast ran (started through the SDK), an import that starts no forecast, and the drafting limit
// per key. The SDK against the mock over real HTTP on 127.0.0.1, on a manual clock that only the
// clients' waits move.
import { describe, expect, it } from 'vitest';
import { BadRequestError, ConflictError, RateLimitError, ValidationError, type QuestionCreateParams, type QuestionUpdateParams } from '../../src/index.js';
import { KEYS, useOrgMock } from './_org.js';

const h = useOrgMock();

const S_2027 = Date.UTC(2027, 0, 1) / 1000;
const S_2028 = Date.UTC(2028, 0, 1) / 1000;
const numeric = { type: 'numeric', title: 'Brent crude price on 1 June 2027 (USD)?', lowerBound: 40, upperBound: 140, scaleType: 'linear' } as const;
const dateQ = { type: 'date', title: 'When will the bridge reopen?', lowerBound: S_2027, upperBound: S_2028 } as const;
const range = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('the rules at their edges', () => {
  it.each([
    ['a title of 500 characters', { type: 'binary', title: 'x'.repeat(500) }],
    ['20 tags', { type: 'binary', title: 'Tagged?', tags: range(20, 'tag') }],
    ['200 distinct options', { type: 'multiple_choice', title: 'Which one?', options: range(200, 'option ') }],
    ['2 options', { type: 'multiple_choice', title: 'Which one?', options: ['A', 'B'] }],
    ['discrete bounds 2 apart', { type: 'discrete', title: 'How many?', lowerBound: 10, upperBound: 12 }],
    ['discrete bounds 500 apart', { type: 'discrete', title: 'How many?', lowerBound: -250, upperBound: 250 }],
    ['a logarithmic scale with positive bounds', { ...numeric, lowerBound: 0.5, upperBound: 5000, scaleType: 'logarithmic' }],
    ['organization visibility', { type: 'binary', title: 'Shared?', visibility: 'organization' }],
  ] as const)('takes %s, and the service stores it', async (_, params) => {
    const q = await h.client.questions.create(params as QuestionCreateParams);
    const stored = await h.client.questions.retrieve(q.id);
    expect(stored).toMatchObject({ ...params, tags: 'tags' in params ? params.tags.map((name) => ({ name, slug: name })) : [] });
  });

  it.each([
    ['a numeric question', { ...numeric, lowerBound: 90, upperBound: 90 }],
    ['a date question', { ...dateQ, upperBound: S_2027 }],
  ] as const)('refuses equal bounds on %s: upperBound must be greater, before sending and on receipt', async (_, params) => {
    const err = await h.refused(h.client.questions.create(params), 'upperBound');
    expect(err.message).toBe('upperBound: must be greater than lowerBound');
    const res = await h.raw('POST', '/questions', params);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', message: 'upperBound: must be greater than lowerBound' });
  });

  it('checks in two passes, as docs/client.md says: the fields one by one, then the rules between them once each holds', async () => {
    const issues = async (params: object) => (await h.refused(h.client.questions.create(params as QuestionCreateParams), 'title')).issues;
    const reversed = { type: 'numeric', title: '', lowerBound: 10, upperBound: 5 } as const;
    expect(await issues(reversed)).toEqual([
      { field: 'title', message: 'must not be empty' },
      { field: 'scaleType', message: 'is required (numeric questions need linear or logarithmic)' },
    ]);
    expect(await issues({ ...reversed, scaleType: 'linear' })).toEqual([
      { field: 'title', message: 'must not be empty' },
      { field: 'upperBound', message: 'must be greater than lowerBound' },
    ]);
  });

  it('words the discrete example as the doc shows: field, message and issues', async () => {
    const err = await h.refused(h.client.questions.create({ type: 'discrete', title: 'Too wide', lowerBound: 0, upperBound: 1000 }), 'upperBound');
    expect(err.message).toBe('upperBound: discrete bounds must be 2 to 500 apart');
    expect(err.issues).toEqual([{ field: 'upperBound', message: 'discrete bounds must be 2 to 500 apart' }]);
  });

  it('refuses a date bound in milliseconds of either sign before sending, and takes one just below', async () => {
    await h.refused(h.client.questions.create({ ...dateQ, lowerBound: -1e11 }), 'lowerBound', /^lowerBound: looks like milliseconds; date bounds are Unix seconds/);
    await h.refused(h.client.questions.create({ ...dateQ, upperBound: 1e11 }), 'upperBound', /^upperBound: looks like milliseconds/);
    await expect(h.client.questions.create({ ...dateQ, upperBound: 1e11 - 1 })).resolves.toMatchObject({ upperBound: 1e11 - 1 });
  });
});

describe('changing a question', () => {
  it('sends only the fields given, and only those change', async () => {
    const q = await h.client.questions.create({ ...numeric, description: 'From the ICE close.', resolutionCriteria: 'The ICE settlement price.', tags: ['oil'] });
    h.mock.clock.advance(1_000);
    const edited = await h.client.questions.update(q.id, { finePrint: 'Front-month contract.' });
    expect(h.mock.service.requests.last({ operation: 'questions.update' })?.body).toEqual({ finePrint: 'Front-month contract.' });
    expect(edited).toEqual({ ...q, finePrint: 'Front-month contract.', updatedAt: new Date(h.mock.clock.now()).toISOString() });
  });

  it('sends a date bound of an edit as it is, for the service to judge on the question as edited', async () => {
    const q = await h.client.questions.create(dateQ);
    const err = await h.client.questions.update(q.id, { upperBound: Date.UTC(2028, 0, 1) }).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(ValidationError);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).message).toContain('upperBound: looks like milliseconds');
    expect(h.count('questions.update')).toBe(1);
    // A Date is still sent as whole seconds, rounded down.
    const edited = await h.client.questions.update(q.id, { upperBound: new Date(Date.UTC(2028, 0, 1) + 999) });
    expect(edited.upperBound).toBe(S_2028);
    // A number that would be milliseconds on a date question is any number on a numeric one.
    const big = await h.client.questions.create({ ...numeric, lowerBound: 2e13, upperBound: 5e13 });
    await expect(h.client.questions.update(big.id, { upperBound: 6e13 })).resolves.toMatchObject({ upperBound: 6e13 });
  });

  describe('once a forecast started through the SDK has run', () => {
    async function forecasted() {
      const q = await h.client.questions.create(numeric);
      const task = await h.client.forecasts.createAndWait({ questionId: q.id, runMode: 'light' });
      expect(task.status).toBe('completed');
      return q;
    }

    it('still changes description, resolutionCriteria, finePrint, visibility and tags', async () => {
      const q = await forecasted();
      const edits: QuestionUpdateParams = { description: 'd', resolutionCriteria: 'r', finePrint: 'f', visibility: 'organization', tags: ['energy'] };
      for (const [field, value] of Object.entries(edits)) {
        await expect(h.client.questions.update(q.id, { [field]: value }), field).resolves.toBeDefined();
      }
      expect(await h.client.questions.retrieve(q.id)).toMatchObject({ ...edits, tags: [{ name: 'energy', slug: 'energy' }] });
    });

    it.each([
      ['title', 'Brent in July?'],
      ['lowerBound', 10],
      ['scaleType', 'logarithmic'],
      ['openUpperBound', true],
    ] as const)('answers 409 naming %s, and leaves the question as it was', async (field, value) => {
      const q = await forecasted();
      const err = await h.client.questions.update(q.id, { [field]: value }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConflictError);
      expect((err as ConflictError).status).toBe(409);
      expect((err as ConflictError).message).toContain(`${field}: cannot change once the question has a forecast`);
      expect(await h.client.questions.retrieve(q.id)).toEqual(q);
    });
  });
});

describe('importing and drafting', () => {
  it('imports a market question and starts no forecast', async () => {
    const q = await h.client.questions.import({ reference: 'https://market.example/questions/will-x-happen' });
    expect(q).toMatchObject({ type: 'binary', title: 'Will x happen?' });
    expect((await h.client.forecasts.list()).data).toEqual([]);
    expect((await h.client.questions.forecasts.list(q.id)).data).toEqual([]);
    expect(h.mock.service.requests.list().map((r) => r.operation)).toEqual(['questions.import', 'forecasts.list', 'questions.forecasts.list']);
  });

  it('limits normalize, clarify and revise together to 20 calls a minute per key', async () => {
    h.mock.service.addApiKey({ key: 'pre_org_admin_second', userId: 'u1', organizationId: 'org1', organizationAdmin: true });
    const once = h.connect(KEYS.admin, { maxRetries: 0 });
    const draft = { title: 'Will it rain in Paris tomorrow' };
    for (let i = 0; i < 18; i++) await once.questions.normalize(draft);
    await once.questions.clarify({ ...draft, answer: 'At Montsouris' });
    await once.questions.revise({ question: { type: 'binary', title: 'Will it rain?' }, guidance: 'Name the station' });
    const err = await once.questions.normalize(draft).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).message).toMatch(/drafting/);
    // Another key of the same user has its own 20.
    await expect(h.connect('pre_org_admin_second', { maxRetries: 0 }).questions.revise({ question: { type: 'binary', title: 'Will it rain?' }, guidance: 'g' })).resolves.toMatchObject({ status: 'ok' });
    h.mock.clock.advance(60_000);
    await expect(once.questions.normalize(draft)).resolves.toMatchObject({ status: 'ok' });
  });
});
