// A value goes in at each of its blanks: a template of 300,000 blanks (a body under 1 MiB) filled
// with a 1 KB value made a question of 300 MB on the mock from a request of 1 KB, and a dozen such
// requests ran it out of memory. What goes into the blanks is kept to what one request can send.
import { describe, expect, it } from 'vitest';
import { MAX_JSON_BODY_BYTES } from '../../src/testing/index.js';
import { useOrgMock } from './_org.js';
import { rain } from './_templates.js';

const h = useOrgMock();
/** A template whose description is `times` blanks `d`. */
const repeated = (times: number) => h.client.questionTemplates.create({ ...rain, fields: { title: 'Will it rain in {city}?', description: '{d}'.repeat(times) }, blanks: [{ key: 'city' }, { key: 'd' }] });

describe('a template filled on the mock', () => {
  it('refuses values that would put more than a request can send in its blanks, starting nothing', async () => {
    const template = await repeated(100_000);
    const before = (await h.client.questions.list({ limit: 100 })).data.length;
    for (const [path, body] of [
      ['/questions', { templateId: template.id, templateValues: { city: 'Oslo', d: 'x'.repeat(1_000) } }],
      ['/forecasts', { question: { templateId: template.id, templateValues: { city: 'Oslo', d: 'x'.repeat(1_000) } } }],
    ] as const) {
      const res = await h.raw('POST', path, body);
      expect(res.status).toBe(400);
      const message = (res.body as { error: { message: string } }).error.message;
      expect(message).toMatch(/templateValues: would put more than 1048576 characters in the template's blanks in all/);
    }
    expect((await h.client.questions.list({ limit: 100 })).data).toHaveLength(before);
  });

  it('fills values up to that', async () => {
    const template = await repeated(1_000);
    const d = 'x'.repeat(Math.floor(MAX_JSON_BODY_BYTES / 1_000) - 10);
    const q = await h.client.questions.create({ templateId: template.id, templateValues: { city: 'Oslo', d } });
    expect(q.description).toHaveLength(1_000 * d.length);
  });
});

describe('a batch of forecasts on templates', () => {
  it('shares one request’s worth of filled blanks among its items, and names a refused item’s field from the batch', async () => {
    const template = await repeated(1_000);
    // Each item fills 600,000 characters: the first fits, the second would pass 1 MiB in all.
    const item = { question: { templateId: template.id, templateValues: { city: 'Oslo', d: 'x'.repeat(600) } } };
    const res = await h.raw('POST', '/forecasts/batch', { items: [item, item, { questionId: 'no-such-question' }] });
    expect(res.status).toBe(202);
    const items = (res.body as { items: { status: string; error?: { message: string } }[] }).items;
    expect(items.map((i) => i.status)).toEqual(['accepted', 'rejected', 'rejected']);
    expect(items[1]!.error!.message).toMatch(/^items\.1\.question\.templateValues: would put more than 1048576 characters/);
    expect(items[2]!.error!.message).toBe('items.2.questionId: no question no-such-question');
  });

  it('gives back what a refused item took, and names any blank key from the batch', async () => {
    const template = await repeated(1_000);
    const of = (d: string, extra: Record<string, string> = {}) => ({ question: { templateId: template.id, templateValues: { city: 'Oslo', d, ...extra } } });
    // Item 0 alone is over 1 MiB; item 1 is refused for a key the template has not; item 2 fits.
    const res = await h.raw('POST', '/forecasts/batch', { items: [of('x'.repeat(1_100)), of('x', { 'my-key': 'v' }), of('x'.repeat(1_000))] });
    const items = (res.body as { items: { status: string; error?: { message: string } }[] }).items;
    expect(items.map((i) => i.status)).toEqual(['rejected', 'rejected', 'accepted']);
    expect(items[1]!.error!.message).toBe('items.1.question.templateValues.my-key: the template has no blank "my-key"');
  });
});
