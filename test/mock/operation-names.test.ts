// The request log's filters and fault rules check the names they are given as one: a typo throws,
// naming the closest known operation or path, instead of counting nothing or never firing.
import { describe, expect, it } from 'vitest';
import { createMockService, type FaultRule, type RequestFilter } from '../../src/testing/index.js';
import { binary, call, expectError } from './_helpers.js';

const ORIGIN = 'http://mock';
const control = (service: ReturnType<typeof createMockService>, method: string, path: string, body?: unknown) =>
  service.handle(new Request(`${ORIGIN}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { authorization: `Bearer ${service.apiKey}` } }));

describe('request log filters by operation', () => {
  it('throws on an unknown operation in count, list and last, with the faults’ message', async () => {
    const service = createMockService();
    await call(service, 'POST', '/questions', { body: binary() });
    // A typo is a compile error in TypeScript; from JavaScript, or a name read at run time, it throws.
    const typo = { operation: 'question.create' } as unknown as RequestFilter;
    for (const read of [() => service.requests.count(typo), () => service.requests.list(typo), () => service.requests.last(typo)]) {
      expect(read).toThrow(TypeError);
      expect(read).toThrow(/^operation: unknown operation "question\.create"; did you mean "questions\.create"\? .*"questionsCreate"/);
    }
    // @ts-expect-error: a typo of an operation name does not compile either
    expect(() => service.faults.add({ operation: 'question.create', status: 503 })).toThrow(/did you mean "questions\.create"/);
    // @ts-expect-error: a client helper is no operation name
    expect(() => service.requests.count({ operation: 'forecasts.createAndWait' })).toThrow(/did you mean "forecasts\.create"\?.*request log names/);
  });

  it('accepts the OpenAPI operationId as faults do, and still matches no request when none was made', async () => {
    const service = createMockService();
    await call(service, 'POST', '/questions', { body: binary() });
    expect(service.requests.count({ operation: 'questionsCreate' })).toBe(1);
    expect(service.requests.list({ operation: 'questionsCreate' }).map((r) => r.operation)).toEqual(['questions.create']);
    expect(service.requests.last({ operation: 'questionsCreate', status: 201 })?.operation).toBe('questions.create');
    expect(service.requests.count({ operation: 'questions.list' })).toBe(0);
    expect(service.requests.count({ method: 'post' })).toBe(1);
  });
});

describe('fault rule paths', () => {
  it('refuses a template no route declares, naming the closest known path', () => {
    const service = createMockService();
    expect(() => service.faults.add({ path: '/question/{id}', status: 503 })).toThrow(TypeError);
    expect(() => service.faults.add({ path: '/question/{id}', status: 503 })).toThrow(/^path: no route has the template "\/question\/\{id\}"; did you mean "\/questions\/\{question_id\}"\?/);
    expect(() => service.faults.add({ path: '/api/v1/external/forecasts/{id}/cancel', status: 503 })).toThrow(/did you mean "\/forecasts\/\{task_id\}\/cancel"\?/);
    expect(() => createMockService({ faults: [{ path: '/questions/{question_id}/', status: 503 }] })).toThrow(/did you mean "\/questions\/\{question_id\}"/);
    expect(service.faults.list()).toEqual([]);
  });

  it('accepts a declared template with or without the prefix, and a concrete path no route knows', async () => {
    const service = createMockService();
    service.faults.add({ path: '/questions/{question_id}', status: 502 });
    service.faults.add({ path: '/api/v1/external/questions/{question_id}', status: 503 });
    service.faults.add({ path: '/not-a-route', status: 504 });
    expectError(await call(service, 'GET', '/questions/q_1'), 502, 'api_error');
    expect((await call(service, 'GET', '/questions/q_1')).status).toBe(503);
    expect((await call(service, 'GET', '/not-a-route')).status).toBe(504);
  });

  it('answers 400 over the control routes for a template no route declares', async () => {
    const service = createMockService({ httpControls: true });
    const res = await control(service, 'POST', '/__mock/faults', { path: '/question/{id}', status: 503 });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/did you mean "\/questions\/\{question_id\}"/);
  });
});

// A name is compared with every known one, edit by edit: a 100 KB name given to a fault rule held
// the event loop for seconds, and came back whole in the message.
describe('a hostile name', () => {
  it('is refused at once, the near one found from its start, and echoed clipped', () => {
    const service = createMockService();
    const began = performance.now();
    for (const rule of [{ operation: `questions.create${"x".repeat(100_000)}` }, { path: `/questions/{question_id}/x${"x".repeat(100_000)}` }]) {
      let message = '';
      try {
        service.faults.add({ ...rule, status: 503 } as FaultRule);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message.length).toBeLessThan(1_000);
      expect(message).toMatch(/did you mean "(questions\.create|\/questions\/\{question_id\}[^"]*)"/);
    }
    expect(performance.now() - began).toBeLessThan(1_000);
  });
});

// A name far from every known one is no typo of any: naming the least far one (`bogus` → `tags.list`)
// sent the reader after the wrong thing.
describe('a name like none', () => {
  it('is refused without a suggestion, pointing at the list of operations', () => {
    const service = createMockService();
    const unlike = { operation: 'bogus' } as unknown as RequestFilter;
    expect(() => service.requests.count(unlike)).toThrow(/^operation: unknown operation "bogus"; no operation is named like it\. Name it as the SDK does \("questions\.create"\) .*`operations` \(from forecasting-sdk\) lists them all/);
    expect(() => service.requests.count(unlike)).not.toThrow(/did you mean/);
    expect(() => service.faults.add({ path: '/zzzzzz/{id}', status: 503 })).toThrow(/^path: no route has the template "\/zzzzzz\/\{id\}"; none is shaped like it\. A template/);
  });
});

// A name that is no text (from JavaScript, or JSON over HTTP) is refused as such: a BigInt or a
// circular object made the message itself throw, and a number as a path "startsWith is not a function".
describe('a name that is no text', () => {
  it('is refused naming its type', () => {
    const service = createMockService();
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    for (const operation of [5n, circular, 7, null]) {
      expect(() => service.faults.add({ operation, status: 503 } as unknown as FaultRule)).toThrow(new TypeError(`operation: must be an operation's name (text), got ${operation === null ? 'null' : typeof operation}`));
    }
    expect(() => service.requests.count({ operation: 5n } as unknown as RequestFilter)).toThrow("operation: must be an operation's name (text), got bigint");
    expect(() => service.faults.add({ path: 5, status: 503 } as unknown as FaultRule)).toThrow(new TypeError('path: must be a path (text), got number'));
  });
});
