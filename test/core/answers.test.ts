// How the SDK reads answers it did not expect: never `undefined`, never a bare TypeError.
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { describe, expect, it } from 'vitest';
import { APIError, InvalidResponseError, NotFoundError } from '../../src/index.js';
import { BASE, makeClient, question, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

const caught = (p: PromiseLike<unknown>) => Promise.resolve(p).then(() => undefined, (e: unknown) => e);

describe('an answer that cannot be read', () => {
  it('rejects a 2xx body that is not JSON with InvalidResponseError carrying the status and clipped text', async () => {
    server.use(http.get(`${BASE}/questions/q1`, () => new HttpResponse('<html>gateway</html>'.repeat(10_000), { status: 200 })));
    const err = await caught(makeClient().questions.retrieve('q1'));
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err).toBeInstanceOf(APIError);
    expect((err as InvalidResponseError).name).toBe('InvalidResponseError');
    expect((err as InvalidResponseError).status).toBe(200);
    expect((err as Error).message).toContain('expected a JSON body');
    expect((err as Error).message).toContain('<html>gateway');
    expect(((err as InvalidResponseError).body as string).length).toBeLessThan(2100);
    expect((err as Error).message.length).toBeLessThan(500);
  });

  it('rejects an empty 200 where a record is expected', async () => {
    server.use(http.get(`${BASE}/questions/q1`, () => new HttpResponse(null, { status: 200 })));
    const err = await caught(makeClient().questions.retrieve('q1'));
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect((err as Error).message).toContain('expected a JSON record, got an empty body');
  });

  it('rejects a 204 where a record is expected', async () => {
    server.use(http.post(`${BASE}/questions`, () => new HttpResponse(null, { status: 204 })));
    const err = await caught(makeClient().questions.create({ type: 'binary', title: 'Will it rain?' }));
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect((err as InvalidResponseError).status).toBe(204);
  });

  it('rejects JSON that is not a record where a record is expected', async () => {
    server.use(http.get(`${BASE}/questions/q1`, () => HttpResponse.json([question('q1')])));
    expect(await caught(makeClient().questions.retrieve('q1'))).toBeInstanceOf(InvalidResponseError);
  });

  it('rejects a list whose data is not an array, or holds something other than objects', async () => {
    server.use(http.get(`${BASE}/questions`, () => HttpResponse.json({ type: 'list', hasMore: false })));
    const err = await caught(makeClient().questions.list());
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect((err as Error).message).toContain('`data` is an array');
    server.use(http.get(`${BASE}/questions`, () => HttpResponse.json({ type: 'list', data: [question('a'), null], hasMore: false })));
    expect((await caught(makeClient().questions.list().toArray()) as Error).message).toContain('data.1 is not');
  });

  it('still accepts an empty body where the operation answers nothing', async () => {
    server.use(http.delete(`${BASE}/questions/q1/watch`, () => new HttpResponse(null, { status: 204 })));
    await expect(makeClient().questions.watch.delete('q1')).resolves.toBeUndefined();
  });
});

describe('answer shapes the spec does not show', () => {
  const results = [
    { taskId: 't1', status: 'cancelled' },
    { taskId: 't2', status: 'already_finished' },
  ];
  const shapes: Record<string, unknown> = {
    'items (the usual form)': { items: results, counts: { total: 2 } },
    results: { results },
    data: { data: results },
    'a bare array': results,
    'ids under id': { items: results.map(({ taskId, status }) => ({ id: taskId, status })) },
    'a map from task id to status': { results: { t1: 'cancelled', t2: 'already_finished' } },
    'ids grouped by outcome': { cancelled: ['t1'], already_finished: ['t2'], rejected: [] },
  };
  for (const [name, body] of Object.entries(shapes)) {
    it(`reads a bulk cancel answer given as ${name}`, async () => {
      server.use(http.post(`${BASE}/forecasts/cancel`, () => HttpResponse.json(body as JsonBodyType)));
      const got = await makeClient().forecasts.cancelMany(['t1', 't2']);
      expect(got.map((r) => [r.taskId, r.status])).toEqual([
        ['t1', 'cancelled'],
        ['t2', 'already_finished'],
      ]);
    });
  }

  it('rejects a bulk cancel answer of no known shape with InvalidResponseError saying what was expected', async () => {
    server.use(http.post(`${BASE}/forecasts/cancel`, () => HttpResponse.json({ ok: true })));
    const err = await caught(makeClient().forecasts.cancelMany(['t1']));
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect((err as Error).message).toContain('expected a result per task');
  });

  it('rejects a bulk cancel answer that leaves a task out, naming it', async () => {
    server.use(http.post(`${BASE}/forecasts/cancel`, () => HttpResponse.json({ items: [{ taskId: 't1', status: 'cancelled' }] })));
    const err = await caught(makeClient().forecasts.cancelMany(['t1', 't2']));
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect((err as Error).message).toContain('expected a result for task t2');
  });

  it('rejects a batch answer without items, or missing an item, instead of crashing', async () => {
    server.use(http.post(`${BASE}/forecasts/batch`, () => HttpResponse.json({ counts: { total: 1 } })));
    expect(await caught(makeClient().forecasts.createMany([{ questionId: 'q1' }]))).toBeInstanceOf(InvalidResponseError);
    server.use(http.post(`${BASE}/forecasts/batch`, () => HttpResponse.json({ items: [{ index: 1, status: 'accepted', taskId: 't' }] })));
    const err = await caught(makeClient().forecasts.createMany([{ questionId: 'q1' }]));
    expect((err as Error).message).toContain('expected a result for item 0');
  });
});

describe('error messages stay short', () => {
  // A longer id is refused before it is sent (hostile-ids.test.ts).
  it('clips an id of 1,024 characters, the longest a path takes, in the message', async () => {
    const id = 'x'.repeat(1024);
    server.use(http.get(`${BASE}/questions/:id`, () => HttpResponse.json({ type: 'error', error: { type: 'not_found', message: 'no such question' } }, { status: 404 })));
    const err = await caught(makeClient().questions.retrieve(id));
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message.length).toBeLessThan(500);
    expect((err as Error).message).toContain('no such question');
  });

  it('clips a 1 MB error message, keeping the whole body on .body', async () => {
    const message = 'm'.repeat(1024 * 1024);
    server.use(http.get(`${BASE}/questions/q1`, () => HttpResponse.json({ type: 'error', error: { type: 'invalid_request_error', message } }, { status: 400 })));
    const err = (await caught(makeClient().questions.retrieve('q1'))) as APIError;
    expect(err.message.length).toBeLessThan(500);
    expect((err.body as { error: { message: string } }).error.message).toHaveLength(1024 * 1024);
  });

  it('clips a 1 MB body that is not JSON', async () => {
    server.use(http.get(`${BASE}/questions/q1`, () => new HttpResponse('e'.repeat(1024 * 1024), { status: 502 })));
    const err = (await caught(makeClient({ maxRetries: 0 }).questions.retrieve('q1'))) as APIError;
    expect(err.message.length).toBeLessThan(500);
    expect(err.body).toHaveLength(1024 * 1024);
  });
});

describe('raw responses', () => {
  it('gives an unread Response from asResponse(), whose json() works', async () => {
    server.use(http.get(`${BASE}/questions/q1`, () => HttpResponse.json(question('q1'), { headers: { 'x-request-id': 'req_1' } })));
    const response = await makeClient().questions.retrieve('q1').asResponse();
    expect(response.bodyUsed).toBe(false);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(((await response.json()) as { id: string }).id).toBe('q1');
  });

  it('gives the raw answer from asResponse() even when the SDK could not read it', async () => {
    server.use(http.get(`${BASE}/questions/q1`, () => new HttpResponse('not json', { status: 200 })));
    expect(await (await makeClient().questions.retrieve('q1').asResponse()).text()).toBe('not json');
  });

  it('keeps the parsed data and a readable response in withResponse(), with one request', async () => {
    server.use(http.get(`${BASE}/questions/q1`, () => HttpResponse.json(question('q1'))));
    const call = makeClient().questions.retrieve('q1');
    const { data, response } = await call.withResponse();
    expect(data.id).toBe('q1');
    expect(((await response.json()) as { id: string }).id).toBe('q1');
    expect(await call).toBe(data);
    expect(seen).toHaveLength(1);
  });

  it('rejects asResponse() with the typed error of an error answer', async () => {
    server.use(http.get(`${BASE}/questions/q1`, () => HttpResponse.json({ type: 'error', error: { type: 'not_found', message: 'no' } }, { status: 404 })));
    expect(await caught(makeClient().questions.retrieve('q1').asResponse())).toBeInstanceOf(NotFoundError);
  });
});

describe('redirects under an https base URL', () => {
  it('never sends the key to an http:// Location', async () => {
    const stolen: Request[] = [];
    server.use(
      http.get(`${BASE}/questions/q1`, () => new HttpResponse(null, { status: 301, headers: { location: 'http://api.test/steal' } })),
      http.get('http://api.test/steal', ({ request }) => {
        stolen.push(request);
        return HttpResponse.json(question('q1'));
      }),
    );
    const err = await caught(makeClient().questions.retrieve('q1'));
    expect((err as APIError).status).toBe(301);
    expect(stolen).toHaveLength(0);
  });
});
