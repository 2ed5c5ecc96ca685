// Edges of the request pipeline that a user can meet: bodies from a fetch that ignores aborts, text
// split across chunks, odd error causes, which methods are retried, and what a client shows of itself.
import { inspect } from 'node:util';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { leveled } from '../../src/core/logger.js';
import { defineOperations } from '../../src/core/operation.js';
import { accepts } from '../../src/schemas/returns.js';
import { APIError, APITimeoutError, WaitTimeoutError } from '../../src/index.js';
import { BASE, apiError, fakeClock, makeClient, question, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

/** A fetch whose answer sends `chunks` and then never ends, and which ignores the abort signal. */
function endlessFetch(...chunks: string[]): typeof fetch {
  return (async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        },
      }),
      { status: 200, headers: { 'content-type': 'application/json' } },
    )) as typeof fetch;
}

/** A fetch answering `parts` (bytes), split where the caller chose. */
function chunkedFetch(parts: Uint8Array[]): typeof fetch {
  return (async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
      { status: 200 },
    )) as typeof fetch;
}

describe('bodies from any fetch', () => {
  it('rejects with the caller’s reason when aborted mid-body, even if fetch ignores the signal', async () => {
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const call = makeClient({ fetch: endlessFetch('{"id":"q1",'), timeout: 0 }).questions.retrieve('q1', { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 20);
    await expect(call).rejects.toBe(reason);
  });

  it('times out mid-body with APITimeoutError naming the timeout, even if fetch ignores the signal', async () => {
    const err = await makeClient({ fetch: endlessFetch('{"id":'), timeout: 30, maxRetries: 0 }).questions.retrieve('q1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APITimeoutError);
    expect((err as Error).message).toBe('Request timed out after 30 ms.');
  });

  it('decodes a character split across two chunks', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify(question('q1', { title: 'Price in €?' })));
    const at = bytes.indexOf(0xe2) + 1; // inside the three bytes of €
    const q = await makeClient({ fetch: chunkedFetch([bytes.subarray(0, at), bytes.subarray(at)]) }).questions.retrieve('q1');
    expect(q.title).toBe('Price in €?');
  });

  it('lets go of the caller’s signal once the call is over', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => HttpResponse.json(question('q1'))));
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, 'addEventListener');
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    await makeClient().questions.retrieve('q1', { signal: controller.signal });
    const listener = add.mock.calls.find(([type]) => type === 'abort')![1];
    expect(remove).toHaveBeenCalledWith('abort', listener);
  });
});

describe('error causes', () => {
  const failing = (cause: unknown) =>
    (async () => {
      throw new TypeError('fetch failed', { cause });
    }) as typeof fetch;
  const create = (fetch: typeof globalThis.fetch) => makeClient({ fetch, maxRetries: 0 }).questions.create({ type: 'binary', title: 't' }).then(() => new Error('resolved'), (e: unknown) => e as Error);

  it('stops looking for a code in a cause chain that loops', async () => {
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    expect((await create(failing(loop))).message).toBe('Connection error reaching api.test.');
  });

  it('looks for the code down to the fourth error of the chain, and no further', async () => {
    const chain = (depth: number) => {
      let e: unknown = Object.assign(new Error('root'), { code: 'ECONNREFUSED' });
      for (let i = 0; i < depth; i++) e = new Error(`level ${i}`, { cause: e });
      return e;
    };
    // The TypeError from fetch is the first error; its cause the second.
    expect((await create(failing(chain(2)))).message).toBe('Connection error (ECONNREFUSED) reaching api.test.');
    // No code within reach: the direct cause's message stands in for it.
    expect((await create(failing(chain(3)))).message).toBe('Connection error (level 2) reaching api.test.');
  });

  it('ignores a code that is not text, and a thrown value that is not an object', async () => {
    expect((await create(failing({ code: 111 }))).message).toBe('Connection error reaching api.test.');
    const throwsText = (async () => {
      throw 'boom';
    }) as unknown as typeof fetch;
    expect((await create(throwsText)).message).toBe('Connection error reaching api.test.');
  });
});

describe('which methods are retried after a 500', () => {
  it('retries PUT and DELETE, which are repeatable', async () => {
    let puts = 0;
    let deletes = 0;
    server.use(
      http.put(`${BASE}/questions/:id/watch`, () => (++puts === 1 ? apiError(500, 'api_error') : HttpResponse.json({ enabled: true }))),
      http.delete(`${BASE}/questions/:id/watch`, () => (++deletes === 1 ? apiError(500, 'api_error') : new HttpResponse(null, { status: 204 }))),
    );
    await makeClient().put('/questions/q1/watch', { body: { enabled: true } });
    await makeClient().delete('/questions/q1/watch');
    expect([puts, deletes]).toEqual([2, 2]);
  });

  it('reports how long an answer took', async () => {
    server.use(http.get(`${BASE}/questions/:id`, () => HttpResponse.json(question('q1'))));
    const client = makeClient();
    const durations: number[] = [];
    client.on('response', (e) => durations.push(e.durationMs));
    await client.questions.retrieve('q1');
    expect(durations[0]).toBeGreaterThanOrEqual(0);
    expect(durations[0]).toBeLessThan(5000);
  });
});

describe('declared operations', () => {
  const ops = defineOperations('things', {
    remove: { method: 'DELETE', path: '/things/{thing_id}', scope: 'questions:write', params: accepts('ForecastRetrieveParams') },
  });

  it('sends the params of a DELETE as its query, with no body', async () => {
    server.use(http.delete(`${BASE}/things/:id`, () => new HttpResponse(null, { status: 204 })));
    await makeClient()._call(ops.remove, ['t1'], { includeSubforecasts: true });
    expect(new URL(seen[0]!.url).search).toBe('?includeSubforecasts=true');
    expect(await seen[0]!.text()).toBe('');
    expect(seen[0]!.headers.get('content-type')).toBeNull();
  });
});

describe('what a client and its errors show', () => {
  it('shows its class and safe settings when inspected', () => {
    expect(inspect(makeClient())).toBe(`ForecastingClient {"baseURL":"${BASE}","authHeader":"bearer","maxRetries":2,"timeout":60000}`);
  });

  it('writes an API error without a request as status and message only', () => {
    expect(new APIError({ status: 500, type: undefined, message: 'boom', headers: new Headers(), body: null }).message).toBe('500: boom');
  });

  it('gives a WaitTimeoutError no last states unless told', () => {
    expect(new WaitTimeoutError('late', ['t1']).lastSeen).toEqual([]);
  });

  it('passes log metadata on as a second argument', () => {
    const calls: unknown[][] = [];
    const log = (...args: unknown[]) => void calls.push(args);
    leveled({ debug: log, info: log, warn: log, error: log }, 'info').info('hello', { a: 1 });
    expect(calls).toEqual([['[forecasting-sdk] hello', { a: 1 }]]);
  });
});

describe('generic paths with dots', () => {
  it('accepts segments that begin or end with a dot', async () => {
    server.use(http.get(`${BASE}/*`, () => HttpResponse.json({})));
    await makeClient().get('/.well-known/x');
    await makeClient().get('/v1./x');
    expect(seen).toHaveLength(2);
  });
});

describe('waits at their edges', () => {
  const task = (status: string, extra: Record<string, unknown> = {}) => ({ id: 't1', type: 'forecast_task', status, ...extra });

  it('reads once more at the deadline itself, and resolves if the task is final then', async () => {
    let n = 0;
    server.use(http.get(`${BASE}/forecasts/t1`, () => HttpResponse.json(task(++n < 3 ? 'running_subforecasts' : 'completed'), { headers: { 'retry-after': '120' } })));
    const clock = fakeClock();
    await expect(makeClient({ clock }).forecasts.wait('t1', { timeout: 240_000 })).resolves.toMatchObject({ status: 'completed' });
    expect(clock.sleeps).toEqual([120_000, 120_000]);
  });

  it('resolves on a completed task whose forecast has no report yet', async () => {
    server.use(http.get(`${BASE}/forecasts/t1`, () => HttpResponse.json(task('completed', { forecast: { id: 'f1', generatedAt: 'x', forecastData: {} } }))));
    await expect(makeClient({ clock: fakeClock() }).forecasts.wait('t1')).resolves.toMatchObject({ status: 'completed' });
  });

  it('reads 100 tasks in one list request per round', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => `t${i}`);
    server.use(http.get(`${BASE}/forecasts`, () => HttpResponse.json({ type: 'list', hasMore: false, data: ids.map((taskId) => ({ taskId, status: 'completed', forecastData: null })) })));
    await makeClient({ clock: fakeClock() }).forecasts.waitMany(ids, { full: false });
    expect(seen).toHaveLength(1);
  });

  it('clips a long task id in the message about a bulk cancel answer', async () => {
    const id = 'x'.repeat(100);
    server.use(http.post(`${BASE}/forecasts/cancel`, () => HttpResponse.json({ items: [] })));
    const err = (await makeClient().forecasts.cancelMany([id]).catch((e: unknown) => e)) as Error;
    expect(err.message).toBe(`200: expected a result for task ${'x'.repeat(64)} (POST /forecasts/cancel)`);
  });
});
