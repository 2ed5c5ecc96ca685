// runMany's waits against a service that misbehaves: holds after a 429 that an abort ends, Retry-After
// values of 0 or of years, a start that states its own wait, and an outage of starts and reads.
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthenticationError, type ForecastCreateParams, type RetryEvent, type RunManyResult } from '../../src/index.js';
import { BASE, apiError, fakeClock, makeClient, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

afterEach(() => {
  vi.restoreAllMocks();
});

const runModes = http.get(`${BASE}/run-modes`, () => HttpResponse.json({ type: 'list', hasMore: false, nextCursor: null, data: [{ key: 'light', name: 'Light', credits: 1, isDefault: true }] }));
const items = (n: number): ForecastCreateParams[] => Array.from({ length: n }, (_, i) => ({ questionId: `q${i}` }));
const posts = () => seen.filter((r) => r.method === 'POST').length;
/** A batch answer accepting every item as `t<index>`. */
const acceptAll = async (request: Request, headers: Record<string, string> = {}) => {
  const { items: sent } = (await request.json()) as { items: unknown[] };
  return HttpResponse.json({ counts: { total: sent.length, accepted: sent.length, rejected: 0 }, items: sent.map((_, index) => ({ index, status: 'accepted', taskId: `t${index}` })) }, { headers });
};
/** A list answer showing every task asked for as completed. */
const allCompleted = (request: Request) => {
  const ids = new URL(request.url).searchParams.get('taskId')!.split(',');
  return HttpResponse.json({ type: 'list', hasMore: false, data: ids.map((taskId) => ({ taskId, status: 'completed', forecastData: null })) });
};
const listCompleted = http.get(`${BASE}/forecasts`, ({ request }) => allCompleted(request));

/**
 * An abort `ms` after the service first answered a batch: timed from the first request, not from the
 * call (whose first call with params may first load the params check), so the hold is what is aborted.
 */
const abortAfterFirstBatch = (ms: number) => {
  const controller = new AbortController();
  let scheduled = false;
  let abortedAt = Infinity;
  const answered = <T>(answer: T): T => {
    if (!scheduled) setTimeout(() => ((abortedAt = performance.now()), controller.abort()), ms);
    scheduled = true;
    return answer;
  };
  /** Milliseconds since the abort. */
  const sinceAbort = () => performance.now() - abortedAt;
  return { signal: controller.signal, answered, sinceAbort };
};

async function collect<T>(run: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of run) out.push(r);
  return out;
}

describe('runMany holding after a 429', () => {
  it('ends promptly when its signal aborts during a 30 s hold', async () => {
    const { signal, answered, sinceAbort } = abortAfterFirstBatch(100);
    server.use(runModes, http.post(`${BASE}/forecasts/batch`, () => answered(apiError(429, 'rate_limit_error', 'slow down', { headers: { 'retry-after': '30' } }))));
    const results = await collect(makeClient().forecasts.runMany(items(3), { signal }));
    expect(results).toEqual([]);
    // Ended by the abort, 0.1 s into the 30 s hold, at once.
    expect(sinceAbort()).toBeLessThan(900);
    expect(posts()).toBe(1);
  });

  it('ends promptly too when the service is full (too_many_active_forecasts) and asks for no wait', async () => {
    const { signal, answered, sinceAbort } = abortAfterFirstBatch(100);
    server.use(runModes, http.post(`${BASE}/forecasts/batch`, () => answered(apiError(429, 'too_many_active_forecasts', 'full'))));
    await collect(makeClient().forecasts.runMany(items(3), { signal }));
    expect(sinceAbort()).toBeLessThan(900);
    expect(posts()).toBe(1);
  });

  it.each([
    ['316 years in seconds', '9999999999'],
    ['an HTTP date in 2099', 'Thu, 01 Jan 2099 00:00:00 GMT'],
  ])('sends one batch, not hundreds, when a 429 asks for a wait longer than a timer holds (%s)', async (_, retryAfter) => {
    const { signal, answered } = abortAfterFirstBatch(1000);
    server.use(runModes, http.post(`${BASE}/forecasts/batch`, () => answered(apiError(429, 'rate_limit_error', 'later', { headers: { 'retry-after': retryAfter } }))));
    await collect(makeClient().forecasts.runMany(items(3), { signal }));
    expect(posts()).toBe(1);
  });

  it('keeps a floor against Retry-After: 0 on every 429: a handful of requests in 1.5 s, not a thousand', async () => {
    const { signal, answered } = abortAfterFirstBatch(1500);
    server.use(runModes, http.post(`${BASE}/forecasts/batch`, () => answered(apiError(429, 'rate_limit_error', 'again', { headers: { 'retry-after': '0' } }))));
    await collect(makeClient().forecasts.runMany(items(3), { signal }));
    expect(posts()).toBeGreaterThanOrEqual(2);
    expect(posts()).toBeLessThanOrEqual(4);
  });
});

describe('runMany’s first read of a new forecast', () => {
  it('comes after the Retry-After the start states, when it states one', async () => {
    server.use(runModes, http.post(`${BASE}/forecasts/batch`, ({ request }) => acceptAll(request, { 'retry-after': '2' })), listCompleted);
    const clock = fakeClock();
    await collect(makeClient({ clock }).forecasts.runMany(items(2)));
    expect(clock.sleeps).toEqual([2000]);
  });

  it('comes 15 s after the start when the start states none, as the spec’s service answers', async () => {
    server.use(runModes, http.post(`${BASE}/forecasts/batch`, ({ request }) => acceptAll(request)), listCompleted);
    const clock = fakeClock();
    await collect(makeClient({ clock }).forecasts.runMany(items(2)));
    expect(clock.sleeps).toEqual([15_000]);
  });
});

describe('runMany while the service stays full', () => {
  it('keeps holding the refused items under keys that never grow past 128 characters, then starts them', async () => {
    const keys: string[] = [];
    let refusals = 40;
    server.use(
      runModes,
      http.post(`${BASE}/forecasts/batch`, async ({ request }) => {
        keys.push(request.headers.get('idempotency-key')!);
        if (refusals-- > 0) {
          const { items: sent } = (await request.json()) as { items: unknown[] };
          return HttpResponse.json({ counts: { total: sent.length, accepted: 0, rejected: sent.length }, items: sent.map((_, index) => ({ index, status: 'rejected', error: { type: 'too_many_active_forecasts', message: 'full' } })) });
        }
        return acceptAll(request);
      }),
      listCompleted,
    );
    // The longest runId allowed, refused 40 times: each resend is keyed `<first key>:r<n>`.
    const results = await collect(makeClient({ clock: fakeClock() }).forecasts.runMany(items(1), { runId: 'r'.repeat(100) }));
    expect(results.map((r) => r.status)).toEqual(['completed']);
    expect(keys).toHaveLength(41);
    expect(new Set(keys).size).toBe(41);
    expect(Math.max(...keys.map((k) => k.length))).toBeLessThanOrEqual(128);
    expect(keys.at(-1)).toBe(`${'r'.repeat(100)}:0:r40`);
  });
});

describe('runMany through an outage', () => {
  it('retries failed starts and reads with a growing backoff until the service answers, each on the retry event', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    let batchCalls = 0;
    let listCalls = 0;
    server.use(
      runModes,
      http.post(`${BASE}/forecasts/batch`, ({ request }) => (++batchCalls <= 5 ? HttpResponse.error() : acceptAll(request))),
      http.get(`${BASE}/forecasts`, ({ request }) => (++listCalls <= 5 ? HttpResponse.error() : allCompleted(request))),
    );
    const clock = fakeClock();
    const client = makeClient({ clock, maxRetries: 2 });
    const retries: RetryEvent[] = [];
    client.on('retry', (e) => retries.push(e));
    const results = await collect(client.forecasts.runMany(items(2)));
    expect(results.map((r) => r.status)).toEqual(['completed', 'completed']);
    expect(retries.map((e) => `${e.operation} ${e.attempt}`)).toEqual([
      ...[1, 2, 3, 4, 5].map((n) => `forecasts.createBatch ${n}`),
      ...[1, 2, 3, 4, 5].map((n) => `forecasts.list ${n}`),
    ]);
    // One key for the start and every retry of it: it never starts twice.
    expect(new Set(seen.filter((r) => r.method === 'POST').map((r) => r.headers.get('idempotency-key'))).size).toBe(1);
    expect(clock.sleeps).toEqual([500, 1000, 2000, 4000, 8000, 15_000, 500, 1000, 2000, 4000, 8000]);
  });

  it('names the forecasts still running on an error that ends the run', async () => {
    server.use(runModes, http.post(`${BASE}/forecasts/batch`, ({ request }) => acceptAll(request)), http.get(`${BASE}/forecasts`, () => apiError(401, 'invalid_api_key', 'revoked')));
    const results: RunManyResult[] = [];
    const err = await (async () => {
      for await (const r of makeClient({ clock: fakeClock() }).forecasts.runMany(items(2))) results.push(r);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err).toMatchObject({ taskIds: ['t0', 't1'] });
    expect(results).toEqual([]);
  });
});
