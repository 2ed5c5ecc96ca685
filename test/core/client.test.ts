import { inspect } from 'node:util';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ContextNotReadyError,
  DecisionConflictError,
  ForecastAlreadyRunningError,
  ForecastingClient,
  ForecastingError,
  IdempotencyInProgressError,
  InternalServerError,
  MethodNotAllowedError,
  NotFoundError,
  OverloadedError,
  PermissionDeniedError,
  RateLimitError,
  TooManyActiveForecastsError,
  UploadsDisabledError,
  ValidationError,
} from '../../src/index.js';
import { BASE, KEY, apiError, makeClient, question, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

describe('construction', () => {
  const env = { ...process.env };
  afterEach(() => {
    process.env = { ...env };
  });

  it('names the option and the environment variable when the key is missing', () => {
    delete process.env['FORECASTING_API_KEY'];
    const err = catchSync(() => new ForecastingClient({ baseURL: BASE }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ field: 'apiKey' });
    expect(String((err as Error).message)).toMatch(/apiKey.*FORECASTING_API_KEY/);
  });

  it('names the option and the environment variable when the base URL is missing', () => {
    delete process.env['FORECASTING_BASE_URL'];
    const err = catchSync(() => new ForecastingClient({ apiKey: KEY }));
    expect(err).toMatchObject({ field: 'baseURL' });
    expect((err as Error).message).toMatch(/baseURL.*FORECASTING_BASE_URL/);
  });

  it('reads the key and base URL from the environment', () => {
    process.env['FORECASTING_API_KEY'] = KEY;
    process.env['FORECASTING_BASE_URL'] = `${BASE}/`;
    expect(new ForecastingClient().baseURL).toBe(BASE);
  });

  it.each(['http://localhost:8080/api/v1/external', 'http://127.0.0.1:1/api', 'http://127.255.3.4/x', 'http://[::1]:9/api', 'https://anything.example/api'])(
    'accepts %s',
    (url) => {
      expect(() => new ForecastingClient({ apiKey: KEY, baseURL: url })).not.toThrow();
    },
  );

  it.each(['http://api.example.com/api', 'http://127.0.0.1.example.com/api', 'http://10.0.0.1/api', 'ftp://x/api', 'not a url', 'https://user:pw@host/api'])(
    'refuses %s',
    (url) => {
      const err = catchSync(() => new ForecastingClient({ apiKey: KEY, baseURL: url }));
      expect(err).toBeInstanceOf(ValidationError);
      expect(err).toMatchObject({ field: 'baseURL' });
    },
  );
});

describe('requests', () => {
  it('sends the key as a bearer token by default, or in X-Api-Key', async () => {
    server.use(http.get(`${BASE}/questions/:id`, ({ params }) => HttpResponse.json(question(String(params['id'])))));
    await makeClient().questions.retrieve('q1');
    await makeClient({ authHeader: 'x-api-key' }).questions.retrieve('q1');
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${KEY}`);
    expect(seen[0]!.headers.get('x-api-key')).toBeNull();
    expect(seen[1]!.headers.get('x-api-key')).toBe(KEY);
    expect(seen[1]!.headers.get('authorization')).toBeNull();
  });

  it('merges default and per-request headers', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => HttpResponse.json(question('q1'))));
    await makeClient({ defaultHeaders: { 'X-Team': 'a', 'X-Trace': 'default' } }).questions.retrieve('q1', { headers: { 'x-trace': 'call' } });
    expect(seen[0]!.headers.get('x-team')).toBe('a');
    expect(seen[0]!.headers.get('x-trace')).toBe('call');
    expect(seen[0]!.headers.get('user-agent')).toMatch(/^forecasting-sdk\//);
  });

  it('sends GET with a query and no body, repeating array values', async () => {
    server.use(http.get(`${BASE}/questions`, () => HttpResponse.json({ type: 'list', data: [], hasMore: false })));
    await makeClient().questions.list({ limit: 5, status: ['a', 'b'], empty: undefined } as never);
    const url = new URL(seen[0]!.url);
    expect(url.pathname).toBe('/api/v1/external/questions');
    expect(url.searchParams.getAll('status')).toEqual(['a', 'b']);
    expect(url.searchParams.get('limit')).toBe('5');
    expect(url.searchParams.has('empty')).toBe(false);
    expect(await seen[0]!.text()).toBe('');
  });

  it('sends POST with a JSON body and no query string', async () => {
    server.use(http.post(`${BASE}/questions`, async ({ request }) => HttpResponse.json(question('q1', (await request.json()) as Record<string, unknown>), { status: 201 })));
    const q = await makeClient().questions.create({ type: 'binary', title: 'Will it rain?' });
    expect(q.title).toBe('Will it rain?');
    expect(new URL(seen[0]!.url).search).toBe('');
    expect(seen[0]!.headers.get('content-type')).toBe('application/json');
    expect(await seen[0]!.json()).toEqual({ type: 'binary', title: 'Will it rain?' });
  });

  it('takes undefined params when options follow', async () => {
    server.use(http.get(`${BASE}/questions`, () => HttpResponse.json({ type: 'list', data: [], hasMore: false })));
    await makeClient().questions.list(undefined, { headers: { 'x-trace': 't1' } });
    expect(new URL(seen[0]!.url).search).toBe('');
    expect(seen[0]!.headers.get('x-trace')).toBe('t1');
  });

  it('sends no body for DELETE, nor for a POST called without params', async () => {
    server.use(
      http.delete(`${BASE}/webhooks/:id`, () => new HttpResponse(null, { status: 204 })),
      http.post(`${BASE}/webhooks/:id/rotate`, () => HttpResponse.json({ id: 'w1', signingSecret: 'whsec_x' })),
    );
    await expect(makeClient().webhooks.delete('w1')).resolves.toBeUndefined();
    await makeClient().webhooks.rotate('w1');
    expect(await seen[0]!.text()).toBe('');
    expect(await seen[1]!.text()).toBe('');
    expect(seen[1]!.headers.get('content-type')).toBeNull();
  });

  it('encodes ids into the path so no id can change it', async () => {
    server.use(http.get(`${BASE}/questions/:id`, ({ params }) => HttpResponse.json(question(String(params['id'])))));
    await makeClient().questions.retrieve('a b%c');
    expect(new URL(seen[0]!.url).pathname).toBe('/api/v1/external/questions/a%20b%25c');
  });

  it.each(['', '.', '..', 'a/b', 'a?b', 'a#b', 'a\\b', 'browse', 'import'])('refuses the id %j before sending', async (id) => {
    const err = await makeClient().questions.retrieve(id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ field: 'questionId' });
    expect(seen).toHaveLength(0);
  });

  it.each([
    ['a lone high surrogate', '\uD800'],
    ['a lone low surrogate', 'a\uDC00b'],
    ['a reversed surrogate pair', '\uDC00\uD800'],
  ])('refuses an id holding %s with a ValidationError naming the id field, in any position, before sending', async (_, bad) => {
    const c = makeClient();
    const calls: Array<[() => Promise<unknown>, string]> = [
      [() => c.questions.retrieve(bad), 'questionId'],
      [() => c.questions.files.retrieve(bad, 'f1'), 'questionId'],
      [() => c.questions.files.retrieve('q1', bad), 'fileId'],
    ];
    for (const [call, field] of calls) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect(err).toMatchObject({ field });
      expect((err as Error).message).toContain('surrogate');
    }
    expect(seen).toHaveLength(0);
  });

  it('refuses a query parameter that cannot be JSON with a ValidationError naming its key, sending nothing', async () => {
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    const err = await makeClient().questions.list({ extra: circular } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ field: 'extra' });
    expect((err as Error).message).toMatch(/^extra: cannot be sent as JSON \(.*circular/);
    expect(seen).toHaveLength(0);
  });

  it('gives the HTTP response next to the data without a second request', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => HttpResponse.json(question('q1'), { headers: { 'x-request-id': 'req_1' } })));
    const { data, response } = await makeClient().questions.retrieve('q1').withResponse();
    expect(data.id).toBe('q1');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(seen).toHaveLength(1);
  });
});

describe('input validation', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['binary with options', { type: 'binary', title: 't', options: ['a', 'b'] }, 'options'],
    ['binary with bounds', { type: 'binary', title: 't', lowerBound: 1 }, 'lowerBound'],
    ['a title over 500 characters', { type: 'binary', title: 'x'.repeat(501) }, 'title'],
    ['an empty title', { type: 'binary', title: '' }, 'title'],
    ['21 tags', { type: 'binary', title: 't', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags'],
    ['multiple choice with one option', { type: 'multiple_choice', title: 't', options: ['a'] }, 'options'],
    ['multiple choice with 201 options', { type: 'multiple_choice', title: 't', options: Array.from({ length: 201 }, (_, i) => `o${i}`) }, 'options'],
    ['multiple choice with repeated options', { type: 'multiple_choice', title: 't', options: ['a', 'a'] }, 'options'],
    ['multiple choice with bounds', { type: 'multiple_choice', title: 't', options: ['a', 'b'], upperBound: 3 }, 'upperBound'],
    ['numeric without scaleType', { type: 'numeric', title: 't', lowerBound: 0, upperBound: 1 }, 'scaleType'],
    ['numeric without upperBound', { type: 'numeric', title: 't', lowerBound: 0, scaleType: 'linear' }, 'upperBound'],
    ['numeric with reversed bounds', { type: 'numeric', title: 't', lowerBound: 5, upperBound: 1, scaleType: 'linear' }, 'upperBound'],
    ['logarithmic with a zero bound', { type: 'numeric', title: 't', lowerBound: 0, upperBound: 10, scaleType: 'logarithmic' }, 'lowerBound'],
    ['numeric with options', { type: 'numeric', title: 't', lowerBound: 0, upperBound: 1, scaleType: 'linear', options: ['a'] }, 'options'],
    ['discrete with fractional bounds', { type: 'discrete', title: 't', lowerBound: 0.5, upperBound: 10 }, 'lowerBound'],
    ['discrete bounds 1 apart', { type: 'discrete', title: 't', lowerBound: 0, upperBound: 1 }, 'upperBound'],
    ['discrete bounds 501 apart', { type: 'discrete', title: 't', lowerBound: 0, upperBound: 501 }, 'upperBound'],
    ['discrete with scaleType', { type: 'discrete', title: 't', lowerBound: 0, upperBound: 10, scaleType: 'linear' }, 'scaleType'],
    ['date with fractional seconds', { type: 'date', title: 't', lowerBound: 1.5, upperBound: 1800000000 }, 'lowerBound'],
    ['date with scaleType', { type: 'date', title: 't', lowerBound: 1700000000, upperBound: 1800000000, scaleType: 'linear' }, 'scaleType'],
    ['an unknown type', { type: 'ranking', title: 't' }, 'type'],
    ['no type', { title: 't' }, 'type'],
    ['a bad visibility', { type: 'binary', title: 't', visibility: 'public' }, 'visibility'],
  ];

  it.each(cases)('refuses %s, naming the field, and sends nothing', async (_, body, field) => {
    const err = await makeClient().questions.create(body as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).field).toBe(field);
    expect((err as ValidationError).message).toContain(field);
    expect(seen).toHaveLength(0);
  });

  it('accepts a question of each type that keeps the rules', async () => {
    server.use(http.post(`${BASE}/questions`, () => HttpResponse.json(question('q'), { status: 201 })));
    const client = makeClient();
    await client.questions.create({ type: 'binary', title: 't', options: [], lowerBound: null });
    await client.questions.create({ type: 'multiple_choice', title: 't', options: ['a', 'b'] });
    await client.questions.create({ type: 'numeric', title: 't', lowerBound: 1, upperBound: 1000, scaleType: 'logarithmic' });
    await client.questions.create({ type: 'discrete', title: 't', lowerBound: 0, upperBound: 500 });
    await client.questions.create({ type: 'date', title: 't', lowerBound: 1_700_000_000, upperBound: 1_800_000_000 });
    await client.questions.create({ templateId: 'tpl', templateValues: { city: 'Paris' } });
    expect(seen).toHaveLength(6);
  });

  it('refuses a bad template body on the template field', async () => {
    const err = await makeClient().questions.create({ templateId: 'tpl', templateValues: 'Paris' } as never).catch((e: unknown) => e);
    expect(err).toMatchObject({ field: 'templateValues' });
  });

  it('refuses an out-of-range page size', async () => {
    const err = await makeClient().questions.list({ limit: 101 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ field: 'limit' });
    expect(seen).toHaveLength(0);
  });
});

describe('errors', () => {
  const table: Array<[number, string, new (...a: never[]) => APIError]> = [
    [400, 'invalid_request_error', BadRequestError],
    [401, 'invalid_api_key', AuthenticationError],
    [403, 'permission_denied', PermissionDeniedError],
    [403, 'uploads_disabled', UploadsDisabledError],
    [404, 'not_found', NotFoundError],
    [405, 'invalid_request_error', MethodNotAllowedError],
    [409, 'forecast_already_running', ForecastAlreadyRunningError],
    [409, 'context_not_ready', ContextNotReadyError],
    [409, 'idempotency_in_progress', IdempotencyInProgressError],
    [409, 'decision_archived', DecisionConflictError],
    [409, 'generation_in_progress', DecisionConflictError],
    [409, 'invalid_request_error', ConflictError],
    [429, 'rate_limit_error', RateLimitError],
    [429, 'too_many_active_forecasts', TooManyActiveForecastsError],
    [500, 'api_error', InternalServerError],
    [503, 'overloaded_error', OverloadedError],
  ];

  it.each(table)('maps %i %s to its class', async (status, type, Class) => {
    server.use(http.patch(`${BASE}/questions/:id`, () => apiError(status, type, 'the message', { extra: { activeTaskId: 't1', files: [{ id: 'f1' }] } })));
    const err = await makeClient({ maxRetries: 0 }).questions.update('q1', { description: 'd' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Class);
    expect(err).toBeInstanceOf(APIError);
    expect(err).toBeInstanceOf(ForecastingError);
    expect(err).toMatchObject({ status, type });
    expect((err as APIError).message).toContain('the message');
    expect((err as APIError).headers).toBeInstanceOf(Headers);
    expect((err as APIError).extras).toMatchObject({ activeTaskId: 't1' });
    expect((err as APIError).body).toMatchObject({ type: 'error', error: { type } });
  });

  it('exposes the running task on forecast_already_running and the files on context_not_ready', async () => {
    server.use(http.patch(`${BASE}/questions/:id`, () => apiError(409, 'forecast_already_running', 'busy', { extra: { activeTaskId: 'task_9' } })));
    const running = (await makeClient().questions.update('q1', {}).catch((e: unknown) => e)) as ForecastAlreadyRunningError;
    expect(running.activeTaskId).toBe('task_9');
    server.use(http.patch(`${BASE}/questions/:id`, () => apiError(409, 'context_not_ready', 'wait', { extra: { files: [{ id: 'f1', status: 'processing' }] } })));
    const notReady = (await makeClient().questions.update('q1', {}).catch((e: unknown) => e)) as ContextNotReadyError;
    expect(notReady.files).toEqual([{ id: 'f1', status: 'processing' }]);
  });

  it('lists the allowed methods of a 405', async () => {
    server.use(http.patch(`${BASE}/questions/:id`, () => apiError(405, 'invalid_request_error', 'no', { headers: { Allow: 'GET, POST' } })));
    const err = (await makeClient().questions.update('q1', {}).catch((e: unknown) => e)) as MethodNotAllowedError;
    expect(err.allow).toEqual(['GET', 'POST']);
  });

  it('maps an unlisted 409 code on a /decisions path to DecisionConflictError, and nowhere else', async () => {
    const conflict = (type: string) => () => apiError(409, type, 'busy');
    server.use(
      http.post(`${BASE}/decisions/:id/generate`, conflict('summary_locked')),
      http.post(`${BASE}/decisions/:id/forecasts`, conflict('invalid_request_error')),
      http.post(`${BASE}/decisions`, conflict('idempotency_in_progress')),
      http.patch(`${BASE}/questions/:id`, conflict('summary_locked')),
      http.post(`${BASE}/decisions-archive`, conflict('summary_locked')),
    );
    const client = makeClient({ maxRetries: 0 });
    const unknown = await client.decisions.generate('d1').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(DecisionConflictError);
    expect(unknown).toMatchObject({ status: 409, type: 'summary_locked' });
    // The spec's generic 409 (too few credits) and the other known codes keep their classes.
    const credits = await client.decisions.forecasts.create('d1', { maxTotalCredits: 5 }).catch((e: unknown) => e);
    expect(credits).toBeInstanceOf(ConflictError);
    expect(credits).not.toBeInstanceOf(DecisionConflictError);
    const keyed = await client.decisions.create({ title: 'Which?', options: ['a', 'b'] }).catch((e: unknown) => e);
    expect(keyed).toBeInstanceOf(IdempotencyInProgressError);
    // The same unknown code elsewhere, or on a path that only begins with "decisions", is a plain conflict.
    for (const err of [await client.questions.update('q1', {}).catch((e: unknown) => e), await client.post('/decisions-archive').catch((e: unknown) => e)]) {
      expect(err).toBeInstanceOf(ConflictError);
      expect(err).not.toBeInstanceOf(DecisionConflictError);
    }
    // The generic methods follow the same rule.
    await expect(client.post('/decisions/d1/generate')).rejects.toBeInstanceOf(DecisionConflictError);
  });

  it('still picks the class by status when the body is not JSON', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => new HttpResponse('<html>Not Found</html>', { status: 404, headers: { 'content-type': 'text/html' } })));
    const err = (await makeClient().questions.retrieve('q1').catch((e: unknown) => e)) as NotFoundError;
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.type).toBeUndefined();
    expect(err.body).toBe('<html>Not Found</html>');
  });

  it('maps an unknown 5xx without a body to InternalServerError', async () => {
    server.use(http.post(`${BASE}/questions/import`, () => new HttpResponse(null, { status: 502 })));
    const err = await makeClient().questions.import({ reference: 'https://m.example/q/x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err).toMatchObject({ status: 502 });
  });
});

describe('responses', () => {
  it('checks responses only when validateResponses is on, leniently', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => HttpResponse.json(question('q1', { type: 'ranking', brandNew: 1 }))));
    const q = await makeClient({ validateResponses: true }).questions.retrieve('q1');
    expect(q.type).toBe('ranking');
    expect((q as Record<string, unknown>)['brandNew']).toBe(1);
  });

  it('names the field of a response that breaks the schema', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => HttpResponse.json({ ...question('q1'), title: 5 })));
    await expect(makeClient().questions.retrieve('q1')).resolves.toMatchObject({ title: 5 });
    const err = await makeClient({ validateResponses: true }).questions.retrieve('q1').catch((e: unknown) => e);
    expect(err).toMatchObject({ field: 'response.title' });
  });
});

describe('list responses', () => {
  it('checks each item of a page when validateResponses is on, naming the item', async () => {
    server.use(http.get(`${BASE}/questions`, () => HttpResponse.json({ type: 'list', data: [question('a'), { ...question('b'), title: 5 }], hasMore: false })));
    await expect(makeClient().questions.list()).resolves.toMatchObject({ hasMore: false });
    const err = await makeClient({ validateResponses: true }).questions.list().catch((e: unknown) => e);
    expect(err).toMatchObject({ field: 'response.data.1.title' });
  });
});

describe('secrets', () => {
  it('never shows the key in inspect, JSON, errors, events or logs', async () => {
    const logs: string[] = [];
    const sink = (line: string, meta?: unknown) => logs.push(line + JSON.stringify(meta ?? {}));
    const client = makeClient({ logger: { debug: sink, info: sink, warn: sink, error: sink }, logLevel: 'debug', maxRetries: 1 });
    const events: unknown[] = [];
    client.on('request', (e) => events.push(e)).on('response', (e) => events.push(e)).on('retry', (e) => events.push(e));
    server.use(http.get(`${BASE}/questions/:id`, () => apiError(503, 'overloaded_error', 'busy', { headers: { 'Retry-After': '0' } })));
    const err = await client.questions.retrieve('q1').catch((e: unknown) => e);
    const texts = [inspect(client, { depth: 10, showHidden: true }), JSON.stringify(client), JSON.stringify(client.questions), inspect(err, { depth: 10 }), JSON.stringify(events), logs.join('\n')];
    for (const text of texts) expect(text).not.toContain(KEY);
    expect(logs.length).toBeGreaterThan(0);
    expect(events.length).toBeGreaterThan(0);
  });
});

describe('events', () => {
  it('emits request, response and retry with method, path, attempt, status and duration', async () => {
    let calls = 0;
    server.use(http.get(`${BASE}/questions/:id`, () => (++calls === 1 ? apiError(503, 'overloaded_error', 'x', { headers: { 'Retry-After': '0' } }) : HttpResponse.json(question('q1')))));
    const client = makeClient();
    const log: Array<[string, Record<string, unknown>]> = [];
    client.on('request', (e) => log.push(['request', { ...e }]));
    client.on('response', (e) => log.push(['response', { ...e }]));
    client.on('retry', (e) => log.push(['retry', { ...e }]));
    await client.questions.retrieve('q1');
    expect(log.map(([name]) => name)).toEqual(['request', 'response', 'retry', 'request', 'response']);
    expect(log[0]![1]).toMatchObject({ operation: 'questions.retrieve', method: 'GET', path: '/questions/q1', attempt: 1 });
    expect(log[1]![1]).toMatchObject({ status: 503, attempt: 1, replayed: false });
    expect(typeof log[1]![1]['durationMs']).toBe('number');
    expect(log[2]![1]).toMatchObject({ status: 503, error: 'OverloadedError', delayMs: 0 });
    expect(log[4]![1]).toMatchObject({ status: 200, attempt: 2 });
  });

  it('stops delivering to a removed listener', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => HttpResponse.json(question('q1'))));
    const client = makeClient();
    const listener = vi.fn();
    client.on('request', listener);
    client.off('request', listener);
    const once = vi.fn();
    client.once('request', once);
    await client.questions.retrieve('q1');
    await client.questions.retrieve('q1');
    expect(listener).not.toHaveBeenCalled();
    expect(once).toHaveBeenCalledTimes(1);
  });
});

function catchSync(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}
