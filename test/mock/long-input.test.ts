// Text a caller controls read in time linear in its length: the template fill's `key: value` pairs,
// a title drawn from an import link. With the patterns they replaced, these inputs blocked the
// process for 6 to 12 s here (longer ones for minutes): each case must answer within 2 s, a hundred
// times what it takes now. Sizes are kept where a regression still ends, so it fails, never hangs.
import { describe, expect, it } from 'vitest';
import { createMockService } from '../../src/testing/index.js';
import { call } from './_helpers.js';

const service = createMockService();

describe('long text from a caller', () => {
  it('fills a template from a prompt of 4,000 spaces, and still reads the pairs of a normal one', async () => {
    const templates = await call<{ data: Array<{ id: string; blanks: Array<{ key: string }> }> }>(service, 'GET', '/question-templates');
    const template = templates.body.data.find((t) => t.blanks.length > 0)!;
    const started = performance.now();
    const long = await call(service, 'POST', `/question-templates/${template.id}/fill`, { body: { prompt: `${' '.repeat(4_000)}x` } });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(long.status).toBe(200);
    const key = template.blanks[0]!.key;
    const pairs = await call<{ templateValues: Record<string, string> }>(service, 'POST', `/question-templates/${template.id}/fill`, { body: { prompt: ` ${key.toUpperCase()} =  Lyon ; other: x` } });
    expect(pairs.body.templateValues[key]).toBe('Lyon');
  });

  it('makes a title from an import link whose last segment is 150,000 characters of dots and spaces', async () => {
    const started = performance.now();
    const res = await call<{ title: string }>(service, 'POST', '/questions/import', { body: { reference: `https://market.example/q/will-it-${'.%20'.repeat(50_000)}x` } });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(res.status).toBe(201);
    expect(res.body.title.length).toBeLessThanOrEqual(500);
  });

  it('refuses a clarify title over 500 characters (the limits of a title), as the SDK does before sending', async () => {
    const res = await call<{ error: { message: string } }>(service, 'POST', '/questions/normalize/clarify', { body: { title: `${'? '.repeat(75_000)}x`, answer: 'By June' } });
    expect([res.status, res.body.error.message]).toEqual([400, 'title: must be at most 500 characters']);
  });
});
