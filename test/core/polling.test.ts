// Unit tests of the wait loop, waitMany rounds, chunked batches and the request budget, with msw.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { RequestBudget } from '../../src/core/request-budget.js';
import { WaitTimeoutError, type ForecastProgress } from '../../src/index.js';
import { BASE, fakeClock, makeClient, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

const task = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'forecast_task',
  status,
  createdAt: '2026-11-22T10:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  question: { id: 'q1', type: 'binary', title: 'T' },
  pollingUrl: `/api/v1/external/forecasts/${id}`,
  progressMessage: status,
  partial: status !== 'completed',
  completedSubforecastCount: 0,
  plannedSubforecastCount: 3,
  creditsCharged: 5,
  creditsRefunded: 0,
  runMode: 'standard',
  ...extra,
});

/** Serves each answer in turn for GET /forecasts/t1, then the last again. */
function reads(...answers: Array<{ status: string; retryAfter?: string; extra?: Record<string, unknown> }>) {
  let i = 0;
  server.use(
    http.get(`${BASE}/forecasts/t1`, () => {
      const a = answers[Math.min(i++, answers.length - 1)]!;
      return HttpResponse.json(task('t1', a.status, a.extra), { headers: a.retryAfter ? { 'retry-after': a.retryAfter } : {} });
    }),
  );
}

describe('forecasts.wait', () => {
  it('sleeps exactly the Retry-After of each read, never less, and resolves once final', async () => {
    reads({ status: 'queued', retryAfter: '15' }, { status: 'running_subforecasts', retryAfter: '120' }, { status: 'synthesizing', retryAfter: '120' }, { status: 'completed' });
    const clock = fakeClock();
    const done = await makeClient({ clock }).forecasts.wait('t1');
    expect(done.status).toBe('completed');
    expect(clock.sleeps).toEqual([15_000, 120_000, 120_000]);
    expect(seen).toHaveLength(4);
  });

  it('falls back to 15 s between reads when the service asks for no wait', async () => {
    reads({ status: 'queued' }, { status: 'failed', extra: { error: { message: 'boom' } } });
    const clock = fakeClock();
    const done = await makeClient({ clock }).forecasts.wait('t1');
    expect(done).toMatchObject({ status: 'failed', error: { message: 'boom' } });
    expect(clock.sleeps).toEqual([15_000]);
  });

  it('keeps reading a completed task until its report is final with waitForReport', async () => {
    const report = (status: string) => ({ forecast: { id: 'f1', generatedAt: 'x', forecastData: {}, report: { status, short: null } } });
    reads({ status: 'completed', extra: report('pending') }, { status: 'completed', extra: report('writing') }, { status: 'completed', extra: report('failed') });
    const clock = fakeClock();
    const done = await makeClient({ clock }).forecasts.wait('t1', { waitForReport: true });
    expect(done.forecast?.report?.status).toBe('failed');
    expect(seen).toHaveLength(3);
  });

  it('passes fields and includeSubforecasts on every read, but never fields=numeric when waiting for the report', async () => {
    reads({ status: 'completed', extra: { forecast: { id: 'f', generatedAt: 'x', forecastData: {}, report: { status: 'completed', short: 's' } } } });
    await makeClient({ clock: fakeClock() }).forecasts.wait('t1', { includeSubforecasts: true, fields: 'numeric' });
    expect(new URL(seen[0]!.url).search).toBe('?fields=numeric&includeSubforecasts=true');
    await makeClient({ clock: fakeClock() }).forecasts.wait('t1', { fields: 'numeric', waitForReport: true });
    expect(new URL(seen[1]!.url).search).toBe('');
  });

  it('emits progress events for status changes, subforecasts, completion and the report', async () => {
    const report = (status: string) => ({ forecast: { id: 'f1', generatedAt: 'x', forecastData: {}, report: { status, short: null } } });
    reads(
      { status: 'queued', retryAfter: '15' },
      { status: 'running_subforecasts', retryAfter: '120', extra: { completedSubforecastCount: 1 } },
      { status: 'running_subforecasts', retryAfter: '120', extra: { completedSubforecastCount: 3 } },
      { status: 'completed', extra: { completedSubforecastCount: 3, ...report('writing') } },
      { status: 'completed', extra: { completedSubforecastCount: 3, ...report('completed') } },
    );
    const client = makeClient({ clock: fakeClock() });
    const log: string[] = [];
    const on = (name: 'status' | 'subforecast' | 'done' | 'report') => client.forecasts.progress.on(name, (p: ForecastProgress) => log.push(`${name}:${p.status}:${p.completedSubforecastCount}:${p.reportStatus ?? '-'}`));
    for (const name of ['status', 'subforecast', 'done', 'report'] as const) on(name);
    const progress: ForecastProgress[] = [];
    await client.forecasts.wait('t1', { waitForReport: true, onProgress: (p) => progress.push(p) });
    expect(log).toEqual([
      'status:queued:0:-',
      'status:running_subforecasts:1:-',
      'subforecast:running_subforecasts:1:-',
      'subforecast:running_subforecasts:3:-',
      'status:completed:3:writing',
      'done:completed:3:writing',
      'report:completed:3:completed',
    ]);
    expect(progress.map((p) => p.previousStatus)).toEqual([undefined, 'queued', 'running_subforecasts', 'running_subforecasts', 'completed']);
  });

  it('rejects at once with the caller’s reason when aborted during an hour-long Retry-After', async () => {
    reads({ status: 'running_subforecasts', retryAfter: '3600' });
    const controller = new AbortController();
    const reason = new Error('stop waiting');
    let abortedAt = Infinity;
    const client = makeClient();
    // Timed from the first read's answer (the first call with params may first load the params check).
    client.on('response', () => setTimeout(() => ((abortedAt = performance.now()), controller.abort(reason)), 20));
    const waiting = client.forecasts.wait('t1', { signal: controller.signal });
    await expect(waiting).rejects.toBe(reason);
    expect(performance.now() - abortedAt).toBeLessThan(1000);
    expect(seen).toHaveLength(1);
  });

  it('rejects with WaitTimeoutError at the deadline, without reading early', async () => {
    reads({ status: 'running_subforecasts', retryAfter: '120' });
    const clock = fakeClock();
    const err = await makeClient({ clock }).forecasts.wait('t1', { timeout: 300_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect(clock.sleeps).toEqual([120_000, 120_000, 60_000]);
    expect(seen).toHaveLength(3);
  });
});

describe('forecasts.waitMany', () => {
  it('reads 150 tasks in list pages of at most 100 ids, spaced by the longest wait a pending task asks for', async () => {
    const ids = Array.from({ length: 150 }, (_, i) => `t${i}`);
    let round = 0;
    server.use(
      http.get(`${BASE}/forecasts`, ({ request }) => {
        const asked = new URL(request.url).searchParams.get('taskId')!.split(',');
        const status = round < 2 ? 'queued' : round < 4 ? 'running_subforecasts' : 'completed';
        round++;
        return HttpResponse.json({ type: 'list', hasMore: false, nextCursor: null, data: asked.map((taskId) => ({ taskId, status, forecastData: null })) });
      }),
    );
    const clock = fakeClock();
    const items = await makeClient({ clock }).forecasts.waitMany(ids, { full: false });
    expect(items.map((i) => i.taskId)).toEqual(ids);
    const sizes = seen.map((r) => new URL(r.url).searchParams.get('taskId')!.split(',').length);
    expect(sizes).toEqual([100, 50, 100, 50, 100, 50]);
    expect(clock.sleeps).toEqual([15_000, 120_000]);
  });

  it('waits as long as the list answers ask with Retry-After, the longest of its pages', async () => {
    const ids = Array.from({ length: 150 }, (_, i) => `t${i}`);
    let round = 0;
    server.use(
      http.get(`${BASE}/forecasts`, ({ request }) => {
        const asked = new URL(request.url).searchParams.get('taskId')!.split(',');
        const status = round < 2 ? 'running_subforecasts' : 'completed';
        const headers = round < 2 ? { 'retry-after': round === 0 ? '2' : '3' } : undefined;
        round++;
        return HttpResponse.json({ type: 'list', hasMore: false, data: asked.map((taskId) => ({ taskId, status, forecastData: null })) }, { headers });
      }),
    );
    const clock = fakeClock();
    await makeClient({ clock }).forecasts.waitMany(ids, { full: false });
    expect(clock.sleeps).toEqual([3_000]);
  });

  it('reads the full record of each task once it is final', async () => {
    server.use(
      http.get(`${BASE}/forecasts`, () =>
        HttpResponse.json({ type: 'list', hasMore: false, data: [{ taskId: 't1', status: 'completed', forecastData: null }] }),
      ),
    );
    reads({ status: 'completed' });
    const [full] = await makeClient({ clock: fakeClock() }).forecasts.waitMany(['t1', 't1']);
    expect(full).toMatchObject({ id: 't1', pollingUrl: '/api/v1/external/forecasts/t1' });
    expect(seen.map((r) => new URL(r.url).pathname.split('/').pop())).toEqual(['forecasts', 't1']);
  });
});

describe('createMany and cancelMany', () => {
  it('sends 60 items as batches of 25, 25 and 10, one key each, outcomes renumbered in input order', async () => {
    server.use(
      http.post(`${BASE}/forecasts/batch`, async ({ request }) => {
        const { items } = (await request.json()) as { items: unknown[] };
        // Answer out of order, to check the SDK puts outcomes back in input order.
        const out = items.map((_, index) => ({ index, status: index % 2 ? 'rejected' : 'accepted', taskId: `t${index}` })).reverse();
        return HttpResponse.json({ counts: { total: items.length, accepted: 0, rejected: 0 }, items: out });
      }),
    );
    const results = await makeClient().forecasts.createMany(Array.from({ length: 60 }, (_, i) => ({ questionId: `q${i}` })));
    expect(results.map((r) => r.index)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(results[26]).toMatchObject({ index: 26, status: 'rejected' });
    const keys = seen.map((r) => r.headers.get('idempotency-key'));
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(3);
  });

  it('cancels 30 tasks as 25 and 5, outcomes in input order', async () => {
    server.use(
      http.post(`${BASE}/forecasts/cancel`, async ({ request }) => {
        const { taskIds } = (await request.json()) as { taskIds: string[] };
        return HttpResponse.json({ items: [...taskIds].reverse().map((taskId) => ({ taskId, status: 'cancelled' })) });
      }),
    );
    const ids = Array.from({ length: 30 }, (_, i) => `t${i}`);
    expect((await makeClient().forecasts.cancelMany(ids)).map((r) => r.taskId)).toEqual(ids);
    expect(seen).toHaveLength(2);
  });
});

describe('the request budget', () => {
  it('lets a full minute of requests through at once, then reserves the next slots a minute after', async () => {
    const clock = fakeClock(0);
    const budget = new RequestBudget(3, clock);
    await Promise.all([budget.acquire(), budget.acquire(), budget.acquire()]);
    expect(clock.sleeps).toEqual([]);
    await budget.acquire();
    expect(clock.sleeps).toEqual([60_250]);
  });

  it('spaces every request of a client, shared across calls', async () => {
    server.use(http.get(`${BASE}/credits`, () => HttpResponse.json({})));
    const clock = fakeClock();
    const client = makeClient({ clock, rateLimit: { requestsPerMinute: 2 } });
    await Promise.all([client.credits.retrieve(), client.credits.retrieve(), client.credits.retrieve()]);
    expect(seen).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(60_000);
  });

  it('refuses a budget that is not a positive number', () => {
    expect(() => makeClient({ rateLimit: { requestsPerMinute: 0 } })).toThrow(/rateLimit.requestsPerMinute/);
  });
});

describe('progress events', () => {
  const report = (status: string) => ({ forecast: { id: 'f1', generatedAt: 'x', forecastData: {}, report: { status, short: null } } });

  it('emits progress on every read, with the status before it, and status only when it changes', async () => {
    reads(
      { status: 'queued', retryAfter: '15' },
      { status: 'queued', retryAfter: '15' },
      { status: 'running_subforecasts', retryAfter: '120', extra: { completedSubforecastCount: 1 } },
      { status: 'running_subforecasts', retryAfter: '120', extra: { completedSubforecastCount: 1 } },
      { status: 'completed', extra: { completedSubforecastCount: 3 } },
    );
    const client = makeClient({ clock: fakeClock() });
    const events: string[] = [];
    for (const name of ['progress', 'status', 'subforecast', 'done'] as const) {
      client.forecasts.progress.on(name, (p) => events.push(`${name} ${p.taskId} ${p.previousStatus ?? '-'}>${p.status} ${p.final}`));
    }
    await client.forecasts.wait('t1');
    expect(events).toEqual([
      'progress t1 ->queued false',
      'status t1 ->queued false',
      'progress t1 queued>queued false',
      'progress t1 queued>running_subforecasts false',
      'status t1 queued>running_subforecasts false',
      'subforecast t1 queued>running_subforecasts false',
      'progress t1 running_subforecasts>running_subforecasts false',
      'progress t1 running_subforecasts>completed true',
      'status t1 running_subforecasts>completed true',
      'subforecast t1 running_subforecasts>completed true',
      'done t1 running_subforecasts>completed true',
    ]);
  });

  it('emits report once when the report fails, and ends the wait there', async () => {
    reads(
      { status: 'completed', extra: report('pending') },
      { status: 'completed', extra: report('writing') },
      { status: 'completed', extra: report('failed') },
    );
    const client = makeClient({ clock: fakeClock() });
    const events: string[] = [];
    client.forecasts.progress.on('report', (p) => events.push(`report ${p.reportStatus}`));
    client.forecasts.progress.on('done', (p) => events.push(`done ${p.status}`));
    const done = await client.forecasts.wait('t1', { waitForReport: true });
    expect(done.forecast?.report?.status).toBe('failed');
    expect(events).toEqual(['done completed', 'report failed']);
    expect(seen).toHaveLength(3);
  });

  it('emits done once for a task that failed, and no report', async () => {
    reads({ status: 'running_subforecasts', retryAfter: '120' }, { status: 'failed', extra: { error: { message: 'boom' } } });
    const client = makeClient({ clock: fakeClock() });
    const events: string[] = [];
    for (const name of ['done', 'report'] as const) client.forecasts.progress.on(name, (p) => events.push(`${name} ${p.status}`));
    await client.forecasts.wait('t1', { waitForReport: true });
    expect(events).toEqual(['done failed']);
  });
});

describe('wait edges', () => {
  // A timeout counts the client's clock: on a mock's manual clock 4000 ms may pass in no real time,
  // so the message says which clock (a newcomer read "after 4000 ms" after 86 real ms).
  it('says the timeout counted the client clock when one was given, and plain milliseconds on real time', async () => {
    reads({ status: 'running_subforecasts', retryAfter: '120' });
    const real = (await makeClient().forecasts.wait('t1', { timeout: 0 }).catch((e: unknown) => e)) as WaitTimeoutError;
    expect(real.message).toBe('Not final after 0 ms: t1');
    const given = (await makeClient({ clock: fakeClock() }).forecasts.wait('t1', { timeout: 0 }).catch((e: unknown) => e)) as WaitTimeoutError;
    expect(given.message).toBe('Not final after 0 ms of the client clock: t1');
  });

  it('reads once with a timeout of 0, then gives up with the task as last seen', async () => {
    reads({ status: 'running_subforecasts', retryAfter: '120' });
    const err = (await makeClient({ clock: fakeClock() }).forecasts.wait('t1', { timeout: 0 }).catch((e: unknown) => e)) as WaitTimeoutError;
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect(err.message).toBe('Not final after 0 ms of the client clock: t1');
    expect(err.taskIds).toEqual(['t1']);
    expect(err.lastSeen).toEqual([expect.objectContaining({ id: 't1', status: 'running_subforecasts' })]);
    expect(seen).toHaveLength(1);
  });

  it('refuses a wait timeout that is not a number >= 0, saying so', async () => {
    await expect(makeClient().forecasts.wait('t1', { timeout: '5' as never })).rejects.toMatchObject({ message: 'timeout: must be a number of milliseconds >= 0, got 5' });
    await expect(makeClient().forecasts.waitMany(['t1'], { timeout: -1 })).rejects.toMatchObject({ field: 'timeout' });
    expect(seen).toHaveLength(0);
  });

  it('reads alone a task the list does not show, and waits on it like the others', async () => {
    server.use(http.get(`${BASE}/forecasts`, () => HttpResponse.json({ type: 'list', hasMore: false, data: [] })));
    reads({ status: 'running_subforecasts' }, { status: 'completed' });
    const clock = fakeClock();
    const [item] = await makeClient({ clock }).forecasts.waitMany(['t1'], { full: false });
    expect(item).toMatchObject({ taskId: 't1', status: 'completed', forecastData: null });
    expect(clock.sleeps).toEqual([120_000]);
    expect(seen.map((r) => new URL(r.url).pathname.split('/').pop())).toEqual(['forecasts', 't1', 'forecasts', 't1']);
  });

  it('gives up waitMany with the pending tasks and their last states', async () => {
    server.use(http.get(`${BASE}/forecasts`, () => HttpResponse.json({ type: 'list', hasMore: false, data: [{ taskId: 't1', status: 'queued', forecastData: null }, { taskId: 't2', status: 'completed', forecastData: null }] })));
    const err = (await makeClient({ clock: fakeClock() }).forecasts.waitMany(['t1', 't2'], { timeout: 1000 }).catch((e: unknown) => e)) as WaitTimeoutError;
    expect(err.taskIds).toEqual(['t1']);
    expect(err.lastSeen).toEqual([{ taskId: 't1', status: 'queued', forecastData: null }]);
  });

  it('says which task a bulk cancel answer leaves out', async () => {
    server.use(http.post(`${BASE}/forecasts/cancel`, () => HttpResponse.json({ items: [{ taskId: 't1', status: 'cancelled' }] })));
    await expect(makeClient().forecasts.cancelMany(['t1', 't2'])).rejects.toMatchObject({ name: 'InvalidResponseError', message: '200: expected a result for task t2 (POST /forecasts/cancel)' });
  });

  it('says which batch item an answer leaves out', async () => {
    server.use(http.post(`${BASE}/forecasts/batch`, () => HttpResponse.json({ items: [null, { index: 0, status: 'accepted', taskId: 't' }] })));
    await expect(makeClient().forecasts.createMany([{ questionId: 'q1' }, { questionId: 'q2' }])).rejects.toMatchObject({ message: '200: expected a result for item 1 in `items` (POST /forecasts/batch)' });
  });

  it('passes the wait’s maxRetries and request options to every read', async () => {
    let n = 0;
    server.use(http.get(`${BASE}/forecasts/t1`, () => (++n === 1 ? new HttpResponse(null, { status: 500 }) : HttpResponse.json(task('t1', 'completed')))));
    await makeClient({ clock: fakeClock(), maxRetries: 0 }).forecasts.wait('t1', { maxRetries: 1, requestOptions: { headers: { 'x-trace': 'w' } } });
    expect(seen).toHaveLength(2);
    expect(seen.map((r) => r.headers.get('x-trace'))).toEqual(['w', 'w']);
  });
});
