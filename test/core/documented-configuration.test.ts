// Promises of docs/configuration.md (and of the README's client options) that no other test pinned
// down: the default `timeout` and `timeout: 0`, the environment filling only an option left out, a
// `rateLimit` that retries spend too, `validateResponses` on a new enum value and a missing field,
// and the real-time default `clock`. Timers are Vitest's fake ones, or an injected clock: nothing
// here sleeps in real time.
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APITimeoutError, ForecastingClient, ValidationError } from '../../src/index.js';
import { BASE, KEY, apiError, fakeClock, makeClient, question, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

afterEach(() => {
  vi.useRealTimers();
});

/** Lets every callback already due run (real I/O and immediates): no timer time passes. */
async function drainEventLoop(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** A fetch that never answers, rejecting only when its signal aborts; `started` resolves once it is called. */
function silentFetch(): { fetch: typeof globalThis.fetch; started: Promise<void> } {
  let called: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (called = resolve));
  const fetch = ((_input: RequestInfo | URL, init?: RequestInit) => {
    called();
    return new Promise<Response>((_resolve, reject) => {
      const signal = init?.signal;
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }) as typeof globalThis.fetch;
  return { fetch, started };
}

/** How a promise stands right now: 'pending', or what it settled with. */
function track<T>(promise: Promise<T>): { readonly state: 'pending' | { value: T } | { error: unknown } } {
  const box: { state: 'pending' | { value: T } | { error: unknown } } = { state: 'pending' };
  promise.then(
    (value) => (box.state = { value }),
    (error: unknown) => (box.state = { error }),
  );
  return box;
}

describe('timeout (configuration.md, Client options)', () => {
  it('defaults to 60 000 ms per attempt: a silent server ends the attempt in APITimeoutError at 60 s, not a millisecond before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { fetch, started } = silentFetch();
    const client = new ForecastingClient({ apiKey: KEY, baseURL: BASE, fetch, maxRetries: 0, logLevel: 'off' });
    const call = track(client.questions.retrieve('q1'));
    await started;
    await vi.advanceTimersByTimeAsync(59_999);
    expect(call.state).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    await drainEventLoop();
    const { error } = call.state as { error: unknown };
    expect(error).toBeInstanceOf(APITimeoutError);
    expect((error as Error).message).toContain('60000 ms');
  });

  it('takes 0 for no limit: an attempt still waits after a day, and ends only when its signal aborts', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { fetch, started } = silentFetch();
    const client = new ForecastingClient({ apiKey: KEY, baseURL: BASE, fetch, timeout: 0, maxRetries: 0, logLevel: 'off' });
    const controller = new AbortController();
    const call = track(client.questions.retrieve('q1', { signal: controller.signal }));
    await started;
    await vi.advanceTimersByTimeAsync(24 * 3_600_000);
    expect(call.state).toBe('pending');
    const reason = new Error('the caller gave up');
    controller.abort(reason);
    await drainEventLoop();
    expect(call.state).toEqual({ error: reason });
  });
});

describe('the environment fills only an option left out (configuration.md, The key and the address)', () => {
  const saved = { ...process.env };
  const ENV_KEY = 'pre_from_the_environment';
  afterEach(() => {
    process.env = { ...saved };
  });

  function answerQuestion(): void {
    server.use(http.get(`${BASE}/questions/q1`, () => HttpResponse.json(question('q1'))));
  }
  const sent = () => seen.map((r) => [r.url, r.headers.get('authorization')]);

  it('an apiKey and a baseURL given in code win over FORECASTING_API_KEY and FORECASTING_BASE_URL', async () => {
    process.env['FORECASTING_API_KEY'] = ENV_KEY;
    // Unhandled by msw (onUnhandledRequest: 'error'): a request sent there would fail the call.
    process.env['FORECASTING_BASE_URL'] = 'https://environment.test/api/v1/external';
    answerQuestion();
    const client = new ForecastingClient({ apiKey: KEY, baseURL: BASE, logLevel: 'off' });
    expect(client.baseURL).toBe(BASE);
    await client.questions.retrieve('q1');
    expect(sent()).toEqual([[`${BASE}/questions/q1`, `Bearer ${KEY}`]]);
  });

  it('each variable fills its own option: the key from code with the address from the environment, and the other way round', async () => {
    process.env['FORECASTING_API_KEY'] = ENV_KEY;
    process.env['FORECASTING_BASE_URL'] = BASE;
    answerQuestion();
    await new ForecastingClient({ apiKey: KEY, logLevel: 'off' }).questions.retrieve('q1');
    await new ForecastingClient({ baseURL: BASE, logLevel: 'off' }).questions.retrieve('q1');
    expect(sent()).toEqual([
      [`${BASE}/questions/q1`, `Bearer ${KEY}`],
      [`${BASE}/questions/q1`, `Bearer ${ENV_KEY}`],
    ]);
  });
});

describe('rateLimit counts retries too (configuration.md: "retries and wait loops included")', () => {
  /** GET /questions/q1 answers 503 twice, then the question. */
  function twoFailuresThenAnswer(): void {
    let n = 0;
    server.use(http.get(`${BASE}/questions/q1`, () => (++n <= 2 ? apiError(503, 'overloaded_error', 'busy') : HttpResponse.json(question('q1')))));
  }

  it('with 2 requests a minute, the second retry of one call waits for the next minute', async () => {
    twoFailuresThenAnswer();
    const clock = fakeClock();
    await makeClient({ clock, rateLimit: { requestsPerMinute: 2 } }).questions.retrieve('q1');
    expect(seen).toHaveLength(3);
    // makeClient's backoff is 0: the only long sleep is the budget's, before the third attempt.
    expect(clock.sleeps.filter((ms) => ms >= 60_000)).toHaveLength(1);
  });

  it('(control) without rateLimit the same three attempts wait for no minute', async () => {
    twoFailuresThenAnswer();
    const clock = fakeClock();
    await makeClient({ clock }).questions.retrieve('q1');
    expect(seen).toHaveLength(3);
    expect(clock.sleeps.filter((ms) => ms >= 60_000)).toEqual([]);
  });
});

describe('validateResponses (configuration.md, Client options)', () => {
  it('is lenient to a new value of a known enum: visibility "team" passes', async () => {
    server.use(http.get(`${BASE}/questions/q1`, () => HttpResponse.json(question('q1', { visibility: 'team' }))));
    const q = await makeClient({ validateResponses: true }).questions.retrieve('q1');
    expect(q.visibility).toBe('team');
  });

  it('throws ValidationError naming response.<field> for a missing known field, which passes with it off', async () => {
    const untitled: Record<string, unknown> = question('q1');
    delete untitled['title'];
    server.use(http.get(`${BASE}/questions/q1`, () => HttpResponse.json(untitled as Parameters<typeof HttpResponse.json>[0])));
    await expect(makeClient().questions.retrieve('q1')).resolves.toMatchObject({ id: 'q1' });
    const err = await makeClient({ validateResponses: true }).questions.retrieve('q1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ field: 'response.title' });
  });
});

describe('clock defaults to real time (configuration.md, Client options)', () => {
  it('sleeps a Retry-After of 2 s on timers: the retry is sent when 2 000 ms of timer time have passed, not before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let n = 0;
    server.use(http.get(`${BASE}/questions/q1`, () => (++n === 1 ? apiError(503, 'overloaded_error', 'busy', { headers: { 'retry-after': '2' } }) : HttpResponse.json(question('q1')))));
    const client = new ForecastingClient({ apiKey: KEY, baseURL: BASE, logLevel: 'off' });
    const retried = new Promise<void>((resolve) => client.once('retry', () => resolve()));
    const call = track(client.questions.retrieve('q1'));
    await retried;
    await vi.advanceTimersByTimeAsync(1_999);
    await drainEventLoop();
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    for (let i = 0; i < 50 && call.state === 'pending'; i++) await drainEventLoop(1);
    expect(seen).toHaveLength(2);
    expect(call.state).toMatchObject({ value: { id: 'q1' } });
  });
});
