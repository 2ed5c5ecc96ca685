// What a refused option says, and the edges of each rule: the message a user reads names the field
// and what it takes.
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { inspect } from 'node:util';
import { ForecastingClient, ValidationError, type ClientOptions } from '../../src/index.js';
import { BASE, KEY, makeClient, question, useMswServer, validationError } from './helpers.js';

const { server, seen } = useMswServer();

const refusal = validationError;
const construct = (options: Partial<ClientOptions>) => () => new ForecastingClient({ apiKey: KEY, baseURL: BASE, ...options });

describe('client options', () => {
  const env = { ...process.env };
  afterEach(() => {
    process.env = { ...env };
  });

  it('refuses options that are not an object', () => {
    expect(refusal(() => new ForecastingClient(null as never)).message).toBe('options: must be an object');
    expect(refusal(() => new ForecastingClient('pre_x' as never)).field).toBe('options');
  });

  // A quote or a backslash too: JSON always escapes them, so an echo of such a key in an answer
  // could not be found to redact (an attacker's review).
  it('refuses a key with a control or non-ASCII character, a quote or a backslash', () => {
    for (const apiKey of ['pre_\u007f', 'pre_é', 'pre_\t', 'pre_abc"defghijklmnop', 'pre_abc\\defghijklmnop']) {
      expect(refusal(construct({ apiKey })).message).toBe('apiKey: must be printable ASCII text with no quote, backslash, line break, NUL or other control character');
    }
    expect(() => construct({ apiKey: 'pre_~!#$%&\'()*+,-./:;<=>?@[]^_`{|}' })()).not.toThrow();
  });

  it('takes an empty environment variable for none', () => {
    process.env['FORECASTING_API_KEY'] = '';
    process.env['FORECASTING_BASE_URL'] = BASE;
    expect(refusal(() => new ForecastingClient()).field).toBe('apiKey');
  });

  it('says what a duration and a count take', () => {
    expect(refusal(construct({ timeout: -1 })).message).toBe('timeout: must be a number of milliseconds from 0 to 2147483647, got -1');
    expect(refusal(construct({ timeout: '5' as never })).message).toBe('timeout: must be a number of milliseconds from 0 to 2147483647, got string');
    expect(refusal(construct({ maxRetries: 1.5 })).message).toBe('maxRetries: must be a whole number >= 0, got 1.5');
    expect(refusal(construct({ maxRetries: '2' as never })).message).toBe('maxRetries: must be a whole number >= 0, got string');
    expect(() => construct({ maxRetries: 0, maxRetryAfter: 0, retryDeadline: 0, retryBackoff: { initialDelay: 0, maxDelay: 0 } })()).not.toThrow();
  });

  it('says what authHeader, logLevel, fetch, clock, logger and rateLimit take', () => {
    expect(refusal(construct({ authHeader: 'basic' as never })).message).toBe("authHeader: must be 'bearer' or 'x-api-key'");
    expect(refusal(construct({ logLevel: 'verbose' as never })).message).toBe('logLevel: must be one of debug, info, warn, error, off');
    expect(refusal(construct({ fetch: 'yes' as never })).message).toBe('fetch: must be a fetch function');
    expect(refusal(construct({ clock: { now: () => 0 } as never })).message).toBe('clock: must have now() and sleep(ms, signal)');
    // A logger lacking a function failed the first call that logged, with a bare TypeError.
    for (const logger of [{}, { ...console, warn: 1 }, { warn: console.warn }, 'console']) {
      expect(refusal(construct({ logger: logger as never })).message).toBe('logger: must be a logger (with debug, info, warn, error), such as console');
    }
    expect(() => construct({ logger: { debug() {}, info() {}, warn() {}, error() {} } })()).not.toThrow();
    expect(() => construct({ logger: null as never })()).not.toThrow(); // console, as undefined
    // Only the functions of the levels logged: a logger without the others never had them called.
    expect(() => construct({ logger: { warn() {}, error() {} } as never })()).not.toThrow();
    expect(() => construct({ logger: {} as never, logLevel: 'off' })()).not.toThrow();
    expect(refusal(construct({ logger: { warn() {}, error() {} } as never, logLevel: 'info' })).field).toBe('logger');
    for (const requestsPerMinute of [0, -1, 0.5, 1.5, Number.NaN, Infinity, '60' as never]) {
      expect(refusal(construct({ rateLimit: { requestsPerMinute } })).field).toBe('rateLimit.requestsPerMinute');
    }
    expect(refusal(construct({ rateLimit: { requestsPerMinute: -1 } })).message).toBe('rateLimit.requestsPerMinute: must be a whole number >= 1, got -1');
    expect(() => construct({ rateLimit: { requestsPerMinute: 1 } })()).not.toThrow();
  });

  it('takes a logger that throws without failing the call that logs (the line is lost)', async () => {
    let answers = 0;
    server.use(http.get(`${BASE}/questions/:id`, () => (answers++ === 0 ? HttpResponse.json({ type: 'error', error: { type: 'overloaded_error', message: 'busy' } }, { status: 503 }) : HttpResponse.json(question('q1')))));
    const calls: string[] = [];
    const broken = (level: string) => (line: string) => {
      calls.push(`${level} ${line}`);
      throw new Error(`the ${level} sink is down`);
    };
    const logger = { debug: broken('debug'), info: broken('info'), warn: broken('warn'), error: broken('error') };
    await expect(makeClient({ logger, logLevel: 'debug' }).questions.retrieve('q1')).resolves.toMatchObject({ id: 'q1' });
    // It was called (the retry was logged), and its throws went nowhere.
    expect(calls.some((line) => /retry/i.test(line))).toBe(true);
  });

  it('reports its defaults', () => {
    expect(new ForecastingClient({ apiKey: KEY, baseURL: BASE }).toJSON()).toEqual({ baseURL: BASE, authHeader: 'bearer', maxRetries: 2, timeout: 60_000 });
  });
});

describe('base URL', () => {
  it('drops trailing slashes', () => {
    expect(construct({ baseURL: `${BASE}///` })().baseURL).toBe(BASE);
  });

  it.each([
    ['https://host/api?x=1', 'baseURL: must not hold a query or a fragment'],
    ['https://host/api#top', 'baseURL: must not hold a query or a fragment'],
    ['https://user@host/api', 'baseURL: must not hold a user name or password'],
    ['https://:pw@host/api', 'baseURL: must not hold a user name or password'],
    ['not a url', 'baseURL: must be an absolute URL such as https://host/api/v1/external'],
    ['http://api.example.com/api', 'baseURL: must use https:// (plain http:// is allowed only for localhost, 127.0.0.0/8 and [::1]), got http://api.example.com'],
  ])('refuses %s, saying why', (baseURL, message) => {
    expect(refusal(construct({ baseURL })).message).toBe(message);
  });

  it.each(['http://x127.0.0.1/api', 'http://127.0.0.1x/api', 'http://localhost.example/api', 'http://[::2]/api', 'http://10.127.0.0/api'])(
    'refuses plain http to %s, which is not loopback',
    (baseURL) => {
      expect(refusal(construct({ baseURL })).field).toBe('baseURL');
    },
  );

  it('refuses a base URL that is not text', () => {
    expect(refusal(construct({ baseURL: 42 as never })).field).toBe('baseURL');
  });
});

describe('headers', () => {
  it('accepts every token character in a header name and tabs or Latin-1 in a value', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => HttpResponse.json(question('q1'))));
    const name = "x-a_b.c~d!#$%&'*+^`|09AZ";
    await makeClient({ defaultHeaders: { [name]: 'a\tb ÿ' } }).questions.retrieve('q1');
    expect(seen[0]!.headers.get(name)).toBe('a\tb ÿ');
  });

  it.each([
    [{ 'x-a': 'a\u0100' }, 'defaultHeaders.x-a', 'defaultHeaders.x-a: must not hold CR, LF, NUL or characters above U+00FF'],
    [{ 'x-a': 'a\0b' }, 'defaultHeaders.x-a', 'defaultHeaders.x-a: must not hold CR, LF, NUL or characters above U+00FF'],
    [{ 'x-a': 1 }, 'defaultHeaders.x-a', 'defaultHeaders.x-a: must be text, got number'],
    [{ 'x:a': 'v' }, 'defaultHeaders', 'defaultHeaders: "x:a" is not a valid header name'],
    [{ '': 'v' }, 'defaultHeaders', 'defaultHeaders: "" is not a valid header name'],
    ['x-a: v', 'defaultHeaders', 'defaultHeaders: must be a plain object of header names to text values'],
    [null, 'defaultHeaders', 'defaultHeaders: must be a plain object of header names to text values'],
    [['x-a', 'v'], 'defaultHeaders', 'defaultHeaders: must be a plain object of header names to text values'],
    // Their entries are no own properties: the headers were dropped, the request sent without them.
    [new Headers({ 'x-a': 'v' }), 'defaultHeaders', 'defaultHeaders: must be a plain object of header names to text values'],
    [new Map([['x-a', 'v']]), 'defaultHeaders', 'defaultHeaders: must be a plain object of header names to text values'],
  ])('refuses the default headers %j, saying why', (defaultHeaders, field, message) => {
    const err = refusal(construct({ defaultHeaders: defaultHeaders as never }));
    expect(err.field).toBe(field);
    expect(err.message).toBe(message);
  });
});

// A header name quoted in a refusal held the key when a caller pasted a whole `Authorization:` line
// as the name, or swapped name and value: the message, `util.inspect` and `JSON.stringify` of the
// error showed it. The name is quoted with the key redacted, in the message and in the field.
describe('a header name that holds the key', () => {
  const cases = [
    [{ [`Authorization: Bearer ${KEY}`]: '' }, 'is not a valid header name'],
    [{ [`${KEY} `]: 'v' }, 'is not a valid header name'],
    [{ [KEY]: 5 }, 'must be text, got number'],
    [{ [KEY]: 'a\nb' }, 'must not hold CR, LF'],
  ] as const;

  it.each(cases)('is redacted from the refusal of default headers %#', (defaultHeaders, says) => {
    const err = refusal(construct({ defaultHeaders: defaultHeaders as never }));
    expect(err.message).toContain(says);
    expect(err.message).toContain('[redacted]');
    for (const text of [err.message, err.field, inspect(err), JSON.stringify(err)]) expect(text).not.toContain(KEY);
  });

  it.each(cases)('is redacted from the refusal of a call’s headers %#, sending nothing', async (headers, says) => {
    const client = makeClient();
    for (const call of [() => client.questions.retrieve('q1', { headers: headers as never }), () => client.questions.create({ type: 'binary', title: 'Rain?' }, { headers: headers as never }), () => client.get('/questions', { headers: headers as never })]) {
      const err = (await call().catch((e: unknown) => e)) as ValidationError;
      expect(err).toBeInstanceOf(ValidationError);
      expect(err.message).toContain(says);
      for (const text of [err.message, err.field, inspect(err), JSON.stringify(err)]) expect(text).not.toContain(KEY);
    }
    expect(seen).toHaveLength(0);
  });
});

describe('request options', () => {
  it('refuses options that are not an object, and a signal that is not one, sending nothing', async () => {
    const client = makeClient();
    // (Text there is read as a second id: see test/core/id-count.test.ts.)
    await expect(client.questions.retrieve('q1', 42 as never)).rejects.toMatchObject({ field: 'options', message: 'options: must be an object' });
    await expect(client.questions.retrieve('q1', { signal: { aborted: 'no', addEventListener() {} } as never })).rejects.toMatchObject({
      field: 'signal',
      message: 'signal: must be an AbortSignal (one with throwIfAborted and removeEventListener)',
    });
    await expect(client.questions.retrieve('q1', { signal: { aborted: false } as never })).rejects.toMatchObject({ field: 'signal' });
    await expect(client.questions.retrieve('q1', { headers: 'x' as never })).rejects.toMatchObject({ field: 'headers' });
    await expect(client.questions.retrieve('q1', { headers: new Headers({ 'x-a': 'v' }) as never })).rejects.toMatchObject({ field: 'headers' });
    await expect(client.get('/questions', { headers: new Map([['x-a', 'v']]) as never })).rejects.toMatchObject({ field: 'headers' });
    expect(seen).toHaveLength(0);
  });

  it('takes any object shaped like an AbortSignal', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => HttpResponse.json(question('q1'))));
    const signal = new AbortController().signal;
    const lookalike = { aborted: false, reason: undefined, addEventListener: signal.addEventListener.bind(signal), removeEventListener: signal.removeEventListener.bind(signal), throwIfAborted() {} };
    await expect(makeClient().questions.retrieve('q1', { signal: lookalike as unknown as AbortSignal })).resolves.toMatchObject({ id: 'q1' });
  });

  it('says what an idempotency key takes', async () => {
    const create = (idempotencyKey: unknown) => makeClient().forecasts.create({ questionId: 'q1' }, { idempotencyKey: idempotencyKey as string });
    await expect(create('')).rejects.toMatchObject({ message: 'idempotencyKey: must be text of 1 to 128 characters, got 0 characters' });
    await expect(create('k'.repeat(129))).rejects.toMatchObject({ message: 'idempotencyKey: must be text of 1 to 128 characters, got 129 characters' });
    await expect(create(42)).rejects.toMatchObject({ message: 'idempotencyKey: must be text of 1 to 128 characters, got number' });
    await expect(create('k\u007f')).rejects.toMatchObject({ message: 'idempotencyKey: must be printable ASCII text with no line break or control character' });
    await expect(create('clé')).rejects.toMatchObject({ field: 'idempotencyKey' });
    expect(seen).toHaveLength(0);
  });

  it('sends a one-character idempotency key, and generates an sdk- key when none is given', async () => {
    server.use(http.post(`${BASE}/forecasts`, () => HttpResponse.json({ id: 't1', type: 'forecast_task', status: 'queued' }, { status: 202 })));
    await makeClient().forecasts.create({ questionId: 'q1' }, { idempotencyKey: 'k' });
    await makeClient().forecasts.create({ questionId: 'q1' });
    expect(seen[0]!.headers.get('idempotency-key')).toBe('k');
    expect(seen[1]!.headers.get('idempotency-key')).toMatch(/^sdk-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('generic paths', () => {
  it.each([
    ['questions', "path: must begin with a single \"/\" (relative to the base URL), such as '/<collection>/<id>'"],
    ['//evil.example/x', "path: must begin with a single \"/\" (relative to the base URL), such as '/<collection>/<id>'"],
    ['/a b', 'path: must not hold "\\", "#", whitespace or control characters'],
    ['/a\u007f', 'path: must not hold "\\", "#", whitespace or control characters'],
    ['/a\tb', 'path: must not hold "\\", "#", whitespace or control characters'],
    ['/a?b=1', 'path: must not hold a query: pass it as `query`'],
    ['/a/..', 'path: must not hold "." or ".." segments'],
    ['/./a', 'path: must not hold "." or ".." segments'],
    ['/a/%2E/b', 'path: must not hold "." or ".." segments'],
    ['/a/.%2e', 'path: must not hold "." or ".." segments'],
  ])('refuses %j, saying why', async (path, message) => {
    await expect(makeClient().get(path)).rejects.toMatchObject({ field: 'path', message });
    expect(seen).toHaveLength(0);
  });

  it('refuses a path that is not text', async () => {
    await expect(makeClient().get(7 as never)).rejects.toMatchObject({ message: "path: must be text such as '/<collection>/<id>', got number" });
  });

  it('accepts dots inside a segment and three dots in a row', async () => {
    server.use(http.get(`${BASE}/*`, () => HttpResponse.json({})));
    await makeClient().get('/a.b/...');
    await makeClient().get('/a/x%2e');
    expect(seen.map((r) => new URL(r.url).pathname)).toEqual(['/api/v1/external/a.b/...', '/api/v1/external/a/x%2e']);
  });

  it('refuses a body on GET and DELETE, saying so', async () => {
    await expect(makeClient().get('/x', { body: {} } as never)).rejects.toMatchObject({ message: 'body: a GET request takes no body' });
    await expect(makeClient().get('/x', { query: null } as never)).rejects.toMatchObject({ message: 'query: must be an object of query parameters' });
    await expect(makeClient().get('/x', { query: ['a'] } as never)).rejects.toMatchObject({ field: 'query' });
  });

  it('sends a FormData body as multipart, and no content-type for a body-less POST', async () => {
    server.use(http.post(`${BASE}/x`, () => HttpResponse.json({})));
    const form = new FormData();
    form.append('note', 'hello');
    await makeClient().post('/x', { body: form });
    await makeClient().post('/x');
    expect(seen[0]!.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect((await seen[0]!.formData()).get('note')).toBe('hello');
    expect(seen[1]!.headers.get('content-type')).toBeNull();
  });
});
