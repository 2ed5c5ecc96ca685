// Fault rules name what a user of any language has: the SDK's dotted name or the OpenAPI operationId,
// a path with or without the API prefix. A rule that could never fire is refused, naming the fix.
import { describe, expect, it } from 'vitest';
import { createMockService } from '../../src/testing/index.js';
import { call, expectError } from './_helpers.js';

const ORIGIN = 'http://mock';
const control = (service: ReturnType<typeof createMockService>, method: string, path: string, body?: unknown) =>
  service.handle(new Request(`${ORIGIN}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { authorization: `Bearer ${service.apiKey}` } }));

describe('fault rules by name', () => {
  it("accepts the OpenAPI operationId as well as the SDK's dotted name, and lists the rule by the dotted name", async () => {
    const service = createMockService({ httpControls: true });
    const res = await control(service, 'POST', '/__mock/faults', { operation: 'questionsList', status: 503 });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { rule: { operation: string } }).rule.operation).toBe('questions.list');
    expectError(await call(service, 'GET', '/questions'), 503, 'overloaded_error');
  });

  it('refuses an unknown operation with 400 naming the closest known one, in both spellings', async () => {
    const service = createMockService({ httpControls: true });
    for (const [given, near] of [['questions.get', 'questions.retrieve'], ['questionsRetreive', 'questions.retrieve'], ['forecast.create', 'forecasts.create']] as const) {
      const res = await control(service, 'POST', '/__mock/faults', { operation: given, status: 500 });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { type: string; message: string } };
      expect(body.error.type).toBe('invalid_request_error');
      expect(body.error.message).toContain(`unknown operation "${given}"; did you mean "${near}"?`);
      expect(body.error.message).toContain(`"${near.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase())}"`);
    }
    // @ts-expect-error: not a name of the SDK (the compiler says so too)
    expect(() => service.faults.add({ operation: 'questions.get', status: 500 })).toThrow(/did you mean "questions\.retrieve"/);
    // A client helper is no operation: the one it starts with is named, and the request log as the way to the others.
    // @ts-expect-error: a client helper is no operation name
    expect(() => service.faults.add({ operation: 'forecasts.createAndWait', status: 503 })).toThrow(/did you mean "forecasts\.create"\?.*a client helper \(createAndWait, waitMany, runMany\) makes requests of several, which the request log names/);
    expect(((await (await control(service, 'GET', '/__mock/faults')).json()) as { faults: unknown[] }).faults).toEqual([]);
  });

  it('matches a path given with the /api/v1/external prefix, and refuses one without a leading slash', async () => {
    const service = createMockService({ httpControls: true });
    expect((await control(service, 'POST', '/__mock/faults', { path: '/api/v1/external/questions/{question_id}', status: 502 })).status).toBe(201);
    expectError(await call(service, 'GET', '/questions/q_missing'), 502, 'api_error');
    const res = await control(service, 'POST', '/__mock/faults', { path: 'questions', status: 502 });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^path: must start with "\/"/);
  });
});

describe('a number that is not one', () => {
  it('says which number it refused: 1e400 reads as Infinity, 1.5 is not whole', async () => {
    const service = createMockService({ httpControls: true });
    const post = (times: string) =>
      service.handle(new Request(`${ORIGIN}/__mock/faults`, { method: 'POST', body: `{"path":"/tags","status":500,"times":${times}}`, headers: { authorization: `Bearer ${service.apiKey}` } }));
    for (const [times, message] of [['1e400', 'times: must be a number, got Infinity'], ['1.5', 'times: must be a whole number, got 1.5']]) {
      const res = await post(times!);
      expect([res.status, ((await res.json()) as { error: { message: string } }).error.message]).toEqual([400, message]);
    }
    expect(service.faults.list()).toEqual([]);
  });

  it('moves the clock by whole milliseconds only: 0.5 is refused, the clock unmoved', async () => {
    const service = createMockService({ httpControls: true });
    const before = service.clock.now();
    const res = await control(service, 'POST', '/__mock/clock/advance', { ms: 0.5 });
    expect([res.status, ((await res.json()) as { error: { message: string } }).error.message]).toEqual([400, 'ms: must be a whole number, got 0.5']);
    expect(service.clock.now()).toBe(before);
  });
});

describe('a control path asked below the API prefix', () => {
  it('answers 404 to a malformed escape in a control path, as the API does (no raw "URI malformed")', async () => {
    const service = createMockService({ httpControls: true });
    const res = await control(service, 'PUT', '/__mock/questions/%E0%A4%A/outcome', { task: 'failed' });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('URI malformed');
  });

  it('answers 404 saying the control routes live at the server root', async () => {
    const service = createMockService({ httpControls: true });
    const res = await call(service, 'GET', '/__mock/clock');
    expectError(res, 404, 'not_found', "No route for GET /api/v1/external/__mock/clock: the mock's control routes live at the server root, outside the API's prefix (/__mock/clock)");
  });
});
