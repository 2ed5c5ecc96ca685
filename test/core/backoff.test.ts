// How long the client waits before each retry: backoff with full jitter, and the server's Retry-After.
// Every wait runs on an injected clock that records it, so no test sleeps.
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRetryAfter } from '../../src/core/clock.js';
import { decideRetry, type AttemptOutcome, type RetryContext } from '../../src/core/retry.js';
import { OverloadedError, RateLimitError, type ClientOptions, type RetryEvent } from '../../src/index.js';
import { BASE, apiError, fakeClock, makeClient, question, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

afterEach(() => {
  vi.restoreAllMocks();
});

/** A client on a recording clock with the SDK's default backoff (makeClient turns it off). */
function clientWithClock(options: ClientOptions = {}) {
  const clock = fakeClock();
  const client = makeClient({ retryBackoff: {}, clock, ...options });
  const retries: RetryEvent[] = [];
  client.on('retry', (e) => retries.push(e));
  return { client, clock, retries };
}

/** GET /questions/:id answers 503 (with `headers`) `failures` times, then the question. */
function failThenAnswer(failures: number, headers: Record<string, string> = {}) {
  let calls = 0;
  server.use(
    http.get(`${BASE}/questions/:id`, () => (++calls <= failures ? apiError(503, 'overloaded_error', 'busy', { headers }) : HttpResponse.json(question('q1')))),
  );
}

describe('backoff when the server gives no Retry-After', () => {
  it('waits at most initialDelay before the first retry, then doubles the ceiling up to maxDelay', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999);
    failThenAnswer(6);
    const { client, clock } = clientWithClock({ maxRetries: 6 });
    await client.questions.retrieve('q1');
    // Defaults: 500 ms first, doubling, capped at 8 s; each wait is random * ceiling, rounded down.
    expect(clock.sleeps).toEqual([499, 999, 1998, 3996, 7992, 7992]);
    expect(seen).toHaveLength(7);
  });

  it('takes initialDelay and maxDelay from retryBackoff', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    failThenAnswer(4);
    const { client, clock } = clientWithClock({ maxRetries: 4, retryBackoff: { initialDelay: 100, maxDelay: 300 } });
    await client.questions.retrieve('q1');
    expect(clock.sleeps).toEqual([50, 100, 150, 150]);
  });

  it('draws each wait between 0 and the ceiling (full jitter)', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    failThenAnswer(2);
    const { client, clock } = clientWithClock();
    await client.questions.retrieve('q1');
    expect(clock.sleeps).toEqual([0, 0]);
  });

  it('reports each wait on the retry event, with the status and error class of the failed attempt', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    failThenAnswer(2);
    const { client, retries } = clientWithClock();
    await client.questions.retrieve('q1');
    expect(retries.map(({ attempt, status, error, delayMs }) => ({ attempt, status, error, delayMs }))).toEqual([
      { attempt: 1, status: 503, error: 'OverloadedError', delayMs: 250 },
      { attempt: 2, status: 503, error: 'OverloadedError', delayMs: 500 },
    ]);
  });
});

describe('Retry-After', () => {
  it('honours a Retry-After exactly equal to maxRetryAfter', async () => {
    failThenAnswer(1, { 'Retry-After': '60' });
    const { client, clock } = clientWithClock();
    await expect(client.questions.retrieve('q1')).resolves.toMatchObject({ id: 'q1' });
    expect(clock.sleeps).toEqual([60_000]);
    expect(seen).toHaveLength(2);
  });

  it('gives up at once on a Retry-After one second longer than maxRetryAfter', async () => {
    failThenAnswer(1, { 'Retry-After': '61' });
    const { client, clock } = clientWithClock();
    const err = (await client.questions.retrieve('q1').catch((e: unknown) => e)) as OverloadedError;
    expect(err).toBeInstanceOf(OverloadedError);
    expect(clock.sleeps).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it('waits a fractional Retry-After such as 1.5 s', async () => {
    failThenAnswer(1, { 'Retry-After': '1.5' });
    const { client, clock } = clientWithClock();
    await client.questions.retrieve('q1');
    expect(clock.sleeps).toEqual([1500]);
  });

  it('reads Retry-After with spaces around the number', async () => {
    failThenAnswer(1, { 'Retry-After': ' 2 ' });
    const { client, clock } = clientWithClock();
    await client.questions.retrieve('q1');
    expect(clock.sleeps).toEqual([2000]);
  });

  it('gives the fractional wait on RateLimitError.retryAfterMs', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => apiError(429, 'rate_limit_error', 'slow', { headers: { 'Retry-After': '1.5' } })));
    const err = (await makeClient({ maxRetries: 0 }).questions.retrieve('q1').catch((e: unknown) => e)) as RateLimitError;
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.retryAfterMs).toBe(1500);
  });

  it('has no retryAfterMs when the 429 carries no Retry-After', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => apiError(429, 'rate_limit_error', 'slow')));
    const err = (await makeClient({ maxRetries: 0 }).questions.retrieve('q1').catch((e: unknown) => e)) as RateLimitError;
    expect(err.retryAfterMs).toBeUndefined();
  });

  it.each(['soon', '7 seconds', '1.5.2', '-3', '', '   '])('backs off as usual on the unreadable Retry-After %j', async (value) => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    failThenAnswer(1, { 'Retry-After': value });
    const { client, clock } = clientWithClock();
    await client.questions.retrieve('q1');
    expect(clock.sleeps).toEqual([250]);
  });

  it.each(['Wed, 21 Oct 2015 07:28:00 GMT', '0', '0.0001'])('backs off as usual on the Retry-After %j: never sooner than the backoff', async (value) => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    failThenAnswer(4, { 'Retry-After': value });
    const { client, clock, retries } = clientWithClock({ maxRetries: 4 });
    await client.questions.retrieve('q1');
    // A server answering "retry now" again and again meets a growing backoff, not a busy loop.
    expect(clock.sleeps).toEqual([250, 500, 1000, 2000]);
    expect(retries.map((r) => r.delayMs)).toEqual([250, 500, 1000, 2000]);
  });

  it('waits the backoff when it is longer than the Retry-After asked', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    failThenAnswer(4, { 'Retry-After': '1' });
    const { client, clock } = clientWithClock({ maxRetries: 4 });
    await client.questions.retrieve('q1');
    expect(clock.sleeps).toEqual([1000, 1000, 1000, 2000]);
  });

  it('starts a retry whose wait ends exactly at the retry deadline, and none after it', async () => {
    failThenAnswer(5, { 'Retry-After': '1' });
    const { client, clock } = clientWithClock({ retryDeadline: 1000, maxRetries: 5 });
    await expect(client.questions.retrieve('q1')).rejects.toBeInstanceOf(OverloadedError);
    expect(clock.sleeps).toEqual([1000]);
    expect(seen).toHaveLength(2);
  });

  it('counts the retry deadline from the first attempt, across retries', async () => {
    failThenAnswer(5, { 'Retry-After': '1' });
    const { client, clock } = clientWithClock({ retryDeadline: 2500, maxRetries: 5 });
    await expect(client.questions.retrieve('q1')).rejects.toBeInstanceOf(OverloadedError);
    expect(clock.sleeps).toEqual([1000, 1000]);
    expect(seen).toHaveLength(3);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');
  it.each([
    ['0', 0],
    ['7', 7000],
    ['1.5', 1500],
    ['0.25', 250],
    [' 3 ', 3000],
    ['Sun, 22 Nov 2026 10:00:30 GMT', 30_000],
    ['Sun, 22 Nov 2026 09:59:00 GMT', 0],
    // The header sent twice: fetch joins the values with a comma; the longest wait counts.
    ['120, 120', 120_000],
    ['5,30', 30_000],
    ['30 , 5', 30_000],
  ])('reads %j as %i ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each([null, undefined, '', '  ', 'soon', '7s', 's7', '1.', '.5', '-1', '1e3', '5,', ',5', '5,,5', '5, soon'])('reads %j as no wait given', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});

describe('decideRetry', () => {
  const ctx: RetryContext = {
    attempt: 1,
    maxRetries: 2,
    safeToRepeat: true,
    maxRetryAfter: 60_000,
    remaining: 300_000,
    initialDelay: 500,
    maxDelay: 8000,
    random: () => 0.5,
    now: 0,
  };
  const response = (status: number, type?: string, retryAfter: string | null = null): AttemptOutcome => ({ kind: 'response', status, type, retryAfter });

  it('retries the last allowed attempt and gives up after it', () => {
    expect(decideRetry(response(503), { ...ctx, attempt: 2 })).toEqual({ retry: true, delay: 500, source: 'backoff' });
    expect(decideRetry(response(503), { ...ctx, attempt: 3 })).toEqual({ retry: false });
  });

  it('gives up when Retry-After is longer than maxRetryAfter, carrying the wait asked for', () => {
    expect(decideRetry(response(429, 'rate_limit_error', '60'), ctx)).toEqual({ retry: true, delay: 60_000, source: 'retry-after' });
    expect(decideRetry(response(429, 'rate_limit_error', '60.5'), ctx)).toEqual({ retry: false, retryAfterTooLong: 60_500 });
  });

  it("says where a long wait's delay came from: the Retry-After when it is the longer, else the backoff", () => {
    const waiting = { ...ctx, wait: true, maxRetries: Infinity, remaining: Infinity };
    expect(decideRetry(response(503, undefined, '60'), waiting)).toMatchObject({ retry: true, delay: 60_000, source: 'retry-after' });
    expect(decideRetry(response(503, undefined, '0'), waiting)).toMatchObject({ retry: true, source: 'backoff' });
    expect(decideRetry(response(503), waiting)).toMatchObject({ retry: true, source: 'backoff' });
  });

  it('retries when the wait ends exactly at the deadline', () => {
    expect(decideRetry(response(503, undefined, '2'), { ...ctx, remaining: 2000 })).toEqual({ retry: true, delay: 2000, source: 'retry-after' });
    expect(decideRetry(response(503, undefined, '2'), { ...ctx, remaining: 1999 })).toEqual({ retry: false });
  });

  it.each([
    ['retries 429 rate_limit_error on POST', response(429, 'rate_limit_error'), false, true],
    ['retries 429 without a type on POST', response(429), false, true],
    ['does not retry a 429 whose class says not to (too_many_active_forecasts)', { ...response(429, 'too_many_active_forecasts'), retry: false }, true, false],
    ['retries 503 on POST', response(503), false, true],
    ['retries a 409 whose class says to (idempotency_in_progress)', { ...response(409, 'idempotency_in_progress'), retry: true }, true, true],
    ['does not retry a 409 by its status alone, whatever its code', response(409, 'idempotency_in_progress'), true, false],
    ['does not retry 409 forecast_already_running', response(409, 'forecast_already_running'), true, false],
    ['retries 408 on GET', response(408), true, true],
    ['does not retry 408 on POST', response(408), false, false],
    ['retries 500 on GET', response(500), true, true],
    ['does not retry 502 on POST', response(502), false, false],
    ['does not retry 400 on GET', response(400), true, false],
    ['does not retry 404 on GET', response(404), true, false],
    ['does not retry 422 on GET', response(422), true, false],
    ['does not retry 499 on GET', response(499), true, false],
    ['retries a refused connection on POST (nothing was sent)', { kind: 'refused' }, false, true],
    ['retries a reset connection on GET', { kind: 'network' }, true, true],
    ['does not retry a reset connection on POST', { kind: 'network' }, false, false],
    ['retries a timeout on GET', { kind: 'timeout' }, true, true],
    ['does not retry a timeout on POST', { kind: 'timeout' }, false, false],
  ] as Array<[string, AttemptOutcome, boolean, boolean]>)('%s', (_, outcome, safeToRepeat, retried) => {
    expect(decideRetry(outcome, { ...ctx, safeToRepeat }).retry).toBe(retried);
  });
});
