// What goes on the wire and into the logs: headers, query strings, connection failures, raw responses.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { APIConnectionError, VERSION, type ClientOptions, type Logger } from '../../src/index.js';
import { BASE, KEY, apiError, makeClient, question, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

const answerQuestion = () => server.use(http.get(`${BASE}/questions/:id`, ({ params }) => HttpResponse.json(question(String(params['id'])))));

describe('headers', () => {
  it('asks for JSON and names the SDK and its version', async () => {
    answerQuestion();
    await makeClient().questions.retrieve('q1');
    expect(seen[0]!.headers.get('accept')).toBe('application/json');
    expect(seen[0]!.headers.get('user-agent')).toBe(`forecasting-sdk/${VERSION}`);
    expect(seen[0]!.headers.get('content-type')).toBeNull();
    expect(seen[0]!.headers.get('idempotency-key')).toBeNull();
  });

  it('never lets a default or per-request header replace the key', async () => {
    answerQuestion();
    await makeClient({ defaultHeaders: { Authorization: 'Bearer other' } }).questions.retrieve('q1');
    await makeClient().questions.retrieve('q1', { headers: { AUTHORIZATION: 'Bearer other' } });
    await makeClient({ authHeader: 'x-api-key' }).questions.retrieve('q1', { headers: { 'X-Api-Key': 'pre_other' } });
    expect(seen.map((r) => r.headers.get('authorization'))).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`, null]);
    expect(seen[2]!.headers.get('x-api-key')).toBe(KEY);
  });

  it('lets a per-request header replace a default one, whatever its case', async () => {
    answerQuestion();
    await makeClient({ defaultHeaders: { 'X-Trace': 'default' } }).questions.retrieve('q1', { headers: { 'X-TRACE': 'call' } });
    expect(seen[0]!.headers.get('x-trace')).toBe('call');
  });
});

describe('query strings', () => {
  const emptyList = () => server.use(http.get(`${BASE}/questions`, () => HttpResponse.json({ type: 'list', data: [], hasMore: false })));

  it('sends no query string when every parameter is left out', async () => {
    emptyList();
    await makeClient().questions.list({ limit: undefined });
    expect(seen[0]!.url).toBe(`${BASE}/questions`);
    await makeClient().get('/questions', { query: { a: undefined, b: null } });
    expect(seen[1]!.url).toBe(`${BASE}/questions`);
  });

  it('writes numbers and booleans as text and objects as JSON, leaving out null items', async () => {
    emptyList();
    await makeClient().get('/questions', { query: { limit: 5, archived: false, filter: { tag: 'x' }, tags: ['a', null, 'b'] } });
    expect(new URL(seen[0]!.url).search).toBe('?limit=5&archived=false&filter=%7B%22tag%22%3A%22x%22%7D&tags=a&tags=b');
  });
});

describe('connection failures reported by fetch', () => {
  /** A fetch that fails the way Node's does, with the system error code on its cause. */
  const failingFetch = (code: string | undefined) => {
    const calls: string[] = [];
    const fetch = (async (input: RequestInfo | URL) => {
      calls.push(input instanceof Request ? input.method : 'GET');
      throw new TypeError('fetch failed', { cause: code === undefined ? new Error('socket hang up') : Object.assign(new Error(code), { code }) });
    }) as typeof globalThis.fetch;
    return { fetch, calls };
  };
  const create = (options: ClientOptions) => makeClient(options).questions.create({ type: 'binary', title: 'Will it rain?' });

  it.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'])(
    'retries a POST whose connection was never made (%s), naming the code',
    async (code) => {
      const { fetch, calls } = failingFetch(code);
      const err = await create({ fetch, maxRetries: 2 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(APIConnectionError);
      expect((err as Error).message).toBe(`Connection error (${code}) reaching api.test.`);
      expect((err as Error).cause).toBeInstanceOf(TypeError);
      expect(calls).toHaveLength(3);
    },
  );

  it.each([['ECONNRESET'], ['UND_ERR_SOCKET'], [undefined]])('does not retry a POST whose connection broke (%s)', async (code) => {
    const { fetch, calls } = failingFetch(code);
    const err = await create({ fetch, maxRetries: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    // Without a code, the cause's own short message says what happened.
    expect((err as Error).message).toBe(`Connection error (${code ?? 'socket hang up'}) reaching api.test.`);
    expect(calls).toHaveLength(1);
  });

  it('finds the code a few causes deep', async () => {
    const deep = (async () => {
      throw new TypeError('fetch failed', { cause: new Error('connect', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }) });
    }) as typeof globalThis.fetch;
    const err = await create({ fetch: deep, maxRetries: 0 }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('Connection error (ECONNREFUSED) reaching api.test.');
  });
});

describe('raw responses', () => {
  it('gives a readable empty Response for a 204, with the URL of the request', async () => {
    server.use(http.delete(`${BASE}/questions/:id/schedule`, () => new HttpResponse(null, { status: 204 })));
    const response = await makeClient().questions.schedule.delete('q1').asResponse();
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
    expect(response.url).toBe(`${BASE}/questions/q1/schedule`);
  });

  it('keeps status text and headers on the copy', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => HttpResponse.json(question('q1'), { status: 200, statusText: 'Fine', headers: { 'x-request-id': 'req_2' } })));
    const { response } = await makeClient().questions.retrieve('q1').withResponse();
    expect(response.statusText).toBe('Fine');
    expect(response.headers.get('x-request-id')).toBe('req_2');
    expect(response.url).toBe(`${BASE}/questions/q1`);
  });
});

describe('logs', () => {
  function recordingLogger() {
    const lines: string[] = [];
    const at = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
    const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
    return { lines, logger };
  }

  it('writes a debug line per attempt and an info line per retry, naming the status', async () => {
    let calls = 0;
    server.use(http.get(`${BASE}/questions/:id`, () => (++calls === 1 ? apiError(503, 'overloaded_error') : HttpResponse.json(question('q1')))));
    const { lines, logger } = recordingLogger();
    await makeClient({ logger, logLevel: 'debug' }).questions.retrieve('q1');
    expect(lines).toEqual([
      'debug [forecasting-sdk] GET /questions/q1 (attempt 1)',
      'info [forecasting-sdk] GET /questions/q1 failed (503); retry 1 of 2 in 0 ms',
      'debug [forecasting-sdk] GET /questions/q1 (attempt 2)',
    ]);
  });

  it('names the error class in the retry line when there was no answer', async () => {
    let calls = 0;
    server.use(http.get(`${BASE}/questions/:id`, () => (++calls === 1 ? HttpResponse.error() : HttpResponse.json(question('q1')))));
    const { lines, logger } = recordingLogger();
    await makeClient({ logger, logLevel: 'info' }).questions.retrieve('q1');
    expect(lines).toEqual(['info [forecasting-sdk] GET /questions/q1 failed (APIConnectionError); retry 1 of 2 in 0 ms']);
  });

  it('warns, by default, when the server asks for a wait longer than maxRetryAfter', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => apiError(429, 'rate_limit_error', 'later', { headers: { 'Retry-After': '120' } })));
    const { lines, logger } = recordingLogger();
    await makeClient({ logger, logLevel: undefined }).questions.retrieve('q1').catch(() => undefined);
    expect(lines).toEqual(['warn [forecasting-sdk] GET /questions/q1: server asked to wait 120000 ms, more than maxRetryAfter; not retrying']);
  });

  it('writes only lines at or above logLevel, and none when off', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => apiError(429, 'rate_limit_error', 'later', { headers: { 'Retry-After': '120' } })));
    for (const [logLevel, expected] of [
      ['error', 0],
      ['off', 0],
      ['warn', 1],
      ['info', 1],
      ['debug', 2],
    ] as const) {
      const { lines, logger } = recordingLogger();
      await makeClient({ logger, logLevel }).questions.retrieve('q1').catch(() => undefined);
      expect(lines, logLevel).toHaveLength(expected);
    }
  });

  it('clips a long path to 200 characters in a log line', async () => {
    answerQuestion();
    const { lines, logger } = recordingLogger();
    await makeClient({ logger, logLevel: 'debug' }).questions.retrieve('x'.repeat(300));
    expect(lines).toEqual([`debug [forecasting-sdk] GET /questions/${'x'.repeat(189)}… (111 more characters) (attempt 1)`]);
  });
});
