// Ids and cursors a hostile server names, sent back in a URL: Node's fetch keeps the last 250 URLs it
// sent, so a cursor or task id of megabytes, a page or a poll at a time, exhausted the heap (an
// attacker's review: 25 MB cursors crashed a default client). Each is bounded, with a typed error
// and nothing sent for it; an id a caller passes is bounded the same way.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ForecastingError, InvalidResponseError, ValidationError } from '../../src/index.js';
import { MAX_ID_LENGTH } from '../../src/core/operation.js';
import { MAX_CURSOR_LENGTH } from '../../src/core/pagination.js';
import { BASE, fakeClock, makeClient, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

const caught = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);
const huge = (n: number) => 'x'.repeat(n);
/** What the server was asked, as `METHOD /path`. */
const asked = () => seen.map((r) => `${r.method} ${new URL(r.url).pathname}`);

describe('a nextCursor', () => {
  const pages = (cursor: string) => server.use(http.get(`${BASE}/questions`, () => HttpResponse.json({ type: 'list', data: [{ id: 'q1' }], hasMore: true, nextCursor: cursor })));

  it(`is followed up to ${MAX_CURSOR_LENGTH} characters, and refused past them before the next page is asked for`, async () => {
    pages(huge(MAX_CURSOR_LENGTH + 1));
    const client = makeClient();
    const items: unknown[] = [];
    const err = await caught((async () => {
      for await (const q of client.questions.list()) items.push(q);
    })());
    expect(err).toBeInstanceOf(ForecastingError);
    expect((err as Error).message).toBe(`Stopped paging: the service answered a nextCursor over ${MAX_CURSOR_LENGTH} characters.`);
    expect(items).toHaveLength(1);
    expect(asked()).toEqual(['GET /api/v1/external/questions']);

    pages(huge(MAX_CURSOR_LENGTH));
    const page = await client.questions.list();
    const next = await page.getNextPage();
    expect(next.data).toHaveLength(1);
  });
});

describe('a task id the service names', () => {
  const started = (body: Record<string, string>) => server.use(http.post(`${BASE}/forecasts`, () => HttpResponse.json(body, { status: 202 })));

  it('ends createAndWait in an InvalidResponseError, not a ValidationError, when it is missing or too long to read back', async () => {
    for (const body of [{ status: "queued" } as Record<string, string>, { id: huge(MAX_ID_LENGTH + 1), status: 'queued' }, { id: '', status: 'queued' }]) {
      started(body);
      seen.length = 0;
      const err = await caught(makeClient({ clock: fakeClock() }).forecasts.createAndWait({ questionId: 'q1' }));
      expect(err).toBeInstanceOf(InvalidResponseError);
      expect(err).not.toBeInstanceOf(ValidationError);
      expect(err).toMatchObject({ status: 202, message: "202: expected the started task's `id` (POST /forecasts)" });
      // The start was sent, and nothing after it.
      expect(asked()).toEqual(['POST /api/v1/external/forecasts']);
    }
  });

  it('ends createMany in an InvalidResponseError, and makes a runMany item an error, when an accepted item names one too long', async () => {
    server.use(http.get(`${BASE}/run-modes`, () => HttpResponse.json({ type: 'list', hasMore: false, nextCursor: null, data: [{ key: 'light', name: 'Light', credits: 1, isDefault: true }] })));
    server.use(http.post(`${BASE}/forecasts/batch`, () => HttpResponse.json({ items: [{ index: 0, status: 'accepted', taskId: huge(MAX_ID_LENGTH + 1) }] }, { status: 202 })));
    const client = makeClient({ clock: fakeClock() });
    expect(await caught(client.forecasts.createMany([{ questionId: 'q1' }]))).toBeInstanceOf(InvalidResponseError);
    seen.length = 0;
    const results = [];
    for await (const r of client.forecasts.runMany([{ questionId: 'q1' }])) results.push(r);
    expect(results).toMatchObject([{ status: 'rejected', index: 0, error: { message: 'no usable result for item 0 of the batch' } }]);
    expect(asked().filter((r) => r.startsWith('GET /api/v1/external/forecasts'))).toEqual([]);
  });
});

describe('an id a caller passes', () => {
  it(`is refused past ${MAX_ID_LENGTH} characters with a ValidationError naming the field, nothing sent`, async () => {
    const client = makeClient();
    const err = await caught(client.forecasts.retrieve(huge(MAX_ID_LENGTH + 1)));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ field: 'taskId', message: `taskId: must be at most ${MAX_ID_LENGTH} characters, got ${MAX_ID_LENGTH + 1}` });
    expect(asked()).toEqual([]);
  });
});
