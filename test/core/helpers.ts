import { HttpResponse, type JsonBodyType } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { ForecastingClient } from '../../src/client.js';
import type { ClientOptions } from '../../src/core/options.js';
import type { ClientClock } from '../../src/core/clock.js';
import { ValidationError } from '../../src/core/errors.js';

export const BASE = 'https://api.test/api/v1/external';
export const KEY = 'pre_unit_test_key_0123456789';

/** A client pointed at the msw base URL, with instant backoff so retry tests do not sleep. */
export function makeClient(options: ClientOptions = {}): ForecastingClient {
  return new ForecastingClient({
    apiKey: KEY,
    baseURL: BASE,
    retryBackoff: { initialDelay: 0, maxDelay: 0 },
    logLevel: 'off',
    ...options,
  });
}

/** The error envelope of the spec. */
export function errorBody(type: string, message: string, extra: Record<string, unknown> = {}): JsonBodyType {
  return { type: 'error', error: { type, message, ...extra } };
}

export function apiError(status: number, type: string, message = 'nope', init: { headers?: Record<string, string>; extra?: Record<string, unknown> } = {}) {
  return HttpResponse.json(errorBody(type, message, init.extra), { status, headers: init.headers });
}

/** A question as the service shows it. */
export function question(id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    type: 'binary',
    title: `Question ${id}`,
    description: '',
    resolutionCriteria: '',
    finePrint: '',
    options: [],
    lowerBound: null,
    upperBound: null,
    openLowerBound: false,
    openUpperBound: false,
    scaleType: null,
    callsign: 'amber-fox',
    optionsAreMutuallyExclusive: true,
    optionsAreComprehensive: true,
    visibility: 'private',
    createdVia: 'api',
    tags: [],
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:00.000Z',
    ...extra,
  };
}

/**
 * An msw server for this test file: started before the tests, reset after each, and a log of the
 * requests that reached it in `seen` (emptied before each test).
 */
export function useMswServer(): { server: SetupServer; seen: Request[] } {
  const server = setupServer();
  const seen: Request[] = [];
  server.events.on('request:start', ({ request }) => {
    seen.push(request.clone());
  });
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => {
    seen.length = 0;
  });
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return { server, seen };
}

/** The error `fn` throws, which must be a ValidationError (thrown at once: nothing was sent). */
export function validationError(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return err as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

/**
 * A client clock that records every sleep and moves its own time by it instead of waiting, so a
 * test of a wait takes no real time. A sleep whose signal has aborted rejects with its reason.
 */
export function fakeClock(start = 0): ClientClock & { sleeps: number[] } {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
      now += ms;
    },
  };
}
