// Waits that ride out an outage: failing reads retried until the wait's own deadline, errors that name
// their tasks, and Retry-After values at both extremes. Every wait but one runs on a fake clock.
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decideRetry, MAX_STATED_WAIT_MS, waitBackoff, type AttemptOutcome, type RetryContext } from '../../src/core/retry.js';
import { MAX_TIMER_MS, parseRetryAfter, sleep } from '../../src/core/clock.js';
import { APIConnectionError, APITimeoutError, AuthenticationError, NotFoundError, OverloadedError, WaitTimeoutError, type ForecastTask, type RetryEvent } from '../../src/index.js';
import { BASE, apiError, fakeClock, makeClient, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const task = (id: string, status: string) => ({ id, type: 'forecast_task', status, question: { id: 'q1', type: 'binary', title: 'T' }, pollingUrl: `/api/v1/external/forecasts/${id}` });

/** GET /forecasts/t1 answers each of `answers` in turn, then the last again. */
function reads(...answers: Array<() => Response>) {
  let i = 0;
  server.use(http.get(`${BASE}/forecasts/t1`, () => answers[Math.min(i++, answers.length - 1)]!()));
}
const times = (n: number, answer: () => Response) => Array.from({ length: n }, () => answer);
const refused = () => HttpResponse.error();
const running = (retryAfter = '120') => () => HttpResponse.json(task('t1', 'running_subforecasts'), { headers: { 'retry-after': retryAfter } });
const completed = () => HttpResponse.json(task('t1', 'completed'));

/** A client on a fake clock that records its retry events. */
function waitingClient(options: Parameters<typeof makeClient>[0] = {}) {
  const clock = fakeClock();
  const client = makeClient({ clock, ...options });
  const retries: RetryEvent[] = [];
  client.on('retry', (e) => retries.push(e));
  return { client, clock, retries };
}

describe('a wait rides out failing reads', () => {
  it('retries a read through 12 failed connections, past the client’s maxRetries of 2, and resolves once final', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    reads(...times(12, refused), completed);
    const { client, clock, retries } = waitingClient({ maxRetries: 2 });
    await expect(client.forecasts.wait('t1')).resolves.toMatchObject({ status: 'completed' });
    expect(seen).toHaveLength(13);
    // Each retry is on the retry event; the backoff doubles from 1 s to a 30 s ceiling, half of it fixed.
    expect(retries.map((e) => [e.attempt, e.status, e.error])).toEqual(Array.from({ length: 12 }, (_, i) => [i + 1, undefined, 'APIConnectionError']));
    expect(clock.sleeps).toEqual([500, 1000, 2000, 4000, 8000, 15_000, 15_000, 15_000, 15_000, 15_000, 15_000, 15_000]);
  });

  it('retries 5xx and 429 answers too, sleeping their Retry-After but never less than the backoff', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    reads(
      () => apiError(503, 'overloaded_error', 'deploying', { headers: { 'retry-after': '0' } }),
      () => apiError(502, 'api_error', 'bad gateway'),
      () => apiError(429, 'rate_limit_error', 'slow down', { headers: { 'retry-after': '20' } }),
      completed,
    );
    const { client, clock, retries } = waitingClient();
    await client.forecasts.wait('t1');
    expect(retries.map((e) => [e.status, e.delayMs])).toEqual([
      [503, 500],
      [502, 1000],
      [429, 20_000],
    ]);
    expect(clock.sleeps).toEqual([500, 1000, 20_000]);
  });

  it('survives a minute of failures with default options in few requests: 6 to 9 attempts, none closer than the backoff allows', async () => {
    for (const random of [0, 0.999]) {
      vi.spyOn(Math, 'random').mockReturnValue(random);
      let down = true;
      server.use(http.get(`${BASE}/forecasts/t1`, () => (down ? refused() : completed())));
      const clock = fakeClock();
      const client = makeClient({ clock, retryBackoff: {} });
      client.on('request', () => {
        if (clock.now() >= 60_000) down = false;
      });
      seen.length = 0;
      await client.forecasts.wait('t1');
      const failed = seen.length - 1;
      expect(failed).toBeGreaterThanOrEqual(6);
      expect(failed).toBeLessThanOrEqual(9);
      // Back within 30 s of the service: the time lost is at most one backoff ceiling.
      expect(clock.now()).toBeLessThanOrEqual(90_000);
    }
  });

  it('stops at the wait’s timeout: a 3 s wait with maxRetries 50 ends at 3 s with WaitTimeoutError naming the task and the last failure', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    reads(refused);
    const { client, clock } = waitingClient({ retryBackoff: {} });
    const err = (await client.forecasts.wait('t1', { timeout: 3000, maxRetries: 50 }).catch((e: unknown) => e)) as WaitTimeoutError;
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect(err).toMatchObject({ taskId: 't1', taskIds: ['t1'], message: 'Not final after 3000 ms of the client clock: t1' });
    expect(err.cause).toBeInstanceOf(APIConnectionError);
    expect(clock.now()).toBe(3000);
    expect(seen.length).toBeLessThanOrEqual(4);
  });

  it('gives a stuck attempt no more than the time left: a 1.5 s wait on a read that never answers ends at 1.5 s, not 60', async () => {
    server.use(http.get(`${BASE}/forecasts/t1`, () => new Promise<Response>(() => undefined)));
    const began = performance.now();
    const err = (await makeClient().forecasts.wait('t1', { timeout: 1500 }).catch((e: unknown) => e)) as WaitTimeoutError;
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect(err.cause).toBeInstanceOf(APITimeoutError);
    expect(performance.now() - began).toBeLessThan(3000);
  });

  it('still honours an explicit maxRetries as a cap', async () => {
    reads(refused);
    const err = await waitingClient().client.forecasts.wait('t1', { maxRetries: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err).toMatchObject({ taskId: 't1', taskIds: ['t1'] });
    expect(seen).toHaveLength(2);
  });

  it('ends at once on a read that cannot succeed, a 404, with the task id on the error', async () => {
    reads(() => apiError(404, 'not_found', 'taskId: no forecast task t1'));
    const err = await waitingClient().client.forecasts.wait('t1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toMatchObject({ taskId: 't1', taskIds: ['t1'] });
    expect(seen).toHaveLength(1);
  });

  it('waitMany: rides out failed list reads, and an error that ends it names the tasks still waited for', async () => {
    let n = 0;
    server.use(
      http.get(`${BASE}/forecasts`, () => {
        n++;
        if (n <= 3) return refused();
        if (n === 4) return HttpResponse.json({ type: 'list', hasMore: false, data: [{ taskId: 't1', status: 'queued', forecastData: null }, { taskId: 't2', status: 'completed', forecastData: null }] });
        return apiError(401, 'invalid_api_key', 'key revoked');
      }),
    );
    const err = await waitingClient().client.forecasts.waitMany(['t1', 't2'], { full: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err).toMatchObject({ taskIds: ['t1'] });
    expect((err as AuthenticationError).taskId).toBeUndefined();
    expect(n).toBe(5);
  });

  it('waitMany: a timeout during the final full reads names the tasks not yet read', async () => {
    server.use(http.get(`${BASE}/forecasts`, () => HttpResponse.json({ type: 'list', hasMore: false, data: [{ taskId: 't1', status: 'completed', forecastData: null }] })));
    reads(() => apiError(503, 'overloaded_error', 'busy'));
    const err = await waitingClient().client.forecasts.waitMany(['t1'], { timeout: 10_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect(err).toMatchObject({ taskIds: ['t1'] });
    expect((err as WaitTimeoutError).cause).toBeInstanceOf(OverloadedError);
  });
});

describe('createAndWait and the task id', () => {
  const start = (...answers: Array<() => Response>) => {
    let i = 0;
    server.use(http.post(`${BASE}/forecasts`, () => answers[Math.min(i++, answers.length - 1)]!()));
  };
  const accepted = () => HttpResponse.json(task('t1', 'queued'), { status: 202 });

  it('gives the task to onCreated before the first read, so an aborted wait (rejecting with the signal’s reason) can be resumed', async () => {
    start(accepted);
    reads(running('3600'));
    const controller = new AbortController();
    const reason = new Error('shutting down');
    const created: string[] = [];
    const err = await waitingClient()
      .client.forecasts.createAndWait({ questionId: 'q1' }, { signal: controller.signal, onCreated: (t: ForecastTask) => created.push(t.id), onProgress: () => controller.abort(reason) })
      .catch((e: unknown) => e);
    expect(err).toBe(reason);
    expect(reason).not.toHaveProperty('taskId');
    expect(created).toEqual(['t1']);
  });

  it('starts through failed connections with one idempotency key, and a timeout after the start names the task', async () => {
    start(...times(4, refused), accepted);
    reads(running());
    const err = await waitingClient().client.forecasts.createAndWait({ questionId: 'q1' }, { timeout: 300_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect(err).toMatchObject({ taskId: 't1', taskIds: ['t1'], message: 'Not final after 300000 ms of the client clock: t1' });
    const keys = seen.filter((r) => r.method === 'POST').map((r) => r.headers.get('idempotency-key'));
    expect(keys).toHaveLength(5);
    expect(new Set(keys).size).toBe(1);
  });

  it('a start that never gets through within the timeout is a WaitTimeoutError with no task', async () => {
    start(refused);
    const err = await waitingClient().client.forecasts.createAndWait({ questionId: 'q1' }, { timeout: 5000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect(err).toMatchObject({ message: 'Not started after 5000 ms of the client clock', taskIds: [] });
    expect((err as WaitTimeoutError).taskId).toBeUndefined();
  });
});

describe('Retry-After at the extremes', () => {
  it('reads a task that asks for Retry-After: 0 on every read once a second, not in a busy loop', async () => {
    reads(running('0'), running('0'), running('0'), completed);
    const { client, clock } = waitingClient();
    await client.forecasts.wait('t1');
    expect(clock.sleeps).toEqual([1000, 1000, 1000]);
  });

  it('waitMany too keeps a second between rounds when the list says Retry-After: 0', async () => {
    let n = 0;
    server.use(http.get(`${BASE}/forecasts`, () => HttpResponse.json({ type: 'list', hasMore: false, data: [{ taskId: 't1', status: ++n < 3 ? 'queued' : 'completed', forecastData: null }] }, { headers: { 'retry-after': '0' } })));
    const { client, clock } = waitingClient();
    await client.forecasts.waitMany(['t1'], { full: false });
    expect(clock.sleeps).toEqual([1000, 1000]);
  });

  it('counts a Retry-After longer than an hour as an hour', async () => {
    reads(running('7200'), completed);
    const { client, clock } = waitingClient();
    await client.forecasts.wait('t1');
    expect(clock.sleeps).toEqual([MAX_STATED_WAIT_MS]);
  });

  it.each([
    ['316 years in seconds', '9999999999'],
    ['an HTTP date in 2099', 'Thu, 01 Jan 2099 00:00:00 GMT'],
  ])('makes one read, not hundreds, when a read asks for a wait longer than a timer holds (%s)', async (_, retryAfter) => {
    reads(running(retryAfter));
    const controller = new AbortController();
    const reason = new Error('enough');
    const client = makeClient();
    // 0.3 s after the first read's answer (the first call with params may first load the params check).
    client.once('response', () => setTimeout(() => controller.abort(reason), 300));
    await expect(client.forecasts.wait('t1', { signal: controller.signal })).rejects.toBe(reason);
    expect(seen).toHaveLength(1);
  });

  it('parseRetryAfter gives at most what one timer holds', () => {
    expect(parseRetryAfter('9999999999')).toBe(MAX_TIMER_MS);
    expect(parseRetryAfter('Thu, 01 Jan 2099 00:00:00 GMT', Date.UTC(2026, 0, 1))).toBe(MAX_TIMER_MS);
    expect(parseRetryAfter('2147483')).toBe(2_147_483_000);
  });

  it('sleep() waits past 2^31-1 ms on successive timers rather than firing after 1 ms', async () => {
    vi.useFakeTimers();
    let woke = false;
    void sleep(MAX_TIMER_MS + 5000).then(() => (woke = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(woke).toBe(false);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    expect(woke).toBe(false);
    await vi.advanceTimersByTimeAsync(5000);
    expect(woke).toBe(true);
  });
});

describe('decideRetry for a wait', () => {
  const ctx: RetryContext = { attempt: 1, maxRetries: Infinity, safeToRepeat: true, maxRetryAfter: 60_000, remaining: Infinity, initialDelay: 0, maxDelay: 0, random: () => 0, now: 0, wait: true };
  const response = (status: number, type?: string, retryAfter: string | null = null): AttemptOutcome => ({ kind: 'response', status, type, retryAfter });

  it('has no attempt cap and a backoff from 0.5–1 s growing to 15–30 s, whatever retryBackoff says', () => {
    expect(decideRetry({ kind: 'refused' }, { ...ctx, attempt: 1000 })).toEqual({ retry: true, delay: 15_000, source: 'backoff' });
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => waitBackoff(n, () => 0))).toEqual([500, 1000, 2000, 4000, 8000, 15_000, 15_000]);
    expect([1, 6].map((n) => waitBackoff(n, () => 0.999))).toEqual([999, 29_985]);
  });

  it('honours Retry-After beyond maxRetryAfter, up to an hour', () => {
    expect(decideRetry(response(503, 'overloaded_error', '120'), ctx)).toEqual({ retry: true, delay: 120_000, source: 'retry-after' });
    expect(decideRetry(response(429, 'rate_limit_error', '86400'), ctx)).toEqual({ retry: true, delay: MAX_STATED_WAIT_MS, source: 'retry-after' });
  });

  it('stops at the deadline rather than sleeping past it', () => {
    expect(decideRetry(response(503), { ...ctx, remaining: 501 })).toEqual({ retry: true, delay: 500, source: 'backoff' });
    expect(decideRetry(response(503), { ...ctx, remaining: 500 })).toEqual({ retry: false, deadline: true });
  });

  it('does not retry what no retry can fix', () => {
    for (const outcome of [response(404), response(401), response(400), { ...response(429, 'too_many_active_forecasts'), retry: false }]) expect(decideRetry(outcome, ctx)).toEqual({ retry: false });
  });
});
