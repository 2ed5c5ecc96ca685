// Hostile clients over real HTTP, where the other suites stop: connections that trickle or stall
// (short time limits here, through the internal serveMock), Node's own refusals, bytes that are not
// UTF-8, a key a client echoes back, webhook addresses that only look like loopback, forged cursors,
// path and method tricks. One server for the file; its webhook Fetch is a stub that sends nothing.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { declaredOperations } from '../../src/api/index.js';
import * as crypto from '../../src/webhooks/crypto.js';
import { ManualClock, type MockServer } from '../../src/testing/index.js';
import { IdempotencyLedger, MAX_IDEMPOTENCY_ANSWER_BYTES, MAX_IDEMPOTENCY_KEYS } from '../../src/testing/idempotency.js';
import { serveMock } from '../../src/testing/server.js';
import { DEFAULT_SERVER_LIMITS } from '../../src/testing/server-guard.js';

vi.mock('../../src/webhooks/crypto.js', async (original) => {
  const actual = await original<typeof import('../../src/webhooks/crypto.js')>();
  return { ...actual, constantTimeEqual: vi.fn(actual.constantTimeEqual) };
});

const LIMITS = { ...DEFAULT_SERVER_LIMITS, headersMs: 1_000, requestMs: 2_000, checkEveryMs: 100 };
const KEY = 'pre_hostile_4f0c9a7e2b1d4c3a8e6f5a4b3c2d1e0f';
const OTHER_KEY = 'pre_hostile_other_user_0a1b2c3d4e5f6a7b';
const attempted: string[] = [];
let mock: MockServer;
let port: number;
let origin: string;

beforeAll(async () => {
  const stub: typeof fetch = async (input) => {
    attempted.push(new URL(String(input)).href);
    return new Response('ok');
  };
  const apiKeys = [{ key: KEY }, { key: OTHER_KEY }];
  mock = await serveMock({ apiKeys, clock: new ManualClock(), httpControls: true, webhooks: { allowLoopbackReceivers: true, fetch: stub } }, LIMITS);
  port = Number(new URL(mock.baseURL).port);
  origin = new URL(mock.baseURL).origin;
});
afterAll(() => mock.close());

interface Raw {
  text: string;
  closed: boolean;
  ms: number;
}

/** Opens a connection, writes `first`, then `drip()` every 100 ms; resolves when the server closes it (or after `ms`). */
function raw(first: string, drip?: () => string, ms = 5_000): Promise<Raw> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let text = '';
    const end = (closed: boolean) => {
      clearInterval(dripping);
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed, ms: Date.now() - started });
    };
    const timer = setTimeout(() => end(false), ms);
    const dripping = setInterval(() => drip && socket.writable && socket.write(drip()), 100);
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => end(true));
    if (first) socket.write(first);
  });
}

const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
const envelopeOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { type: string; error: { type: string; message: string } };
const auth = () => ({ authorization: `Bearer ${mock.apiKey}` });
const head = (line: string, extra = '') => `${line} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\n${extra}`;

/** An answer read as JSON, loosely: the fields these tests look at. */
interface Answer {
  status: number;
  text: string;
  json: { id: string; title: string; type: string; error: { type: string; message: string } };
}

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const url = path.startsWith('/__mock') ? `${origin}${path}` : `${mock.baseURL}${path}`;
  const init: RequestInit = { method, headers: { ...auth(), 'content-type': 'application/json', ...headers } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : body instanceof Uint8Array ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body);
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, text, json: (text ? JSON.parse(text) : undefined) as Answer['json'] };
}

/** Asserts the server still answers an ordinary request. */
async function stillServes(): Promise<void> {
  expect((await api('GET', '/questions')).status).toBe(200);
}

describe('clients that never finish a request', () => {
  it("replaces Node's limits (60 s for headers, 5 min for a request, checked every 30 s) with short ones", () => {
    expect(DEFAULT_SERVER_LIMITS.headersMs).toBeLessThanOrEqual(15_000);
    expect(DEFAULT_SERVER_LIMITS.requestMs).toBeLessThanOrEqual(60_000);
    expect(DEFAULT_SERVER_LIMITS.checkEveryMs).toBeLessThanOrEqual(1_000);
  });

  it('closes a connection that sends nothing at the headers limit', async () => {
    const result = await raw('');
    expect(result.closed).toBe(true);
    expect(result.ms).toBeLessThan(LIMITS.headersMs + 1_500);
    if (result.text) expect(statusOf(result.text)).toBe(408);
  });

  it('answers 408 in the envelope to headers trickled a line at a time (slowloris), and closes', async () => {
    let n = 0;
    const result = await raw(`GET /api/v1/external/questions HTTP/1.1\r\nHost: 127.0.0.1\r\n`, () => `X-Drip-${n++}: a\r\n`);
    expect(result.closed).toBe(true);
    expect(result.ms).toBeLessThan(LIMITS.headersMs + 1_500);
    expect(statusOf(result.text)).toBe(408);
    expect(envelopeOf(result.text)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(/did not arrive in time/) } });
  });

  it.each([
    ['a body declared but never sent', head('POST /api/v1/external/questions', 'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"ty'), undefined],
    ['a body trickled a byte at a time', head('POST /api/v1/external/questions', 'Content-Length: 100000\r\n\r\n'), () => ' '],
    ['a chunked body that never ends', head('POST /api/v1/external/questions', 'Transfer-Encoding: chunked\r\n\r\n'), () => '1\r\n \r\n'],
    ['a control body that never ends', head('POST /__mock/clock/advance', 'Content-Length: 50\r\n\r\n{"ms":'), () => ' '],
  ])('answers 408 to %s at the request limit, closes, and keeps serving', async (_name, first, drip) => {
    const before = mock.service.store.questions.size;
    const result = await raw(first, drip);
    expect(result.closed).toBe(true);
    expect(result.ms).toBeLessThan(LIMITS.requestMs + 1_500);
    expect(statusOf(result.text)).toBe(408);
    expect(envelopeOf(result.text).error.type).toBe('invalid_request_error');
    expect(mock.service.store.questions.size).toBe(before);
    await stillServes();
  });

  it('serves while 200 idle connections are open, and closes them all at the headers limit', async () => {
    const idle = Array.from({ length: 200 }, () => raw('', undefined, 4_000));
    await stillServes();
    const results = await Promise.all(idle);
    expect(results.filter((r) => !r.closed)).toEqual([]);
  });
});

describe("Node's own refusals, in the envelope", () => {
  it.each([
    ['headers over the limit', 431, head('GET /api/v1/external/questions', `X-Big: ${'a'.repeat(20_000)}\r\n\r\n`)],
    ['a request line that is not HTTP', 400, 'GARBAGE\r\n\r\n'],
    ['a broken chunk size', 400, head('POST /api/v1/external/questions', 'Transfer-Encoding: chunked\r\n\r\nzz\r\n')],
    ['two Content-Lengths', 400, head('POST /api/v1/external/questions', 'Content-Length: 5\r\nContent-Length: 6\r\n\r\n')],
    ['an HTTP/1.1 request without Host', 400, `GET /api/v1/external/questions HTTP/1.1\r\nAuthorization: Bearer x\r\n\r\n`],
  ])('answers %s with %i and the error envelope, then closes', async (_name, status, request) => {
    const result = await raw(request);
    expect(statusOf(result.text)).toBe(status);
    expect(result.text).toMatch(/\r\ncontent-type: application\/json\r\n/i);
    expect(envelopeOf(result.text)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(result.closed).toBe(true);
    await stillServes();
  });
});

describe('bytes and text', () => {
  it('refuses a JSON body that is not UTF-8 with 400, storing nothing (the wire format is UTF-8)', async () => {
    const before = mock.service.store.questions.size;
    const bytes = new Uint8Array([...new TextEncoder().encode('{"type":"binary","title":"'), 0xff, 0xc0, ...new TextEncoder().encode('?"}')]);
    const res = await api('POST', '/questions', bytes);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'The request body is not valid UTF-8' } });
    expect(mock.service.store.questions.size).toBe(before);
    const control = await api('PUT', '/__mock/credits', new Uint8Array([0x7b, 0xff, 0x7d]));
    expect(control.status).toBe(400);
    expect(control.json.error.message).toMatch(/UTF-8/);
  });

  it('keeps a lone surrogate escape as data and answers well-formed JSON', async () => {
    const res = await api('POST', '/questions', '{"type":"binary","title":"Lone \\ud800 surrogate?"}');
    expect(res.status).toBe(201);
    expect(res.text).toContain('\\ud800');
    expect(res.json.title).toBe('Lone \ud800 surrogate?');
  });
});

describe('a key a client sends back', () => {
  it('never shows the API key in an error answer that quotes a path or an id', async () => {
    const key = mock.apiKey;
    for (const path of [`/questions/${key}`, `/nowhere/${key}`, `/__mock/nowhere/${key}`, `/__mock/questions/${key}/outcome`]) {
      const res = await api(path.endsWith('outcome') ? 'PUT' : 'GET', path, path.endsWith('outcome') ? {} : undefined);
      expect(res.status, path).toBe(404);
      expect(res.text, path).not.toContain(key);
      expect(res.json.error.message, path).toContain('[redacted]');
    }
  });

  it('never shows it in a control answer that echoes a fault rule', async () => {
    const added = await api('POST', '/__mock/faults', { path: `/questions/${mock.apiKey}`, status: 503 });
    expect(added.status).toBe(201);
    expect(added.text).not.toContain(mock.apiKey);
    expect((await api('GET', '/__mock/faults')).text).not.toContain(mock.apiKey);
    expect((await api('DELETE', '/__mock/faults')).status).toBe(204);
  });

  it('never logs it from a body or an Idempotency-Key, in the log nor at /__mock/requests', async () => {
    const body = { type: 'binary', title: `Will ${mock.apiKey} leak?`, description: { nested: [mock.apiKey] } };
    await api('POST', '/questions', body, { 'idempotency-key': mock.apiKey });
    const entry = mock.service.requests.last()!;
    expect(JSON.stringify(entry)).not.toContain(mock.apiKey);
    expect(entry.idempotencyKey).toBe('[redacted]');
    expect(entry.body).toMatchObject({ title: 'Will [redacted] leak?' });
    expect((await api('GET', '/__mock/requests')).text).not.toContain(mock.apiKey);
  });

  it('compares a presented key with every live key in constant time, never stopping at the right one', async () => {
    const compare = vi.mocked(crypto.constantTimeEqual);
    for (const key of [mock.apiKey, OTHER_KEY, `x${mock.apiKey.slice(1)}`]) {
      compare.mockClear();
      const res = await fetch(`${mock.baseURL}/tags`, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      expect(compare.mock.calls.length, key).toBe(2); // both live keys, for a hit as for a miss
    }
  });
});

describe('webhook addresses that only look like loopback', () => {
  // Normalized as `new URL` writes them: the stub records what the engine tried to fetch.
  const CALLED = ['http://127.0.0.1:9/a', 'http://127.1:9/b', 'http://0x7f000001:9/c', 'http://[::1]:9/d', 'http://[0:0:0:0:0:0:0:1]:9/e', 'http://[::ffff:127.0.0.1]:9/f', 'http://localhost:9/g'];
  const NOT_CALLED = [
    'http://[::127.0.0.1]:9/h', // IPv4-compatible: an IPv6 address a router gets, not this machine
    'http://[64:ff9b::127.0.0.1]:9/i', // NAT64: the translator is elsewhere
    'http://[2002:7f00:1::]:9/j', // 6to4 relay
    'http://[2001:0:7f00:1::]:9/k', // Teredo server
    'http://[::ffff:0:127.0.0.1]:9/l', // IPv4-translated (SIIT)
    'http://app.localhost:9/m',
    'http://localhost.:9/n',
  ];

  it('calls only addresses of this machine; the others are recorded, never fetched', async () => {
    const created = await api('POST', '/webhooks', { url: CALLED[0] });
    expect(created.status).toBe(201);
    const id = created.json.id;
    for (const url of [...CALLED, ...NOT_CALLED]) {
      attempted.length = 0;
      const patched = await api('PATCH', `/webhooks/${id}`, { url });
      if (patched.status !== 200) {
        expect(NOT_CALLED, `${url} refused: ${patched.text}`).toContain(url);
        continue;
      }
      const delivery = await api('POST', `/webhooks/${id}/test`);
      expect(delivery.status, url).toBe(200);
      await mock.service.webhooks.idle();
      const sent = mock.service.webhooks.calls(delivery.json.id).map((c) => c.sent);
      if (CALLED.includes(url)) {
        expect(attempted, url).toEqual([new URL(url).href]);
        expect(sent, url).toEqual([true]);
      } else {
        expect(attempted, url).toEqual([]);
        expect(sent, url).toEqual([false]);
      }
    }
    expect((await api('DELETE', `/webhooks/${id}`)).status).toBe(204);
  });
});

describe('paths, methods and cursors', () => {
  it('keeps %2F inside a segment, decodes once, and keeps dot segments from skipping the key check', async () => {
    const res = await api('GET', '/questions/x%2Fcontext');
    expect(res.status).toBe(404);
    expect(mock.service.requests.last()).toMatchObject({ operation: 'questions.retrieve' });
    expect((await api('GET', '/questions/%252e%252e')).json.error.message).toMatch(/%2e%2e/);
    const dotted = await fetch(`${mock.baseURL}/%2e%2e/%2e%2e/%2e%2e/__mock/clock`);
    expect(dotted.status).toBe(401);
  });

  it('ignores method-override headers', async () => {
    const created = await api('POST', '/questions', { type: 'binary', title: 'Will the override be ignored?' });
    const id = created.json.id;
    for (const name of ['x-http-method-override', 'x-http-method', 'x-method-override']) {
      expect((await api('GET', `/questions/${id}`, undefined, { [name]: 'DELETE' })).status).toBe(200);
      expect((await api('POST', `/questions/${id}`, {}, { [name]: 'DELETE' })).status).toBe(405);
    }
    expect(mock.service.store.questions.get(id)).toBeDefined();
  });

  it('answers OPTIONS (204 with Allow) and HEAD (the GET status, no body) on every declared path, never a 500', async () => {
    const byPath = new Map<string, string[]>();
    for (const op of declaredOperations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op.method]);
    for (const [template, methods] of byPath) {
      const path = template.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      const options = await fetch(`${mock.baseURL}${path}`, { method: 'OPTIONS' });
      expect(options.status, path).toBe(204);
      expect(options.headers.get('allow')?.split(', ').sort(), path).toEqual([...methods].sort());
      const headRes = await fetch(`${mock.baseURL}${path}`, { method: 'HEAD', headers: auth() });
      expect(await headRes.text(), path).toBe('');
      if (!methods.includes('GET')) expect(headRes.status, path).toBe(405);
      else expect(headRes.status, path).toBe((await fetch(`${mock.baseURL}${path}`, { headers: auth() })).status);
    }
  });

  it("refuses a cursor forged to start after another user's item, showing none of that user's list", async () => {
    const mine = await api('POST', '/questions', { type: 'binary', title: 'Whose question is this?' });
    const forged = Buffer.from(JSON.stringify({ after: mine.json.id })).toString('base64url');
    const theirs = await fetch(`${mock.baseURL}/questions?cursor=${forged}`, { headers: { authorization: `Bearer ${OTHER_KEY}` } });
    expect(theirs.status).toBe(400);
    expect(await theirs.text()).not.toContain('Whose question');
    for (const cursor of ['%00', 'e30', Buffer.from('{"after":{"$ne":null}}').toString('base64url'), 'A'.repeat(4000)]) {
      expect((await api('GET', `/questions?cursor=${cursor}`)).status, cursor).toBe(400);
    }
  });
});

describe('control routes given hostile values', () => {
  it.each([
    ['a fault with __proto__', 'POST', '/__mock/faults', '{"path":"/questions","status":503,"__proto__":{"drop":true}}'],
    ['a fault with a relative path', 'POST', '/__mock/faults', '{"path":"questions","status":503}'],
    ['a fault with a success status', 'POST', '/__mock/faults', '{"path":"/questions","status":200}'],
    ['a delay over a minute', 'POST', '/__mock/faults', '{"path":"/questions","delayMs":600000}'],
    ['an advance past a year', 'POST', '/__mock/clock/advance', '{"ms":1e308}'],
    ['deep nesting', 'POST', '/__mock/clock/advance', `{"ms":${'['.repeat(3000)}${']'.repeat(3000)}}`],
    ['a balance below zero', 'PUT', '/__mock/credits', '{"balance":-1}'],
    ['a malformed escape in the question id', 'PUT', '/__mock/questions/%E0%A4%A/outcome', '{}'],
  ])('refuses %s in the envelope, never a 500, adding no fault', async (_name, method, path, body) => {
    const res = await api(method, path, body);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.json.type).toBe('error');
    expect(mock.service.faults.list()).toEqual([]);
  });
});

describe('memory a client can make the mock keep', () => {
  it('forgets Idempotency-Keys once their 24 hours are over, instead of keeping every key ever sent', async () => {
    const clock = new ManualClock();
    const ledger = new IdempotencyLedger(clock);
    const claim = (key: string) => ledger.claim(new Headers({ authorization: `Bearer ${KEY}`, 'idempotency-key': key }), 'POST /forecasts {}');
    for (let i = 0; i < 1_000; i++) await (claim(`k${i}`) as { settle(r: Response): Promise<void> }).settle(new Response('{}', { status: 202 }));
    expect(ledger.size).toBe(1_000);
    clock.advance(24 * 60 * 60 * 1000);
    expect(claim('k0')?.kind).toBe('proceed'); // expired: a new request, not a replay
    expect(ledger.size).toBe(1);
  });

  // Each key kept its request's text (a 1 MB body under each of a thousand keys held 1.5 GB) and
  // nothing bounded their number within the 24 hours: keys are capped, answers too, and a body is
  // kept as its SHA-256.
  it('keeps at most MAX_IDEMPOTENCY_KEYS keys and MAX_IDEMPOTENCY_ANSWER_BYTES of answers, forgetting the oldest', async () => {
    const ledger = new IdempotencyLedger(new ManualClock());
    const claim = (key: string) => ledger.claim(new Headers({ authorization: `Bearer ${KEY}`, 'idempotency-key': key }), 'POST /forecasts {}') as { kind: string; settle(r: Response): Promise<void> };
    for (let i = 0; i <= MAX_IDEMPOTENCY_KEYS; i++) claim(`k${i}`);
    expect(ledger.size).toBe(MAX_IDEMPOTENCY_KEYS);
    expect(claim('k0').kind).toBe('proceed'); // forgotten: the oldest
    expect(claim(`k${MAX_IDEMPOTENCY_KEYS}`).kind).toBe('answer'); // kept: still in progress
    ledger.reset();
    claim('slow'); // in progress: it holds no answer, so room is never made by forgetting it
    const answer = 'x'.repeat(8 * 1024 * 1024);
    const count = MAX_IDEMPOTENCY_ANSWER_BYTES / answer.length;
    for (let i = 0; i <= count; i++) await claim(`a${i}`).settle(new Response(answer, { status: 202 }));
    expect(ledger.size).toBe(count + 1);
    expect(claim('a0').kind).toBe('proceed');
    expect(claim('slow').kind).toBe('answer'); // 409, not a second run
  });
});
