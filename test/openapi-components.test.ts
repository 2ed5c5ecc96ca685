// The OpenAPI document shares every record and sub-record of every group as a component: the list
// is derived from the group table of the record schemas (each exported schema of each group's
// records module), never written by hand, so a group or a record added later is covered too.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { GROUP_NAMES } from '../src/api/index.js';
import { openApiDocument } from '../src/openapi.js';
import { isSchema, recordModules } from '../src/schemas/records/index.js';

type Json = Record<string, unknown>;
const doc = openApiDocument();
const components = (doc['components'] as { schemas: Record<string, Json> }).schemas;

/** Each group's record names: the exported schemas of its records module. */
const expected = Object.entries(recordModules).map(([group, module]) => [group, Object.keys(module).filter((name) => isSchema((module as Json)[name]))] as const);

/** Every object in `value`, with where it is (`components.schemas.Preset.properties.notes.items`). */
function* objectsIn(value: unknown, path: string): Generator<[string, Json]> {
  if (typeof value !== 'object' || value === null) return;
  if (!Array.isArray(value)) yield [path, value as Json];
  for (const [key, child] of Object.entries(value)) yield* objectsIn(child, `${path}.${key}`);
}

const refs = new Set([...objectsIn(doc, '')].map(([, o]) => o['$ref']).filter((r): r is string => typeof r === 'string'));

describe('the OpenAPI components of the records', () => {
  it('are derived from a table with every group of the registry', () => {
    expect(expected.map(([group]) => group).sort()).toEqual([...GROUP_NAMES].sort());
    for (const [group, names] of expected) expect(names.length, group).toBeGreaterThan(0);
  });

  it('names each record once across the groups (a component is named after its export)', () => {
    const owners = new Map<string, unknown>();
    for (const module of Object.values(recordModules)) {
      for (const [name, value] of Object.entries(module)) {
        if (!isSchema(value)) continue;
        // A module may re-export another's record (chat's ContextNote): the same schema, not a second one.
        if (owners.has(name)) expect(owners.get(name), name).toBe(value);
        owners.set(name, value);
      }
    }
  });

  it.each(expected)('has a shared component for each record and sub-record of %s', (_group, names) => {
    for (const name of names) expect(components[name], name).toBeDefined();
  });

  it.each(expected)('refers to each record of %s by $ref, and never repeats one inline', (_group, names) => {
    for (const name of names) {
      // Reached from an operation or another record; a record nothing holds would be dead weight.
      expect(refs.has(`#/components/schemas/${name}`), `${name} is referenced`).toBe(true);
      // Another component may have the same shape under its own name (a template's note, a chat's suggestion).
      const copies = [...objectsIn(doc, '')].filter(([path, o]) => !/^\.components\.schemas\.\w+$/.test(path) && isDeepStrictEqual(o, components[name]));
      expect(copies.map(([path]) => path), `inline copies of ${name}`).toEqual([]);
    }
  });
});
