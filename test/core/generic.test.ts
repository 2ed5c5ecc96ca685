// The generic escape hatch: client.get/post/put/patch/delete on any path below the base URL.
import { http, HttpResponse } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { APIConnectionError, NotFoundError, ValidationError } from '../../src/index.js';
import { BASE, KEY, makeClient, question, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

describe('generic methods', () => {
  it('GETs a path relative to the base URL with a query, the key and parsed JSON typed unknown', async () => {
    server.use(http.get(`${BASE}/questions/abc`, () => HttpResponse.json(question('abc'))));
    const got = await makeClient().get('/questions/abc', { query: { fields: 'numeric', status: ['a', 'b'] } });
    expectTypeOf(got).toEqualTypeOf<unknown>();
    expect((got as { id: string }).id).toBe('abc');
    const url = new URL(seen[0]!.url);
    expect(url.pathname).toBe('/api/v1/external/questions/abc');
    expect(url.search).toBe('?fields=numeric&status=a&status=b');
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${KEY}`);
  });

  it('types the answer when given a type argument', async () => {
    server.use(http.get(`${BASE}/tags`, () => HttpResponse.json({ type: 'list', data: [{ name: 'Energy', slug: 'energy' }], hasMore: false })));
    const tags = await makeClient().get<{ data: { slug: string }[] }>('/tags');
    expectTypeOf(tags.data[0]!.slug).toEqualTypeOf<string>();
    expect(tags.data[0]!.slug).toBe('energy');
  });

  it('POSTs, PUTs and PATCHes a JSON body, and DELETEs, resolving undefined for an empty answer', async () => {
    const bodies: unknown[] = [];
    const record = async ({ request }: { request: Request }) => {
      bodies.push(request.method === 'DELETE' ? null : await request.json());
      return request.method === 'DELETE' ? new HttpResponse(null, { status: 204 }) : HttpResponse.json({ ok: request.method });
    };
    server.use(http.post(`${BASE}/x`, record), http.put(`${BASE}/x`, record), http.patch(`${BASE}/x`, record), http.delete(`${BASE}/x`, record));
    const c = makeClient();
    expect(await c.post('/x', { body: { a: 1 } })).toEqual({ ok: 'POST' });
    expect(await c.put('/x', { body: { b: 2 } })).toEqual({ ok: 'PUT' });
    expect(await c.patch('/x', { body: { c: 3 } })).toEqual({ ok: 'PATCH' });
    expect(await c.delete('/x')).toBeUndefined();
    expect(bodies).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }, null]);
    expect(seen[0]!.headers.get('content-type')).toBe('application/json');
  });

  it('throws the typed errors of the error table', async () => {
    server.use(http.get(`${BASE}/nope`, () => HttpResponse.json({ type: 'error', error: { type: 'not_found', message: 'no' } }, { status: 404 })));
    await expect(makeClient().get('/nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('emits the client events, named after the method', async () => {
    server.use(http.get(`${BASE}/tags`, () => HttpResponse.json({ type: 'list', data: [], hasMore: false })));
    const c = makeClient();
    const ops: string[] = [];
    c.on('request', (e) => ops.push(`${e.operation} ${e.method} ${e.path}`));
    await c.get('/tags');
    expect(ops).toEqual(['get GET /tags']);
  });

  it('does not retry a POST that may have been sent, unless an idempotencyKey is given, which it sends', async () => {
    server.use(http.post(`${BASE}/forecasts`, () => HttpResponse.error()));
    await expect(makeClient({ maxRetries: 2 }).post('/forecasts', { body: { questionId: 'q1' } })).rejects.toBeInstanceOf(APIConnectionError);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.get('idempotency-key')).toBeNull();
    seen.length = 0;
    await expect(makeClient({ maxRetries: 2 }).post('/forecasts', { body: { questionId: 'q1' }, idempotencyKey: 'job-1' })).rejects.toBeInstanceOf(APIConnectionError);
    expect(seen).toHaveLength(3);
    expect(seen.map((r) => r.headers.get('idempotency-key'))).toEqual(['job-1', 'job-1', 'job-1']);
  });

  it('retries a GET after a 500 like any method', async () => {
    let n = 0;
    server.use(http.get(`${BASE}/x`, () => (++n === 1 ? new HttpResponse(null, { status: 500 }) : HttpResponse.json({ n }))));
    expect(await makeClient().get('/x')).toEqual({ n: 2 });
  });

  for (const path of ['questions', '//evil.example/x', 'https://evil.example/x', '/../x', '/a/%2e%2e/b', '/a/./b', '/a?b=1', '/a#b', '/a\\b', '/a b']) {
    it(`refuses the path ${JSON.stringify(path)} and sends nothing`, async () => {
      const err = await makeClient().get(path).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).field).toBe('path');
      expect(seen).toHaveLength(0);
    });
  }

  it('refuses a body on GET and DELETE, and a query that is not an object', async () => {
    const c = makeClient();
    await expect(c.get('/x', { body: {} } as never)).rejects.toMatchObject({ field: 'body' });
    await expect(c.delete('/x', { body: {} } as never)).rejects.toMatchObject({ field: 'body' });
    await expect(c.get('/x', { query: 'a=b' as never })).rejects.toMatchObject({ field: 'query' });
    expect(seen).toHaveLength(0);
  });

  it('refuses a body or query that cannot be JSON (a BigInt, a cycle) with a ValidationError, sending nothing', async () => {
    const c = makeClient();
    const circular: Record<string, unknown> = { a: 1 };
    circular['self'] = circular;
    const refusals: Array<[Promise<unknown>, string, string]> = [
      [c.post('/x', { body: { a: 1n } }), 'body', 'BigInt'],
      [c.put('/x', { body: 1n }), 'body', 'BigInt'],
      [c.post('/x', { body: circular }), 'body', 'circular'],
      [c.patch('/x', { body: { nested: [circular] } }), 'body', 'circular'],
      [c.get('/x', { query: { a: circular } }), 'query', '"a"'],
      [c.delete('/x', { query: { b: [{ n: 1n }] } }), 'query', '"b"'],
    ];
    for (const [call, field, said] of refusals) {
      const err = await call.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect(err).toMatchObject({ field });
      expect((err as Error).message).toContain(said);
    }
    expect(seen).toHaveLength(0);
  });
});
