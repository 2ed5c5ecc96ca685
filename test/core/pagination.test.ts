import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, question, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

const ids = Array.from({ length: 7 }, (_, i) => `q${i}`);

/** Cursor pages of `limit` over `ids`; the cursor is the index of the next item. */
function cursorPages() {
  return http.get(`${BASE}/questions`, ({ request }) => {
    const url = new URL(request.url);
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const data = ids.slice(start, start + limit).map((id) => question(id));
    const hasMore = start + limit < ids.length;
    return HttpResponse.json({ type: 'list', data, hasMore, nextCursor: hasMore ? String(start + limit) : null });
  });
}

/** Offset pages of `limit` over `ids`. */
function offsetPages() {
  return http.get(`${BASE}/questions/browse`, ({ request }) => {
    const url = new URL(request.url);
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const data = ids.slice(offset, offset + limit).map((id) => question(id));
    return HttpResponse.json({ type: 'list', data, hasMore: offset + limit < ids.length });
  });
}

describe('cursor lists', () => {
  it('awaits to the first page', async () => {
    server.use(cursorPages());
    const page = await makeClient().questions.list({ limit: 3 });
    expect(page.data.map((q) => q.id)).toEqual(['q0', 'q1', 'q2']);
    expect(page.hasMore).toBe(true);
    expect(page.nextCursor).toBe('3');
    expect(seen).toHaveLength(1);
  });

  it('iterates every item across pages, passing the cursor on', async () => {
    server.use(cursorPages());
    const got: string[] = [];
    for await (const q of makeClient().questions.list({ limit: 3 })) got.push(q.id);
    expect(got).toEqual(ids);
    expect(seen.map((r) => new URL(r.url).searchParams.get('cursor'))).toEqual([null, '3', '6']);
    expect(seen.every((r) => new URL(r.url).searchParams.get('limit') === '3')).toBe(true);
  });

  it('walks page by page', async () => {
    server.use(cursorPages());
    const sizes: number[] = [];
    for await (const page of makeClient().questions.list({ limit: 3 }).iterPages()) sizes.push(page.data.length);
    expect(sizes).toEqual([3, 3, 1]);
    let page = await makeClient().questions.list({ limit: 5 });
    expect(page.hasNextPage()).toBe(true);
    page = await page.getNextPage();
    expect(page.data.map((q) => q.id)).toEqual(['q5', 'q6']);
    expect(page.hasNextPage()).toBe(false);
    await expect(page.getNextPage()).rejects.toThrow(/No next page/);
  });

  it('stops toArray at its limit without fetching further pages', async () => {
    server.use(cursorPages());
    const some = await makeClient().questions.list({ limit: 3 }).toArray({ limit: 4 });
    expect(some.map((q) => q.id)).toEqual(['q0', 'q1', 'q2', 'q3']);
    expect(seen).toHaveLength(2);
  });

  it('stops when hasMore is true but no cursor is given', async () => {
    server.use(http.get(`${BASE}/questions`, () => HttpResponse.json({ type: 'list', data: [question('a')], hasMore: true })));
    expect(await makeClient().questions.list().toArray()).toHaveLength(1);
    expect(seen).toHaveLength(1);
  });
});

describe('offset lists', () => {
  it('sends limit on every page, advances offset by the items received, and stops when hasMore is false', async () => {
    server.use(offsetPages());
    const got = await makeClient().questions.browse({ limit: 3, q: 'rain' }).toArray();
    expect(got.map((q) => q.id)).toEqual(ids);
    const queries = seen.map((r) => Object.fromEntries(new URL(r.url).searchParams));
    expect(queries).toEqual([
      { limit: '3', q: 'rain' },
      { limit: '3', q: 'rain', offset: '3' },
      { limit: '3', q: 'rain', offset: '6' },
    ]);
  });

  it('sends the default limit when the caller gives none', async () => {
    server.use(offsetPages());
    await makeClient().questions.browse();
    expect(new URL(seen[0]!.url).searchParams.get('limit')).toBe('50');
  });
});
