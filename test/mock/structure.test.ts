// The mock's structure: a handler table per group bound to its operations, one handler for every
// declared operation, and the test hooks built once per service.
import { describe, expect, it } from 'vitest';
import { declaredOperations } from '../../src/api/index.js';
import { tagOperations } from '../../src/api/questions.js';
import { allHandlers } from '../../src/testing/handlers/index.js';
import { handlersFor, type HandlerTable } from '../../src/testing/handlers/types.js';
import { createMockService } from '../../src/testing/index.js';

describe('the handler tables', () => {
  it('bind each handler to its operation by name', () => {
    const bound = handlersFor(tagOperations, { list: () => 'tags' });
    expect(bound.map((h) => h.sdkMethod)).toEqual(['tags.list']);
  });

  it('fail at start, naming the operation, when a table slips past the compiler without a handler', () => {
    const slipped = {} as HandlerTable<typeof tagOperations>;
    expect(() => handlersFor(tagOperations, slipped)).toThrow('No handler for tags.list');
  });

  it('answer every declared operation exactly once', () => {
    const methods = allHandlers.map((h) => h.sdkMethod);
    expect(new Set(methods).size).toBe(methods.length);
    expect([...methods].sort()).toEqual(declaredOperations.map((op) => op.sdkMethod).sort());
  });
});

describe('the test hooks', () => {
  it('are built once: each getter returns the same object as service.controls', () => {
    const service = createMockService();
    expect(service.forecastControls).toBe(service.forecastControls);
    expect(service.forecastControls).toBe(service.controls.forecasts);
    expect(service.decisionControls).toBe(service.controls.decisions);
    expect(service.contextControls).toBe(service.controls.context);
    expect(service.connectionControls).toBe(service.controls.connections);
    expect(Object.keys(service.controls).sort()).toEqual(['connections', 'context', 'decisions', 'forecasts']);
  });

  it("act for the default key's organization unless told another", () => {
    const service = createMockService({ apiKeys: [{ key: 'pre_a', organizationId: 'org-a' }, { key: 'pre_b', organizationId: 'org-b' }] });
    const controls = service.controls.forecasts;
    controls.setCredits({ balance: 7 });
    expect(controls.credits('org-a').balance).toBe(7);
    expect(controls.credits('org-b').balance).not.toBe(7);
  });
});
