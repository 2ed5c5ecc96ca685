// Behaviours the docs promise that no other test pinned down: the default retry deadline, the default
// logger and level, how a wait ends on a 403 or under `requestOptions.maxRetries`, leaving a
// `runMany` loop early, per-request options on every page, and the clip of an unknown key's name.
// Every wait runs on a fake clock: nothing here sleeps in real time.
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ForecastingClient, OverloadedError, PermissionDeniedError, type ClientClock, type ForecastCreateParams, type Logger, type RetryEvent } from '../../src/index.js';
import { BASE, KEY, apiError, fakeClock, makeClient, question, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

afterEach(() => {
  vi.restoreAllMocks();
});

/** Lets every timer, microtask and I/O callback already due run: no clock time passes. */
async function drainEventLoop(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** A client on a fake clock that records its retry events. */
function waitingClient() {
  const clock = fakeClock();
  const client = makeClient({ clock });
  const retries: RetryEvent[] = [];
  client.on('retry', (e) => retries.push(e));
  return { client, clock, retries };
}

describe('the default retryDeadline is 300 000 ms (configuration.md, errors.md)', () => {
  /** A clock that moves only when slept on, or when `tick` moves it (an attempt that takes time). */
  function steppedClock(): ClientClock & { tick(ms: number): void; starts: number[] } {
    let now = 0;
    return {
      starts: [],
      now: () => now,
      sleep: async (ms, signal) => {
        signal?.throwIfAborted();
        now += ms;
      },
      tick: (ms) => {
        now += ms;
      },
    };
  }

  /** Attempts of one read against a service that always answers 503 + Retry-After: 60, each taking `attemptMs`. */
  async function attemptsUntilGivenUp(attemptMs: number): Promise<{ starts: number[]; error: unknown }> {
    const clock = steppedClock();
    server.use(
      http.get(`${BASE}/questions/q1`, () => {
        clock.starts.push(clock.now());
        clock.tick(attemptMs);
        return apiError(503, 'overloaded_error', 'deploying', { headers: { 'retry-after': '60' } });
      }),
    );
    // Default options but for maxRetries, which would otherwise end the call first (2 retries).
    const client = new ForecastingClient({ apiKey: KEY, baseURL: BASE, clock, maxRetries: 1000, logLevel: 'off' });
    const error = await client.questions.retrieve('q1').catch((e: unknown) => e);
    return { starts: clock.starts, error };
  }

  it('retries until the retry due at exactly 5 minutes, and no retry due past it', async () => {
    // Instant attempts: retries fall at 60 s, 120 s, … and the one at 300 000 ms still starts.
    const instant = await attemptsUntilGivenUp(0);
    expect(instant.error).toBeInstanceOf(OverloadedError);
    expect(instant.starts).toEqual([0, 60_000, 120_000, 180_000, 240_000, 300_000]);
    // Attempts of 1 ms each: the sixth would start at 300 005 ms, past the deadline, so it never does.
    const slow = await attemptsUntilGivenUp(1);
    expect(slow.error).toBeInstanceOf(OverloadedError);
    expect(slow.starts).toEqual([0, 60_001, 120_002, 180_003, 240_004]);
  });
});

describe('the default logger is console and the default logLevel is warn (configuration.md)', () => {
  const OTHER_BASE = 'https://api.test/proxy';

  /** GET /questions/q1 answers 503 once (a retry: logged at info), then the question. */
  function flakyRead() {
    let n = 0;
    server.use(http.get(`${OTHER_BASE}/questions/q1`, () => (++n === 1 ? apiError(503, 'overloaded_error', 'busy') : HttpResponse.json(question('q1')))));
  }

  function spyConsole() {
    return {
      warn: vi.spyOn(console, 'warn').mockImplementation(() => undefined),
      info: vi.spyOn(console, 'info').mockImplementation(() => undefined),
      debug: vi.spyOn(console, 'debug').mockImplementation(() => undefined),
    };
  }

  it('writes a warning to console.warn, and an info line (a retry) nowhere', async () => {
    const spies = spyConsole();
    flakyRead();
    // A base URL off /api/v1/external is warned about once, at construction; a retry is logged at info.
    const client = new ForecastingClient({ apiKey: KEY, baseURL: OTHER_BASE, clock: fakeClock() });
    await client.questions.retrieve('q1');
    expect(seen).toHaveLength(2);
    expect(spies.warn).toHaveBeenCalledTimes(1);
    expect(String(spies.warn.mock.calls[0]?.[0])).toMatch(/^\[forecasting-sdk\] .*\/api\/v1\/external/);
    expect(spies.info).not.toHaveBeenCalled();
    expect(spies.debug).not.toHaveBeenCalled();
  });

  it('(control) the same retry does reach console.info at logLevel info, so the line above exists', async () => {
    const spies = spyConsole();
    flakyRead();
    await new ForecastingClient({ apiKey: KEY, baseURL: OTHER_BASE, clock: fakeClock(), logLevel: 'info' }).questions.retrieve('q1');
    expect(spies.info).toHaveBeenCalledTimes(1);
    expect(String(spies.info.mock.calls[0]?.[0])).toContain('retry 1 of 2');
  });
});

describe('how a wait ends (forecasts.md, Outages and resuming)', () => {
  it('a 403 ends a wait at once: one read, PermissionDeniedError, no retry', async () => {
    server.use(http.get(`${BASE}/forecasts/t1`, () => apiError(403, 'permission_denied', 'the key lacks forecasts:read')));
    const { client, clock, retries } = waitingClient();
    // A timeout bounds the wait should the 403 ever be retried: it would then end in WaitTimeoutError.
    const err = await client.forecasts.wait('t1', { timeout: 600_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermissionDeniedError);
    expect(err).toMatchObject({ status: 403, taskId: 't1', taskIds: ['t1'] });
    expect(seen).toHaveLength(1);
    expect(retries).toEqual([]);
    expect(clock.sleeps).toEqual([]);
  });

  it('requestOptions.maxRetries caps the retries of each read of a wait', async () => {
    server.use(http.get(`${BASE}/forecasts/t1`, () => apiError(503, 'overloaded_error', 'deploying')));
    const { client, retries } = waitingClient();
    // Uncapped, the reads would be retried until the wait's timeout, ending in WaitTimeoutError.
    const err = await client.forecasts.wait('t1', { timeout: 3_600_000, requestOptions: { maxRetries: 2 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OverloadedError);
    expect(err).toMatchObject({ taskId: 't1' });
    expect(seen).toHaveLength(3);
    expect(retries.map((e) => e.attempt)).toEqual([1, 2]);
  });
});

describe('leaving a runMany loop (forecasts.md, Stopping)', () => {
  const runModes = http.get(`${BASE}/run-modes`, () => HttpResponse.json({ type: 'list', hasMore: false, nextCursor: null, data: [{ key: 'light', name: 'Light', credits: 1, isDefault: true }] }));
  /** A batch answer accepting every item: question `q<n>` as task `t<n>`. */
  const startAll = http.post(`${BASE}/forecasts/batch`, async ({ request }) => {
    const { items: sent } = (await request.json()) as { items: Array<{ questionId: string }> };
    return HttpResponse.json({ counts: { total: sent.length, accepted: sent.length, rejected: 0 }, items: sent.map((item, index) => ({ index, status: 'accepted', taskId: item.questionId.replace('q', 't') })) });
  });
  /** Every round shows t0 completed and the others still running. */
  const firstDone = http.get(`${BASE}/forecasts`, ({ request }) => {
    const ids = new URL(request.url).searchParams.get('taskId')?.split(',') ?? [];
    const data = ids.map((taskId) => ({ taskId, status: taskId === 't0' ? 'completed' : 'running_subforecasts', forecastData: null }));
    return HttpResponse.json({ type: 'list', hasMore: false, nextCursor: null, data }, { headers: { 'retry-after': '30' } });
  });

  it('a break sends no further request: no poll, no cancel, no start, though forecasts still run', async () => {
    server.use(runModes, startAll, firstDone);
    const items = Array.from({ length: 60 }, (_, i): ForecastCreateParams => ({ questionId: `q${i}` }));
    const client = makeClient({ clock: fakeClock() });
    let atBreak = -1;
    const got: string[] = [];
    for await (const r of client.forecasts.runMany(items)) {
      got.push(`${r.index}:${r.status}`);
      atBreak = seen.length;
      break;
    }
    expect(got).toEqual(['0:completed']);
    // By then: the prices, the starts of 50 forecasts (two batches of 25), one polling round; 49 still run.
    expect(seen.map((r) => `${r.method} ${new URL(r.url).pathname.replace('/api/v1/external', '')}`)).toEqual(['GET /run-modes', 'POST /forecasts/batch', 'POST /forecasts/batch', 'GET /forecasts']);
    // Carried on, the run would start the third batch at once (a slot is free) and poll again.
    await drainEventLoop();
    expect(seen).toHaveLength(atBreak);
  });
});

describe('per-request options apply to every page (pagination.md)', () => {
  const ids = Array.from({ length: 7 }, (_, i) => `q${i}`);

  /** Cursor pages of `limit` over `ids`; the cursor is the index of the next item. */
  const cursorPages = http.get(`${BASE}/questions`, ({ request }) => {
    const url = new URL(request.url);
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const hasMore = start + limit < ids.length;
    return HttpResponse.json({ type: 'list', data: ids.slice(start, start + limit).map((id) => question(id)), hasMore, nextCursor: hasMore ? String(start + limit) : null });
  });
  /** Offset pages of `limit` over `ids`. */
  const offsetPages = http.get(`${BASE}/questions/browse`, ({ request }) => {
    const url = new URL(request.url);
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    return HttpResponse.json({ type: 'list', data: ids.slice(offset, offset + limit).map((id) => question(id)), hasMore: offset + limit < ids.length });
  });
  const traces = () => seen.map((r) => r.headers.get('x-trace'));

  it('sends the call’s headers with page 2 and later, on cursor and offset lists', async () => {
    server.use(cursorPages, offsetPages);
    const client = makeClient();
    const walked: string[] = [];
    for await (const q of client.questions.list({ limit: 3 }, { headers: { 'x-trace': 'cursor' } })) walked.push(q.id);
    expect(walked).toEqual(ids);
    expect(traces()).toEqual(['cursor', 'cursor', 'cursor']);
    seen.length = 0;
    const browsed = await client.questions.browse({ limit: 3 }, { headers: { 'x-trace': 'offset' } }).toArray();
    expect(browsed).toHaveLength(7);
    expect(traces()).toEqual(['offset', 'offset', 'offset']);
    // By hand too: getNextPage keeps the first call's options.
    seen.length = 0;
    const first = await client.questions.list({ limit: 5 }, { headers: { 'x-trace': 'hand' } });
    await first.getNextPage();
    expect(traces()).toEqual(['hand', 'hand']);
  });

  it('applies the call’s maxRetries to page 2: maxRetries 0 sends a failing second page once', async () => {
    let page2 = 0;
    server.use(
      http.get(`${BASE}/questions`, ({ request }) => {
        if (new URL(request.url).searchParams.get('cursor') === null) return HttpResponse.json({ type: 'list', data: [question('q0')], hasMore: true, nextCursor: 'c1' });
        page2++;
        return apiError(503, 'overloaded_error', 'busy');
      }),
    );
    // The client retries twice by default: only the call's option holds page 2 to one attempt.
    const client = makeClient({ maxRetries: 2 });
    const err = await client.questions.list({ limit: 1 }, { maxRetries: 0 }).toArray().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OverloadedError);
    expect(page2).toBe(1);
  });
});

describe('an unknown key is clipped at 64 characters in its warning (client.md, Input checks)', () => {
  it('quotes a key of 64 characters whole, and one of 65 as its first 64 and a count of the rest', async () => {
    server.use(http.post(`${BASE}/questions`, () => HttpResponse.json(question('q1'), { status: 201 })));
    const warn = vi.fn<Logger['warn']>();
    const logger: Logger = { debug: vi.fn(), info: vi.fn(), warn, error: vi.fn() };
    const at64 = 'a'.repeat(64);
    const at65 = `${'b'.repeat(64)}X`;
    const huge = `${'c'.repeat(64)}${'d'.repeat(1000)}`;
    const params = { type: 'binary', title: 'Rain?', [at64]: 1, [at65]: 2, [huge]: 3 } as unknown as Parameters<ForecastingClient['questions']['create']>[0];
    await makeClient({ logger, logLevel: 'warn' }).questions.create(params);
    expect(warn.mock.calls.map(([line]) => line)).toEqual([
      `[forecasting-sdk] questions.create: unknown field \`${at64}\` sent as is`,
      `[forecasting-sdk] questions.create: unknown field \`${'b'.repeat(64)}… (1 more characters)\` sent as is`,
      `[forecasting-sdk] questions.create: unknown field \`${'c'.repeat(64)}… (1000 more characters)\` sent as is`,
    ]);
    // Still sent whole: only the message is clipped.
    expect(Object.keys((await seen[0]!.json()) as Record<string, unknown>)).toEqual(expect.arrayContaining([at64, at65, huge]));
  });
});
