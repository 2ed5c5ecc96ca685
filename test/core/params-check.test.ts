// The params check loads on demand: zod and the params schemas are a chunk a client loads with its
// first call that checks params, once, and again after a failed load; a call with nothing to check
// never waits for it; until it has loaded, nothing is sent.
import { describe, expect, it, vi } from 'vitest';
import { BaseClient } from '../../src/core/base-client.js';
import { ValidationError } from '../../src/core/errors.js';
import { ForecastingError } from '../../src/core/error-base.js';
import { defineOperations } from '../../src/core/operation.js';
import { paramsSchemaOf, validate } from '../../src/schemas/params.js';
import { snapshot, type ParamsCheck } from '../../src/core/params-check.js';
import { APITimeoutError } from '../../src/core/errors.js';
import { accepts, returns } from '../../src/schemas/returns.js';
import { BASE, KEY, question } from './helpers.js';

const ops = defineOperations('questions', {
  retrieve: { method: 'GET', path: '/questions/{question_id}', response: returns('Question') },
  list: { method: 'GET', path: '/questions', params: accepts('QuestionListParams'), response: returns('Question'), paging: 'cursor' },
  create: { method: 'POST', path: '/questions', params: accepts('QuestionCreateParams'), response: returns('Question'), status: 201 },
  undeclared: { method: 'POST', path: '/questions/normalize', params: 'NoSuchParams', response: returns('Question') },
}, { scopes: { read: 'questions:read', write: 'questions:write' } });

/** The params check as the client loads it: the schemas by name and the code that reads them. */
const check: ParamsCheck = { schemaOf: paramsSchemaOf, validate };

function setup(load: () => Promise<ParamsCheck> = async () => check) {
  const sent: Request[] = [];
  const params = vi.fn(load);
  const fetch = async (input: Request | URL | string, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push(request);
    if (request.method === 'GET' && new URL(request.url).pathname.endsWith('/questions')) return Response.json({ data: [question('q1')], nextCursor: null });
    return Response.json(question('q1'), { status: request.method === 'POST' ? 201 : 200 });
  };
  const client = new BaseClient({ apiKey: KEY, baseURL: BASE, fetch, maxRetries: 0, logLevel: 'error' }, { params });
  return { client, params, sent };
}

describe('the params check, loaded on demand', () => {
  it('is not loaded by a client that is only built, nor by a call with nothing to check', async () => {
    const { client, params, sent } = setup();
    expect(params).not.toHaveBeenCalled();
    await client._call(ops.retrieve, ['q1'], undefined);
    await client._call(ops.retrieve, ['q2'], undefined);
    expect(params).not.toHaveBeenCalled();
    expect(sent).toHaveLength(2);
    // A list checks its page params (a cursor, a limit) on every page, even when none are given.
    await client._list(ops.list, [], undefined);
    expect(params).toHaveBeenCalledTimes(1);
  });

  it('loads once with the first call that checks params, for calls made together and after', async () => {
    const { client, params, sent } = setup();
    const body = { type: 'binary' as const, title: 'Rain?' };
    await Promise.all([client._call(ops.create, [], body), client._call(ops.create, [], body), client._list(ops.list, [], { limit: 5 })]);
    await client._call(ops.create, [], body);
    expect(params).toHaveBeenCalledTimes(1);
    expect(sent.map((r) => r.method)).toEqual(['POST', 'POST', 'GET', 'POST']);
  });

  it('refuses bad params on the first call, naming the field, and sends nothing', async () => {
    const { client, sent } = setup();
    const err = await client._call(ops.create, [], { type: 'binary', title: 7 } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues[0]?.field).toBe('title');
    const page = await client._list(ops.list, [], { limit: 'many' } as never).catch((e: unknown) => e);
    expect(page).toBeInstanceOf(ValidationError);
    expect(sent).toHaveLength(0);
  });

  it('rejects the calls waiting on a failed load and sends nothing; the next call loads again', async () => {
    const broken = new Error('chunk missing');
    const { client, params, sent } = setup(vi.fn<() => Promise<ParamsCheck>>().mockRejectedValueOnce(broken).mockResolvedValue(check));
    const err = await client._call(ops.create, [], { type: 'binary', title: 'Rain?' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForecastingError);
    expect(err).toMatchObject({ message: 'could not load the params check, a part of forecasting-sdk: chunk missing', cause: broken });
    expect(sent).toHaveLength(0);
    await expect(client._call(ops.create, [], { type: 'binary', title: 'Rain?' })).resolves.toMatchObject({ id: 'q1' });
    expect(params).toHaveBeenCalledTimes(2);
    expect(sent).toHaveLength(1);
  });

  it('refuses a call whose declared params name no schema, and a client built without the schemas, sending nothing', async () => {
    const { client, sent } = setup();
    const err = await client._call(ops.undeclared as never, [], {} as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).message).toContain('questions.undeclared declares params `NoSuchParams`');
    const bare = new BaseClient({ apiKey: KEY, baseURL: BASE, fetch: async () => Response.json({}) });
    await expect(bare._call(ops.create, [], { type: 'binary', title: 'Rain?' })).rejects.toThrow('built without the params schemas');
    expect(sent).toHaveLength(0);
  });

  it('checks an aborted call’s params before its signal, as a loaded client does', async () => {
    const { client, sent } = setup();
    const err = await client._call(ops.create, [], { type: 'binary' } as never, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(sent).toHaveLength(0);
  });

  it('keeps the order of calls made while it loads: a call with nothing to check waits behind one that has', async () => {
    let release!: () => void;
    const { client, sent } = setup(() => new Promise((resolve) => (release = () => resolve(check))));
    const first = client._call(ops.create, [], { type: 'binary', title: 'Rain?' });
    const second = client._call(ops.retrieve, ['q9'], undefined);
    await new Promise((r) => setTimeout(r, 20));
    expect(sent).toHaveLength(0);
    release();
    await Promise.all([first, second]);
    expect(sent.map((r) => `${r.method} ${new URL(r.url).pathname.split('/').pop()}`)).toEqual(['POST questions', 'GET q9']);
  });

  it('sends the params and options as they were when the call was made, whatever the caller changes while it loads', async () => {
    let release!: () => void;
    const { client, sent } = setup(() => new Promise((resolve) => (release = () => resolve(check))));
    const body = { type: 'binary' as const, title: 'First?', tags: ['a'] };
    const options = { headers: { 'x-run': 'one' } };
    const calls = [client._call(ops.create, [], body, options)];
    body.title = 'Second?';
    body.tags.push('b');
    options.headers['x-run'] = 'two';
    release();
    await Promise.all(calls);
    expect(await sent[0]!.json()).toMatchObject({ title: 'First?', tags: ['a'] });
    expect(sent[0]!.headers.get('x-run')).toBe('one');
  });

  it('ends a call waiting on a stalled load at its abort, with its reason, or at its timeout, sending nothing', async () => {
    const { client, sent } = setup(() => new Promise(() => undefined));
    const controller = new AbortController();
    const reason = new Error('gave up');
    const aborted = client._call(ops.create, [], { type: 'binary', title: 'Rain?' }, { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 10);
    await expect(aborted).rejects.toBe(reason);
    const timedOut = await client._call(ops.create, [], { type: 'binary', title: 'Rain?' }, { timeout: 30 }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(APITimeoutError);
    expect((timedOut as Error).message).toBe('Request timed out after 30 ms (loading the params check).');
    expect(sent).toHaveLength(0);
  });

  // A signal that was no AbortSignal reached the wait as it was (a bare TypeError from its
  // addEventListener), and a timeout of 2^31 ms or more set a 1 ms timer (an APITimeoutError that
  // looks retryable): both are refused as the call is built, as once loaded.
  it('refuses a bad signal or timeout on the first calls as once loaded: a ValidationError naming it, nothing sent', async () => {
    const { client, sent } = setup();
    const body = { type: 'binary' as const, title: 'Rain?' };
    const refusals = [];
    for (const options of [{ signal: {} }, { signal: 'abort' }, { signal: null }, { timeout: 2 ** 31 }, { timeout: Infinity }, { timeout: -1 }, { signal: {}, timeout: 2 ** 31 }]) {
      const cold = setup();
      const first = await cold.client._call(ops.create, [], body, options as never).catch((e: unknown) => e);
      const warm = await client._call(ops.create, [], body, options as never).catch((e: unknown) => e);
      expect(first).toBeInstanceOf(ValidationError);
      expect(first).toEqual(warm);
      expect(cold.sent).toHaveLength(0);
      refusals.push((first as ValidationError).field);
    }
    expect(refusals).toEqual(['signal', 'signal', 'signal', 'timeout', 'timeout', 'timeout', 'signal']);
    expect(sent).toHaveLength(0);
  });

  it('keeps a stalled load to the client timeout when the call gives a bad one, then refuses it', async () => {
    const client = new BaseClient({ apiKey: KEY, baseURL: BASE, timeout: 30, logLevel: 'error' }, { params: () => new Promise(() => undefined) });
    const stalled = await client._call(ops.create, [], { type: 'binary', title: 'Rain?' }, { timeout: 2 ** 31 }).catch((e: unknown) => e);
    expect(stalled).toBeInstanceOf(APITimeoutError);
    expect((stalled as Error).message).toBe('Request timed out after 30 ms (loading the params check).');
  });

  it('refuses a check that loads in the wrong shape, with a typed error', async () => {
    const { client, sent } = setup(async () => undefined as never);
    const err = await client._call(ops.create, [], { type: 'binary', title: 'Rain?' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForecastingError);
    expect((err as Error).message).toContain('unexpected shape');
    expect(sent).toHaveLength(0);
  });
});

describe('snapshot', () => {
  it('copies plain objects and arrays deeply, keeps other objects, symbol keys, own __proto__ keys and cycles', () => {
    const tag = Symbol('mode');
    const date = new Date(0);
    const signal = new AbortController().signal;
    const given = JSON.parse('{"a":{"b":[1,{"c":2}]},"__proto__":{"x":1}}') as Record<string, unknown>;
    Object.assign(given, { date, signal, [tag]: { deadline: 5 } });
    given['self'] = given;
    const copy = snapshot(given);
    expect(copy).not.toBe(given);
    expect(copy['a']).toEqual({ b: [1, { c: 2 }] });
    expect(copy['a']).not.toBe(given['a']);
    expect(copy['date']).toBe(date);
    expect(copy['signal']).toBe(signal);
    expect((copy as Record<symbol, unknown>)[tag]).toEqual({ deadline: 5 });
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(copy['self']).toBe(copy);
  });
});
