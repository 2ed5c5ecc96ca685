import { describe, expect, it } from 'vitest';
import { createMockService } from '../../src/testing/index.js';
import { declaredOperations } from '../../src/api/index.js';
import { call, createQuestion, binary, expectError, type ListBody, type Question } from './_helpers.js';

describe('routing', () => {
  it('answers 404 not_found for an unknown path', async () => {
    const service = createMockService();
    expectError(await call(service, 'GET', '/nothing-here'), 404, 'not_found');
  });

  it('answers 404 for a known path with a trailing slash', async () => {
    const service = createMockService();
    expectError(await call(service, 'GET', '/questions/'), 404, 'not_found');
    expect((await call(service, 'GET', '/questions')).status).toBe(200);
  });

  it('answers 404 for paths outside /api/v1/external', async () => {
    const service = createMockService();
    const res = await service.handle(
      new Request('http://mock.test/api/v2/external/questions', { headers: { 'x-api-key': service.apiKey } }),
    );
    expect(res.status).toBe(404);
    const root = await service.handle(new Request('http://mock.test/api/v1/external', { headers: { 'x-api-key': service.apiKey } }));
    expect(root.status).toBe(404);
  });

  it('answers 405 with an Allow header listing the methods of a known path', async () => {
    const service = createMockService();
    const res = await call(service, 'DELETE', '/questions');
    expectError(res, 405, 'invalid_request_error', /DELETE/);
    expect(res.headers.get('allow')).toBe('GET, POST');
    const one = await call(service, 'PUT', '/questions/some-id');
    expect(one.status).toBe(405);
    expect(one.headers.get('allow')).toBe('GET, PATCH');
  });

  it('lets a literal segment win over a path parameter', async () => {
    const service = createMockService();
    const browse = await call<ListBody<Question>>(service, 'GET', '/questions/browse');
    expect(browse.status).toBe(200);
    expect(browse.body.type).toBe('list');
    expect(service.requests.last()?.operation).toBe('questions.browse');
    // POST on the literal path is judged against the literal route's methods, not {question_id}'s.
    const post = await call(service, 'POST', '/questions/browse', { body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });

  it('routes every declared operation (the table derives from the declarations)', async () => {
    const service = createMockService();
    for (const op of declaredOperations) {
      const path = op.path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');
      await call(service, op.method, path, op.method === 'GET' || op.method === 'DELETE' ? {} : { body: {} });
      expect(service.requests.last()?.operation).toBe(op.sdkMethod);
    }
  });

  it('answers 501 with the error envelope for a declared operation that has no handler', async () => {
    const service = createMockService({ handlers: [] });
    expectError(await call(service, 'GET', '/questions'), 501, 'not_implemented', /questions\.list/);
  });

  it('answers 400 invalid_request_error for a body that is not JSON', async () => {
    const service = createMockService();
    expectError(await call(service, 'POST', '/questions', { rawBody: '{"type": "binary",' }), 400, 'invalid_request_error', /JSON/);
  });

  it('names the offending field when a body breaks the declared schema', async () => {
    const service = createMockService();
    const res = await call(service, 'POST', '/questions', { body: binary('x'.repeat(501)) });
    expectError(res, 400, 'invalid_request_error', 'title: must be at most 500 characters');
  });

  it('coerces query text to the types the schema expects and names a bad query field', async () => {
    const service = createMockService();
    for (let i = 0; i < 3; i++) await createQuestion(service, binary(`Question number ${i}?`));
    const two = await call<ListBody<Question>>(service, 'GET', '/questions?limit=2');
    expect(two.status).toBe(200);
    expect(two.body.data).toHaveLength(2);
    expectError(await call(service, 'GET', '/questions?limit=abc'), 400, 'invalid_request_error', /^limit: /);
    expectError(await call(service, 'GET', '/questions?limit=0'), 400, 'invalid_request_error', 'limit: must be at least 1');
    expectError(await call(service, 'GET', '/questions?limit=101'), 400, 'invalid_request_error', 'limit: must be at most 100');
    expectError(await call(service, 'GET', '/questions?limit=1.5'), 400, 'invalid_request_error', /^limit: must be a whole number/);
  });

  it('turns a repeated query key into an array', async () => {
    const service = createMockService();
    await createQuestion(service, binary('Will the bridge open this year?'));
    await createQuestion(service, { type: 'numeric', title: 'How many visitors?', lowerBound: 0, upperBound: 10, scaleType: 'linear' });
    await createQuestion(service, { type: 'date', title: 'When will it open?', lowerBound: 0, upperBound: 100 });
    const res = await call<ListBody<Question>>(service, 'GET', '/questions/browse?type=binary&type=date');
    expect(res.body.data.map((q) => q.type).sort()).toEqual(['binary', 'date']);
  });

  it('answers JSON with an x-request-id that the request log shares', async () => {
    const service = createMockService();
    const res = await call(service, 'GET', '/questions');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(service.requests.last()?.requestId).toBe(res.headers.get('x-request-id'));
  });
});
