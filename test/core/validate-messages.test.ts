// The words of a validation error at the edges: a union input meant for the branch with more issues,
// paths that cross a null or a number, sets, several unknown keys, and no prefix at all.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { describeIssues } from '../../src/core/validate.js';

const issues = (schema: z.ZodMiniType, input: unknown) => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('the input is valid');
  return describeIssues(result.error.issues, input).map((i) => `${i.field}: ${i.message}`);
};

describe('validation messages', () => {
  it('reports the union branch missing fewest fields even when it has more issues', () => {
    const schema = z.union([z.object({ a: z.string(), b: z.string(), c: z.string() }), z.object({ d: z.number() })]);
    expect(issues(schema, { a: 1, b: 2, c: 3 })).toEqual(['a: must be a string, got number', 'b: must be a string, got number', 'c: must be a string, got number']);
  });

  it('reads a field under a null or a number as absent, for a check that names a deeper path', () => {
    const deep = z.object({ a: z.nullable(z.union([z.string(), z.number()])) }).check(z.refine(() => false, { path: ['a', 'b', 'c'] }));
    expect(issues(deep, { a: null })).toEqual(['a.b.c: is invalid']);
    expect(issues(deep, { a: 5 })).toEqual(['a.b.c: is invalid']);
  });

  it('counts the members of a set, with no unit', () => {
    expect(issues(z.set(z.string()).check(z.minSize(2)), new Set(['a']))).toEqual([': must hold at least 2']);
  });

  it('lists every unknown key, separated by commas', () => {
    expect(issues(z.strictObject({}), { extra: 1, more: 2 })).toEqual([': unknown key(s) extra, more']);
  });

  it('names fields without a prefix when none is given', () => {
    const result = z.object({ a: z.string() }).safeParse({});
    expect(describeIssues(result.error!.issues, {})).toEqual([{ field: 'a', message: 'is required' }]);
  });
});
