// The core client on its own (no resources): what it refuses at construction, what it needs from a
// coordinator, and the bound on the unknown keys it warns about.
import { describe, expect, it, vi } from 'vitest';
import { BaseClient } from '../../src/core/base-client.js';
import type { Coordinator } from '../../src/core/coordination.js';
import { ForecastingClient } from '../../src/index.js';
import { BASE, KEY, question, validationError } from './helpers.js';

describe('the core client', () => {
  it('refuses validateResponses when it was built without the record schemas', () => {
    const err = validationError(() => new BaseClient({ apiKey: KEY, baseURL: BASE, validateResponses: true }));
    expect([err.field, err.message]).toEqual(['validateResponses', 'validateResponses: this client cannot check responses: it was built without the record schemas']);
  });

  it('takes a coordinator without a way to reconcile held tasks', () => {
    const attach = vi.fn();
    const coordinator = { attach, take: async () => {}, hold: vi.fn(), settle: async () => {}, watch: () => () => {}, receiving: () => false, stats: vi.fn() } as unknown as Coordinator;
    expect(() => new BaseClient({ apiKey: KEY, baseURL: BASE, coordinator })).not.toThrow();
    expect(attach).toHaveBeenCalledTimes(1);
  });
});

describe('warnings for unknown keys', () => {
  it('name each key once, and at most 1,000 keys in a client’s life', async () => {
    const warn = vi.fn();
    const client = new ForecastingClient({
      apiKey: KEY,
      baseURL: BASE,
      logger: { debug() {}, info() {}, warn, error() {} },
      fetch: async () => Response.json(question('q1')),
    });
    for (let i = 0; i < 1001; i++) await client.questions.create({ type: 'binary', title: 'Will it rain?', [`extra${i}`]: 1 } as never);
    await client.questions.create({ type: 'binary', title: 'Will it rain?', extra0: 1 } as never);
    expect(warn).toHaveBeenCalledTimes(1000);
    expect(warn.mock.calls[0]![0]).toContain('questions.create: ');
    expect(warn.mock.calls.some(([m]) => String(m).includes('extra1000'))).toBe(false);
  });
});
