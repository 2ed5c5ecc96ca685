// What docs/observability.md promises of the diagnostics channels that the other channel tests
// leave unasserted: the channels' names as literal strings (public API: a subscriber may name them
// without importing CHANNELS), the retry reasons `connection` and `timeout`, and the headers a
// subscriber may not add (cookie, proxy-authorization, host, content-length, connection). The SDK
// against the mock over HTTP on a manual clock (a client's wait moves it: no real sleeping).
import diagnostics from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNELS, ForecastingClient, type AttemptMessage, type ClientOptions, type OperationMessage, type RetryMessage, type WaitMessage, type WebhookMessage } from '../../src/index.js';
import { ManualClock, mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';
import { createWebhookHandler } from '../../src/webhooks/fetch.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ clock: new ManualClock() });
  // No 429 of the mock's own: every retry here is one a test injected.
  mock.service.setRateLimit(false);
});
afterAll(() => mock.close());
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  mock.service.reset();
});

const client = (options: ClientOptions = {}) => new ForecastingClient({ ...mockClientOptions(mock), logLevel: 'off', retryBackoff: { initialDelay: 0, maxDelay: 0 }, ...options });

type Handlers = diagnostics.TracingChannelSubscribers<object>;
const ignore = () => undefined;

/** Subscribes to the tracing channel named `name` for this test: `start` and `asyncEnd` as given, the other events ignored. */
function traced(name: string, handlers: { start?: (message: object) => void; asyncEnd?: (message: object) => void }): void {
  const all: Handlers = { start: ignore, end: ignore, asyncStart: ignore, asyncEnd: ignore, error: ignore, ...handlers };
  diagnostics.tracingChannel(name).subscribe(all);
  stops.push(() => void diagnostics.tracingChannel(name).unsubscribe(all));
}

/** The messages published on the plain channel named `name` during this test. */
function plain<M>(name: string): M[] {
  const seen: M[] = [];
  const handler = (message: unknown) => void seen.push(message as M);
  diagnostics.subscribe(name, handler);
  stops.push(() => void diagnostics.unsubscribe(name, handler));
  return seen;
}

/** The messages of the tracing channel named `name` at `asyncEnd`, during this test. */
function ended<M>(name: string): M[] {
  const seen: M[] = [];
  traced(name, { asyncEnd: (message) => void seen.push(message as M) });
  return seen;
}

describe('the channel names', () => {
  it('are the documented literal strings, one per channel of the table, and CHANNELS names each', () => {
    expect(CHANNELS).toEqual({
      operation: 'forecasting-sdk:operation',
      attempt: 'forecasting-sdk:attempt',
      retry: 'forecasting-sdk:retry',
      wait: 'forecasting-sdk:wait',
      queue: 'forecasting-sdk:queue',
      webhook: 'forecasting-sdk:webhook',
      coordinator: 'forecasting-sdk:coordinator',
    });
  });

  it('reach a subscriber that names the operation, attempt and retry channels by their literal strings', async () => {
    const operations = ended<OperationMessage>('forecasting-sdk:operation');
    const attempts = ended<AttemptMessage>('forecasting-sdk:attempt');
    const retries = plain<RetryMessage>('forecasting-sdk:retry');
    mock.service.faults.add({ operation: 'credits.retrieve', status: 503, times: 1 });
    await client().credits.retrieve();
    expect(operations.map((m) => [m.operation, m.status, m.attempts])).toEqual([['credits.retrieve', 200, 2]]);
    expect(attempts.map((m) => [m.operation, m.attempt, m.status])).toEqual([
      ['credits.retrieve', 1, 503],
      ['credits.retrieve', 2, 200],
    ]);
    expect(retries.map((m) => [m.operation, m.reason, m.status])).toEqual([['credits.retrieve', 'status', 503]]);
  });

  it('reach a subscriber that names the wait and webhook channels by their literal strings', async () => {
    const c = client();
    const question = await c.questions.create({ type: 'binary', title: 'Will it rain in Oslo?' });
    const waits = ended<WaitMessage>('forecasting-sdk:wait');
    const calls = ended<WebhookMessage>('forecasting-sdk:webhook');
    await c.questions.files.waitUntilReady(question.id);
    expect(waits.map((m) => [m.kind, m.questionId])).toEqual([['context', question.id]]);
    const answer = await createWebhookHandler('whsec_literal_names_0123456789', () => undefined)(new Request('http://127.0.0.1/hook', { method: 'POST', body: '{}' }));
    expect(answer.status).toBe(400);
    await vi.waitFor(() => expect(calls.map((m) => m.outcome)).toEqual(['refused']));
  });
});

describe('the retry channel', () => {
  it('gives a dropped connection the reason connection: no status, the error class APIConnectionError', async () => {
    const retries = plain<RetryMessage>(CHANNELS.retry);
    mock.service.faults.add({ operation: 'credits.retrieve', drop: true, times: 1 });
    await client().credits.retrieve();
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ operation: 'credits.retrieve', method: 'GET', path: '/credits', attempt: 1, reason: 'connection', errorType: 'APIConnectionError', delaySource: 'backoff' });
    expect(retries[0]!.status).toBeUndefined();
  });

  it('gives an attempt that timed out the reason timeout: no status, the error class APITimeoutError, on the attempt too', async () => {
    const retries = plain<RetryMessage>(CHANNELS.retry);
    const attempts = ended<AttemptMessage>(CHANNELS.attempt);
    // The client's timeout runs on a real timer: 500 ms (room for a loaded machine), against an answer held 30 s (let go once the client gives up).
    mock.service.faults.add({ operation: 'credits.retrieve', delayMs: 30_000, times: 1 });
    await client({ timeout: 500 }).credits.retrieve();
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ operation: 'credits.retrieve', attempt: 1, reason: 'timeout', errorType: 'APITimeoutError', delaySource: 'backoff' });
    expect(retries[0]!.status).toBeUndefined();
    expect(attempts.map((a) => [a.attempt, a.status, a.errorType])).toEqual([
      [1, undefined, 'APITimeoutError'],
      [2, 200, undefined],
    ]);
  });
});

describe('the headers a subscriber adds in start', () => {
  it('leave out cookie, proxy-authorization, host, content-length and connection: the call succeeds, every attempt without them', async () => {
    const added = { cookie: 'session=stolen', 'Proxy-Authorization': 'Basic c3RvbGVu', host: 'evil.example', 'content-length': '12345', connection: 'close', 'x-documented': 'kept' };
    traced(CHANNELS.operation, { start: (message) => void Object.assign((message as OperationMessage).headers, added) });
    // What the client hands to fetch: undici itself drops a host or content-length it is given, so the service's log alone could not tell.
    const options = mockClientOptions(mock);
    const handed: Array<Record<string, string>> = [];
    const recording: typeof fetch = (input, init) => {
      const headers: Record<string, string> = {};
      new Headers(input instanceof Request ? input.headers : undefined).forEach((value, name) => void (headers[name] = value));
      new Headers(init?.headers).forEach((value, name) => void (headers[name] = value));
      handed.push(headers);
      return options.fetch(input, init);
    };
    mock.service.faults.add({ operation: 'credits.retrieve', status: 503, times: 1 });
    const credits = await client({ ...options, fetch: recording }).credits.retrieve();
    expect(credits).toBeDefined();
    expect(handed).toHaveLength(2);
    for (const headers of handed) {
      // The subscriber's other header went: it did run.
      expect(headers['x-documented']).toBe('kept');
      for (const name of ['cookie', 'proxy-authorization', 'host', 'content-length', 'connection']) expect(headers[name]).toBeUndefined();
    }
    const sent = mock.service.requests.list({ operation: 'credits.retrieve' });
    expect(sent.map((r) => r.status)).toEqual([503, 200]);
    for (const request of sent) {
      expect(request.headers['x-documented']).toBe('kept');
      expect(request.headers['cookie']).toBeUndefined();
      expect(request.headers['proxy-authorization']).toBeUndefined();
      expect(request.headers['connection']).not.toBe('close');
    }
  });
});

describe('a runMany that fails before it runs', () => {
  // A trace opened before the run's set-up (the input read as an iterable, the request options
  // copied) was left open for good when that set-up threw: `start` with no `asyncEnd`, a span never ended.
  const failing: Record<string, (c: ForecastingClient) => AsyncIterable<unknown>> = {
    'input that is not iterable': (c) => c.forecasts.runMany(5 as never),
    'an iterable whose iterator throws': (c) => c.forecasts.runMany({ [Symbol.iterator]: () => { throw new Error('no iterator'); } } as never),
    'request options whose getter throws': (c) => c.forecasts.runMany([], { requestOptions: { get timeout(): number { throw new Error('no timeout'); } } }),
  };
  it.each(Object.keys(failing))('leaves no trace open: %s', async (name) => {
    const events: string[] = [];
    const record = (event: string) => (message: object) => void ((message as WaitMessage).kind === 'runMany' && events.push(event));
    traced(CHANNELS.wait, { start: record('start'), asyncEnd: record('asyncEnd') });
    const run = async () => {
      for await (const _ of failing[name]!(client())) void _;
    };
    await expect(run()).rejects.toThrow();
    expect(events.filter((e) => e === 'start').length).toBe(events.filter((e) => e === 'asyncEnd').length);
  });
});
