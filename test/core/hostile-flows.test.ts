// The higher-level flows against answers that contradict them (an attacker's review of the flows):
// a flow ends in a typed error or keeps waiting, never puts one task's record in another's place,
// never resolves with a task that is not final, never fails with a bare TypeError after a start.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { InvalidResponseError, WaitTimeoutError } from '../../src/index.js';
import { BASE, fakeClock, makeClient, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

const task = (id: string, status: string) => ({ id, questionId: 'q1', status, createdAt: 'x', updatedAt: 'x', progressMessage: null, forecast: status === 'completed' ? { id: `f-${id}`, generatedAt: 'x', forecastData: { questionType: 'binary', probability: id === 'A' ? 0.9 : 0.1 }, report: null } : null });
const caught = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

describe('a read answered with another task', () => {
  // Task A asked for, a completed task B answered: A's wait resolved with B's forecast.
  const swapped = () => server.use(http.get(`${BASE}/forecasts/:id`, ({ params }) => HttpResponse.json(task(params['id'] === 'A' ? 'B' : 'A', 'completed'))));

  it('ends wait and createAndWait in an InvalidResponseError naming the task asked for', async () => {
    swapped();
    server.use(http.post(`${BASE}/forecasts`, () => HttpResponse.json(task('A', 'queued'), { status: 202 })));
    const client = makeClient({ clock: fakeClock() });
    for (const run of [() => client.forecasts.wait('A'), () => client.forecasts.createAndWait({ questionId: 'q1' })]) {
      const err = (await caught(run())) as InvalidResponseError;
      expect(err).toBeInstanceOf(InvalidResponseError);
      expect(err.message).toBe('200: expected the task A (GET /forecasts/{task_id})');
    }
  });

  it("ends waitMany's full read so, rather than give each task the other's record", async () => {
    swapped();
    server.use(http.get(`${BASE}/forecasts`, () => HttpResponse.json({ type: 'list', hasMore: false, nextCursor: null, data: ['A', 'B'].map((taskId) => ({ taskId, status: 'completed', forecastData: null })) })));
    const err = await caught(makeClient({ clock: fakeClock() }).forecasts.waitMany(['A', 'B']));
    expect(err).toBeInstanceOf(InvalidResponseError);
  });
});

describe("waitMany's full read behind its list", () => {
  // The list says completed; the full read (from behind it) still says running: it resolved with a running task.
  it('reads a task again until its full read is final too, and resolves with final tasks only', async () => {
    let reads = 0;
    server.use(
      http.get(`${BASE}/forecasts`, () => HttpResponse.json({ type: 'list', hasMore: false, nextCursor: null, data: [{ taskId: 'A', status: 'completed', forecastData: null }] })),
      http.get(`${BASE}/forecasts/A`, () => HttpResponse.json(task('A', reads++ < 2 ? 'running_subforecasts' : 'completed'), { headers: { 'retry-after': '7' } })),
    );
    const clock = fakeClock();
    const [done] = await makeClient({ clock }).forecasts.waitMany(['A']);
    expect(done).toMatchObject({ id: 'A', status: 'completed' });
    expect(reads).toBe(3);
    expect(clock.sleeps).toEqual([7000, 7000]);
  });

  it('still ends at its timeout while the full read never agrees', async () => {
    server.use(
      http.get(`${BASE}/forecasts`, () => HttpResponse.json({ type: 'list', hasMore: false, nextCursor: null, data: [{ taskId: 'A', status: 'completed', forecastData: null }] })),
      http.get(`${BASE}/forecasts/A`, () => HttpResponse.json(task('A', 'running_subforecasts'))),
    );
    const err = await caught(makeClient({ clock: fakeClock() }).forecasts.waitMany(['A'], { timeout: 600_000 }));
    expect(err).toBeInstanceOf(WaitTimeoutError);
  });
});

describe("waitMany's full reads once one of them fails", () => {
  // A 404 on one task's full read ended the wait, and the other task's read went on every second, for ever.
  it('stops reading the others: nothing is sent once the wait has ended', async () => {
    let readsOfB = 0;
    server.use(
      http.get(`${BASE}/forecasts`, () => HttpResponse.json({ type: 'list', hasMore: false, nextCursor: null, data: ['A', 'B'].map((taskId) => ({ taskId, status: 'completed', forecastData: null })) })),
      http.get(`${BASE}/forecasts/A`, () => HttpResponse.json({ type: 'error', error: { type: 'not_found_error', message: 'no A' } }, { status: 404 })),
      http.get(`${BASE}/forecasts/B`, () => {
        readsOfB++;
        return HttpResponse.json(task('B', 'running_subforecasts'), { headers: { 'retry-after': '1' } });
      }),
    );
    // The timeout bounds B's reads should they go on (200 at 1 s each): the test then fails, never hangs.
    const err = await caught(makeClient({ clock: fakeClock() }).forecasts.waitMany(['A', 'B'], { timeout: 200_000 }));
    expect((err as Error).name).toBe('NotFoundError');
    const after = readsOfB;
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    expect(readsOfB).toBe(after);
  });
});

describe('a readiness answer that is not `true`', () => {
  // `{ready: "false"}` ended the wait, and createAndWait({waitForContext}) started on unready files.
  it.each([['false'], [1], ['true']])('keeps waiting on ready: %j, to the timeout', async (ready) => {
    server.use(
      http.get(`${BASE}/questions/q1/context/ready`, () => HttpResponse.json({ ready })),
      http.get(`${BASE}/questions/q1/files`, () => HttpResponse.json({ type: 'list', data: [{ id: 'f1', status: 'processing' }], hasMore: false, nextCursor: null })),
    );
    const err = await caught(makeClient({ clock: fakeClock() }).questions.files.waitUntilReady('q1', { timeout: 60_000 }));
    expect(err).toBeInstanceOf(WaitTimeoutError);
  });
});

describe("estimateAndStart's start answered without its items", () => {
  // The start went out (and was charged); `run.items.flatMap` then threw a bare TypeError.
  it.each([[{}], [{ items: null }], [{ items: {} }], [{ items: [null] }], [{ items: [{ questionId: 'q1', status: 'accepted', taskId: 5 }] }]])('ends in an InvalidResponseError on %j, after one start', async (answer) => {
    server.use(
      http.post(`${BASE}/decisions/d1/forecasts/estimate`, () => HttpResponse.json({ totalCredits: 4, items: [] })),
      http.post(`${BASE}/decisions/d1/forecasts`, () => HttpResponse.json(answer, { status: 202 })),
    );
    const err = (await caught(makeClient().decisions.forecasts.estimateAndStart('d1', {}, { approve: () => true }))) as InvalidResponseError;
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err.message).toBe('202: expected a result per question in `items` (POST /decisions/d1/forecasts)');
    expect(seen.filter((r) => r.url.endsWith('/decisions/d1/forecasts'))).toHaveLength(1);
  });

  it('reads a rejected item with its task id null or left out, and names only the accepted tasks', async () => {
    const items = [{ questionId: 'q1', status: 'accepted', taskId: 'T1' }, { questionId: 'q2', status: 'rejected', taskId: null }, { questionId: 'q3', status: 'rejected' }];
    server.use(
      http.post(`${BASE}/decisions/d1/forecasts/estimate`, () => HttpResponse.json({ totalCredits: 4, items: [] })),
      http.post(`${BASE}/decisions/d1/forecasts`, () => HttpResponse.json({ items }, { status: 202 })),
    );
    const result = await makeClient().decisions.forecasts.estimateAndStart('d1', {}, { approve: () => true });
    expect(result.approved && result.taskIds).toEqual(['T1']);
  });
});

describe('batch answers that hide or invent a start', () => {
  const batch = (items: unknown[]) => server.use(http.post(`${BASE}/forecasts/batch`, () => HttpResponse.json({ items }, { status: 202 })));

  it.each([
    ['two results for one item', [{ index: 0, status: 'accepted', taskId: 'T1' }, { index: 0, status: 'accepted', taskId: 'T2' }]],
    ['an acceptance without a task', [{ index: 0, status: 'accepted', taskId: null }]],
    ['an acceptance with an empty task id', [{ index: 0, status: 'accepted', taskId: '' }]],
  ])('createMany refuses %s with an InvalidResponseError', async (_, items) => {
    batch(items);
    const err = await caught(makeClient().forecasts.createMany([{ questionId: 'q1' }]));
    expect(err).toBeInstanceOf(InvalidResponseError);
  });

  it.each([
    ['two results for one item', [{ index: 0, status: 'accepted', taskId: 'T1' }, { index: 0, status: 'accepted', taskId: 'T2' }]],
    ['an acceptance with an empty task id', [{ index: 0, status: 'accepted', taskId: '' }]],
  ])('runMany ends an item given %s in an error, never a result picked or a task named ""', async (_, items) => {
    batch(items);
    server.use(http.get(`${BASE}/run-modes`, () => HttpResponse.json({ type: 'list', hasMore: false, nextCursor: null, data: [] })));
    const out = [];
    for await (const r of makeClient({ clock: fakeClock() }).forecasts.runMany([{ questionId: 'q1' }])) out.push(r);
    expect(out).toEqual([{ status: 'rejected', index: 0, item: { questionId: 'q1' }, error: { type: 'api_error', message: 'no usable result for item 0 of the batch' } }]);
  });
});

describe('runMany against tasks that are not what they say', () => {
  const list = (items: Array<{ taskId: string; status: string }>) => HttpResponse.json({ type: 'list', hasMore: false, nextCursor: null, data: items.map((i) => ({ ...i, forecastData: null })) });

  it("refuses, with full: true, a full read answered with another task's record", async () => {
    server.use(
      http.get(`${BASE}/run-modes`, () => list([])),
      http.post(`${BASE}/forecasts/batch`, () => HttpResponse.json({ items: [{ index: 0, status: 'accepted', taskId: 'A' }] }, { status: 202 })),
      http.get(`${BASE}/forecasts`, () => list([{ taskId: 'A', status: 'completed' }])),
      http.get(`${BASE}/forecasts/A`, () => HttpResponse.json(task('B', 'completed'))),
    );
    const out: unknown[] = [];
    const run = async () => {
      for await (const r of makeClient({ clock: fakeClock() }).forecasts.runMany([{ questionId: 'q1' }], { full: true })) out.push(r);
    };
    await expect(run()).rejects.toBeInstanceOf(InvalidResponseError);
    expect(out).toEqual([]);
  });

  // One slot at a time: the second batch named the task the first had finished, and both items were yielded with it.
  it('ends in an error an item given a task an earlier item finished with, never one task for two items', async () => {
    server.use(
      http.get(`${BASE}/run-modes`, () => list([])),
      http.post(`${BASE}/forecasts/batch`, () => HttpResponse.json({ items: [{ index: 0, status: 'accepted', taskId: 'T0' }] }, { status: 202 })),
      http.get(`${BASE}/forecasts`, () => list([{ taskId: 'T0', status: 'completed' }])),
    );
    const out = [];
    for await (const r of makeClient({ clock: fakeClock() }).forecasts.runMany([{ questionId: 'q1' }, { questionId: 'q2' }], { maxActive: 1 })) out.push(r);
    expect(out.map((r) => [r.index, r.status, r.status === 'rejected' ? r.error.message : r.status === 'not_started' ? r.reason : r.taskId])).toEqual([
      [0, 'completed', 'T0'],
      [1, 'rejected', "the service gave item 0 the task T0, already another item's"],
    ]);
  });
});
