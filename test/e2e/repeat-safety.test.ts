// Which POSTs are sent again after they may have reached the service, over HTTP against the mock:
// a key keeps a start from running twice only where the service reads it (four operations; others
// ignore the header), and a cancel is safe to repeat by the spec's word (it was never retried).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';
import { mockClient } from './_mock.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ clock: new ManualClock() });
});
afterAll(() => mock.close());
beforeEach(() => mock.service.reset());

const client = () => mockClient(mock, mock.apiKey, { retryBackoff: { initialDelay: 1, maxDelay: 1 } });
const title = 'Will it rain in Paris on 1 June 2027?';

describe('a POST that may have reached the service', () => {
  it('is not sent again by client.post with a key to an operation that ignores keys: one question, and the failure', async () => {
    mock.service.faults.add({ operation: 'questions.create', drop: true, afterHandling: true });
    const err = await client().post('/questions', { body: { type: 'binary', title }, idempotencyKey: 'job-42' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'APIConnectionError' });
    expect(mock.service.requests.count({ operation: 'questions.create' })).toBe(1);
    expect((await client().questions.list()).data.filter((q) => q.title === title)).toHaveLength(1);
  });

  it('is sent again by client.post with a key to POST /forecasts, which replays it: one task', async () => {
    const q = await client().questions.create({ type: 'binary', title });
    mock.service.faults.add({ operation: 'forecasts.create', drop: true, afterHandling: true });
    const task = (await client().post('/forecasts', { body: { questionId: q.id }, idempotencyKey: 'job-43' })) as { id: string };
    expect(mock.service.requests.count({ operation: 'forecasts.create' })).toBe(2);
    expect((await client().forecasts.list()).data.map((t) => t.taskId)).toEqual([task.id]);
  });

  it('is sent again when it is a cancel (typed or generic), which the spec says is safe to repeat', async () => {
    const q = await client().questions.create({ type: 'binary', title });
    const { id } = await client().forecasts.create({ questionId: q.id });
    mock.service.faults.add({ operation: 'forecasts.cancel', status: 500, times: 1 });
    expect((await client().forecasts.cancel(id)).status).toBe('cancelled');
    mock.service.faults.add({ operation: 'forecasts.cancel', drop: true, afterHandling: true, times: 1 });
    expect(await client().post(`/forecasts/${id}/cancel`)).toMatchObject({ status: 'cancelled' });
    mock.service.faults.add({ operation: 'forecasts.cancelBatch', status: 503, times: 1 });
    const [one] = await client().forecasts.cancelMany([id]);
    expect(one?.taskId).toBe(id);
    expect(mock.service.requests.count({ operation: 'forecasts.cancel' })).toBe(4);
    expect(mock.service.requests.count({ operation: 'forecasts.cancelBatch' })).toBe(2);
  });
});
