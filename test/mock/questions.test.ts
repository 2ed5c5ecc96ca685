import { describe, expect, it } from 'vitest';
import { createMockService } from '../../src/testing/index.js';
import { Question as QuestionSchema } from '../../src/schemas/records/questions.js';
import { binary, call, createQuestion, expectError, type ListBody, type Question } from './_helpers.js';

const numeric = { type: 'numeric', title: 'Brent price on 1 June?', lowerBound: 40, upperBound: 140, scaleType: 'linear' };
const discrete = { type: 'discrete', title: 'Goals in the final?', lowerBound: 0, upperBound: 12 };
const date = { type: 'date', title: 'When will the bridge open?', lowerBound: 1_767_225_600, upperBound: 1_893_456_000 };
const multipleChoice = { type: 'multiple_choice', title: 'Which party wins?', options: ['Red', 'Blue', 'Green'] };

describe('questions.create', () => {
  it('stores a binary question with every default of the spec', async () => {
    const service = createMockService();
    const res = await call<Question>(service, 'POST', '/questions', { body: binary() });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'binary',
      title: 'Will it rain in Paris tomorrow?',
      description: '',
      resolutionCriteria: '',
      finePrint: '',
      options: [],
      lowerBound: null,
      upperBound: null,
      openLowerBound: false,
      openUpperBound: false,
      scaleType: null,
      callsign: expect.stringMatching(/^[a-z]+(-[a-z]+)+$/),
      optionsAreMutuallyExclusive: true,
      optionsAreComprehensive: true,
      visibility: 'private',
      createdVia: 'api',
      tags: [],
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
    });
    expect(QuestionSchema.safeParse(res.body).success).toBe(true);
  });

  it('stores every type with its own fields and the others emptied', async () => {
    const service = createMockService();
    const n = await createQuestion(service, numeric);
    expect(n).toMatchObject({ options: [], lowerBound: 40, upperBound: 140, scaleType: 'linear' });
    const d = await createQuestion(service, discrete);
    expect(d).toMatchObject({ options: [], lowerBound: 0, upperBound: 12, scaleType: null });
    const t = await createQuestion(service, date);
    expect(t).toMatchObject({ lowerBound: 1_767_225_600, upperBound: 1_893_456_000, scaleType: null });
    const m = await createQuestion(service, { ...multipleChoice, optionsAreComprehensive: false });
    expect(m).toMatchObject({ options: ['Red', 'Blue', 'Green'], lowerBound: null, optionsAreComprehensive: false });
  });

  it('keeps the fields sent: texts, visibility, open bounds, tags as {name, slug}', async () => {
    const service = createMockService();
    const q = await createQuestion(service, {
      ...numeric,
      description: 'Front-month future.',
      resolutionCriteria: 'ICE settlement price.',
      finePrint: 'USD per barrel.',
      visibility: 'organization',
      openUpperBound: true,
      tags: ['Energy Markets', 'oil', 'OIL'],
    });
    expect(q).toMatchObject({
      description: 'Front-month future.',
      resolutionCriteria: 'ICE settlement price.',
      finePrint: 'USD per barrel.',
      visibility: 'organization',
      openUpperBound: true,
      tags: [
        { name: 'Energy Markets', slug: 'energy-markets' },
        { name: 'oil', slug: 'oil' },
      ],
    });
  });

  it('gives the same title the same callsign across services, and distinct callsigns within one', async () => {
    const a = await createQuestion(createMockService(), binary());
    const b = await createQuestion(createMockService(), binary());
    expect(a.callsign).toBe(b.callsign);
    const service = createMockService();
    const first = await createQuestion(service, binary());
    const second = await createQuestion(service, binary());
    expect(first.callsign).not.toBe(second.callsign);
  });

  const rejections: Array<[string, Record<string, unknown>, string]> = [
    ['a title over 500 characters', binary('x'.repeat(501)), 'title: must be at most 500 characters'],
    ['an empty title', binary(''), 'title: must not be empty'],
    ['an unknown type', { type: 'ranking', title: 'x' }, 'type: '],
    ['more than 20 tags', binary('x', { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }), 'tags: '],
    ['binary with options', binary('x', { options: ['a', 'b'] }), 'options: binary questions take none'],
    ['binary with bounds', binary('x', { upperBound: 3 }), 'upperBound: binary questions take no bounds'],
    ['multiple choice with one option', { ...multipleChoice, options: ['a'] }, 'options: must hold at least 2'],
    ['multiple choice with 201 options', { ...multipleChoice, options: Array.from({ length: 201 }, (_, i) => `o${i}`) }, 'options: must hold at most 200'],
    ['multiple choice with repeated options', { ...multipleChoice, options: ['a', 'a'] }, 'options: must be distinct'],
    ['multiple choice with bounds', { ...multipleChoice, lowerBound: 1 }, 'lowerBound: multiple_choice questions take no bounds'],
    ['numeric without scaleType', { ...numeric, scaleType: undefined }, 'scaleType: '],
    ['numeric without bounds', { type: 'numeric', title: 'x', scaleType: 'linear' }, 'lowerBound: '],
    ['numeric with options', { ...numeric, options: ['a', 'b'] }, 'options: numeric questions take none'],
    ['numeric with bounds out of order', { ...numeric, lowerBound: 200 }, 'upperBound: must be greater than lowerBound'],
    ['logarithmic numeric with a bound at 0', { ...numeric, lowerBound: 0, scaleType: 'logarithmic' }, 'lowerBound: a logarithmic scale needs positive bounds'],
    ['discrete with fractional bounds', { ...discrete, upperBound: 10.5 }, 'upperBound: discrete bounds must be whole numbers'],
    ['discrete bounds 1 apart', { ...discrete, upperBound: 1 }, 'upperBound: discrete bounds must be 2 to 500 apart'],
    ['discrete bounds 501 apart', { ...discrete, upperBound: 501 }, 'upperBound: discrete bounds must be 2 to 500 apart'],
    ['discrete with scaleType', { ...discrete, scaleType: 'linear' }, 'scaleType: discrete questions take none'],
    ['date with fractional seconds', { ...date, lowerBound: 1.5 }, 'lowerBound: date bounds must be whole numbers'],
    ['date with scaleType', { ...date, scaleType: 'linear' }, 'scaleType: date questions take none'],
    ['date with options', { ...date, options: ['a', 'b'] }, 'options: date questions take none'],
  ];
  it.each(rejections)('refuses %s with 400 naming the field', async (_, body, message) => {
    const service = createMockService();
    const err = expectError(await call(service, 'POST', '/questions', { body }), 400, 'invalid_request_error');
    expect(err.message.startsWith(message)).toBe(true);
    expect(service.store.questions.size).toBe(0);
  });

  it('answers 404 naming templateId for a template that does not exist', async () => {
    const service = createMockService();
    const err = expectError(
      await call(service, 'POST', '/questions', { body: { templateId: 'tpl-1', templateValues: { city: 'Paris' } } }),
      404,
      'not_found',
    );
    expect(err.message).toMatch(/^templateId: /);
  });
});

describe('questions.retrieve and visibility', () => {
  const keys = [
    { key: 'pre_alice', userId: 'alice', organizationId: 'acme' },
    { key: 'pre_bob', userId: 'bob', organizationId: 'acme' },
    { key: 'pre_carol', userId: 'carol', organizationId: 'globex' },
  ];

  it('reads a question back', async () => {
    const service = createMockService();
    const q = await createQuestion(service, numeric);
    const res = await call<Question>(service, 'GET', `/questions/${q.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(q);
  });

  it('answers 404 for an unknown id', async () => {
    const service = createMockService();
    expectError(await call(service, 'GET', '/questions/00000000-0000-4000-8000-000000000000'), 404, 'not_found');
  });

  it('hides a private question from everyone but its owner', async () => {
    const service = createMockService({ apiKeys: keys });
    const q = await createQuestion(service, binary(), 'pre_alice');
    expect((await call(service, 'GET', `/questions/${q.id}`, { key: 'pre_alice' })).status).toBe(200);
    expectError(await call(service, 'GET', `/questions/${q.id}`, { key: 'pre_bob' }), 404, 'not_found');
    expectError(await call(service, 'PATCH', `/questions/${q.id}`, { key: 'pre_bob', body: { title: 'x' } }), 404, 'not_found');
  });

  it('shows an organization question to its organization only', async () => {
    const service = createMockService({ apiKeys: keys });
    const q = await createQuestion(service, binary('Shared question?', { visibility: 'organization' }), 'pre_alice');
    expect((await call(service, 'GET', `/questions/${q.id}`, { key: 'pre_bob' })).status).toBe(200);
    expectError(await call(service, 'GET', `/questions/${q.id}`, { key: 'pre_carol' }), 404, 'not_found');
    const bobList = await call<ListBody<Question>>(service, 'GET', '/questions', { key: 'pre_bob' });
    expect(bobList.body.data.map((x) => x.id)).toEqual([q.id]);
    const carolList = await call<ListBody<Question>>(service, 'GET', '/questions', { key: 'pre_carol' });
    expect(carolList.body.data).toEqual([]);
  });
});

describe('questions.update', () => {
  it('changes only the fields sent and stamps updatedAt', async () => {
    const service = createMockService();
    const q = await createQuestion(service, { ...numeric, description: 'old', tags: ['oil'] });
    service.clock.advance(60_000);
    const res = await call<Question>(service, 'PATCH', `/questions/${q.id}`, { body: { description: 'new', upperBound: 150 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...q, description: 'new', upperBound: 150, updatedAt: '2025-01-01T00:01:00.000Z' });
    expect((await call<Question>(service, 'GET', `/questions/${q.id}`)).body).toEqual(res.body);
  });

  it('checks the type rules on the merged question', async () => {
    const service = createMockService();
    const q = await createQuestion(service, numeric);
    expectError(
      await call(service, 'PATCH', `/questions/${q.id}`, { body: { lowerBound: 500 } }),
      400,
      'invalid_request_error',
      'upperBound: must be greater than lowerBound',
    );
    expectError(
      await call(service, 'PATCH', `/questions/${q.id}`, { body: { scaleType: 'logarithmic', lowerBound: -1 } }),
      400,
      'invalid_request_error',
      'lowerBound: a logarithmic scale needs positive bounds',
    );
    const mc = await createQuestion(service, multipleChoice);
    expectError(
      await call(service, 'PATCH', `/questions/${mc.id}`, { body: { lowerBound: 1 } }),
      400,
      'invalid_request_error',
      'lowerBound: multiple_choice questions take no bounds',
    );
    expect((await call<Question>(service, 'GET', `/questions/${q.id}`)).body).toEqual(q);
  });

  it('checks each field with its schema', async () => {
    const service = createMockService();
    const q = await createQuestion(service, binary());
    expectError(
      await call(service, 'PATCH', `/questions/${q.id}`, { body: { title: 'x'.repeat(501) } }),
      400,
      'invalid_request_error',
      'title: must be at most 500 characters',
    );
    expectError(
      await call(service, 'PATCH', `/questions/${q.id}`, { body: { visibility: 'public' } }),
      400,
      'invalid_request_error',
      /^visibility: /,
    );
  });

  it('changes the type when the fields sent make the new type whole', async () => {
    const service = createMockService();
    const q = await createQuestion(service, binary());
    expectError(
      await call(service, 'PATCH', `/questions/${q.id}`, { body: { type: 'numeric' } }),
      400,
      'invalid_request_error',
      /^lowerBound: /,
    );
    const res = await call<Question>(service, 'PATCH', `/questions/${q.id}`, {
      body: { type: 'numeric', lowerBound: 0, upperBound: 10, scaleType: 'linear' },
    });
    expect(res.body).toMatchObject({ type: 'numeric', lowerBound: 0, upperBound: 10, scaleType: 'linear', callsign: q.callsign });
  });

  it('ignores unknown fields', async () => {
    const service = createMockService();
    const q = await createQuestion(service, binary());
    const res = await call<Question>(service, 'PATCH', `/questions/${q.id}`, { body: { id: 'other', createdVia: 'app', mood: 1 } });
    expect(res.body).toEqual(q);
  });

  it('once forecast, answers 409 naming a locked field, and still edits the editable ones', async () => {
    const service = createMockService();
    const q = await createQuestion(service, numeric);
    service.markForecasted(q.id);
    for (const [field, value] of [
      ['title', 'New title?'],
      ['upperBound', 200],
      ['scaleType', 'logarithmic'],
      ['type', 'binary'],
      ['openLowerBound', true],
    ] as const) {
      const err = expectError(
        await call(service, 'PATCH', `/questions/${q.id}`, { body: { [field]: value } }),
        409,
        'invalid_request_error',
      );
      expect(err.message).toMatch(new RegExp(`^${field}: cannot change once the question has a forecast`));
    }
    const res = await call<Question>(service, 'PATCH', `/questions/${q.id}`, {
      body: { description: 'd', resolutionCriteria: 'r', finePrint: 'f', visibility: 'organization', tags: ['t'] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ description: 'd', resolutionCriteria: 'r', finePrint: 'f', visibility: 'organization', tags: [{ name: 't', slug: 't' }] });
  });

  it('once forecast, accepts a locked field sent with its current value', async () => {
    const service = createMockService();
    const q = await createQuestion(service, numeric);
    service.markForecasted(q.id);
    const res = await call<Question>(service, 'PATCH', `/questions/${q.id}`, { body: { title: q.title, upperBound: 140, description: 'x' } });
    expect(res.status).toBe(200);
    expect(service.store.hasForecast(q.id)).toBe(true);
  });

  it('markForecasted refuses an unknown question', () => {
    expect(() => createMockService().markForecasted('nope')).toThrow();
  });
});

describe('questions.list (cursor paging)', () => {
  it('walks every question newest first across several pages', async () => {
    const service = createMockService();
    const created: string[] = [];
    for (let i = 0; i < 7; i++) created.push((await createQuestion(service, binary(`Question ${i}?`))).id);
    const seen: string[] = [];
    let path = '/questions?limit=3';
    const pages: ListBody<Question>[] = [];
    for (;;) {
      const page = await call<ListBody<Question>>(service, 'GET', path);
      expect(page.status).toBe(200);
      pages.push(page.body);
      seen.push(...page.body.data.map((q) => q.id));
      if (!page.body.hasMore) break;
      path = `/questions?limit=3&cursor=${encodeURIComponent(page.body.nextCursor ?? '')}`;
    }
    expect(pages.map((p) => p.data.length)).toEqual([3, 3, 1]);
    expect(pages.map((p) => p.hasMore)).toEqual([true, true, false]);
    expect(pages.at(-1)?.nextCursor).toBeNull();
    expect(pages[0]?.type).toBe('list');
    expect(seen).toEqual(created.reverse());
  });

  it('defaults to 20 a page', async () => {
    const service = createMockService();
    for (let i = 0; i < 21; i++) await createQuestion(service, binary(`Question ${i}?`));
    const page = await call<ListBody<Question>>(service, 'GET', '/questions');
    expect(page.body.data).toHaveLength(20);
    expect(page.body.hasMore).toBe(true);
  });

  it('keeps a cursor valid when questions are added between pages', async () => {
    const service = createMockService();
    for (let i = 0; i < 4; i++) await createQuestion(service, binary(`Question ${i}?`));
    const first = await call<ListBody<Question>>(service, 'GET', '/questions?limit=2');
    await createQuestion(service, binary('Newer question?'));
    const second = await call<ListBody<Question>>(service, 'GET', `/questions?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.data.map((q) => q.title)).toEqual(['Question 1?', 'Question 0?']);
  });

  it('answers 400 naming cursor for a cursor it did not give', async () => {
    const service = createMockService();
    expectError(await call(service, 'GET', '/questions?cursor=garbage'), 400, 'invalid_request_error', /^cursor: /);
  });
});

describe('questions.browse (offset paging)', () => {
  it('pages by limit and offset, newest first, default 50', async () => {
    const service = createMockService();
    for (let i = 0; i < 55; i++) await createQuestion(service, binary(`Question ${i}?`));
    const first = await call<ListBody<Question>>(service, 'GET', '/questions/browse');
    expect(first.body.data).toHaveLength(50);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.data[0]?.title).toBe('Question 54?');
    const titles: string[] = [];
    for (let offset = 0; ; offset += 20) {
      const page = await call<ListBody<Question>>(service, 'GET', `/questions/browse?limit=20&offset=${offset}`);
      titles.push(...page.body.data.map((q) => q.title));
      if (!page.body.hasMore) break;
    }
    expect(titles).toHaveLength(55);
    expect(titles.at(-1)).toBe('Question 0?');
    expect(new Set(titles).size).toBe(55);
  });

  it('filters by q (text in the title, any case) and type, ignoring unknown filters', async () => {
    const service = createMockService();
    await createQuestion(service, binary('Will Brent oil top $100?'));
    await createQuestion(service, numeric);
    await createQuestion(service, binary('Will it snow?'));
    const oil = await call<ListBody<Question>>(service, 'GET', '/questions/browse?q=BRENT&sort=whatever');
    expect(oil.body.data.map((q) => q.title)).toEqual(['Brent price on 1 June?', 'Will Brent oil top $100?']);
    const numericOnly = await call<ListBody<Question>>(service, 'GET', '/questions/browse?q=brent&type=numeric');
    expect(numericOnly.body.data.map((q) => q.type)).toEqual(['numeric']);
  });

  it('answers 400 naming limit above 200 or offset below 0', async () => {
    const service = createMockService();
    expect((await call(service, 'GET', '/questions/browse?limit=200')).status).toBe(200);
    expectError(await call(service, 'GET', '/questions/browse?limit=201'), 400, 'invalid_request_error', 'limit: must be at most 200');
    expectError(await call(service, 'GET', '/questions/browse?offset=-1'), 400, 'invalid_request_error', /^offset: /);
  });
});

describe('questions.import', () => {
  it('imports an https market link as a stored binary question titled from its last segment', async () => {
    const service = createMockService();
    const res = await call<Question>(service, 'POST', '/questions/import', {
      body: { reference: 'https://market.example/questions/will-x-happen' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'binary', title: 'Will x happen?', createdVia: 'api' });
    expect(res.body.description).toContain('https://market.example/questions/will-x-happen');
    expect((await call<Question>(service, 'GET', `/questions/${res.body.id}`)).body).toEqual(res.body);
  });

  it('gives the same question for the same link', async () => {
    const body = { reference: 'https://market.example/m/will-it-rain-in-rome-in-july?ref=abc' };
    const a = await call<Question>(createMockService(), 'POST', '/questions/import', { body });
    const b = await call<Question>(createMockService(), 'POST', '/questions/import', { body });
    expect({ ...a.body, id: '' }).toEqual({ ...b.body, id: '' });
  });

  it.each([
    ['an http link', 'http://market.example/will-x-happen'],
    ['not a link', 'will-x-happen'],
    ['a link without a question path', 'https://market.example/'],
  ])('answers 400 naming reference for %s', async (_, reference) => {
    const service = createMockService();
    expectError(await call(service, 'POST', '/questions/import', { body: { reference } }), 400, 'invalid_request_error', /^reference: /);
    expect(service.store.questions.size).toBe(0);
  });
});
