import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { defineOperations, type ResponseRef } from '../../src/core/operation.js';
import { accepts } from '../../src/schemas/returns.js';
import { decideRetry, type RetryContext } from '../../src/core/retry.js';
import { APIConnectionError, IdempotencyInProgressError, OverloadedError, RateLimitError, TooManyActiveForecastsError, ValidationError } from '../../src/index.js';
import { BASE, apiError, makeClient, question, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

/** Answers with each response in turn, then the last one again. */
function sequence(...responses: Array<() => Response>) {
  let i = 0;
  return () => responses[Math.min(i++, responses.length - 1)]!();
}
const ok = () => HttpResponse.json(question('q1'));
const created = () => HttpResponse.json(question('q1'), { status: 201 });

describe('retries over HTTP', () => {
  it('retries a 503 on POST, since the server did not act', async () => {
    server.use(http.post(`${BASE}/questions`, sequence(() => apiError(503, 'overloaded_error', 'busy'), created)));
    await makeClient().questions.create({ type: 'binary', title: 't' });
    expect(seen).toHaveLength(2);
  });

  it('retries a 429 rate_limit_error after the Retry-After wait', async () => {
    server.use(http.post(`${BASE}/questions`, sequence(() => apiError(429, 'rate_limit_error', 'slow down', { headers: { 'Retry-After': '0' } }), created)));
    const client = makeClient();
    const delays: number[] = [];
    client.on('retry', (e) => delays.push(e.delayMs));
    await client.questions.create({ type: 'binary', title: 't' });
    expect(seen).toHaveLength(2);
    expect(delays).toEqual([0]);
  });

  it('waits the Retry-After the server asked for, in seconds or as an HTTP date', () => {
    const ctx: RetryContext = { attempt: 1, maxRetries: 2, safeToRepeat: false, maxRetryAfter: 60_000, remaining: 300_000, initialDelay: 500, maxDelay: 8000, random: () => 0.5, now: Date.parse('2026-11-22T10:00:00Z') };
    expect(decideRetry({ kind: 'response', status: 429, type: 'rate_limit_error', retryAfter: '7' }, ctx)).toEqual({ retry: true, delay: 7000, source: 'retry-after' });
    expect(decideRetry({ kind: 'response', status: 503, type: undefined, retryAfter: 'Sun, 22 Nov 2026 10:00:30 GMT' }, ctx)).toEqual({ retry: true, delay: 30_000, source: 'retry-after' });
  });

  it('waits between attempts on the client’s clock, so a 30 s Retry-After costs no real time under a test clock', async () => {
    server.use(http.get(`${BASE}/questions/:id`, sequence(() => apiError(503, 'overloaded_error', 'busy', { headers: { 'Retry-After': '30' } }), ok)));
    let now = 0;
    const slept: number[] = [];
    const clock = {
      now: () => now,
      sleep: async (ms: number) => {
        slept.push(ms);
        now += ms;
      },
    };
    const started = Date.now();
    await makeClient({ clock }).questions.retrieve('q1');
    expect(slept).toEqual([30_000]);
    expect(seen).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('does not retry 429 too_many_active_forecasts', async () => {
    server.use(http.post(`${BASE}/questions`, () => apiError(429, 'too_many_active_forecasts', 'cap', { headers: { 'Retry-After': '0' } })));
    const err = await makeClient().questions.create({ type: 'binary', title: 't' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TooManyActiveForecastsError);
    expect(seen).toHaveLength(1);
  });

  it('throws at once, carrying the wait, when Retry-After exceeds maxRetryAfter', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => apiError(429, 'rate_limit_error', 'later', { headers: { 'Retry-After': '120' } })));
    const started = Date.now();
    const err = (await makeClient({ maxRetryAfter: 60_000 }).questions.retrieve('q1').catch((e: unknown) => e)) as RateLimitError;
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.retryAfterMs).toBe(120_000);
    expect(seen).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('retries a 500 on GET but not on POST, which the server may have acted on', async () => {
    server.use(http.get(`${BASE}/questions/:id`, sequence(() => apiError(500, 'api_error', 'boom'), ok)));
    await makeClient().questions.retrieve('q1');
    expect(seen).toHaveLength(2);
    seen.length = 0;
    server.use(http.post(`${BASE}/questions`, () => apiError(500, 'api_error', 'boom')));
    await expect(makeClient().questions.create({ type: 'binary', title: 't' })).rejects.toMatchObject({ status: 500 });
    expect(seen).toHaveLength(1);
  });

  it('retries 408 on GET', async () => {
    server.use(http.get(`${BASE}/questions/:id`, sequence(() => new HttpResponse(null, { status: 408 }), ok)));
    await makeClient().questions.retrieve('q1');
    expect(seen).toHaveLength(2);
  });

  it('never retries PATCH after a 5xx', async () => {
    server.use(http.patch(`${BASE}/questions/:id`, () => apiError(502, 'api_error', 'gateway')));
    await expect(makeClient().questions.update('q1', { description: 'd' })).rejects.toMatchObject({ status: 502 });
    expect(seen).toHaveLength(1);
  });

  it('gives up after maxRetries, per client and per request', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => apiError(503, 'overloaded_error', 'busy')));
    await expect(makeClient().questions.retrieve('q1')).rejects.toBeInstanceOf(OverloadedError);
    expect(seen).toHaveLength(3);
    seen.length = 0;
    await expect(makeClient().questions.retrieve('q1', { maxRetries: 0 })).rejects.toBeInstanceOf(OverloadedError);
    expect(seen).toHaveLength(1);
    seen.length = 0;
    await expect(makeClient({ maxRetries: 4 }).questions.retrieve('q1')).rejects.toBeInstanceOf(OverloadedError);
    expect(seen).toHaveLength(5);
  });

  it('does not start a retry past the retry deadline', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => apiError(503, 'overloaded_error', 'busy', { headers: { 'Retry-After': '5' } })));
    await expect(makeClient({ retryDeadline: 1000 }).questions.retrieve('q1')).rejects.toBeInstanceOf(OverloadedError);
    expect(seen).toHaveLength(1);
  });

  it('retries a network failure on GET but not on POST', async () => {
    server.use(http.get(`${BASE}/questions/:id`, sequence(() => HttpResponse.error(), ok)));
    await makeClient().questions.retrieve('q1');
    expect(seen).toHaveLength(2);
    seen.length = 0;
    server.use(http.post(`${BASE}/questions`, () => HttpResponse.error()));
    await expect(makeClient().questions.create({ type: 'binary', title: 't' })).rejects.toBeInstanceOf(APIConnectionError);
    expect(seen).toHaveLength(1);
  });

  it('ends the wait between attempts at once when the signal aborts, with its reason', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => apiError(503, 'overloaded_error', 'busy', { headers: { 'Retry-After': '30' } })));
    const controller = new AbortController();
    const client = makeClient();
    client.on('retry', () => setTimeout(() => controller.abort(new Error('user gave up')), 5));
    const started = Date.now();
    const err = await client.questions.retrieve('q1', { signal: controller.signal }).catch((e: unknown) => e);
    expect(err).toMatchObject({ message: 'user gave up' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(seen).toHaveLength(1);
  });

  it('rejects with the reason of a signal aborted before the call, sending nothing', async () => {
    const reason = new Error('already cancelled');
    const err = await makeClient().questions.retrieve('q1', { signal: AbortSignal.abort(reason) }).catch((e: unknown) => e);
    expect(err).toBe(reason);
    expect(seen).toHaveLength(0);
  });
});

describe('idempotency keys', () => {
  const keyed = defineOperations('test', {
    start: { method: 'POST', path: '/forecasts', scope: 'forecasts:write', params: accepts('ForecastCreateParams'), response: 'TestRecord' as ResponseRef<{ id: string }>, idempotent: true },
  }).start;

  it('generates one key and reuses it on every retry, including after a reset', async () => {
    server.use(http.post(`${BASE}/forecasts`, sequence(() => HttpResponse.error(), () => apiError(500, 'api_error', 'x'), () => HttpResponse.json({ id: 't1' }, { status: 202 }))));
    const result = await makeClient()._call(keyed, [], { questionId: 'q1' });
    expect(result).toEqual({ id: 't1' });
    const keys = seen.map((r) => r.headers.get('idempotency-key'));
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^sdk-[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
  });

  it('sends the caller’s key and retries 409 idempotency_in_progress', async () => {
    server.use(http.post(`${BASE}/forecasts`, sequence(() => apiError(409, 'idempotency_in_progress', 'wait'), () => HttpResponse.json({ id: 't1' }, { status: 202 }))));
    await makeClient()._call(keyed, [], { questionId: 'q1' }, { idempotencyKey: 'mine-1' });
    expect(seen.map((r) => r.headers.get('idempotency-key'))).toEqual(['mine-1', 'mine-1']);
  });

  it('never repeats a call it did not key on a 409 idempotency_in_progress (the service sends it to keyed calls only)', async () => {
    let sent = 0;
    server.use(http.post(`${BASE}/questions`, () => (sent++, apiError(409, 'idempotency_in_progress', 'wait'))));
    await expect(makeClient().questions.create({ type: 'binary', title: 't' })).rejects.toBeInstanceOf(IdempotencyInProgressError);
    await expect(makeClient().post('/questions', { body: { type: 'binary', title: 't' } })).rejects.toBeInstanceOf(IdempotencyInProgressError);
    expect(sent).toBe(2);
  });

  it('retries a 409 idempotency_in_progress of a call keyed by its own Idempotency-Key header (any case)', async () => {
    server.use(http.post(`${BASE}/forecasts`, sequence(() => apiError(409, 'idempotency_in_progress', 'wait'), () => HttpResponse.json({ id: 't1' }, { status: 202 }))));
    await makeClient().post('/forecasts', { body: { questionId: 'q1' }, headers: { 'Idempotency-Key': 'hdr-1' } });
    expect(seen.map((r) => r.headers.get('idempotency-key'))).toEqual(['hdr-1', 'hdr-1']);
  });

  it('shows Idempotent-Replayed on the response and the response event', async () => {
    server.use(http.post(`${BASE}/forecasts`, () => HttpResponse.json({ id: 't1' }, { status: 202, headers: { 'Idempotent-Replayed': 'true' } })));
    const client = makeClient();
    const replayed: boolean[] = [];
    client.on('response', (e) => replayed.push(e.replayed));
    const { response } = await client._call(keyed, [], { questionId: 'q1' }).withResponse();
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed).toEqual([true]);
  });

  it.each(['', 'k'.repeat(129)])('refuses the key %j before sending', async (key) => {
    const err = await makeClient()._call(keyed, [], { questionId: 'q1' }, { idempotencyKey: key }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ field: 'idempotencyKey' });
    expect(seen).toHaveLength(0);
  });

  it('sends no key for operations that ignore it', async () => {
    server.use(http.post(`${BASE}/questions`, created));
    await makeClient().questions.create({ type: 'binary', title: 't' }, { idempotencyKey: 'ignored' });
    expect(seen[0]!.headers.get('idempotency-key')).toBeNull();
  });
});

describe('uploads', () => {
  const upload = defineOperations('test', {
    upload: { method: 'POST', path: '/questions/{question_id}/files', scope: 'questions:write', response: 'TestRecord' as ResponseRef<{ id: string }>, multipart: true },
  }).upload;

  it.each([
    ['a File', () => ({ file: new File(['hello'], 'notes.txt', { type: 'text/plain' }) })],
    ['a Buffer with a filename', () => ({ file: Buffer.from('hello'), filename: 'notes.txt' })],
    ['a Blob with a filename', () => ({ file: new Blob(['hello']), filename: 'notes.txt' })],
    ['a stream with a filename', () => ({ file: new Blob(['hello']).stream(), filename: 'notes.txt' })],
  ])('sends %s as multipart with the other fields', async (_, make) => {
    server.use(http.post(`${BASE}/questions/:id/files`, () => HttpResponse.json({ id: 'f1', status: 'processing' }, { status: 201 })));
    await makeClient()._call(upload, ['q1'], { ...make(), treatment: 'consider', userNote: 'see p. 3' } as never);
    const form = await seen[0]!.formData();
    const file = form.get('file') as File;
    expect(file.name).toBe('notes.txt');
    expect(await file.text()).toBe('hello');
    expect(form.get('treatment')).toBe('consider');
    expect(form.get('userNote')).toBe('see p. 3');
    expect(seen[0]!.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('refuses bytes without a file name, sending nothing', async () => {
    const err = await makeClient()._call(upload, ['q1'], { file: Buffer.from('x') } as never).catch((e: unknown) => e);
    expect(err).toMatchObject({ field: 'filename' });
    expect(seen).toHaveLength(0);
  });
});
