import { describe, expect, it } from 'vitest';
import { createMockService } from '../../src/testing/index.js';
import { binary, call, createQuestion, expectError, type ListBody } from './_helpers.js';

interface Tag {
  name: string;
  slug: string;
}

describe('tags.list', () => {
  it('lists the distinct tags of the caller’s questions by slug', async () => {
    const service = createMockService();
    await createQuestion(service, binary('Will oil rise?', { tags: ['Energy', 'Oil'] }));
    await createQuestion(service, binary('Will gas rise?', { tags: ['energy', 'Gas Prices'] }));
    const res = await call<ListBody<Tag>>(service, 'GET', '/tags');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      type: 'list',
      data: [
        { name: 'energy', slug: 'energy' },
        { name: 'Gas Prices', slug: 'gas-prices' },
        { name: 'Oil', slug: 'oil' },
      ],
      hasMore: false,
      nextCursor: null,
    });
  });

  it('pages with cursors across several pages', async () => {
    const service = createMockService();
    const names = Array.from({ length: 12 }, (_, i) => `tag-${String(i).padStart(2, '0')}`);
    await createQuestion(service, binary('Tagged question one?', { tags: names.slice(0, 6) }));
    await createQuestion(service, binary('Tagged question two?', { tags: names.slice(6) }));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=5&cursor=${cursor}` : '?limit=5';
      const page: ListBody<Tag> = (await call<ListBody<Tag>>(service, 'GET', `/tags${query}`)).body;
      seen.push(...page.data.map((t) => t.slug));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(names);
  });

  it('leaves out tags of questions the caller cannot see', async () => {
    const service = createMockService({ apiKeys: [{ key: 'pre_a', userId: 'a' }, { key: 'pre_b', userId: 'b' }] });
    await createQuestion(service, binary('Private one?', { tags: ['secret'] }), 'pre_a');
    await createQuestion(service, binary('Shared one?', { tags: ['shared'], visibility: 'organization' }), 'pre_a');
    const res = await call<ListBody<Tag>>(service, 'GET', '/tags', { key: 'pre_b' });
    expect(res.body.data.map((t) => t.slug)).toEqual(['shared']);
  });

  it('answers 400 naming limit out of range', async () => {
    const service = createMockService();
    expectError(await call(service, 'GET', '/tags?limit=101'), 400, 'invalid_request_error', 'limit: must be at most 100');
  });
});
