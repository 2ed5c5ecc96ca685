// Options are checked before anything is sent: at construction for the client's, per call for a call's.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { BASE, KEY, makeClient, question, useMswServer, validationError } from './helpers.js';

const { server, seen } = useMswServer();


describe('client options, at construction', () => {
  for (const [name, bad] of [
    ['a line feed', 'pre_abc\ndef'],
    ['a carriage return', 'pre_abc\rdef'],
    ['a NUL', 'pre_abc\0def'],
  ] as const) {
    it(`refuses an apiKey holding ${name}, without the key in the message`, () => {
      const err = validationError(() => new ForecastingClient({ apiKey: bad, baseURL: BASE }));
      expect(err.field).toBe('apiKey');
      expect(err.message).not.toContain('pre_abc');
      expect(err.message).not.toContain('def');
    });
  }

  it('refuses an apiKey that is not text (JavaScript callers)', () => {
    expect(validationError(() => new ForecastingClient({ apiKey: 42 as unknown as string, baseURL: BASE })).field).toBe('apiKey');
  });

  for (const timeout of [-1, Number.NaN, Infinity, 2 ** 31]) {
    it(`refuses timeout ${timeout}`, () => {
      const err = validationError(() => new ForecastingClient({ apiKey: KEY, baseURL: BASE, timeout }));
      expect(err.field).toBe('timeout');
      expect(err.message).toContain('2147483647');
    });
  }

  it('accepts the largest timer, 2^31-1 ms, and 0 for no limit', () => {
    expect(() => new ForecastingClient({ apiKey: KEY, baseURL: BASE, timeout: 2 ** 31 - 1 })).not.toThrow();
    expect(() => new ForecastingClient({ apiKey: KEY, baseURL: BASE, timeout: 0 })).not.toThrow();
  });

  it('refuses maxRetries that is not a whole number >= 0', () => {
    for (const maxRetries of [-1, 1.5, Infinity]) {
      expect(validationError(() => new ForecastingClient({ apiKey: KEY, baseURL: BASE, maxRetries })).field).toBe('maxRetries');
    }
  });

  it('refuses out-of-range retry durations, naming each', () => {
    const make = (o: object) => () => new ForecastingClient({ apiKey: KEY, baseURL: BASE, ...o });
    expect(validationError(make({ maxRetryAfter: -5 })).field).toBe('maxRetryAfter');
    expect(validationError(make({ retryDeadline: 2 ** 40 })).field).toBe('retryDeadline');
    expect(validationError(make({ retryBackoff: { initialDelay: Number.NaN } })).field).toBe('retryBackoff.initialDelay');
    expect(validationError(make({ retryBackoff: { maxDelay: Infinity } })).field).toBe('retryBackoff.maxDelay');
  });

  it('refuses a default header with a line break, naming it and not quoting the value', () => {
    const err = validationError(() => new ForecastingClient({ apiKey: KEY, baseURL: BASE, defaultHeaders: { 'x-team': 'a\r\nx-evil: 1' } }));
    expect(err.field).toBe('defaultHeaders.x-team');
    expect(err.message).not.toContain('x-evil');
  });

  it('refuses a bad authHeader, logLevel, fetch, clock or rateLimit', () => {
    const make = (o: object) => () => new ForecastingClient({ apiKey: KEY, baseURL: BASE, ...o });
    expect(validationError(make({ authHeader: 'basic' })).field).toBe('authHeader');
    expect(validationError(make({ logLevel: 'verbose' })).field).toBe('logLevel');
    expect(validationError(make({ fetch: 'yes' })).field).toBe('fetch');
    expect(validationError(make({ clock: {} })).field).toBe('clock');
    expect(validationError(make({ rateLimit: { requestsPerMinute: 0 } })).field).toBe('rateLimit.requestsPerMinute');
  });
});

describe('request options, before anything is sent', () => {
  const ok = () => server.use(http.get(`${BASE}/questions/q1`, () => HttpResponse.json(question('q1'))));

  it('refuses a bad per-request timeout with a ValidationError and sends nothing', async () => {
    ok();
    for (const timeout of [-1, Number.NaN, 2 ** 31]) {
      await expect(makeClient().questions.retrieve('q1', { timeout })).rejects.toMatchObject({ name: 'ValidationError', field: 'timeout' });
    }
    expect(seen).toHaveLength(0);
  });

  it('refuses a bad per-request maxRetries, signal or header, and sends nothing', async () => {
    ok();
    const c = makeClient();
    await expect(c.questions.retrieve('q1', { maxRetries: -1 })).rejects.toMatchObject({ field: 'maxRetries' });
    await expect(c.questions.retrieve('q1', { signal: 'stop' as unknown as AbortSignal })).rejects.toMatchObject({ field: 'signal' });
    await expect(c.questions.retrieve('q1', { headers: { 'x-a': 'b\nc' } })).rejects.toMatchObject({ field: 'headers.x-a' });
    await expect(c.questions.retrieve('q1', { headers: { 'bad name': 'v' } })).rejects.toMatchObject({ field: 'headers' });
    await expect(c.questions.retrieve('q1', { headers: { 'x-a': '€' } })).rejects.toMatchObject({ field: 'headers.x-a' });
    expect(seen).toHaveLength(0);
  });

  it('sends a 128-character idempotency key and refuses 129 characters or a number, sending nothing', async () => {
    server.use(http.post(`${BASE}/forecasts`, () => HttpResponse.json({ id: 't1', type: 'forecast_task', status: 'queued' }, { status: 202 })));
    const c = makeClient();
    await expect(c.forecasts.create({ questionId: 'q1' }, { idempotencyKey: 'k'.repeat(129) })).rejects.toMatchObject({ field: 'idempotencyKey' });
    await expect(c.forecasts.create({ questionId: 'q1' }, { idempotencyKey: 42 as unknown as string })).rejects.toMatchObject({ field: 'idempotencyKey' });
    await expect(c.forecasts.create({ questionId: 'q1' }, { idempotencyKey: 'k\n' })).rejects.toMatchObject({ field: 'idempotencyKey' });
    expect(seen).toHaveLength(0);
    await c.forecasts.create({ questionId: 'q1' }, { idempotencyKey: 'k'.repeat(128) });
    expect(seen[0]!.headers.get('idempotency-key')).toBe('k'.repeat(128));
  });

  it('refuses a bad wait timeout or maxRetries before reading', async () => {
    const c = makeClient();
    await expect(c.forecasts.wait('t1', { timeout: -1 })).rejects.toMatchObject({ field: 'timeout' });
    await expect(c.forecasts.wait('t1', { maxRetries: 1.5 })).rejects.toMatchObject({ field: 'maxRetries' });
    expect(seen).toHaveLength(0);
  });
});

describe('wait helpers take maxRetries per read', () => {
  it('gives up a wait read after maxRetries, like any other method', async () => {
    server.use(http.get(`${BASE}/forecasts/t1`, () => HttpResponse.json({ type: 'error', error: { type: 'overloaded_error', message: 'busy' } }, { status: 503 })));
    await expect(makeClient({ maxRetries: 3 }).forecasts.wait('t1', { maxRetries: 0 })).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(1);
  });
});

describe('debug logs', () => {
  it('passes one argument per line when there is no metadata (no stray undefined)', async () => {
    server.use(http.get(`${BASE}/questions/q1`, () => HttpResponse.json(question('q1'))));
    const calls: unknown[][] = [];
    const log = (...args: unknown[]) => void calls.push(args);
    await makeClient({ logLevel: 'debug', logger: { debug: log, info: log, warn: log, error: log } }).questions.retrieve('q1');
    expect(calls.length).toBeGreaterThan(0);
    for (const args of calls) expect(args).toHaveLength(1);
  });
});
