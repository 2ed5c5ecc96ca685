import { describe, expect, it } from 'vitest';
import { createMockService, MockConnectionDropped } from '../../src/testing/index.js';
import { binary, call, createQuestion, expectError, read, request, type Question } from './_helpers.js';

describe('fault injection', () => {
  it('answers an injected status with its type, message and Retry-After, then recovers', async () => {
    const service = createMockService();
    service.faults.add({ operation: 'questions.list', status: 503, retryAfter: 2 });
    const res = await call(service, 'GET', '/questions');
    expectError(res, 503, 'overloaded_error', /Injected/);
    expect(res.headers.get('retry-after')).toBe('2');
    expect((await call(service, 'GET', '/questions')).status).toBe(200);
  });

  it('uses the given type and message, and applies `times` times', async () => {
    const service = createMockService({
      faults: [{ operation: 'questions.create', status: 409, type: 'forecast_already_running', message: 'busy', times: 2 }],
    });
    expectError(await call(service, 'POST', '/questions', { body: binary() }), 409, 'forecast_already_running', 'busy');
    expectError(await call(service, 'POST', '/questions', { body: binary() }), 409, 'forecast_already_running', 'busy');
    expect((await call(service, 'POST', '/questions', { body: binary() })).status).toBe(201);
    expect(service.store.questions.size).toBe(1);
  });

  it('matches by method and path template', async () => {
    const service = createMockService();
    const q = await createQuestion(service, binary());
    const fault = service.faults.add({ method: 'get', path: '/questions/{question_id}', status: 500, times: Infinity });
    expectError(await call(service, 'GET', `/questions/${q.id}`), 500, 'api_error');
    expectError(await call(service, 'GET', `/questions/${q.id}`), 500, 'api_error');
    // Same template, other method: untouched.
    expect((await call(service, 'PATCH', `/questions/${q.id}`, { body: { description: 'x' } })).status).toBe(200);
    expect(fault.hits).toBe(2);
    fault.remove();
    expect((await call(service, 'GET', `/questions/${q.id}`)).status).toBe(200);
  });

  it('matches a concrete path, even one no route knows', async () => {
    const service = createMockService();
    service.faults.add({ path: '/questions/browse', status: 502 });
    service.faults.add({ path: '/not-a-route', status: 503 });
    expect((await call(service, 'GET', '/questions/browse')).status).toBe(502);
    expect((await call(service, 'GET', '/not-a-route')).status).toBe(503);
  });

  it('applies before auth: a fault answers even for a bad key', async () => {
    const service = createMockService({ faults: [{ operation: 'questions.list', status: 503 }] });
    expect((await call(service, 'GET', '/questions', { key: 'pre_wrong' })).status).toBe(503);
  });

  it('delays on real time, then answers normally', async () => {
    const service = createMockService();
    service.faults.add({ operation: 'questions.list', delayMs: 120 });
    const started = performance.now();
    const res = await call(service, 'GET', '/questions');
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    expect(res.status).toBe(200);
  });

  it('delays and then answers the injected status', async () => {
    const service = createMockService({ faults: [{ operation: 'questions.list', delayMs: 50, status: 503 }] });
    const started = performance.now();
    expect((await call(service, 'GET', '/questions')).status).toBe(503);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('ends a delay early when the request is aborted', async () => {
    const service = createMockService({ faults: [{ operation: 'questions.list', delayMs: 10_000 }] });
    const controller = new AbortController();
    const req = new Request(request(service, 'GET', '/questions'), { signal: controller.signal });
    const started = performance.now();
    const pending = service.handle(req);
    setTimeout(() => controller.abort(), 20);
    await pending;
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('answers a malformed body: status 500 by default, or the given status', async () => {
    const service = createMockService();
    service.faults.add({ operation: 'questions.list', malformed: true });
    service.faults.add({ operation: 'tags.list', malformed: true, status: 200 });
    const broken = await service.handle(request(service, 'GET', '/questions'));
    expect(broken.status).toBe(500);
    const text = await broken.text();
    expect(() => JSON.parse(text)).toThrow();
    const ok = await service.handle(request(service, 'GET', '/tags'));
    expect(ok.status).toBe(200);
    await expect(ok.json()).rejects.toThrow();
  });

  it('drops the connection before handling: rejects, does nothing, and records the request', async () => {
    const service = createMockService({ faults: [{ operation: 'questions.create', drop: true }] });
    await expect(service.handle(request(service, 'POST', '/questions', { body: binary() }))).rejects.toBeInstanceOf(
      MockConnectionDropped,
    );
    expect(service.store.questions.size).toBe(0);
    expect(service.requests.last()).toMatchObject({ operation: 'questions.create', status: null, dropped: true });
  });

  it('drops the connection after handling: the work is done and recorded with its status', async () => {
    const service = createMockService({ faults: [{ operation: 'questions.create', drop: true, afterHandling: true }] });
    await expect(service.handle(request(service, 'POST', '/questions', { body: binary() }))).rejects.toBeInstanceOf(
      MockConnectionDropped,
    );
    expect(service.store.questions.size).toBe(1);
    expect(service.requests.last()).toMatchObject({ status: 201, dropped: true });
    // A retry creates a second question: the client cannot know the first one landed.
    const retry = await read<Question>(await service.handle(request(service, 'POST', '/questions', { body: binary() })));
    expect(retry.status).toBe(201);
    expect(service.store.questions.size).toBe(2);
  });

  it('records requests that hit a fault', async () => {
    const service = createMockService({ faults: [{ operation: 'questions.list', status: 503 }] });
    await call(service, 'GET', '/questions');
    expect(service.requests.list()).toEqual([expect.objectContaining({ operation: 'questions.list', status: 503 })]);
  });

  it('lists and clears rules', async () => {
    const service = createMockService();
    service.faults.add({ operation: 'questions.list', status: 500, times: 3 });
    service.faults.add({ operation: 'tags.list', status: 500 });
    await call(service, 'GET', '/questions');
    expect(service.faults.list().map((f) => [f.rule.operation, f.remaining, f.hits])).toEqual([
      ['questions.list', 2, 1],
      ['tags.list', 1, 0],
    ]);
    service.faults.clear();
    expect((await call(service, 'GET', '/questions')).status).toBe(200);
  });

  it('refuses rules that match nothing or do nothing', () => {
    const service = createMockService();
    expect(() => service.faults.add({ status: 500 })).toThrow(TypeError);
    expect(() => service.faults.add({ operation: 'questions.list' })).toThrow(TypeError);
    expect(() => service.faults.add({ operation: 'questions.list', status: 500, times: 0 })).toThrow(TypeError);
    expect(() => service.faults.add({ operation: 'questions.list', status: 200 })).toThrow(TypeError);
    expect(() => service.faults.add({ operation: 'questions.list', status: 500, afterHandling: true })).toThrow(TypeError);
  });
});
