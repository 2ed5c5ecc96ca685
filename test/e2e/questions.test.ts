// The Questions slice end to end: the SDK against the mock service over real HTTP on 127.0.0.1.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ForecastAlreadyRunningError,
  ForecastingClient,
  InternalServerError,
  MethodNotAllowedError,
  NotFoundError,
  OverloadedError,
  PermissionDeniedError,
  RateLimitError,
  ValidationError,
  type ClientOptions,
  type OperationName,
} from '../../src/index.js';
import { ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';

let mock: MockServer;
let client: ForecastingClient;
const connect = (options: ClientOptions = {}) =>
  new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off', retryBackoff: { initialDelay: 0, maxDelay: 0 }, ...options });

beforeAll(async () => {
  mock = await startMockServer({
    clock: new ManualClock(), // rate-limit windows and timestamps stay put
    apiKeys: [
      { key: 'pre_e2e_all', userId: 'u1', organizationId: 'org1' },
      { key: 'pre_e2e_reader', scopes: ['questions:read'], userId: 'u2', organizationId: 'org1' },
      { key: 'pre_e2e_other', userId: 'u3', organizationId: 'org2' },
    ],
  });
});
afterAll(() => mock.close());
beforeEach(() => {
  mock.service.reset();
  mock.service.setRateLimit(false);
  client = connect();
});

const binary = { type: 'binary', title: 'Will it rain in Paris on 1 June 2027?' } as const;
const requestsTo = (operation: OperationName) => mock.service.requests.count({ operation });

describe('questions end to end', () => {
  it('creates a question of each type with the spec’s defaults', async () => {
    const made = await Promise.all([
      client.questions.create({ ...binary, tags: ['Weather', 'Europe'] }),
      client.questions.create({ type: 'multiple_choice', title: 'Who wins?', options: ['A', 'B', 'C'] }),
      client.questions.create({ type: 'numeric', title: 'Brent on 1 June?', lowerBound: 40, upperBound: 140, scaleType: 'linear' }),
      client.questions.create({ type: 'discrete', title: 'How many launches?', lowerBound: 0, upperBound: 100 }),
      client.questions.create({ type: 'date', title: 'When will it ship?', lowerBound: 1_780_000_000, upperBound: 1_800_000_000 }),
    ]);
    const [b, mc, num, disc, date] = made;
    expect(b).toMatchObject({ type: 'binary', options: [], lowerBound: null, scaleType: null, visibility: 'private', createdVia: 'api', finePrint: '' });
    expect(b!.tags).toEqual([
      { name: 'Weather', slug: 'weather' },
      { name: 'Europe', slug: 'europe' },
    ]);
    expect(b!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(b!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(b!.callsign).toMatch(/^[a-z]+(-[a-z]+)+$/);
    expect(mc).toMatchObject({ options: ['A', 'B', 'C'], optionsAreMutuallyExclusive: true, optionsAreComprehensive: true });
    expect(num).toMatchObject({ lowerBound: 40, upperBound: 140, scaleType: 'linear' });
    expect(disc).toMatchObject({ lowerBound: 0, upperBound: 100, scaleType: null });
    expect(date).toMatchObject({ lowerBound: 1_780_000_000, scaleType: null });
  });

  it('reads, edits and validates its answers against the schemas', async () => {
    const strict = connect({ validateResponses: true });
    const q = await strict.questions.create(binary);
    expect(await strict.questions.retrieve(q.id)).toEqual(q);
    const edited = await strict.questions.update(q.id, { description: 'From the Météo-France record.', tags: ['rain'] });
    expect(edited).toMatchObject({ id: q.id, description: 'From the Météo-France record.', tags: [{ name: 'rain', slug: 'rain' }] });
  });

  it('locks the defining fields once the question has a forecast', async () => {
    const q = await client.questions.create(binary);
    mock.service.markForecasted(q.id);
    await expect(client.questions.update(q.id, { description: 'still editable' })).resolves.toMatchObject({ description: 'still editable' });
    const err = await client.questions.update(q.id, { title: 'A new title' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).message).toContain('title');
  });

  it('refuses an edit that breaks the type rules once merged', async () => {
    const q = await client.questions.create({ type: 'numeric', title: 'Brent?', lowerBound: 40, upperBound: 140, scaleType: 'linear' });
    const err = await client.questions.update(q.id, { lowerBound: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).message).toContain('upperBound');
  });

  it('lists newest first and iterates across several pages', async () => {
    for (let i = 0; i < 7; i++) await client.questions.create({ type: 'binary', title: `Question number ${i}?` });
    const first = await client.questions.list({ limit: 3 });
    expect(first.data.map((q) => q.title)).toEqual(['Question number 6?', 'Question number 5?', 'Question number 4?']);
    expect(first.hasMore).toBe(true);
    const titles: string[] = [];
    for await (const q of client.questions.list({ limit: 3 })) titles.push(q.title);
    expect(titles).toHaveLength(7);
    expect(new Set(titles).size).toBe(7);
    expect(requestsTo('questions.list')).toBe(1 + 3);
  });

  it('browses with offset paging and a text filter', async () => {
    for (let i = 0; i < 5; i++) await client.questions.create({ type: 'binary', title: `Rain on day ${i}?` });
    await client.questions.create({ type: 'binary', title: 'Snow in Oslo?' });
    const rainy = await client.questions.browse({ limit: 2, q: 'rain' }).toArray();
    expect(rainy).toHaveLength(5);
    const queries = mock.service.requests.list({ operation: 'questions.browse' }).map((r) => r.path);
    expect(queries).toEqual(['/questions/browse?limit=2&q=rain', '/questions/browse?limit=2&q=rain&offset=2', '/questions/browse?limit=2&q=rain&offset=4']);
  });

  it('lists the tags in use', async () => {
    await client.questions.create({ ...binary, tags: ['Weather', 'Europe'] });
    await client.questions.create({ type: 'binary', title: 'Snow in Oslo?', tags: ['Weather'] });
    const tags = await client.tags.list().toArray();
    expect(tags.map((t) => t.slug).sort()).toEqual(['europe', 'weather']);
  });

  it('imports a market question without starting a forecast', async () => {
    const q = await client.questions.import({ reference: 'https://markets.example/questions/will-the-ecb-cut-rates-in-march' });
    expect(q.type).toBe('binary');
    expect(q.title.toLowerCase()).toContain('ecb cut rates');
    expect((await client.questions.retrieve(q.id)).id).toBe(q.id);
  });

  it('drafts, clarifies and revises a question without saving it', async () => {
    const draft = await client.questions.normalize({ title: 'How many EV sales in Norway in 2027?' });
    expect(draft.status).toBe('ok');
    expect(draft.question?.type).toBe('numeric');
    const unsupported = await client.questions.normalize({ title: 'bitcoin' });
    expect(unsupported).toMatchObject({ status: 'unsupported' });
    expect(typeof unsupported.suggestedReframe).toBe('string');
    await expect(client.questions.clarify({ title: 'Will it rain?', answer: 'In Paris, on 1 June 2027' })).resolves.toMatchObject({ status: 'ok' });
    // A clarification asked, and answered through clarify with the same title.
    const asked = await client.questions.normalize({ title: 'Will it rain in Paris soon?' });
    expect(asked).toMatchObject({ status: 'needs_clarification', clarification: expect.stringContaining('"soon"') });
    expect(asked.question).toBeUndefined();
    const answered = await client.questions.clarify({ title: 'Will it rain in Paris soon?', answer: 'By 1 June 2027, at Montsouris' });
    expect(answered.question?.['resolutionCriteria']).toMatch(/Clarification: By 1 June 2027, at Montsouris$/);
    const revised = await client.questions.revise({ question: draft.question!, guidance: 'Count only new registrations' });
    expect(revised.question).toBeDefined();
    expect((await client.questions.list()).data).toHaveLength(0);
    // The draft can be passed straight to create.
    await expect(client.questions.create(draft.question as never)).resolves.toMatchObject({ type: 'numeric' });
  });
});

describe('bad input never reaches the server', () => {
  it.each([
    ['binary with options', { type: 'binary', title: 't', options: ['a', 'b'] }, 'options'],
    ['too long a title', { type: 'binary', title: 'x'.repeat(501) }, 'title'],
    ['one option', { type: 'multiple_choice', title: 't', options: ['a'] }, 'options'],
    ['numeric without scaleType', { type: 'numeric', title: 't', lowerBound: 0, upperBound: 1 }, 'scaleType'],
    ['logarithmic from zero', { type: 'numeric', title: 't', lowerBound: 0, upperBound: 9, scaleType: 'logarithmic' }, 'lowerBound'],
    ['discrete 501 apart', { type: 'discrete', title: 't', lowerBound: 0, upperBound: 501 }, 'upperBound'],
    ['date in fractions', { type: 'date', title: 't', lowerBound: 0.5, upperBound: 9 }, 'lowerBound'],
    ['numeric missing bounds', { type: 'numeric', title: 't', scaleType: 'linear' }, 'lowerBound'],
    // A draft of a type a newer service knows (DraftedQuestion's TSDoc): refused here, nothing sent.
    ['a type this SDK does not know', { type: 'ranking', title: 't' }, 'type'],
  ])('%s', async (_, body, field) => {
    const err = await client.questions.create(body as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).field).toBe(field);
    expect(mock.service.requests.length).toBe(0);
  });

  it('the mock refuses the same input on receipt, naming the field', async () => {
    const res = await fetch(`${mock.baseURL}/questions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'discrete', title: 't', lowerBound: 0, upperBound: 501 }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('upperBound') } });
  });
});

describe('errors from real responses', () => {
  it('AuthenticationError for a wrong key, in either header', async () => {
    await expect(connect({ apiKey: 'pre_wrong' }).questions.list()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(connect({ apiKey: 'pre_wrong', authHeader: 'x-api-key' }).questions.list()).rejects.toMatchObject({ status: 401, type: 'invalid_api_key' });
    await expect(connect({ authHeader: 'x-api-key' }).questions.list()).resolves.toBeDefined();
  });

  it('PermissionDeniedError for a key without the scope', async () => {
    const reader = connect({ apiKey: 'pre_e2e_reader' });
    await expect(reader.questions.list()).resolves.toBeDefined();
    await expect(reader.questions.create(binary)).rejects.toMatchObject({ status: 403, type: 'permission_denied' });
    await expect(reader.questions.create(binary)).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it('NotFoundError for an unknown id and for another user’s private question', async () => {
    await expect(client.questions.retrieve(crypto.randomUUID())).rejects.toBeInstanceOf(NotFoundError);
    const q = await client.questions.create(binary);
    await expect(connect({ apiKey: 'pre_e2e_other' }).questions.retrieve(q.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('MethodNotAllowedError with the Allow list', async () => {
    const res = await fetch(`${mock.baseURL}/questions/browse`, { method: 'DELETE', headers: { 'x-api-key': mock.apiKey } });
    expect(res.status).toBe(405);
    mock.service.faults.add({ operation: 'questions.retrieve', status: 405, type: 'invalid_request_error' });
    const err = (await client.questions.retrieve(crypto.randomUUID()).catch((e: unknown) => e)) as MethodNotAllowedError;
    expect(err).toBeInstanceOf(MethodNotAllowedError);
    expect(res.headers.get('allow')).toBe('GET');
  });

  it('ForecastAlreadyRunningError with the running task, from an injected answer', async () => {
    mock.service.faults.add({ operation: 'questions.update', status: 409, type: 'forecast_already_running', message: 'busy' });
    const q = await client.questions.create(binary);
    await expect(client.questions.update(q.id, { description: 'x' })).rejects.toBeInstanceOf(ForecastAlreadyRunningError);
  });

  it('RateLimitError once the request rate is spent, carrying the wait', async () => {
    mock.service.setRateLimit({ requestsPerMinute: 3 });
    const limited = connect({ maxRetryAfter: 1000 });
    for (let i = 0; i < 3; i++) await limited.questions.list();
    const err = (await limited.questions.list().catch((e: unknown) => e)) as RateLimitError;
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.retryAfterMs).toBeGreaterThan(1000);
    expect(requestsTo('questions.list')).toBe(4);
  });

  it('InternalServerError for a malformed 500 body', async () => {
    mock.service.faults.add({ operation: 'questions.create', malformed: true });
    const err = await client.questions.create(binary).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(typeof (err as InternalServerError).body).toBe('string');
  });
});

describe('retries against injected faults', () => {
  it('retries a POST after 503 with Retry-After, and the question is created once', async () => {
    mock.service.faults.add({ operation: 'questions.create', status: 503, retryAfter: 0, times: 2 });
    const q = await client.questions.create(binary);
    expect(requestsTo('questions.create')).toBe(3);
    expect((await client.questions.list()).data.map((x) => x.id)).toEqual([q.id]);
  });

  it('retries 429 rate_limit_error on POST', async () => {
    mock.service.faults.add({ operation: 'questions.create', status: 429, type: 'rate_limit_error', retryAfter: 0 });
    await client.questions.create(binary);
    expect(requestsTo('questions.create')).toBe(2);
  });

  it('does not retry a POST whose connection dropped after the server acted', async () => {
    mock.service.faults.add({ operation: 'questions.create', drop: true, afterHandling: true });
    await expect(client.questions.create(binary)).rejects.toBeInstanceOf(APIConnectionError);
    expect(requestsTo('questions.create')).toBe(1);
    // The server did the work: the question exists, once.
    expect((await client.questions.list()).data).toHaveLength(1);
  });

  it('retries a GET whose connection dropped', async () => {
    const q = await client.questions.create(binary);
    mock.service.faults.add({ operation: 'questions.retrieve', drop: true });
    await expect(client.questions.retrieve(q.id)).resolves.toMatchObject({ id: q.id });
    expect(requestsTo('questions.retrieve')).toBe(2);
  });

  it('gives up after maxRetries with the last error', async () => {
    mock.service.faults.add({ operation: 'questions.list', status: 503, retryAfter: 0, times: Infinity });
    await expect(connect({ maxRetries: 3 }).questions.list()).rejects.toBeInstanceOf(OverloadedError);
    expect(requestsTo('questions.list')).toBe(4);
  });

  it('times out a slow attempt and retries the GET', async () => {
    mock.service.faults.add({ operation: 'questions.list', delayMs: 300 });
    await expect(connect({ timeout: 100 }).questions.list()).resolves.toBeDefined();
    expect(requestsTo('questions.list')).toBe(2);
  });
});
