// Batches end to end: createBatch / cancelBatch (25 at most) and createMany / cancelMany (any number).
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { binary, HOUR, useForecastMock } from './_forecasts.js';

const h = useForecastMock();

const questions = (n: number) =>
  Promise.all(Array.from({ length: n }, (_, i) => h.client.questions.create({ ...binary, title: `Batch ${i}` })));
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('forecasts.createBatch', () => {
  it('starts the good items and reports each bad one alone, with counts', async () => {
    const [a, b, c] = await questions(3);
    await h.client.forecasts.create({ questionId: c!.id });
    const result = await h.client.forecasts.createBatch({
      items: [
        { questionId: a!.id, runMode: 'light' },
        { questionId: UNKNOWN },
        { questionId: b!.id, question: binary } as never,
        { questionId: c!.id },
        { question: { type: 'binary', title: 'Inline in a batch?' } },
      ],
    });
    expect(result.counts).toEqual({ total: 5, accepted: 2, rejected: 3 });
    expect(result.items.map((i) => [i.index, i.status])).toEqual([
      [0, 'accepted'],
      [1, 'rejected'],
      [2, 'rejected'],
      [3, 'rejected'],
      [4, 'accepted'],
    ]);
    expect(result.items[1]!.error).toMatchObject({ type: 'not_found' });
    expect(result.items[2]!.error).toMatchObject({ type: 'invalid_request_error', message: expect.stringContaining('items.2.questionId') });
    expect(result.items[3]!.error).toMatchObject({ type: 'forecast_already_running' });
    expect((await h.client.forecasts.retrieve(result.items[0]!.taskId!)).status).toBe('queued');
  });

  it('refuses more than 25 items with ValidationError, sending nothing', async () => {
    const items = Array.from({ length: 26 }, () => ({ questionId: UNKNOWN }));
    const err = await h.client.forecasts.createBatch({ items }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).field).toBe('items');
    expect(h.count('forecasts.createBatch')).toBe(0);
  });

  it('replays a batch sent again with the same idempotency key, starting nothing new', async () => {
    const [a] = await questions(1);
    const first = await h.client.forecasts.createBatch({ items: [{ questionId: a!.id }] }, { idempotencyKey: 'batch-1' });
    const again = await h.client.forecasts.createBatch({ items: [{ questionId: a!.id }] }, { idempotencyKey: 'batch-1' }).withResponse();
    expect(again.data).toEqual(first);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('forecasts.createMany', () => {
  it('sends any number of items in chunks of 25, one key per chunk, outcomes in input order', async () => {
    const qs = await questions(30);
    const items = [...qs.map((q) => ({ questionId: q.id, runMode: 'light' as const })), { questionId: UNKNOWN }, { questionId: qs[0]!.id }];
    const results = await h.client.forecasts.createMany(items);
    expect(results.map((r) => r.index)).toEqual(items.map((_, i) => i));
    expect(results.slice(0, 30).every((r) => r.status === 'accepted' && r.taskId)).toBe(true);
    expect(results[30]).toMatchObject({ status: 'rejected', error: { type: 'not_found' } });
    expect(results[31]).toMatchObject({ status: 'rejected', error: { type: 'forecast_already_running' } });
    const sent = h.mock.service.requests.list({ operation: 'forecasts.createBatch' });
    expect(sent.map((r) => (r.body as { items: unknown[] }).items.length)).toEqual([25, 7]);
    expect(new Set(sent.map((r) => r.idempotencyKey)).size).toBe(2);
  });

  it('derives chunk keys from the caller’s key, so re-running the call replays every chunk', async () => {
    const qs = await questions(27);
    const items = qs.map((q) => ({ questionId: q.id }));
    const first = await h.client.forecasts.createMany(items, { idempotencyKey: 'import-9' });
    const again = await h.client.forecasts.createMany(items, { idempotencyKey: 'import-9' });
    expect(again).toEqual(first);
    expect(h.mock.service.requests.list({ operation: 'forecasts.createBatch' }).map((r) => r.idempotencyKey)).toEqual([
      'import-9:0',
      'import-9:1',
      'import-9:0',
      'import-9:1',
    ]);
    expect((await h.client.forecasts.list({ limit: 100 })).data).toHaveLength(27);
  });
});

describe('forecasts.cancelBatch and cancelMany', () => {
  it('reports cancelled, already_finished and rejected per task', async () => {
    const [a, b] = await questions(2);
    const done = await h.client.forecasts.create({ questionId: a!.id, runMode: 'light' });
    h.mock.clock.advance(HOUR);
    const running = await h.client.forecasts.create({ questionId: b!.id });
    const result = await h.client.forecasts.cancelBatch({ taskIds: [running.id, done.id, UNKNOWN] });
    expect(result.items).toEqual([
      { taskId: running.id, status: 'cancelled' },
      { taskId: done.id, status: 'already_finished' },
      { taskId: UNKNOWN, status: 'rejected', error: expect.objectContaining({ type: 'not_found' }) },
    ]);
    expect((await h.client.forecasts.retrieve(running.id)).status).toBe('cancelled');
    expect((await h.client.forecasts.retrieve(done.id)).status).toBe('completed');
  });

  it('refuses more than 25 task ids with ValidationError, sending nothing', async () => {
    const err = await h.client.forecasts.cancelBatch({ taskIds: Array.from({ length: 26 }, () => UNKNOWN) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(h.count('forecasts.cancelBatch')).toBe(0);
  });

  it('cancels any number of tasks in chunks of 25, outcomes in input order', async () => {
    const qs = await questions(30);
    const ids = (await h.client.forecasts.createMany(qs.map((q) => ({ questionId: q.id })))).map((r) => r.taskId!);
    const input = [UNKNOWN, ...ids];
    const results = await h.client.forecasts.cancelMany(input);
    expect(results.map((r) => r.taskId)).toEqual(input);
    expect(results.map((r) => r.status)).toEqual(['rejected', ...ids.map(() => 'cancelled')]);
    expect(h.count('forecasts.cancelBatch')).toBe(2);
    expect((await h.client.forecasts.list({ status: 'cancelled', limit: 100 })).data).toHaveLength(30);
  });
});
