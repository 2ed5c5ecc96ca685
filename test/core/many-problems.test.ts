// Inputs with a great many problems (an attacker's review of the cost of checking): each problem once,
// in time that grows with their number (a search per problem for its like made 80,000 of them take
// 20 s), a message that lists ten, and a typed error where zod itself runs out of stack.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { parseOrThrow } from '../../src/core/validate.js';
import * as z from 'zod/mini';
import { BASE, makeClient, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();
const caught = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

describe('a params check with many problems', () => {
  it('lists the first ten in the message and every one in `issues`, and sends nothing', async () => {
    const err = (await caught(makeClient().forecasts.create({ questionId: 'q1', connections: { off: Array(30).fill(1) } } as never))) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues).toHaveLength(30);
    expect(err.field).toBe('connections.off.0');
    expect(err.message.split('; ')).toHaveLength(11);
    expect(err.message).toMatch(/; connections\.off\.9: must be a string, got number; and 20 more$/);
    expect(seen).toHaveLength(0);
  });

  it('ends in a ValidationError naming the list when there are too many for zod (it overflowed the stack: a RangeError)', async () => {
    const err = (await caught(makeClient().forecasts.create({ questionId: 'q1', connections: { off: Array(300_000).fill(1) } } as never))) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.field).toBe('connections.off');
    expect(err.message).toBe('connections.off: is too large or too deeply nested to check');
    expect(seen).toHaveLength(0);
  });

  // The walk that names the list remembered nothing: a cycle ran the heap out, a shared list was walked
  // every time. The cycle or the shared list is taken up before the long list (the walk takes the last
  // field first): walked again and again, it would spend the walk's million values before the list.
  it('names the list of an input with a cycle, or one list shared 1,000 times, walking each object once', async () => {
    const node: Record<string, unknown> = { a: 1 };
    node['self'] = node;
    const shared = Array(2000).fill(1);
    for (const extra of [node, Array(1000).fill(shared)]) {
      const params = { questionId: 'q1', connections: { off: Array(300_000).fill(1) }, extra };
      const err = (await caught(makeClient().forecasts.create(params as never))) as ValidationError;
      expect(err).toBeInstanceOf(ValidationError);
      expect(err.field).toBe('connections.off');
    }
    expect(seen).toHaveLength(0);
  });

  it("ends in a ValidationError still when a getter of the input throws as the list is looked for", () => {
    let reads = 0;
    const trap = { get x() {
      // zod reads it first; the walk after the overflow reads it again.
      if (reads++ > 0) throw new TypeError('gone');
      return 1;
    } };
    const deep = (() => {
      let v: unknown = 'x';
      for (let i = 0; i < 100_000; i++) v = { k: v };
      return v;
    })();
    const node: z.ZodMiniType = z.lazy(() => z.object({ k: z.union([z.string(), node]) }));
    let err: unknown;
    try {
      parseOrThrow(z.object({ trap: z.object({ x: z.number() }), deep: node }), { trap, deep });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
  });

  it('keeps each problem once among 100,000 (a set, not a search per problem)', () => {
    const schema = z.object({ a: z.array(z.string()), b: z.string().check(z.minLength(2), z.minLength(2)) });
    const err = (() => {
      try {
        parseOrThrow(schema, { a: Array(100_000).fill(1), b: 'x' });
      } catch (e) {
        return e as ValidationError;
      }
    })()!;
    expect(err.issues).toHaveLength(100_001);
    expect(err.issues.at(-1)).toEqual({ field: 'b', message: 'must be at least 2 characters' });
  });

  it('names the input as a whole when a deep input overflows with no list in it', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = { k: deep };
    const node: z.ZodMiniType = z.lazy(() => z.object({ k: z.union([z.string(), node]) }));
    const err = (() => {
      try {
        parseOrThrow(node, deep, 'body');
      } catch (e) {
        return e as ValidationError;
      }
    })()!;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.field).toBe('body');
  });
});

describe('an answer with many problems, under validateResponses', () => {
  it('ends in a ValidationError naming the list, not a RangeError', async () => {
    server.use(http.get(`${BASE}/tags`, () => HttpResponse.json({ type: 'list', data: Array(300_000).fill({ name: 1, slug: 1 }), hasMore: false, nextCursor: null })));
    const err = (await caught(makeClient({ validateResponses: true }).tags.list())) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toBe('response.data: is too large or too deeply nested to check');
  });
});
