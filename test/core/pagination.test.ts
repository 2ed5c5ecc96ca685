import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ForecastingError } from '../../src/index.js';
import { MAX_EMPTY_PAGES_IN_A_ROW } from '../../src/core/pagination.js';
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

});

describe('a server that would make paging loop forever', () => {
  /** Every page says more follow and names the same cursor. */
  const sameCursor = (data: unknown[] = []) =>
    http.get(`${BASE}/questions`, () => HttpResponse.json({ type: 'list', data, hasMore: true, nextCursor: 'again' }));

  const caught = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

  it('stops for await with a ForecastingError when the server repeats a cursor', async () => {
    server.use(sameCursor([question('a')]));
    const got: string[] = [];
    const err = await caught((async () => { for await (const q of makeClient().questions.list()) got.push(q.id); })());
    expect(err).toBeInstanceOf(ForecastingError);
    expect((err as Error).message).toMatch(/cursor "again" a second time/);
    expect(got).toEqual(['a', 'a']);
    expect(seen).toHaveLength(2);
  });

  it('stops toArray with a limit it never reaches on empty pages with a repeated cursor', async () => {
    server.use(sameCursor());
    const err = await caught(makeClient().questions.list().toArray({ limit: 10 }));
    expect(err).toBeInstanceOf(ForecastingError);
    expect(seen.length).toBeLessThanOrEqual(2);
  });

  it('stops iterPages when a cursor comes back after others', async () => {
    let n = 0;
    server.use(http.get(`${BASE}/questions`, () => HttpResponse.json({ type: 'list', data: [question(`q${n}`)], hasMore: true, nextCursor: ['c1', 'c2', 'c1'][n++ % 3] })));
    const pages: number[] = [];
    const err = await caught((async () => { for await (const page of makeClient().questions.list().iterPages()) pages.push(page.data.length); })());
    expect((err as Error).message).toMatch(/"c1" a second time/);
    expect(pages).toEqual([1, 1, 1]);
  });

  it('stops when the server answers a cursor the caller started from', async () => {
    server.use(sameCursor([question('a')]));
    const err = await caught(makeClient().questions.list({ cursor: 'again' }).toArray());
    expect((err as Error).message).toMatch(/a second time/);
    expect(seen).toHaveLength(1);
  });

  it('stops with a ForecastingError when hasMore is true but no cursor is given', async () => {
    server.use(http.get(`${BASE}/questions`, () => HttpResponse.json({ type: 'list', data: [question('a')], hasMore: true })));
    const page = await makeClient().questions.list();
    expect(page.hasNextPage()).toBe(true);
    const err = await caught(page.getNextPage());
    expect(err).toBeInstanceOf(ForecastingError);
    expect((err as Error).message).toMatch(/hasMore: true without a nextCursor/);
    expect(seen).toHaveLength(1);
  });

  it('stops after ten empty pages in a row even when each names a new cursor', async () => {
    let n = 0;
    server.use(http.get(`${BASE}/questions`, () => HttpResponse.json({ type: 'list', data: [], hasMore: true, nextCursor: `c${n++}` })));
    const err = await caught(makeClient().questions.list().toArray());
    expect((err as Error).message).toMatch(/10 empty pages in a row/);
    expect(seen).toHaveLength(MAX_EMPTY_PAGES_IN_A_ROW);
  });

  it('keeps going through a few empty pages that make progress', async () => {
    let n = 0;
    server.use(
      http.get(`${BASE}/questions`, () => {
        n++;
        return HttpResponse.json({ type: 'list', data: n === 4 ? [question('last')] : [], hasMore: n < 4, nextCursor: n < 4 ? `c${n}` : null });
      }),
    );
    expect((await makeClient().questions.list().toArray()).map((q) => q.id)).toEqual(['last']);
  });

  it('stops an offset list whose empty page says more follow', async () => {
    server.use(http.get(`${BASE}/questions/browse`, () => HttpResponse.json({ type: 'list', data: [], hasMore: true })));
    const err = await caught(makeClient().questions.browse().toArray());
    expect((err as Error).message).toMatch(/empty page with hasMore: true/);
    expect(seen).toHaveLength(1);
  });

  it('stops an offset list whose service ignores offset and answers the same full page again', async () => {
    server.use(http.get(`${BASE}/questions/browse`, () => HttpResponse.json({ type: 'list', data: [question('a'), question('b')], hasMore: true })));
    const err = await caught(makeClient().questions.browse().toArray({ limit: Infinity }));
    expect(err).toBeInstanceOf(ForecastingError);
    expect((err as Error).message).toMatch(/more pages it gave before than new ones \(it ignores offset\)/);
    expect(seen).toHaveLength(3);
  });

  it('stops an offset list whose service cycles through pages it gave (A, B, A, B, A): once more came back than were new', async () => {
    let n = 0;
    server.use(http.get(`${BASE}/questions/browse`, () => HttpResponse.json({ type: 'list', data: n++ % 2 === 0 ? [question('a'), question('b')] : [question('c'), question('d')], hasMore: true })));
    const err = await caught(makeClient().questions.browse({ limit: 2 }).toArray({ limit: Infinity }));
    expect(err).toBeInstanceOf(ForecastingError);
    expect((err as Error).message).toMatch(/more pages it gave before than new ones/);
    expect(seen).toHaveLength(5);
  });

  // An attacker's review: items added at the head while the list is read (4 here, twice the page)
  // bring an earlier page back at a later offset; the walk reads it again and goes on to the end.
  it('reads on through an offset list that grew at its head while it was read', async () => {
    let items = ['q_0', 'q_1', 'q_2', 'q_3', 'q_4', 'q_5'];
    let reads = 0;
    server.use(
      http.get(`${BASE}/questions/browse`, ({ request }) => {
        const url = new URL(request.url);
        const [offset, limit] = [Number(url.searchParams.get('offset') ?? 0), Number(url.searchParams.get('limit'))];
        if (++reads === 3) items = ['n_0', 'n_1', 'n_2', 'n_3', ...items];
        return HttpResponse.json({ type: 'list', data: items.slice(offset, offset + limit).map((id) => question(id)), hasMore: offset + limit < items.length });
      }),
    );
    const ids = (await makeClient().questions.browse({ limit: 2 }).toArray({ limit: Infinity })).map((q) => q.id);
    expect(ids).toEqual(['q_0', 'q_1', 'q_2', 'q_3', 'q_0', 'q_1', 'q_2', 'q_3', 'q_4', 'q_5']);
  });

  it('refuses a toArray limit that is not a whole number >= 0, and fetches nothing more for 0', async () => {
    server.use(cursorPages());
    const page = await makeClient().questions.list({ limit: 2 });
    await expect(page.toArray({ limit: -1 })).rejects.toMatchObject({ name: 'ValidationError', field: 'limit' });
    await expect(page.toArray({ limit: 1.5 })).rejects.toMatchObject({ field: 'limit' });
    expect(await page.toArray({ limit: 0 })).toEqual([]);
    expect((await page.toArray({ limit: Infinity })).length).toBe(7);
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

describe('paging edges', () => {
  const caught = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);
  /** Cursor pages answered in turn from `pages`, then an empty last page. */
  const pagesInTurn = (pages: Array<{ data: unknown[]; hasMore: unknown; nextCursor?: unknown }>) => {
    let n = 0;
    server.use(http.get(`${BASE}/questions`, () => HttpResponse.json({ type: 'list', ...(pages[n++] ?? { data: [], hasMore: false }) })));
  };

  it('takes an empty nextCursor for none, and stops instead of asking for the first page again', async () => {
    pagesInTurn([{ data: [question('a')], hasMore: true, nextCursor: '' }]);
    const page = await makeClient().questions.list();
    expect(page.nextCursor).toBeNull();
    const err = await caught(page.getNextPage());
    expect((err as Error).message).toBe('Stopped paging: the service answered hasMore: true without a nextCursor, so following it would never end.');
    expect(seen).toHaveLength(1);
  });

  it('reads only hasMore: true as more to come', async () => {
    pagesInTurn([{ data: [question('a')], hasMore: 'true', nextCursor: 'c1' }]);
    const page = await makeClient().questions.list();
    expect(page.hasMore).toBe(false);
    expect(page.hasNextPage()).toBe(false);
    expect((await page.toArray()).map((q) => q.id)).toEqual(['a']);
    expect(seen).toHaveLength(1);
  });

  it('counts empty pages in a row only: a page with items starts the count again', async () => {
    const empty = (i: number) => ({ data: [], hasMore: true, nextCursor: `e${i}` });
    pagesInTurn([
      ...Array.from({ length: MAX_EMPTY_PAGES_IN_A_ROW - 1 }, (_, i) => empty(i)),
      { data: [question('middle')], hasMore: true, nextCursor: 'm' },
      ...Array.from({ length: MAX_EMPTY_PAGES_IN_A_ROW - 1 }, (_, i) => empty(100 + i)),
      { data: [question('last')], hasMore: false },
    ]);
    expect((await makeClient().questions.list().toArray()).map((q) => q.id)).toEqual(['middle', 'last']);
    expect(seen).toHaveLength(2 * MAX_EMPTY_PAGES_IN_A_ROW);
  });

  it('shows a repeated cursor clipped to 64 characters', async () => {
    const cursor = 'c'.repeat(100);
    pagesInTurn([
      { data: [question('a')], hasMore: true, nextCursor: cursor },
      { data: [question('b')], hasMore: true, nextCursor: cursor },
    ]);
    const err = await caught(makeClient().questions.list().toArray());
    expect((err as Error).message).toBe(`Stopped paging: the service answered the cursor "${'c'.repeat(64)}" a second time, so following it would never end.`);
  });

  it('collects at most 1000 items by default', async () => {
    let n = 0;
    server.use(
      http.get(`${BASE}/questions`, () => {
        const data = Array.from({ length: 100 }, (_, i) => question(`q${n * 100 + i}`));
        n++;
        return HttpResponse.json({ type: 'list', data, hasMore: true, nextCursor: `c${n}` });
      }),
    );
    const items = await makeClient().questions.list({ limit: 100 }).toArray();
    expect(items).toHaveLength(1000);
    expect(items.at(-1)!.id).toBe('q999');
    expect(seen).toHaveLength(10);
  });

  it('refuses a NaN limit, and a limit of 0 gives nothing from the first page either', async () => {
    server.use(cursorPages());
    await expect(makeClient().questions.list().toArray({ limit: Number.NaN })).rejects.toMatchObject({ field: 'limit', message: 'limit: must be a whole number >= 0 (or Infinity), got NaN' });
    expect(await makeClient().questions.list({ limit: 3 }).toArray({ limit: 0 })).toEqual([]);
    expect(await (await makeClient().questions.list({ limit: 3 })).toArray({ limit: 0 })).toEqual([]);
    // One first page per list() call (the request starts with the call), and none after it.
    expect(seen).toHaveLength(3);
  });

  it('continues an offset list from the offset the caller gave', async () => {
    server.use(offsetPages());
    const got = await makeClient().questions.browse({ limit: 2, offset: 3 }).toArray();
    expect(got.map((q) => q.id)).toEqual(['q3', 'q4', 'q5', 'q6']);
    expect(seen.map((r) => new URL(r.url).searchParams.get('offset'))).toEqual(['3', '5']);
  });

  it('stops an offset list on an empty page with hasMore: true, saying why', async () => {
    server.use(http.get(`${BASE}/questions/browse`, () => HttpResponse.json({ type: 'list', data: [], hasMore: true })));
    const page = await makeClient().questions.browse();
    expect(page.hasNextPage()).toBe(true);
    const err = await caught(page.getNextPage());
    expect(err).toBeInstanceOf(ForecastingError);
    expect((err as Error).message).toBe(
      'Stopped paging: the service answered an empty page with hasMore: true (the next offset would ask for the same page again), so following it would never end.',
    );
    expect(seen).toHaveLength(1);
  });

  it('walks the pages of a list call with iterPages on the promise, and its items with for await', async () => {
    server.use(cursorPages());
    const pages: string[][] = [];
    for await (const page of makeClient().questions.list({ limit: 4 }).iterPages()) pages.push(page.data.map((q) => q.id));
    expect(pages).toEqual([ids.slice(0, 4), ids.slice(4)]);
    const items: string[] = [];
    for await (const q of await makeClient().questions.list({ limit: 4 })) items.push(q.id);
    expect(items).toEqual(ids);
  });
});

describe('getNextPage is a read: calling it again gives the same next page', () => {
  const caught = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);
  const idsOf = (page: { data: Array<{ id: string }> }) => page.data.map((q) => q.id);
  const cursorsSent = () => seen.map((r) => new URL(r.url).searchParams.get('cursor'));

  it('fetches the same cursor page twice, and either copy walks on to the end', async () => {
    server.use(cursorPages());
    const first = await makeClient().questions.list({ limit: 3 });
    const a = await first.getNextPage();
    const b = await first.getNextPage();
    expect([idsOf(a), idsOf(b)]).toEqual([['q3', 'q4', 'q5'], ['q3', 'q4', 'q5']]);
    expect(idsOf(await a.getNextPage())).toEqual(['q6']);
    expect(idsOf(await b.getNextPage())).toEqual(['q6']);
    expect(idsOf(await b.getNextPage())).toEqual(['q6']);
    expect(cursorsSent()).toEqual([null, '3', '3', '6', '6', '6']);
  });

  it('fetches the same offset page twice', async () => {
    server.use(offsetPages());
    const first = await makeClient().questions.browse({ limit: 3 });
    expect(idsOf(await first.getNextPage())).toEqual(['q3', 'q4', 'q5']);
    expect(idsOf(await first.getNextPage())).toEqual(['q3', 'q4', 'q5']);
    expect(seen.map((r) => new URL(r.url).searchParams.get('offset'))).toEqual([null, '3', '3']);
  });

  it('iterates the same page twice with for await, and toArray after it', async () => {
    server.use(cursorPages());
    const page = await makeClient().questions.list({ limit: 3 });
    for (let round = 0; round < 2; round++) {
      const got: string[] = [];
      for await (const q of page) got.push(q.id);
      expect(got).toEqual(ids);
    }
    expect((await page.toArray()).map((q) => q.id)).toEqual(ids);
  });

  it('counts an empty page once however often its next page is asked for', async () => {
    let n = 0;
    server.use(http.get(`${BASE}/questions`, () => HttpResponse.json({ type: 'list', data: [], hasMore: true, nextCursor: `c${n++}` })));
    let page = await makeClient().questions.list();
    for (let i = 1; i < MAX_EMPTY_PAGES_IN_A_ROW; i++) {
      await page.getNextPage();
      page = await page.getNextPage();
    }
    // The tenth empty page in a row, reached by asking twice at every step: only now does the walk stop.
    expect(await caught(page.getNextPage())).toMatchObject({ message: expect.stringMatching(/10 empty pages in a row/) });
  });

  it('still stops a service that repeats a cursor, on every copy of the page that repeats it', async () => {
    let n = 0;
    server.use(http.get(`${BASE}/questions`, () => HttpResponse.json({ type: 'list', data: [question(`q${n}`)], hasMore: true, nextCursor: ['c1', 'c2', 'c1'][n++ % 3] })));
    const first = await makeClient().questions.list(); // next: c1
    const second = await first.getNextPage(); // next: c2
    await first.getNextPage(); // the same page again (next: c1, as the service answers in turn)
    const third = await second.getNextPage(); // next: c1, followed already
    expect(await caught(third.getNextPage())).toMatchObject({ message: expect.stringMatching(/"c1" a second time/) });
    expect(await caught(third.getNextPage())).toMatchObject({ message: expect.stringMatching(/"c1" a second time/) });
    expect(cursorsSent()).toEqual([null, 'c1', 'c1', 'c2']);
  });

  it('still stops an offset service that ignores offset, asked twice', async () => {
    server.use(http.get(`${BASE}/questions/browse`, () => HttpResponse.json({ type: 'list', data: [question('a'), question('b')], hasMore: true })));
    const first = await makeClient().questions.browse();
    await first.getNextPage();
    const second = await first.getNextPage();
    const third = await second.getNextPage(); // the first repeat
    expect(await caught(third.getNextPage())).toMatchObject({ message: expect.stringMatching(/more pages it gave before than new ones/) });
    expect(seen).toHaveLength(4);
  });

  it('does not take a cursor met on another copy of the walk for a repeat', async () => {
    // The service answers the second page differently each time: next x, then next y; y's page points at x.
    const answers: Record<string, { next: string | null }> = { x: { next: null }, y: { next: 'x' } };
    let second = 0;
    server.use(
      http.get(`${BASE}/questions`, ({ request }) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        const next = cursor === null ? 'c1' : cursor === 'c1' ? ['x', 'y'][second++ % 2]! : answers[cursor]!.next;
        return HttpResponse.json({ type: 'list', data: [question(cursor ?? 'first')], hasMore: next !== null, nextCursor: next });
      }),
    );
    const first = await makeClient().questions.list();
    const viaX = await first.getNextPage();
    const viaY = await first.getNextPage();
    expect(idsOf(await viaX.getNextPage())).toEqual(['x']);
    const y = await viaY.getNextPage();
    expect(idsOf(y)).toEqual(['y']);
    expect(idsOf(await y.getNextPage())).toEqual(['x']); // x was followed on the other copy, not on this walk
  });
});
