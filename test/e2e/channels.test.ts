// The diagnostics channels end to end: real node:diagnostics_channel subscribers, the SDK against
// the mock over HTTP (its default, scaled clock). A call, a 503 then a success, a 429 with
// Retry-After, headers a subscriber adds (a W3C traceparent) reaching the service, an async context
// seen by the attempts, and nothing in a message that is a key.
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APIConnectionError, APIError, CHANNELS, ForecastingClient, RateLimitError, WaitTimeoutError, type AttemptMessage, type OperationMessage, type RetryMessage } from '../../src/index.js';
import { mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(() => mock.close());

/** Everything published on the three channels while a test runs, in order. */
function record() {
  const seen: { channel: string; event: string; message: unknown }[] = [];
  const on = (channel: string) =>
    Object.fromEntries(['start', 'end', 'asyncStart', 'asyncEnd', 'error'].map((event) => [event, (message: unknown) => seen.push({ channel, event, message })])) as unknown as diagnostics.TracingChannelSubscribers<object>;
  const operation = on('operation');
  const attempt = on('attempt');
  const retry = (message: unknown) => seen.push({ channel: 'retry', event: 'publish', message });
  diagnostics.tracingChannel(CHANNELS.operation).subscribe(operation);
  diagnostics.tracingChannel(CHANNELS.attempt).subscribe(attempt);
  diagnostics.subscribe(CHANNELS.retry, retry);
  stops.push(() => {
    diagnostics.tracingChannel(CHANNELS.operation).unsubscribe(operation);
    diagnostics.tracingChannel(CHANNELS.attempt).unsubscribe(attempt);
    diagnostics.unsubscribe(CHANNELS.retry, retry);
  });
  return seen;
}
const stops: (() => void)[] = [];
const ignore = () => undefined;
/** A tracing channel's subscriber with only some of its handlers. */
const only = (handlers: { start?: (message: unknown) => void }): diagnostics.TracingChannelSubscribers<object> => ({ start: ignore, end: ignore, asyncStart: ignore, asyncEnd: ignore, error: ignore, ...handlers });
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  mock.service.reset();
});

const client = (options = {}) => new ForecastingClient({ ...mockClientOptions(mock), logLevel: 'off', retryBackoff: { initialDelay: 1, maxDelay: 1 }, ...options });

describe('the diagnostics channels', () => {
  it('trace an operation call and its attempt: the operation, method, path template, ids, server, status', async () => {
    const c = client();
    const question = await c.questions.create({ type: 'binary', title: 'Will it rain?' });
    const seen = record();
    await c.questions.retrieve(question.id);
    expect(seen.map((s) => `${s.channel}:${s.event}`)).toEqual([
      // The attempt runs inside the operation's trace (it starts in the call's synchronous part,
      // once the tracing code is loaded): it ends before the operation does.
      'operation:start',
      'attempt:start',
      'attempt:end',
      'operation:end',
      'attempt:asyncStart',
      'attempt:asyncEnd',
      'operation:asyncStart',
      'operation:asyncEnd',
    ]);
    const op = seen[0]!.message as OperationMessage;
    const url = new URL(mock.baseURL);
    expect(op).toMatchObject({
      operation: 'questions.retrieve',
      method: 'GET',
      pathTemplate: '/questions/{question_id}',
      path: `/questions/${question.id}`,
      ids: { question_id: question.id },
      serverAddress: url.hostname,
      serverPort: Number(url.port),
      status: 200,
      attempts: 1,
    });
    expect(seen[1]!.message).toMatchObject({ operation: 'questions.retrieve', method: 'GET', attempt: 1, status: 200 } satisfies Partial<AttemptMessage>);
    // Each attempt names its call's message: a subscriber needs no async context to relate them.
    expect((seen[1]!.message as AttemptMessage).parent).toBe(op);
  });

  it('show a 503 then a success as two attempts and one retry, its delay from the backoff', async () => {
    const c = client();
    const question = await c.questions.create({ type: 'binary', title: 'Retry me' });
    mock.service.faults.add({ operation: 'questions.retrieve', status: 503, times: 1 });
    const seen = record();
    // The clock the field is documented on: `Date.now()` drifts from it by milliseconds in a
    // long-lived process (CI once saw 2 ms), so bounds taken on it would not be bounds.
    const epochNow = () => performance.timeOrigin + performance.now();
    const before = epochNow();
    await c.questions.retrieve(question.id);
    const after = epochNow();
    const attempts = seen.filter((s) => s.channel === 'attempt' && s.event === 'asyncEnd').map((s) => s.message as AttemptMessage);
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual([
      [1, 503],
      [2, 200],
    ]);
    const retries = seen.filter((s) => s.channel === 'retry').map((s) => s.message as RetryMessage);
    const call = seen.find((s) => s.channel === 'operation')!.message;
    expect(retries).toEqual([
      { parent: call, operation: 'questions.retrieve', method: 'GET', path: `/questions/${question.id}`, attempt: 1, status: 503, reason: 'status', errorType: 'OverloadedError', delayMs: expect.any(Number), delaySource: 'backoff', attemptStartTime: expect.any(Number) },
    ]);
    const ended = seen.find((s) => s.event === 'asyncEnd' && s.channel === 'operation')!.message as OperationMessage;
    expect(ended.attempts).toBe(2);
    // When each attempt began, in real time: the failed one (on the retry), then the last one (on the call).
    expect(retries[0]!.attemptStartTime).toBeGreaterThanOrEqual(before);
    expect(ended.attemptStartTime).toBeGreaterThan(retries[0]!.attemptStartTime);
    expect(ended.attemptStartTime).toBeLessThanOrEqual(after);
  });

  it("show a 429's Retry-After as the retry's delay, and the call's error and status when it fails for good", async () => {
    const c = client({ maxRetries: 1 });
    mock.service.faults.add({ operation: 'credits.retrieve', status: 429, retryAfter: 2, times: 2 });
    const seen = record();
    await expect(c.credits.retrieve()).rejects.toBeInstanceOf(RateLimitError);
    const retry = seen.find((s) => s.channel === 'retry')!.message as RetryMessage;
    expect(retry).toMatchObject({ status: 429, reason: 'status', errorType: 'RateLimitError', delayMs: 2000, delaySource: 'retry-after' });
    const failed = seen.find((s) => s.channel === 'operation' && s.event === 'error')!.message as OperationMessage;
    expect(failed).toMatchObject({ operation: 'credits.retrieve', status: 429, attempts: 2 });
    expect(failed.error).toBeInstanceOf(RateLimitError);
  });

  it("give an attempt that got no answer the connection's error itself, as the call's error is", async () => {
    const c = client({ maxRetries: 0 });
    mock.service.faults.add({ operation: 'credits.retrieve', drop: true, times: 1 });
    const seen = record();
    const error = await c.credits.retrieve().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    const attempt = seen.find((s) => s.channel === 'attempt' && s.event === 'error')!.message as AttemptMessage;
    expect(attempt.error).toBe(error);
    expect(attempt).toMatchObject({ errorType: 'APIConnectionError' });
    expect((seen.find((s) => s.channel === 'operation' && s.event === 'error')!.message as OperationMessage).error).toBe(error);
  });

  it("give a wait's read that failed until the wait's deadline the error and status its last attempt got (the wait times out)", async () => {
    const c = client();
    const question = await c.questions.create({ type: 'binary', title: 'Overloaded' });
    const task = await c.forecasts.create({ questionId: question.id });
    mock.service.faults.add({ operation: 'forecasts.retrieve', status: 503, times: 1_000 });
    const seen = record();
    await expect(c.forecasts.wait(task.id, { timeout: 300 })).rejects.toBeInstanceOf(WaitTimeoutError);
    const read = seen.find((s) => s.channel === 'operation' && s.event === 'error')!.message as OperationMessage;
    expect(read).toMatchObject({ operation: 'forecasts.retrieve', status: 503 });
    expect(read.error).toBeInstanceOf(APIError);
    expect((read.error as APIError).status).toBe(503);
  });

  it("still set a failed call's status and attempts when a subscriber made its error field read-only", async () => {
    const c = client({ maxRetries: 0 });
    mock.service.faults.add({ operation: 'credits.retrieve', status: 429, retryAfter: 1, times: 1 });
    const lock = (m: unknown) => void Object.defineProperty(m, 'error', { value: undefined, writable: false, enumerable: true });
    const subscriber = only({ start: lock });
    diagnostics.tracingChannel(CHANNELS.operation).subscribe(subscriber);
    stops.push(() => diagnostics.tracingChannel(CHANNELS.operation).unsubscribe(subscriber));
    const seen = record();
    await expect(c.credits.retrieve()).rejects.toBeInstanceOf(RateLimitError);
    const failed = seen.find((s) => s.channel === 'operation' && s.event === 'asyncEnd')!.message as OperationMessage;
    expect(failed).toMatchObject({ status: 429, attempts: 1 });
  });

  it('send the headers a subscriber adds in start with every attempt, never over the client’s own', async () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const start = (message: unknown) => {
      const m = message as OperationMessage;
      m.headers['traceparent'] = traceparent;
      m.headers['authorization'] = 'Bearer stolen';
      m.headers['bad name'] = 'x';
      m.headers['x-split'] = 'a\r\nb';
      m.headers["x-mark!#$%&'*+-.^_`|~"] = 'token marks'; // every mark a token may hold
      m.headers['X-Latin'] = 'caf\u00e9\tau lait'; // Latin-1 and a tab: HTTP carries them
      m.headers['x-wide'] = 'a\u0100'; // beyond Latin-1: fetch would refuse the whole request
      m.headers['x-nul'] = 'a\u0000b';
      m.headers['x(paren)'] = 'not a token';
      m.headers[''] = 'no name';
      m.headers['Idempotency-Key'] = 'a-key-the-client-did-not-give'; // would make the service see a repeat
      m.headers['content-type'] = 'text/plain'; // a GET has no body to describe
    };
    const subscriber = only({ start });
    diagnostics.tracingChannel(CHANNELS.operation).subscribe(subscriber);
    stops.push(() => diagnostics.tracingChannel(CHANNELS.operation).unsubscribe(subscriber));
    mock.service.faults.add({ operation: 'credits.retrieve', status: 503, times: 1 });
    await client().credits.retrieve();
    const sent = mock.service.requests.list({ operation: 'credits.retrieve' });
    expect(sent).toHaveLength(2);
    for (const request of sent) {
      expect(request.headers['traceparent']).toBe(traceparent);
      // The client's own authorization went (the log redacts it): not the subscriber's.
      expect(request.status === 503 || request.status === 200).toBe(true);
      expect(request.headers['authorization']).toBe('Bearer [redacted]');
      expect(request.headers['x-split']).toBeUndefined();
      expect(request.headers["x-mark!#$%&'*+-.^_`|~"]).toBe('token marks');
      expect(request.headers['x-latin']).toBe('caf\u00e9\tau lait');
      for (const name of ['x-wide', 'x-nul', 'x(paren)', '', 'idempotency-key', 'content-type']) expect(request.headers[name]).toBeUndefined();
    }
  });

  it('run the attempts inside the async context a subscriber binds to the operation', async () => {
    const store = new AsyncLocalStorage<string>();
    const channel = diagnostics.tracingChannel(CHANNELS.operation);
    channel.start.bindStore(store, (message) => `span of ${(message as OperationMessage).operation}`);
    const seenIn: (string | undefined)[] = [];
    const attempt = only({ start: () => void seenIn.push(store.getStore()) });
    diagnostics.tracingChannel(CHANNELS.attempt).subscribe(attempt);
    stops.push(() => {
      channel.start.unbindStore(store);
      diagnostics.tracingChannel(CHANNELS.attempt).unsubscribe(attempt);
    });
    await client().credits.retrieve();
    expect(seenIn).toEqual(['span of credits.retrieve']);
  });

  it('carry no API key in any message', async () => {
    const c = client();
    const seen = record();
    mock.service.faults.add({ operation: 'credits.retrieve', status: 503, times: 1 });
    await c.credits.retrieve();
    await expect(c.questions.retrieve('q_missing')).rejects.toThrow();
    const text = JSON.stringify(seen.map((s) => ({ ...(s.message as object), error: String((s.message as { error?: unknown }).error ?? '') })));
    expect(text).toContain('credits.retrieve');
    expect(text).not.toContain(mock.apiKey);
  });
});
