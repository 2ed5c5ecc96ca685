// From an attacker's review (2026-12-01): a `fetch` of the caller's that names the key in its error,
// a cursor list that repeats its pages under new cursors, input whose reading throws, a `fetch` that
// resolves with no Response. Each ended badly before the fix it came with: the key in a message, a
// walk without end, a bare TypeError thrown synchronously.
import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { APIConnectionError, ForecastingClient, ForecastingError, NotFoundError, ValidationError, type ClientOptions } from '../../src/index.js';
import { KEY } from './helpers.js';

const BASE = 'http://127.0.0.1:1/api/v1/external';
const client = (options: ClientOptions) => new ForecastingClient({ apiKey: KEY, baseURL: BASE, maxRetries: 0, logLevel: 'off', ...options });
const authOf = (input: RequestInfo | URL) => (input instanceof Request ? input.headers.get('authorization') : null) ?? 'none';

/** Every text a user or a log could see of `err`. */
const shown = (err: unknown) => `${String((err as Error).message)}\n${inspect(err, { depth: 30, showHidden: true })}\n${JSON.stringify(err)}`;

describe('a fetch of the caller\'s whose error names the Authorization header', () => {
  const deep = (text: string) => {
    let err = new Error(text);
    for (let i = 0; i < 8; i++) err = new Error(`level ${i}`, { cause: err });
    return new TypeError('fetch failed', { cause: err });
  };
  const fetches: Record<string, (input: RequestInfo | URL) => Promise<Response>> = {
    'in the message of its cause': async (input) => {
      throw new TypeError('fetch failed', { cause: new Error(`proxy refused ${authOf(input)}`) });
    },
    'in its code': async (input) => {
      throw Object.assign(new TypeError('fetch failed'), { code: `E ${authOf(input)}` });
    },
    'thrown as a string': async (input) => {
      throw `refused ${authOf(input)}`;
    },
    'in an AggregateError\'s errors': async (input) => {
      throw new AggregateError([new Error('first'), new Error(`refused ${authOf(input)}`)], 'fetch failed');
    },
    'in a field of a plain object down the causes': async (input) => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket'), { socket: { sent: authOf(input) } }) });
    },
    'ten causes deep': async (input) => {
      throw deep(`refused ${authOf(input)}`);
    },
    // As ky's HTTPError and TimeoutError do (a review of the first fix found these kept).
    'in the Request it keeps (ky\'s errors)': async (input) => {
      throw Object.assign(new Error('Request failed'), { request: input });
    },
    'in Headers, a Map, a field keyed by a symbol': async (input) => {
      throw Object.assign(new TypeError('fetch failed'), { headers: new Headers({ authorization: authOf(input) }), meta: new Map([['auth', authOf(input)]]), [Symbol('auth')]: authOf(input) });
    },
  };

  it.each(Object.keys(fetches))('never shows the key: %s', async (name) => {
    const err = await client({ fetch: fetches[name] as typeof fetch }).questions.retrieve('q1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(authOf(new Request(BASE, { headers: { authorization: `Bearer ${KEY}` } }))).toContain(KEY);
    expect(shown(err)).not.toContain(KEY);
  });

  it('keeps what the message can say without the key, and a cause that holds none', async () => {
    const err = (await client({ fetch: fetches['in its code'] as typeof fetch }).questions.retrieve('q1').catch((e: unknown) => e)) as Error;
    expect(err.message).toBe('Connection error (E Bearer [redacted]) reaching 127.0.0.1:1.');
    expect(err.cause).toBeUndefined();
    const plain = (await client({ fetch: (async () => { throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }); }) as typeof fetch }).questions.retrieve('q1').catch((e: unknown) => e)) as Error;
    expect(plain.message).toBe('Connection error (ECONNREFUSED) reaching 127.0.0.1:1.');
    expect((plain.cause as Error).message).toBe('fetch failed');
  });

  it('ends in APIConnectionError when what it throws cannot be read: a code getter that throws, a revoked Proxy', async () => {
    const throwingCode = Object.defineProperty(new TypeError('fetch failed'), 'code', { get: () => { throw new Error('boom'); } });
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    for (const thrown of [throwingCode, proxy]) {
      const err = await client({ fetch: (async () => { throw thrown; }) as typeof fetch }).questions.retrieve('q1').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(APIConnectionError);
      expect((err as Error).message).toBe('Connection error reaching 127.0.0.1:1.');
    }
  });

  it('keeps the cause of a connection Node\'s own fetch could not make (nothing listens on the port)', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    await new Promise((r) => server.close(r));
    const err = (await new ForecastingClient({ apiKey: KEY, baseURL: `http://127.0.0.1:${port}/api/v1/external`, maxRetries: 0, logLevel: 'off' }).questions.retrieve('q1').catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err.message).toContain('ECONNREFUSED');
    expect(err.cause).toBeInstanceOf(TypeError);
  });
});

describe('a cursor list that gives its pages again under new cursors', () => {
  /** A fetch answering the pages `page(n)` gives, each with a new cursor (and `hasMore: true` for 300 pages: without the fix, the walk ends); counts its requests. */
  const serving = (page: (n: number) => unknown[]) => {
    const seen = { requests: 0 };
    const fetch = (async () => {
      const n = seen.requests++;
      return Response.json({ type: 'list', data: page(n), hasMore: n < 300, nextCursor: `c${n}` });
    }) as typeof globalThis.fetch;
    return { seen, fetch };
  };
  const walk = async (fetch: typeof globalThis.fetch) => {
    let items = 0;
    try {
      for await (const _ of client({ fetch }).forecasts.list()) items++;
    } catch (error) {
      return { items, error };
    }
    return { items, error: undefined };
  };

  it.each([
    ['the same page every time', () => [{ id: 'a' }]],
    ['two pages in turn', (n: number) => [{ id: n % 2 ? 'b' : 'a' }, { id: 'z' }]],
    ['nine empty pages, then the same page', (n: number) => (n % 10 === 9 ? [{ id: 'a' }] : [])],
  ] as const)('stops with a ForecastingError that says why: %s', async (_, page) => {
    const { seen, fetch } = serving(page);
    const { error } = await walk(fetch);
    expect(error).toBeInstanceOf(ForecastingError);
    expect((error as Error).message).toBe('Stopped paging: the service answered more pages it gave before, under new cursors, than new ones (it ignores the cursor), so following it would never end.');
    expect(seen.requests).toBeLessThan(40);
  });

  it('walks a list whose pages are all new, and one whose pages share an item at their edges', async () => {
    const pages = [[{ id: 'a' }, { id: 'b' }], [{ id: 'b' }, { id: 'c' }], [{ id: 'c' }], [{ id: 'd' }]];
    const fetch = (async (input: Request) => {
      const cursor = Number(new URL(input.url).searchParams.get('cursor') ?? 0);
      return Response.json({ type: 'list', data: pages[cursor], hasMore: cursor < pages.length - 1, nextCursor: String(cursor + 1) });
    }) as unknown as typeof globalThis.fetch;
    const ids = (await client({ fetch }).forecasts.list().toArray()).map((f) => (f as unknown as { id: string }).id);
    expect(ids).toEqual(['a', 'b', 'b', 'c', 'c', 'd']);
  });

  // A review of the first fix: it stopped on these, all a real service may answer.
  it('reads every page of alike items without an id (watches of the same settings), and a record moved on to a later page', async () => {
    const serve = (pages: unknown[][]) =>
      (async (input: Request) => {
        const cursor = Number(new URL(input.url).searchParams.get('cursor') ?? 0);
        return Response.json({ type: 'list', data: pages[cursor], hasMore: cursor < pages.length - 1, nextCursor: String(cursor + 1) });
      }) as unknown as typeof globalThis.fetch;
    const watch = { enabled: true, changeThreshold: 0.05, presetId: null };
    const watches = await client({ fetch: serve([[watch], [watch], [watch], [watch]]) }).watches.list({ limit: 1 }).toArray();
    expect(watches).toHaveLength(4);
    const moved = await client({ fetch: serve([[{ id: 'a' }], [{ id: 'b' }], [{ id: 'a' }], [{ id: 'c' }]]) }).forecasts.list({ limit: 1 }).toArray();
    expect(moved.map((f) => (f as unknown as { id: string }).id)).toEqual(['a', 'b', 'a', 'c']);
  });
});

describe('input whose reading throws', () => {
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  const throwing = () => ({
    get limit(): number {
      throw new Error('a getter that throws');
    },
  });
  // What it throws throws in turn when its message or its text is read.
  const throwingUnreadable = () => ({
    get limit(): number {
      throw {
        get message(): string {
          throw new Error('message');
        },
        toString: (): string => {
          throw new Error('toString');
        },
      };
    },
  });
  const calls: Record<string, (c: ForecastingClient) => PromiseLike<unknown>> = {
    'list params, a revoked Proxy': (c) => c.questions.list(revoked() as never),
    'list params, a throwing getter': (c) => c.questions.list(throwing() as never),
    'offset list params, a throwing getter': (c) => c.questions.browse(throwing() as never),
    'create params, a revoked Proxy': (c) => c.questions.create(revoked() as never),
    'request options, a revoked Proxy': (c) => c.questions.retrieve('q1', revoked() as never),
    'a generic call\'s options, a revoked Proxy': (c) => c.get('/questions', revoked() as never),
    'list params, a getter throwing what cannot be read': (c) => c.questions.list(throwingUnreadable() as never),
    'create params, a getter throwing what cannot be read': (c) => c.questions.create(throwingUnreadable() as never),
    'a generic call\'s query, a getter throwing what cannot be read': (c) => c.get('/questions', { query: throwingUnreadable() } as never),
  };

  it.each(Object.keys(calls))('rejects with a ValidationError naming params, throws nothing, sends nothing: %s', async (name) => {
    let sent = 0;
    const c = client({ fetch: (async () => (sent++, Response.json({}))) as typeof fetch });
    let promise: PromiseLike<unknown> | undefined;
    expect(() => (promise = calls[name]!(c))).not.toThrow();
    const err = await Promise.resolve(promise).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues[0]?.field).toBe('params');
    expect((err as Error).message).toMatch(/^params: could not be read: \S/);
    expect(sent).toBe(0);
  });

  it('refuses a body whose toJSON throws what cannot be read with a ValidationError naming body, sending nothing', async () => {
    let sent = 0;
    const c = client({ fetch: (async () => (sent++, Response.json({}))) as typeof fetch });
    const body = { toJSON: () => throwingUnreadable().limit };
    const err = (await c.post('/questions', { body }).catch((e: unknown) => e)) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.field).toBe('body');
    expect(err.message).toBe('body: cannot be sent as JSON (a value that cannot be read was thrown)');
    expect(sent).toBe(0);
  });

  it('quotes what the getter threw with the key taken out before the text is cut', async () => {
    const c = client({ fetch: (async () => Response.json({})) as typeof fetch });
    const holding = { get limit(): number { throw new Error(`${'x'.repeat(180)} ${KEY} in a value`); } };
    const err = (await c.questions.list(holding as never).catch((e: unknown) => e)) as ValidationError;
    expect(err.message).toContain('[redacted]');
    expect(shown(err)).not.toContain(KEY.slice(0, 12));
  });
});

describe('an error answer nested deeper than JSON.stringify goes', () => {
  it('is written by JSON.stringify(err) with its fields, the body as a note: no RangeError in a logger', async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const body = `{"type":"error","error":{"type":"api_error","message":"boom","detail":${deep}},"extra":${deep}}`;
    const fetch = (async () => new Response(body, { status: 400, headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' } })) as typeof globalThis.fetch;
    const err = (await client({ fetch }).questions.retrieve('q1').catch((e: unknown) => e)) as Error & { body: unknown };
    expect(err.name).toBe('BadRequestError');
    expect(() => JSON.stringify(body)).not.toThrow();
    const written = JSON.parse(JSON.stringify(err)) as Record<string, unknown>;
    expect(written).toMatchObject({ name: 'BadRequestError', status: 400, type: 'api_error', requestId: 'req_1', body: '[not written: nested too deeply]', extras: '[not written: nested too deeply]' });
    // The body itself is kept whole for a caller that walks it.
    expect(typeof (err.body as { extra?: unknown }).extra).toBe('object');
  });
});

describe('JSON.stringify of an API error, as a JSON logger writes it', () => {
  it('writes its message and its headers (an Error\'s message is not enumerable; Headers write as {}), the key redacted from both', async () => {
    const body = JSON.stringify({ type: 'error', error: { type: 'not_found', message: `No question q1 for ${KEY}` } });
    const fetch = (async () => new Response(body, { status: 404, headers: { 'content-type': 'application/json', 'x-request-id': 'req_2', 'x-echo': KEY } })) as typeof globalThis.fetch;
    const err = (await client({ fetch }).questions.retrieve('q1').catch((e: unknown) => e)) as Error;
    const text = JSON.stringify(err);
    expect(JSON.parse(text)).toMatchObject({
      name: 'NotFoundError',
      message: '404 not_found: No question q1 for [redacted] (GET /questions/q1)',
      status: 404,
      headers: { 'content-type': 'application/json', 'x-request-id': 'req_2', 'x-echo': '[redacted]' },
      requestId: 'req_2',
    });
    expect(text).not.toContain(KEY.slice(0, 12));
  });

  it('never throws for an error built by hand whose headers are not iterable', () => {
    const err = new NotFoundError({ status: 404, type: 'not_found', message: 'gone', headers: { get: () => null } as unknown as Headers, body: null });
    expect(JSON.parse(JSON.stringify(err))).toMatchObject({ name: 'NotFoundError', message: '404 not_found: gone', headers: '[not written: nested too deeply]' });
  });
});

describe('a fetch of the caller\'s that resolves with something other than a Response', () => {
  it.each([[{ status: 200 }], [{ headers: {}, status: 200 }], ['text']])('ends in APIConnectionError saying so: %j', async (answer) => {
    const err = (await client({ fetch: (async () => answer) as unknown as typeof fetch }).questions.retrieve('q1').catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err.message).toBe('Connection error (fetch resolved with no Response) reaching 127.0.0.1:1.');
  });
});

describe('input read after the params check has loaded, or as the request is prepared', () => {
  /** A class instance: the copy a fresh client makes while its check loads keeps it as it is. */
  class Question {
    type = 'binary';
    get title(): string {
      throw new Error(`title getter ${KEY}`);
    }
  }
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  const throwing = (what: string) => () => {
    throw new Error(`${what} ${KEY}`);
  };
  // [the field named, the message's start, the call]
  const calls: Record<string, [string, RegExp, (c: ForecastingClient) => PromiseLike<unknown>]> = {
    'a class instance as params, on a fresh client': ['params', /^params: could not be read: title getter \[redacted\]$/, (c) => c.questions.create(new Question() as never)],
    'a class instance inside params, on a fresh client': ['params', /^params: could not be read: title getter \[redacted\]$/, (c) => c.forecasts.create({ question: new Question() } as never)],
    'a revoked Proxy as a generic body': ['params', /^params: could not be read: /, (c) => c.post('/questions', { body: revoked() })],
    'a generic body whose toJSON throws': ['body', /^body: cannot be sent as JSON \(json \[redacted\]\)$/, (c) => c.post('/questions', { body: { toJSON: throwing('json') } })],
    'a generic query value whose toJSON throws': ['query', /^query: "q" cannot be sent as JSON \(json \[redacted\]\)$/, (c) => c.get('/questions', { query: { q: { toJSON: throwing('json') } } })],
    'a generic query value whose text throws': ['params', /^params: could not be read: text \[redacted\]$/, (c) => c.get('/questions', { query: { q: Object.assign(() => {}, { toString: throwing('text') }) as never } })],
    'a generic query value, a revoked Proxy': ['params', /^params: could not be read: /, (c) => c.get('/questions', { query: { q: revoked() } })],
  };

  it.each(Object.keys(calls))('rejects with a ValidationError naming the field, the key redacted, sending nothing: %s', async (name) => {
    const [field, message, call] = calls[name]!;
    let sent = 0;
    const c = client({ fetch: (async () => (sent++, Response.json({}))) as typeof fetch });
    const err = await Promise.resolve(call(c)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).field).toBe(field);
    expect((err as Error).message).toMatch(message);
    expect(shown(err)).not.toContain(KEY);
    expect(sent).toBe(0);
  });

  it('keeps a copy of one of JavaScript\'s own errors thrown as the cause (class, message, stack), so a throw that is no fault of the input can be told apart', async () => {
    const thrown = Object.assign(new TypeError('x is not a function'), { raw: new TextEncoder().encode(KEY) });
    const params = {
      get title(): string {
        throw thrown;
      },
    };
    const c = client({ fetch: (async () => Response.json({})) as typeof fetch });
    const err = (await c.questions.create(params as never).catch((e: unknown) => e)) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toBe('params: could not be read: x is not a function');
    const cause = err.cause as TypeError;
    expect(cause).toBeInstanceOf(TypeError);
    expect([cause.message, cause.stack]).toEqual([thrown.message, thrown.stack]);
    // A copy: what else the thrown error holds (here the key as bytes) stays out.
    expect(cause).not.toBe(thrown);
    expect(Object.keys(cause)).toEqual([]);
  });

  class Holding extends Error {
    readonly #key = KEY;
    get secret(): string {
      return this.#key;
    }
  }
  const holders: Record<string, () => unknown> = {
    'an error whose message holds the key': () => new Question().title,
    'an error whose stack alone holds the key': () => {
      throw Object.assign(new RangeError('out of range'), { stack: `RangeError: out of range\n    at ${KEY}` });
    },
    'an error of a class of its own (a private field, a getter)': () => {
      throw new Holding('no key in here');
    },
    'bytes': () => {
      throw new TextEncoder().encode(KEY);
    },
    'a Blob': () => {
      throw new Blob([KEY]);
    },
    'a function': () => {
      throw Object.assign(() => {}, { toString: () => KEY });
    },
  };
  it.each(Object.keys(holders))('keeps no cause for what is not one of JavaScript\'s own errors, or holds the key: %s', async (name) => {
    const params = {
      get title(): string {
        return holders[name]!() as string;
      },
    };
    const err = (await client({ fetch: (async () => Response.json({})) as typeof fetch }).questions.create(params as never).catch((e: unknown) => e)) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.cause).toBeUndefined();
    expect(shown(err)).not.toContain(KEY);
  });
});

describe('request options whose getter gives a value once, then throws', () => {
  it('are read as the call is made, never by its attempts: a ValidationError, the key redacted, nothing sent', async () => {
    let reads = 0;
    const options = {
      get maxRetries(): number {
        if (++reads > 1) throw new Error(`late getter ${KEY}`);
        return 0;
      },
    };
    let sent = 0;
    const c = client({ fetch: (async () => (sent++, Response.json({ id: 'q1', type: 'binary', title: 'Rain?' }))) as typeof fetch });
    const err = await c.questions.retrieve('q1', options).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toBe('params: could not be read: late getter [redacted]');
    expect(sent).toBe(0);
  });
});
