// The option checks at their edges, on the functions themselves: values a JavaScript caller can
// pass that the types forbid (null, a URL object, a half coordinator), and the base URL's forms.
import { afterEach, describe, expect, it } from 'vitest';
import { checkBaseURL, checkHeaders, checkRequestOptions, hasApiPath, resolveOptions } from '../../src/core/options.js';
import type { ClientOptions } from '../../src/index.js';
import { BASE, KEY, validationError } from './helpers.js';

const resolve = (options: Record<string, unknown>) => resolveOptions({ apiKey: KEY, baseURL: BASE, ...options } as ClientOptions);

describe('rateLimit', () => {
  it('takes a whole number of requests per minute >= 1', () => {
    expect(resolve({ rateLimit: { requestsPerMinute: 1 } }).requestsPerMinute).toBe(1);
    expect(resolve({ rateLimit: { requestsPerMinute: 600 } }).requestsPerMinute).toBe(600);
    expect(resolve({}).requestsPerMinute).toBeUndefined();
  });

  it.each([
    [{}, 'rateLimit.requestsPerMinute', 'must be a whole number >= 1, got undefined'],
    [{ requestsPerMinute: 0 }, 'rateLimit.requestsPerMinute', 'must be a whole number >= 1, got 0'],
    [{ requestsPerMinute: 1.5 }, 'rateLimit.requestsPerMinute', 'must be a whole number >= 1, got 1.5'],
    [{ requestsPerMinute: 0.5 }, 'rateLimit.requestsPerMinute', 'must be a whole number >= 1, got 0.5'],
    [{ requestsPerMinute: Number.POSITIVE_INFINITY }, 'rateLimit.requestsPerMinute', 'must be a whole number >= 1, got Infinity'],
    [{ requestsPerMinute: '60' }, 'rateLimit.requestsPerMinute', 'must be a whole number >= 1, got string'],
    [null, 'rateLimit', 'must be an object such as { requestsPerMinute: 60 }'],
    [60, 'rateLimit', 'must be an object such as { requestsPerMinute: 60 }'],
  ])('refuses %j, naming %s', (rateLimit, field, message) => {
    const err = validationError(() => resolve({ rateLimit }));
    expect(err.field).toBe(field);
    expect(err.message).toContain(message);
  });
});

describe('coordinator and clock', () => {
  it('refuses a coordinator lacking any of the methods the client calls, naming them', () => {
    const half = { attach() {}, take() {}, hold() {} };
    const err = validationError(() => resolve({ coordinator: half }));
    expect(err.field).toBe('coordinator');
    expect(err.message).toContain('must be a coordinator (with attach, take, hold, settle), such as createRedisCoordinator(redis)');
  });

  it('refuses a null clock with a ValidationError, not a TypeError', () => {
    expect(validationError(() => resolve({ clock: null })).field).toBe('clock');
  });

  it("refuses a clock's serviceTimeScale that is not a positive number, naming it", () => {
    const clock = (serviceTimeScale: unknown) => ({ now: () => 0, sleep: async () => undefined, serviceTimeScale });
    for (const bad of [0, -600, Number.NaN, Number.POSITIVE_INFINITY, '600', null]) {
      const err = validationError(() => resolve({ clock: clock(bad) }));
      expect(err.field).toBe('clock.serviceTimeScale');
      expect(err.message).toContain('must be a positive number');
    }
    expect(() => resolve({ clock: clock(600) })).not.toThrow();
    expect(() => resolve({ clock: clock(0.5) })).not.toThrow();
  });
});

describe("a call's options", () => {
  it('must be an object', () => {
    expect(validationError(() => checkRequestOptions(null as never)).field).toBe('options');
  });

  it.each([
    ['null', null],
    ['text', 'abort'],
    ['an object without addEventListener', { aborted: false }],
    ['an object whose aborted is no boolean', { aborted: 'no', addEventListener() {} }],
  ])('refuses a signal that is %s', (_, signal) => {
    expect(validationError(() => checkRequestOptions({ signal } as never)).field).toBe('signal');
  });

  it('takes a signal of another realm that has what a signal has', () => {
    expect(() => checkRequestOptions({ signal: { aborted: false, addEventListener() {}, removeEventListener() {}, throwIfAborted() {} } as never })).not.toThrow();
  });

  it('refuses, naming the field, an older polyfill’s signal without throwIfAborted (the client calls it mid-call)', () => {
    const err = validationError(() => checkRequestOptions({ signal: { aborted: false, addEventListener() {}, removeEventListener() {} } as never }));
    expect([err.field, err.message]).toEqual(['signal', 'signal: must be an AbortSignal (one with throwIfAborted and removeEventListener)']);
  });

  it('quotes at most 64 characters of a bad header name', () => {
    const name = `${'x'.repeat(70)} y`;
    const err = validationError(() => checkHeaders({ [name]: 'v' }, 'headers'));
    expect(err.message).toContain(`"${'x'.repeat(64)}" is not a valid header name`);
  });
});

describe('baseURL', () => {
  it('must be text: a URL object is refused with the example', () => {
    const err = validationError(() => checkBaseURL(new URL(BASE) as unknown as string));
    expect([err.field, err.message]).toEqual(['baseURL', 'baseURL: must be an absolute URL such as https://host/api/v1/external']);
  });

  it.each(['ftp://localhost/api/v1/external', 'ws://127.0.0.1/api/v1/external', 'http://example.com/api/v1/external'])('refuses %s: https, or http on loopback only', (url) => {
    expect(validationError(() => checkBaseURL(url)).message).toContain('must use https://');
  });

  it('finds the API path at the end of the path only, whatever trailing slashes follow', () => {
    expect(hasApiPath('https://h/api/v1/external')).toBe(true);
    expect(hasApiPath('https://h/api/v1/external/')).toBe(true);
    expect(hasApiPath('https://h/api/v1/external//')).toBe(true);
    expect(hasApiPath('https://h/proxy/api/v1/external')).toBe(true);
    expect(hasApiPath('https://h/api/v1/external/more')).toBe(false);
    expect(hasApiPath('https://h/')).toBe(false);
  });
});

describe('the environment', () => {
  const saved = Object.getOwnPropertyDescriptor(globalThis, 'process')!;
  afterEach(() => Object.defineProperty(globalThis, 'process', saved));

  it('is read only where the runtime has process.env: elsewhere the key is simply missing', () => {
    for (const stand of [undefined, {}]) {
      Object.defineProperty(globalThis, 'process', { value: stand, configurable: true, writable: true });
      let caught: unknown;
      try {
        resolveOptions({});
      } catch (err) {
        caught = err;
      }
      Object.defineProperty(globalThis, 'process', saved);
      expect((caught as { field?: string }).field).toBe('apiKey');
    }
  });
});
