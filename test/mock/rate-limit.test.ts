import { describe, expect, it } from 'vitest';
import { createMockService } from '../../src/testing/index.js';
import { call, expectError } from './_helpers.js';

describe('rate limits on the mock clock', () => {
  it('has no general request limit by default, so tests on a still clock can make many requests', async () => {
    const service = createMockService();
    expect(service.rateLimit).toBe(false);
    for (let i = 0; i < 80; i++) expect((await call(service, 'GET', '/questions')).status).toBe(200);
  });

  it('answers 429 rate_limit_error with Retry-After once the per-minute limit is used', async () => {
    const service = createMockService({ rateLimit: { requestsPerMinute: 3 } });
    for (let i = 0; i < 3; i++) {
      expect((await call(service, 'GET', '/questions')).status).toBe(200);
      service.clock.advance(10_000);
    }
    // Calls at 0 s, 10 s and 20 s; now 30 s: the first leaves the window at 60 s.
    const res = await call(service, 'GET', '/questions');
    expectError(res, 429, 'rate_limit_error');
    expect(res.headers.get('retry-after')).toBe('30');
    service.clock.advance(29_000);
    expect((await call(service, 'GET', '/questions')).status).toBe(429);
    service.clock.advance(1_000);
    expect((await call(service, 'GET', '/questions')).status).toBe(200);
  });

  it('counts each key on its own', async () => {
    const service = createMockService({
      apiKeys: [{ key: 'pre_a' }, { key: 'pre_b' }],
      rateLimit: { requestsPerMinute: 1 },
    });
    expect((await call(service, 'GET', '/questions', { key: 'pre_a' })).status).toBe(200);
    expect((await call(service, 'GET', '/questions', { key: 'pre_a' })).status).toBe(429);
    expect((await call(service, 'GET', '/questions', { key: 'pre_b' })).status).toBe(200);
  });

  it('can be turned on and off while running', async () => {
    const service = createMockService();
    service.setRateLimit({ requestsPerMinute: 60 });
    for (let i = 0; i < 60; i++) expect((await call(service, 'GET', '/tags')).status).toBe(200);
    expect((await call(service, 'GET', '/tags')).status).toBe(429);
    service.setRateLimit(false);
    expect((await call(service, 'GET', '/tags')).status).toBe(200);
    expect(() => service.setRateLimit({ requestsPerMinute: 0 })).toThrow(RangeError);
  });

  it('limits drafting to 20 calls a minute per key, shared by normalize, clarify and revise', async () => {
    const service = createMockService();
    const draft = { title: 'Will it rain in Paris tomorrow' };
    for (let i = 0; i < 18; i++) expect((await call(service, 'POST', '/questions/normalize', { body: draft })).status).toBe(200);
    expect((await call(service, 'POST', '/questions/normalize/clarify', { body: { ...draft, answer: 'In the city' } })).status).toBe(200);
    const revise = { question: { type: 'binary', title: 'Will it rain?' }, guidance: 'Name the weather station' };
    expect((await call(service, 'POST', '/questions/normalize/revise', { body: revise })).status).toBe(200);
    const res = await call(service, 'POST', '/questions/normalize', { body: draft });
    expectError(res, 429, 'rate_limit_error', /drafting/);
    expect(res.headers.get('retry-after')).toBe('60');
    // Other operations are not drafting calls.
    expect((await call(service, 'GET', '/questions')).status).toBe(200);
    service.clock.advance(60_000);
    expect((await call(service, 'POST', '/questions/normalize', { body: draft })).status).toBe(200);
  });
});
