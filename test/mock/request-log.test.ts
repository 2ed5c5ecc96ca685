import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createMockService, startMockServer } from '../../src/testing/index.js';
import { BASE, binary, call } from './_helpers.js';

describe('request log', () => {
  it('records method, path, operation, status, idempotency key, headers, body and clock time', async () => {
    const service = createMockService();
    service.clock.advance(1234);
    await call(service, 'POST', '/questions', { body: binary(), headers: { 'idempotency-key': 'key-1', 'x-trace': 't' } });
    const entry = service.requests.last();
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/questions',
      operation: 'questions.create',
      status: 201,
      dropped: false,
      idempotencyKey: 'key-1',
      body: binary(),
      at: service.clock.now(),
    });
    expect(entry?.headers['x-trace']).toBe('t');
  });

  it('keeps the query in the path and leaves operation undefined when no route matched', async () => {
    const service = createMockService();
    await call(service, 'GET', '/questions?limit=5');
    await call(service, 'GET', '/nope');
    const [list, none] = service.requests.list();
    expect(list?.path).toBe('/questions?limit=5');
    expect(list?.body).toBeUndefined();
    expect(none).toMatchObject({ path: '/nope', operation: undefined, status: 404 });
  });

  it('shows no key wherever a client put it: in the query, a cookie or another header, revoked keys too', async () => {
    const service = createMockService();
    const key = service.apiKey;
    await call(service, 'GET', `/questions?key=${key}`, { headers: { cookie: `session=${key}`, 'proxy-authorization': `Basic ${key}` } });
    service.revokeApiKey(key);
    await call(service, 'GET', `/questions?api_key=${key}`);
    const text = JSON.stringify(service.requests.list());
    expect(text).not.toContain(key);
    const [first, second] = service.requests.list();
    expect(first).toMatchObject({ path: '/questions?key=[redacted]', headers: { cookie: '[redacted]', 'proxy-authorization': '[redacted]' } });
    expect(second?.path).toBe('/questions?api_key=[redacted]');
  });

  it('shows no cookie at all: a browser sends the mock the cookies of every server on 127.0.0.1 (a console session among them)', async () => {
    const service = createMockService();
    await call(service, 'GET', '/openapi.json', { key: null, headers: { cookie: 'forecasting_console_5173=s3ss10n' } });
    expect(service.requests.last()?.headers['cookie']).toBe('[redacted]');
    expect(JSON.stringify(service.requests.list())).not.toContain('s3ss10n');
  });

  it('records refused requests too (401, 400, 429)', async () => {
    const service = createMockService({ rateLimit: { requestsPerMinute: 1 } });
    await call(service, 'GET', '/questions', { key: null });
    await call(service, 'POST', '/questions', { rawBody: 'not json' });
    await call(service, 'GET', '/questions');
    expect(service.requests.list().map((r) => r.status)).toEqual([401, 400, 429]);
    expect(service.requests.last()?.body).toBeUndefined();
    expect(service.requests.list()[1]?.body).toBe('not json');
  });

  it('counts and filters, and clears', async () => {
    const service = createMockService();
    await call(service, 'POST', '/questions', { body: binary() });
    await call(service, 'POST', '/questions', { body: binary('Will it snow in Oslo tomorrow?') });
    await call(service, 'GET', '/questions');
    expect(service.requests.count()).toBe(3);
    expect(service.requests.count({ operation: 'questions.create' })).toBe(2);
    expect(service.requests.count({ method: 'get', path: '/questions' })).toBe(1);
    expect(service.requests.count({ status: 201 })).toBe(2);
    expect([...service.requests]).toHaveLength(3);
    service.requests.clear();
    expect(service.requests.length).toBe(0);
  });

  it('is emptied with the store by reset()', async () => {
    const service = createMockService();
    await call(service, 'POST', '/questions', { body: binary() });
    service.faults.add({ operation: 'questions.list', status: 500 });
    service.reset();
    expect(service.requests.length).toBe(0);
    expect(service.store.questions.size).toBe(0);
    expect(service.faults.list()).toHaveLength(0);
    expect((await call(service, 'GET', '/questions')).status).toBe(200);
  });

  it('never shows an API key when the service is inspected or serialized', async () => {
    const service = createMockService({ apiKeys: [{ key: 'pre_first_SECRET' }, { key: 'pre_second_SECRET' }] });
    service.addApiKey({ key: 'pre_added_SECRET' });
    await call(service, 'POST', '/questions', { body: binary() });
    for (const text of [inspect(service, { depth: Infinity, showHidden: true }), JSON.stringify(service)]) {
      expect(text).not.toContain('SECRET');
      expect(text).toContain('[redacted]');
    }
    expect(JSON.parse(JSON.stringify(service))).toMatchObject({ apiKeys: 3, requests: 1 });
    const mock = await startMockServer({ apiKeys: [{ key: 'pre_server_SECRET' }] });
    try {
      expect(inspect(mock.service, { depth: Infinity })).not.toContain('SECRET');
      expect(JSON.stringify({ service: mock.service })).not.toContain('SECRET');
    } finally {
      await mock.close();
    }
  });

  it('blanks api_key in a body that is not JSON, however the key is escaped', async () => {
    const service = createMockService();
    const bodies = [
      '{"api_key": "sk_PLAIN_SECRET", "broken',
      '{"api\\u005fkey": "sk_ESCAPED_SECRET", "broken',
      '{"\\u0061\\u0070\\u0069\\u005F\\u006b\\u0065\\u0079":"sk_ALL_ESCAPED_SECRET",',
      '{"name": "x", "nested": {"api\\u005fkey" : "sk_NESTED_SECRET\\"quoted\\"", "broken',
      '{"api\\u005fkey": "sk_UNTERMINATED_SECRET',
    ];
    for (const body of bodies) {
      const res = await service.handle(
        new Request(`${BASE}/connections`, { method: 'POST', headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' }, body }),
      );
      expect(res.status).toBe(400);
      const logged = String(service.requests.last()!.body);
      expect(logged, body).not.toContain('SECRET');
      expect(logged).toContain('"[redacted]"');
    }
    // Other keys and values stay as sent.
    await service.handle(
      new Request(`${BASE}/connections`, { method: 'POST', headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' }, body: '{"name": "kept", "broken' }),
    );
    expect(service.requests.last()!.body).toBe('{"name": "kept", "broken');
  });
});
