import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ForecastingClient } from '../src/client.js';
import { operations } from '../src/api/index.js';

// The project's own copy of the spec (spec/), so a clone alone tests the same; the shared spec beside
// the repo, when present, must still say the same.
const own = (file: string) => fileURLToPath(new URL(`../spec/${file}`, import.meta.url));
const shared = (file: string) => fileURLToPath(new URL(`../../shared/spec/${file}`, import.meta.url));
const tsv = readFileSync(own('operations.tsv'), 'utf8');
const rows = tsv
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [method, path, scope, group] = line.split('\t');
    return { method: method!, path: path!, scope: scope!, group: group! };
  });
const key = (o: { method: string; path: string }) => `${o.method} ${o.path}`;

describe('the project’s copy of the spec', () => {
  it.runIf(existsSync(shared('operations.tsv')))('matches the shared spec beside the repo, word for word', () => {
    for (const file of ['operations.tsv', 'service-spec.md']) {
      expect(readFileSync(own(file), 'utf8'), file).toBe(readFileSync(shared(file), 'utf8'));
    }
  });
});

describe('operations manifest', () => {
  it('has 126 operations in the spec list', () => {
    expect(rows).toHaveLength(126);
  });

  it('lists only operations of the spec, with their method, path and scope', () => {
    const spec = new Map(rows.map((r) => [key(r), r]));
    for (const op of operations) {
      const row = spec.get(key(op));
      expect(row, key(op)).toBeDefined();
      expect(op.scope, key(op)).toBe(row!.scope);
      expect(op.method).toBe(op.method.toUpperCase());
    }
  });

  it('covers every operation of each group it starts', () => {
    const declared = new Set(operations.map(key));
    const groups = new Set(rows.filter((r) => declared.has(key(r))).map((r) => r.group));
    const missing = rows.filter((r) => groups.has(r.group) && !declared.has(key(r))).map(key);
    expect(missing).toEqual([]);
    expect(groups).toContain('Questions');
  });

  it('names a unique client method for each operation, and that method exists', () => {
    const names = operations.map((o) => o.sdkMethod);
    expect(new Set(names).size).toBe(names.length);
    const client = new ForecastingClient({ apiKey: 'pre_x', baseURL: 'https://api.example/api/v1/external' });
    for (const name of names) {
      const parts = name.split('.');
      const method = parts.pop()!;
      let target: unknown = client;
      for (const part of parts) target = (target as Record<string, unknown>)[part];
      expect(typeof (target as Record<string, unknown>)[method], name).toBe('function');
    }
  });

  it('lists each path exactly as written in the spec, and is frozen', () => {
    expect(operations.find((o) => o.sdkMethod === 'questions.retrieve')).toEqual({
      method: 'GET',
      path: '/questions/{question_id}',
      scope: 'questions:read',
      sdkMethod: 'questions.retrieve',
    });
    expect(Object.isFrozen(operations)).toBe(true);
  });
});
