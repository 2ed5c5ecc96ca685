// The mock service applies the date-bound rule on receipt, over HTTP: a bound that can only be
// milliseconds answers 400 invalid_request_error naming the field (the same schema as the SDK's).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';
import { mockClient, rawRequest } from './_mock.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ clock: new ManualClock() });
});
afterAll(() => mock.close());
beforeEach(() => mock.service.reset());

const MS_2027 = Date.UTC(2027, 0, 1);
const S_2027 = MS_2027 / 1000;
const S_2028 = Date.UTC(2028, 0, 1) / 1000;
const raw = (method: string, path: string, body: unknown) => rawRequest(mock, method, path, body, mock.apiKey);

describe('the mock refuses date bounds in milliseconds', () => {
  it('answers 400 invalid_request_error naming lowerBound on create', async () => {
    const res = await raw('POST', '/questions', { type: 'date', title: 'When?', lowerBound: MS_2027, upperBound: S_2028 });
    expect(res.status).toBe(400);
    expect(res.body.error?.type).toBe('invalid_request_error');
    expect(res.body.error?.message).toMatch(/^lowerBound: looks like milliseconds; date bounds are Unix seconds/);
  });

  it('answers 400 naming upperBound on an edit of a date question (the SDK cannot know the type there)', async () => {
    const created = await mockClient(mock, mock.apiKey).questions.create({ type: 'date', title: 'When?', lowerBound: S_2027, upperBound: S_2028 });
    const res = await raw('PATCH', `/questions/${created.id}`, { upperBound: Date.UTC(2028, 0, 1) });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toMatch(/^upperBound: looks like milliseconds/);
  });

  it('rejects a batch item whose inline question is in milliseconds, naming it', async () => {
    const res = await raw('POST', '/forecasts/batch', { items: [{ question: { type: 'date', title: 'When?', lowerBound: S_2027, upperBound: Date.UTC(2028, 0, 1) } }] });
    expect(res.status).toBe(202);
    const [item] = res.body['items'] as Array<{ status: string; error?: { message: string } }>;
    expect(item?.status).toBe('rejected');
    expect(item?.error?.message).toMatch(/question\.upperBound: looks like milliseconds/);
  });

  it('answers 400 naming fields.lowerBound for a date template', async () => {
    const res = await raw('POST', '/question-templates', {
      scope: 'personal',
      name: 'Bridge',
      questionType: 'date',
      fields: { title: 'When will {bridge} reopen?', lowerBound: MS_2027, upperBound: S_2028 },
      blanks: [{ key: 'bridge' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toMatch(/^fields\.lowerBound: looks like milliseconds/);
  });

  it('still takes bounds in seconds', async () => {
    const res = await raw('POST', '/questions', { type: 'date', title: 'When?', lowerBound: S_2027, upperBound: S_2028 });
    expect(res.status).toBe(201);
  });
});

// A batch item is checked by the service, item by item; its inline question's `Date` bounds were
// sent as ISO text (JSON's own rendering of a Date), so every such item came back rejected.
describe('a Date bound in a batch item, over HTTP', () => {
  const item = { question: { type: 'date' as const, title: 'When will the bridge reopen?', lowerBound: new Date(MS_2027), upperBound: new Date(S_2028 * 1000 + 999) } };
  const sentBounds = () => {
    const body = mock.service.requests.last()?.body as { items: Array<{ question: { lowerBound: unknown; upperBound: unknown } }> };
    return body.items.map((i) => [i.question.lowerBound, i.question.upperBound]);
  };

  it('is sent as whole seconds by createBatch, createMany and runMany, and the item starts', async () => {
    const client = mockClient(mock, mock.apiKey);
    const batch = await client.forecasts.createBatch({ items: [item, { ...item }] });
    expect(batch.items.map((i) => i.status)).toEqual(['accepted', 'accepted']);
    expect(sentBounds()).toEqual([[S_2027, S_2028], [S_2027, S_2028]]);
    const [many] = await client.forecasts.createMany([item]);
    expect(many?.status).toBe('accepted');
    expect(sentBounds()).toEqual([[S_2027, S_2028]]);
    const run = client.forecasts.runMany([item])[Symbol.asyncIterator]();
    // The run sends its batch before its first result: the log holds it once the first read begins.
    void run.next();
    await expect.poll(() => mock.service.requests.list().some((r) => r.path.endsWith('/forecasts/batch'))).toBe(true);
    const started = mock.service.requests.list().find((r) => r.path.endsWith('/forecasts/batch'))!;
    expect((started.body as { items: Array<{ question: { lowerBound: unknown } }> }).items[0]?.question.lowerBound).toBe(S_2027);
    await run.return?.();
  });

  // The Date branch skipped the range the number branch checks: a Date past the year 5138 went to
  // the service as seconds, which it refused as milliseconds ("… or pass a Date").
  it('refuses a Date further than a date bound may be, before sending, in a create and in a batch item', async () => {
    const client = mockClient(mock, mock.apiKey);
    const before = mock.service.requests.count();
    for (const far of [new Date('6000-01-01T00:00:00Z'), new Date(-8.64e15)]) {
      const created = await client.questions.create({ ...item.question, upperBound: far }).catch((e: unknown) => e);
      expect(created).toMatchObject({ name: 'ValidationError', issues: expect.arrayContaining([{ field: 'upperBound', message: 'must be a Date between the years -1199 and 5138' }]) });
      const batch = await client.forecasts.createBatch({ items: [{ ...item, question: { ...item.question, lowerBound: far } }] }).catch((e: unknown) => e);
      expect(batch).toMatchObject({ name: 'ValidationError', field: 'items.0.question.lowerBound' });
    }
    expect(mock.service.requests.count()).toBe(before);
  });

  // Converting the bounds made every item's `question` an object to check: one item whose question
  // was none refused the whole batch, where the service rejects that item alone.
  it('sends an item whose question is no object as it is, for the service to reject alone', async () => {
    const { items } = await mockClient(mock, mock.apiKey).forecasts.createBatch({ items: [item, { question: 'not-a-question' } as never] });
    expect(items.map((i) => i.status)).toEqual(['accepted', 'rejected']);
  });

  it('leaves every other field of the item to the service, and refuses an invalid Date before sending', async () => {
    const client = mockClient(mock, mock.apiKey);
    const { items } = await client.forecasts.createBatch({ items: [{ ...item, question: { ...item.question, lowerBound: MS_2027 } }] });
    expect(items[0]?.error?.message).toMatch(/question\.lowerBound: looks like milliseconds/);
    const before = mock.service.requests.count();
    const err = await client.forecasts.createBatch({ items: [{ ...item, question: { ...item.question, upperBound: new Date(NaN) } }] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ValidationError', field: 'items.0.question.upperBound', message: 'items.0.question.upperBound: is an invalid Date' });
    expect(mock.service.requests.count()).toBe(before);
  });
});
