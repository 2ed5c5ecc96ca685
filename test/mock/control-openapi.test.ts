// The "Mock control" tag describes every control answer: a person's operation name, a schema with
// its fields described, and an example; the examples and the routes' real answers validate.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { createMockService, MOCK_CONTROL_PREFIX } from '../../src/testing/index.js';
import { MOCK_CONTROLS } from '../../src/testing/control.js';
import { controlAnswer, mockControlsOpenApi } from '../../src/testing/control-openapi.js';

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const valid = (schema: object, value: unknown) => ajv.validate(schema, value) || ajv.errorsText();

describe('the control routes in the OpenAPI document', () => {
  it('name each operation as a person would, and give each answer a schema and an example that validates', () => {
    const { paths } = mockControlsOpenApi('http://127.0.0.1:4010');
    const ids = MOCK_CONTROLS.map((r) => (paths[`${MOCK_CONTROL_PREFIX}${r.path}`]![r.method.toLowerCase()] as { operationId: string }).operationId);
    expect(ids).toEqual(['listControlRoutes', 'getClock', 'advanceClock', 'setQuestionOutcome', 'getCredits', 'setCredits', 'getForecastActivity', 'addFault', 'listFaults', 'clearFaults', 'listRequests', 'resetMock']);
    for (const r of MOCK_CONTROLS) {
      const { schema, example } = controlAnswer(r.method, r.path);
      if (r.status === 204) {
        expect(schema).toBeUndefined();
        continue;
      }
      expect([r.path, valid(schema!, example)]).toEqual([r.path, true]);
      // Every field described.
      const fields = Object.values(((schema as { properties?: Record<string, { description?: string }> }).properties ?? {}));
      for (const field of fields) if (!('properties' in field) && !('items' in field)) expect(field.description ?? (field as { enum?: unknown }).enum).toBeDefined();
    }
  });

  it("is what the routes answer: each real answer validates against its route's schema", async () => {
    const service = createMockService({ httpControls: true });
    const q = service.store.questions.insert({ id: 'q1' } as never);
    await service.handle(new Request('http://mock/api/v1/external/questions?limit=2', { headers: { authorization: `Bearer ${service.apiKey}` } }));
    const bodies: Record<string, unknown> = { '/clock/advance': { ms: 1 }, '/credits': { balance: 5 }, '/faults': { operation: 'questionsRetrieve', status: 503, times: 2 }, '/questions/{question_id}/outcome': { task: 'failed', message: 'no' } };
    for (const r of MOCK_CONTROLS) {
      if (r.status === 204) continue;
      const body = r.method === 'GET' ? undefined : JSON.stringify(bodies[r.path] ?? {});
      const res = await service.handle(new Request(`http://mock${MOCK_CONTROL_PREFIX}${r.path.replace('{question_id}', q.id)}`, { method: r.method, body, headers: { authorization: `Bearer ${service.apiKey}` } }));
      expect([r.method, r.path, valid(controlAnswer(r.method, r.path).schema!, await res.json())]).toEqual([r.method, r.path, true]);
    }
  });
});
