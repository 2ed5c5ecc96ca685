// Blank keys are data: keys that are also names on Object.prototype (`constructor`, `toString`, …)
// fill and are required like any other, in the mock over HTTP; `__proto__`, which no JSON object
// carries as a key, is refused when the template is made, by the SDK before sending and by the mock.
import { describe, expect, it } from 'vitest';
import { binary, useOrgMock } from '../e2e/_org.js';

const h = useOrgMock();
const PROTO_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty'];
const template = {
  scope: 'personal',
  name: 'Prototype names',
  questionType: 'binary',
  fields: { title: 'Will {constructor} beat {toString} by {valueOf} or {hasOwnProperty}?' },
  blanks: PROTO_NAMES.map((key) => ({ key })),
};

async function createTemplate(): Promise<string> {
  const res = await h.raw('POST', '/question-templates', template);
  expect(res.status).toBe(201);
  return res.body['id'] as string;
}

describe('blank keys named like Object.prototype members', () => {
  it('are required: a missing value is a 400 naming it, never a native function in the title', async () => {
    const id = await createTemplate();
    const res = await h.raw('POST', `/question-templates/${id}/apply`, { templateValues: {} });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe(`templateValues.constructor: is required: the template's blank "constructor" has no value`);
    const created = await h.raw('POST', '/questions', { templateId: id, templateValues: { constructor: 'A' } });
    expect(created.status).toBe(400);
    expect(created.body.error?.message).toMatch(/^templateValues\.toString: is required/);
  });

  it('fill with the values given', async () => {
    const id = await createTemplate();
    const templateValues = { constructor: 'Alpha', toString: 'Beta', valueOf: '3 points', hasOwnProperty: 'a draw' };
    const applied = await h.raw('POST', `/question-templates/${id}/apply`, { templateValues });
    expect(applied.status).toBe(200);
    expect(applied.body['question']).toMatchObject({ title: 'Will Alpha beat Beta by 3 points or a draw?' });
    expect(applied.body['sourceTemplate']).toMatchObject({ templateValues });
    const question = await h.client.questions.create({ templateId: id, templateValues });
    expect(question.title).toBe('Will Alpha beat Beta by 3 points or a draw?');
  });

  it('are filled from a prompt as text', async () => {
    const id = await createTemplate();
    const res = await h.raw('POST', `/question-templates/${id}/fill`, { prompt: 'constructor: Alpha, Beta', templateValues: { hasOwnProperty: 'a draw' } });
    expect(res.status).toBe(200);
    expect(res.body['templateValues']).toEqual({ constructor: 'Alpha', toString: 'Beta', valueOf: 'valueOf', hasOwnProperty: 'a draw' });
  });

  it('an unknown value named like a member is still unknown', async () => {
    const res = await h.raw('POST', '/questions', { templateId: await createTemplate(), templateValues: { constructor: 'A', toString: 'B', valueOf: 'C', hasOwnProperty: 'D', isPrototypeOf: 'E' } });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toMatch(/^templateValues\.isPrototypeOf: the template has no blank/);
  });
});

describe('a blank key __proto__', () => {
  const proto = { ...template, fields: { title: 'Will {__proto__} happen?' }, blanks: [{ key: '__proto__' }] };

  it('is refused by the SDK before sending', async () => {
    await h.refused(h.client.questionTemplates.create(proto as never), 'blanks.0.key', /__proto__/);
  });

  it('is refused by the mock when a template is made or edited', async () => {
    const made = await h.raw('POST', '/question-templates', proto);
    expect(made.status).toBe(400);
    expect(made.body.error?.message).toMatch(/^blanks\.0\.key: must not be __proto__/);
    const q = await h.client.questions.create(binary);
    const plain = await h.raw('POST', '/question-templates/from-question', { scope: 'personal', name: 'Plain', questionId: q.id });
    const edited = await h.raw('PATCH', `/question-templates/${plain.body['id'] as string}`, { fields: proto.fields, blanks: proto.blanks });
    expect(edited.status).toBe(400);
    expect(edited.body.error?.message).toMatch(/^blanks\.0\.key: must not be __proto__/);
  });
});
