import { describe, expect, it } from 'vitest';
import { createMockService } from '../../src/testing/index.js';
import { QuestionDefinition } from '../../src/schemas/questions.js';
import { NormalizeResult } from '../../src/schemas/records/questions.js';
import { call, expectError, type Question } from './_helpers.js';

interface Draft {
  status: string;
  question?: Record<string, unknown> & { type: string; title: string };
  suggestedReframe?: string;
}

async function normalize(title: string) {
  const service = createMockService();
  const res = await call<Draft>(service, 'POST', '/questions/normalize', { body: { title } });
  expect(res.status).toBe(200);
  expect(NormalizeResult.safeParse(res.body).success).toBe(true);
  return { service, draft: res.body };
}

describe('questions.normalize', () => {
  it('drafts a numeric question from "How many", with bounds and a linear scale', async () => {
    const { draft } = await normalize('how many EVs will be sold in Norway in 2026');
    expect(draft.status).toBe('ok');
    expect(draft.question).toMatchObject({
      type: 'numeric',
      title: 'How many EVs will be sold in Norway in 2026?',
      lowerBound: 0,
      upperBound: 1000,
      scaleType: 'linear',
    });
    expect(draft.question?.['resolutionCriteria']).toEqual(expect.any(String));
  });

  it('drafts a numeric question from "How much" too', async () => {
    expect((await normalize('How much will gold cost')).draft.question?.type).toBe('numeric');
  });

  it('drafts a date question from "When", bounded in whole Unix seconds from the clock', async () => {
    const { draft } = await normalize('When will the new bridge open');
    expect(draft.question).toMatchObject({ type: 'date', lowerBound: Date.UTC(2025, 0, 1) / 1000 });
    expect(Number.isInteger(draft.question?.['upperBound'])).toBe(true);
  });

  it('drafts a multiple choice question from "Which … or …", with the options named', async () => {
    const colon = await normalize('Which party will win: Labour, Conservative or Reform');
    expect(colon.draft.question).toMatchObject({ type: 'multiple_choice', options: ['Labour', 'Conservative', 'Reform'] });
    const plain = await normalize('Which team wins Arsenal or Chelsea?');
    expect(plain.draft.question).toMatchObject({ type: 'multiple_choice', options: ['Arsenal', 'Chelsea'] });
  });

  it('drafts a binary question otherwise, with resolution criteria', async () => {
    const { draft } = await normalize('bitcoin above 100k by December');
    expect(draft.question).toMatchObject({ type: 'binary', title: 'Bitcoin above 100k by December?' });
    expect(draft.question?.['resolutionCriteria']).toMatch(/Resolves YES/);
  });

  it('answers unsupported with a suggested reframe for fewer than 3 words', async () => {
    const { draft } = await normalize('bitcoin price');
    expect(draft.status).toBe('unsupported');
    expect(draft.question).toBeUndefined();
    expect(draft.suggestedReframe).toMatch(/bitcoin price/);
  });

  it('asks a clarification for a time no one can check ("soon", "eventually", "someday", "one day"), drafting nothing', async () => {
    for (const [title, word] of [['bitcoin above 100k soon', 'soon'], ['Will fusion power EVENTUALLY work', 'EVENTUALLY'], ['a human lands on Mars one day', 'one day']]) {
      const { draft } = await normalize(title!);
      expect(draft).toEqual({ status: 'needs_clarification', clarification: `"${word}" cannot be checked: by what date should it count? Answer through normalize/clarify, with this title.` });
    }
    // A word that only contains one is not vague.
    expect((await normalize('will the soonest flight leave')).draft.status).toBe('ok');
  });

  it('resolves by the end of the latest year the title names (this year on), else by the end of next year', async () => {
    // The mock's clock starts on 1 January 2025.
    const criteria = async (title: string) => (await normalize(title)).draft.question?.['resolutionCriteria'];
    expect(await criteria('how many EVs will Norway register in 2027')).toBe('Resolves to the value an authoritative public source reports for 31 December 2027.');
    expect(await criteria('Which wins between 2025 and 2028: Paris or Rome')).toMatch(/confirms by 31 December 2028\.$/);
    expect(await criteria('Will the 1999 record fall')).toMatch(/by 31 December 2026 \(UTC\); otherwise NO\.$/);
    expect(await criteria('Will the 2019 record fall')).toMatch(/by 31 December 2026 \(UTC\)/);
  });

  it('is deterministic and saves nothing; the draft passes POST /questions as it is', async () => {
    const a = await normalize('Which city hosts first, Paris or Rome');
    const b = await normalize('Which city hosts first, Paris or Rome');
    expect(a.draft).toEqual(b.draft);
    expect(a.service.store.questions.size).toBe(0);
    for (const title of ['How many EVs will be sold', 'When will it open', 'Which is bigger, Oslo or Bergen', 'Will it rain tomorrow']) {
      const { service, draft } = await normalize(title);
      expect(QuestionDefinition.safeParse(draft.question).success).toBe(true);
      expect((await call<Question>(service, 'POST', '/questions', { body: draft.question })).status).toBe(201);
    }
  });

  it('answers 400 naming title when it is missing or too long', async () => {
    const service = createMockService();
    expectError(await call(service, 'POST', '/questions/normalize', { body: {} }), 400, 'invalid_request_error', /^title: /);
    expectError(
      await call(service, 'POST', '/questions/normalize', { body: { title: 'x'.repeat(501) } }),
      400,
      'invalid_request_error',
      'title: must be at most 500 characters',
    );
  });
});

describe('questions.clarify', () => {
  it('drafts like normalize, with the answer folded into the resolution criteria', async () => {
    const service = createMockService();
    const res = await call<Draft>(service, 'POST', '/questions/normalize/clarify', {
      body: { title: 'bitcoin above 100k by December', answer: 'Measured on Coinbase at 23:59 UTC' },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.question?.['resolutionCriteria']).toMatch(/Clarification: Measured on Coinbase at 23:59 UTC$/);
  });

  it('answers the clarification normalize asked: the same title with an answer drafts the question', async () => {
    const service = createMockService();
    const title = 'bitcoin above 100k soon';
    const res = await call<Draft>(service, 'POST', '/questions/normalize/clarify', { body: { title, answer: 'By 31 December 2026, on Coinbase' } });
    expect(res.body).toMatchObject({ status: 'ok', question: { type: 'binary', title: 'Bitcoin above 100k soon?' } });
    // It resolves by what the answer says, not by a deadline of its own.
    expect(res.body.question?.['resolutionCriteria']).toBe(
      'Resolves YES if "Bitcoin above 100k soon?" is confirmed by credible public reporting by the time the clarification gives; otherwise NO. Clarification: By 31 December 2026, on Coinbase',
    );
    expect(NormalizeResult.safeParse(res.body).success).toBe(true);
  });

  it('answers 400 naming title or answer when missing', async () => {
    const service = createMockService();
    expectError(await call(service, 'POST', '/questions/normalize/clarify', { body: { answer: 'a' } }), 400, 'invalid_request_error', 'title: is required');
    expectError(
      await call(service, 'POST', '/questions/normalize/clarify', { body: { title: 'will it rain today' } }),
      400,
      'invalid_request_error',
      'answer: is required',
    );
  });
});

describe('questions.revise', () => {
  const question = { type: 'binary', title: 'Will it rain in Paris tomorrow?', description: 'Rough draft.' };

  it('applies the guidance to the description and returns the whole question', async () => {
    const service = createMockService();
    const res = await call<Draft>(service, 'POST', '/questions/normalize/revise', {
      body: { question: { ...question, id: 'ignored' }, guidance: 'Use the Montsouris station' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      question: { ...question, description: 'Rough draft.\n\nRevised with guidance: Use the Montsouris station' },
    });
    expect(service.store.questions.size).toBe(0);
  });

  it('answers 400 naming the field for a broken question or missing guidance', async () => {
    const service = createMockService();
    expectError(
      await call(service, 'POST', '/questions/normalize/revise', { body: { question: { ...question, options: ['a', 'b'] }, guidance: 'g' } }),
      400,
      'invalid_request_error',
      'question.options: binary questions take none',
    );
    expectError(await call(service, 'POST', '/questions/normalize/revise', { body: { question } }), 400, 'invalid_request_error', 'guidance: is required');
    expectError(await call(service, 'POST', '/questions/normalize/revise', { body: { guidance: 'g' } }), 400, 'invalid_request_error', 'question: is required');
  });
});
