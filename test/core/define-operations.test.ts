// defineOperations, the one place a group's declarations become operations: each row's method name,
// path parameters, path parts, scope, and the literal segments a path parameter must not take.
import { describe, expect, it } from 'vitest';
import { defineOperations } from '../../src/core/operation.js';

const scopes = { read: 'things:read', write: 'things:write' } as const;
/** Declared inside each test (not once for the file), so each test sees the code as it runs then. */
const declare = () => defineOperations(
  'things',
  {
    list: { method: 'GET', path: '/things' },
    retrieve: { method: 'GET', path: '/things/{thing_id}' },
    archived: { method: 'GET', path: '/things/archived' },
    part: { method: 'GET', path: '/things/{thing_id}/parts/{part_id}' },
    partsLatest: { method: 'GET', path: '/things/{thing_id}/parts/latest' },
    update: { method: 'PATCH', path: '/things/{thing_id}' },
    special: { method: 'POST', path: '/other/{other_id}', scope: 'things:read' },
  },
  { scopes },
);

describe('defineOperations', () => {
  it('names each operation namespace.name, and lists its path parameters in order', () => {
    const ops = declare();
    expect(ops.part.sdkMethod).toBe('things.part');
    expect(ops.part.pathParams).toEqual(['thing_id', 'part_id']);
    expect(ops.list.pathParams).toEqual([]);
  });

  it('splits the path into literal parts and parameter names, alternately', () => {
    const ops = declare();
    expect(ops.part.pathParts).toEqual(['/things/', 'thing_id', '/parts/', 'part_id', '']);
    expect(ops.list.pathParts).toEqual(['/things']);
  });

  it("takes the group's read scope for a GET and its write scope otherwise, unless the row states one", () => {
    const ops = declare();
    expect([ops.retrieve.scope, ops.update.scope, ops.special.scope]).toEqual(['things:read', 'things:write', 'things:read']);
  });

  it('reserves for a path parameter the literal segments other paths have at its place behind the same prefix', () => {
    const ops = declare();
    expect([...(ops.retrieve.reservedSegments.get('thing_id') ?? [])]).toEqual(['archived']);
    // Behind /things/{thing_id}/parts/, "latest" is another operation's, not a part id.
    expect([...(ops.part.reservedSegments.get('part_id') ?? [])]).toEqual(['latest']);
    expect([...(ops.part.reservedSegments.get('thing_id') ?? [])]).toEqual(['archived']);
    // A path with another prefix reserves nothing here.
    expect(ops.special.reservedSegments.size).toBe(0);
  });

  it('refuses a row with no scope when its group has none', () => {
    expect(() => defineOperations('bare', { list: { method: 'GET', path: '/bare' } })).toThrow('bare.list declares no scope, and its group none either');
  });
});
