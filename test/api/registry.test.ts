// The registry in src/api/index.ts is the one list of groups: the manifest and the mock's route list
// derive from it, every group has operations, and the core's own copies of spec limits agree.
import { describe, expect, it } from 'vitest';
import { declaredOperations, GROUP_NAMES, groupOperations, operations, operationsOf } from '../../src/api/index.js';
import { DEFAULT_OFFSET_PAGE_SIZE as SPEC_OFFSET_PAGE_SIZE, MAX_IDEMPOTENCY_KEY_LENGTH as SPEC_KEY_LENGTH } from '../../src/api/limits.js';
import { defineOperations, DEFAULT_OFFSET_PAGE_SIZE } from '../../src/core/operation.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../../src/core/idempotency.js';
import { operations as publicOperations } from '../../src/index.js';
import { paramModules, paramSchemas, paramsSchemaOf } from '../../src/schemas/params.js';

describe('the registry of groups', () => {
  it('has a table entry for every group name, and no other', () => {
    expect(Object.keys(groupOperations).sort()).toEqual([...GROUP_NAMES].sort());
  });

  it.each(GROUP_NAMES)('gives the %s group operations', (group) => {
    expect(operationsOf(group).length).toBeGreaterThan(0);
  });

  it('finds the schema of every params a declaration names, and each name means one schema', () => {
    const named = declaredOperations.flatMap((o) => (o.params === undefined ? [] : [o.params]));
    expect(named.length).toBeGreaterThan(60);
    expect(named.filter((name) => paramsSchemaOf(name) === undefined)).toEqual([]);
    // Only the modules' schemas: no constant, no helper, nothing inherited from Object.prototype.
    expect(['toString', '__proto__', 'RUN_MODES', 'readCancelBatch'].map(paramsSchemaOf)).toEqual([undefined, undefined, undefined, undefined]);
    expect(paramSchemas.size).toBeGreaterThanOrEqual(new Set(named).size);
    // A name two modules export is one schema re-exported, never two schemas that differ.
    const clashes = [...paramSchemas.keys()].filter((name) => new Set(Object.values(paramModules).flatMap((m) => (name in m ? [(m as Record<string, unknown>)[name]] : []))).size > 1);
    expect(clashes).toEqual([]);
  });

  it('derives the declared operations from the table, group by group, each once', () => {
    expect(declaredOperations).toEqual(GROUP_NAMES.flatMap(operationsOf));
    expect(new Set(declaredOperations).size).toBe(declaredOperations.length);
  });

  it('derives the public manifest from the declared operations', () => {
    expect(publicOperations).toBe(operations);
    expect(operations.map((o) => o.sdkMethod)).toEqual(declaredOperations.map((o) => o.sdkMethod));
    expect(operations.find((o) => o.sdkMethod === 'decisions.forecasts.estimate')).toEqual({
      method: 'POST',
      path: '/decisions/{decision_id}/forecasts/estimate',
      scope: 'forecasts:read',
      sdkMethod: 'decisions.forecasts.estimate',
    });
  });
});

describe('scopes declared once per group', () => {
  const group = { scopes: { read: 'r:read', write: 'r:write' } };

  it('gives a GET the read scope and any other method the write scope', () => {
    const ops = defineOperations('things', { list: { method: 'GET', path: '/things' }, create: { method: 'POST', path: '/things' }, drop: { method: 'DELETE', path: '/things/{id}' } }, group);
    expect([ops.list.scope, ops.create.scope, ops.drop.scope]).toEqual(['r:read', 'r:write', 'r:write']);
  });

  it("keeps a row's own scope where the spec differs from the group", () => {
    const ops = defineOperations('things', { apply: { method: 'POST', path: '/things/{id}/apply', scope: 'r:read' } }, group);
    expect(ops.apply.scope).toBe('r:read');
  });

  it('refuses a row with no scope in a group with none', () => {
    expect(() => defineOperations('things', { list: { method: 'GET', path: '/things' } })).toThrow('things.list declares no scope');
  });
});

describe("the core's own copies of spec limits", () => {
  it('agree with the spec', () => {
    expect(DEFAULT_OFFSET_PAGE_SIZE).toBe(SPEC_OFFSET_PAGE_SIZE);
    expect(MAX_IDEMPOTENCY_KEY_LENGTH).toBe(SPEC_KEY_LENGTH);
  });
});
