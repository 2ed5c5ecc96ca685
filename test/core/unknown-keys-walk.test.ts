// The walk behind the unknown-key warnings, on schemas directly: every wrapper it sees through, the
// places it looks (nested objects, array items, the branch a union picks), its caps and its
// "did you mean" rule.
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { unknownKeys } from '../../src/core/validate.js';

const item = z.object({ title: z.string(), name: z.optional(z.string()) });
const paths = (schema: z.ZodMiniType, value: unknown) => unknownKeys(schema, value).map((k) => k.path);

describe('unknownKeys', () => {
  it.each([
    ['optional', z.optional(item)],
    ['nullable', z.nullable(item)],
    ['default', z._default(item, { title: 't' })],
    ['readonly', z.readonly(item)],
    ['catch', z.catch(item, { title: 't' })],
    ['a pipe (what it takes)', z.pipe(item, z.object({ title: z.string(), other: z.string() }))],
    ['a pipe from a transform (what it gives)', z.pipe(z.transform((v: unknown) => v), item)],
  ])('sees through %s', (_name, schema) => {
    expect(paths(schema, { title: 't', extra: 1 })).toEqual(['extra']);
  });

  it('looks into nested objects and array items, and names array places * in the pattern', () => {
    const schema = z.object({ list: z.array(item), inner: z.object({ deep: item }) });
    const found = unknownKeys(schema, { list: [{ title: 'a' }, { title: 'b', bad: 1 }], inner: { deep: { title: 'c', worse: 2 } } });
    expect(found.map((k) => [k.path, k.pattern])).toEqual([
      ['list.1.bad', 'list.*.bad'],
      ['inner.deep.worse', 'inner.deep.worse'],
    ]);
  });

  it('reports nothing for what is no object where the schema has keys: a primitive, null, an array for an object, an object for an array', () => {
    expect(paths(item, 'text')).toEqual([]);
    expect(paths(item, null)).toEqual([]);
    expect(paths(item, [{ extra: 1 }])).toEqual([]);
    expect(paths(z.array(item), { extra: 1 })).toEqual([]);
    expect(paths(z.object({ inner: item }), { inner: null, title: 1 })).toEqual(['title']);
  });

  it('reads only own keys, and nothing of a loose object with no fields or of an open map', () => {
    const inherited = Object.assign(Object.create({ fromPrototype: 1 }) as object, { title: 't' });
    expect(paths(item, inherited)).toEqual([]);
    expect(paths(z.looseObject({}), { anything: 1 })).toEqual([]);
    expect(paths(z.record(z.string(), z.number()), { anything: 1 })).toEqual([]);
  });

  it('checks the branch a discriminated union picks by its tag, and the first branch a plain union accepts', () => {
    const a = z.object({ kind: z.literal('a'), alpha: z.string() });
    const b = z.object({ kind: z.literal('b'), beta: z.string() });
    expect(paths(z.discriminatedUnion('kind', [a, b]), { kind: 'b', beta: 'x', alpha: 'y' })).toEqual(['alpha']);
    expect(paths(z.discriminatedUnion('kind', [a, b]), { kind: 'c', alpha: 'y' })).toEqual([]);
    expect(paths(z.union([a, b]), { kind: 'b', beta: 'x', alpha: 'y' })).toEqual(['alpha']);
    expect(paths(z.union([a, b]), { kind: 'c' })).toEqual([]);
  });

  it('reports ten unknown keys at most, across the whole value', () => {
    const value = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, i]));
    expect(paths(item, value)).toHaveLength(10);
    expect(paths(z.array(item), [value, value])).toHaveLength(10);
  });

  it.each([
    ['tilte', 'title'], // two letters swapped
    ['titl', 'title'], // one missing
    ['titles', 'title'], // one extra
    ['Title', 'title'], // case ignored
    ['tXtXe', 'title'], // two changed: a 5-letter key allows 2
    ['nam', 'name'], // a 4-letter key allows 1
    ['naem', 'name'], // a swap is one edit, within a 4-letter key's 1
    ['anme', 'name'], // a swap at the start
  ])('suggests the known key a small edit away: %s → %s', (typo, known) => {
    expect(unknownKeys(item, { title: 't', [typo]: 1 })[0]?.suggestion).toBe(known);
  });

  it.each([
    ['nm'], // two away from a 4-letter key
    ['tXXXe'], // three away
    ['xle'], // three away from title, though its end matches
    ['eman'], // a reversal is no swap of neighbours
    ['completelyDifferent'],
  ])('suggests nothing for %s', (key) => {
    expect(unknownKeys(item, { title: 't', [key]: 1 })[0]?.suggestion).toBeUndefined();
  });

  it('suggests the first known key among those equally near', () => {
    const pets = z.object({ cat: z.string(), car: z.string(), cap: z.string() });
    expect(unknownKeys(pets, { caX: 1 })[0]?.suggestion).toBe('cat');
    expect(unknownKeys(pets, { cXr: 1 })[0]?.suggestion).toBe('car');
  });

  it('suggests at the same depth, and clips a huge key without working out a distance for it', () => {
    const schema = z.object({ inner: item });
    expect(unknownKeys(schema, { inner: { titel: 1 } })[0]).toEqual({ path: 'inner.titel', pattern: 'inner.titel', suggestion: 'inner.title' });
    const huge = 't'.repeat(70);
    const [found] = unknownKeys(item, { [huge]: 1 });
    expect(found?.suggestion).toBeUndefined();
    expect(found!.path).not.toBe(huge);
    expect(found!.path.startsWith('t'.repeat(20))).toBe(true);
  });
});
