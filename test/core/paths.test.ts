// Ids in paths: what is refused before sending (a wrong type, a path trick, another route's name)
// and what goes through on every route, deep ones included.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { buildPath, defineOperations } from '../../src/core/operation.js';
import { ValidationError } from '../../src/index.js';
import { BASE, makeClient, question, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

const refusal = (promise: PromiseLike<unknown>) =>
  Promise.resolve(promise).then(
    () => {
      throw new Error('expected a refusal');
    },
    (err: unknown) => {
      expect(err).toBeInstanceOf(ValidationError);
      return err as ValidationError;
    },
  );

describe('ids that are not text', () => {
  it.each([
    [42, 'number'],
    [undefined, 'undefined'],
    [null, 'object'],
    [{ id: 'q1' }, 'object'],
  ])('refuses the id %j with a ValidationError naming the field and the type, sending nothing', async (id, type) => {
    const err = await refusal(makeClient().questions.retrieve(id as unknown as string));
    expect(err.field).toBe('questionId');
    expect(err.message).toBe(`questionId: must be a non-empty string, got ${type}`);
    expect(seen).toHaveLength(0);
  });

  it('says so when the id is an empty string', async () => {
    const err = await refusal(makeClient().questions.retrieve(''));
    expect(err.message).toBe('questionId: must be a non-empty string, got an empty string');
  });

  it('names the second id of a route with two', async () => {
    const err = await refusal(makeClient().forecasts.chat.retrieve('t1', 7 as unknown as string));
    expect(err.field).toBe('threadId');
    expect(seen).toHaveLength(0);
  });

  it.each(['.', '..', 'a/b', 'a?b', 'a#b', 'a\\b'])('refuses the path trick %j, saying what an id must not hold', async (id) => {
    const err = await refusal(makeClient().forecasts.chat.retrieve('t1', id));
    expect(err.field).toBe('threadId');
    expect(err.message).toBe('threadId: must not be "." or ".." or contain "/", "?", "#" or "\\"');
  });
});

describe('ids that name another route', () => {
  it('refuses an id equal to a sibling route’s segment, saying why', async () => {
    const err = await refusal(makeClient().forecasts.cancel('batch'));
    expect(err.field).toBe('taskId');
    expect(err.message).toBe('taskId: "batch" is not an id: it names another route');
    expect(seen).toHaveLength(0);
  });

  it('refuses the first id of a deeper route when it would turn into a sibling route', async () => {
    const err = await refusal(makeClient().forecasts.chat.retrieve('chat', 'th1'));
    expect(err.field).toBe('taskId');
  });

  it('accepts, on deeper routes and in other places, ids that are literal segments elsewhere', async () => {
    server.use(
      http.get(`${BASE}/forecasts/:taskId/chat/:threadId`, ({ params }) => HttpResponse.json({ id: params['threadId'], messages: [] })),
      http.get(`${BASE}/questions/:id/schedule`, () => HttpResponse.json({ enabled: false })),
      http.get(`${BASE}/questions/:id`, ({ params }) => HttpResponse.json(question(String(params['id'])))),
    );
    const client = makeClient();
    // `chat`, `batch` and `messages` are reserved only where they would reach another route.
    await client.forecasts.chat.retrieve('t1', 'chat');
    await client.forecasts.chat.retrieve('t1', 'messages');
    await client.forecasts.chat.retrieve('batch', 'cancel');
    await client.questions.retrieve('chat');
    await client.questions.retrieve('cancel');
    await client.questions.schedule.retrieve('normalize');
    expect(seen.map((r) => new URL(r.url).pathname.replace('/api/v1/external', ''))).toEqual([
      '/forecasts/t1/chat/chat',
      '/forecasts/t1/chat/messages',
      '/forecasts/batch/chat/cancel',
      '/questions/chat',
      '/questions/cancel',
      '/questions/normalize/schedule',
    ]);
  });
});

describe('declared routes', () => {
  const ops = defineOperations('boxes', {
    retrieve: { method: 'GET', path: '/boxes/{box_id}', scope: 'questions:read' },
    search: { method: 'GET', path: '/boxes/search', scope: 'questions:read' },
    part: { method: 'GET', path: '/boxes/{box_id}/parts/{part_id}', scope: 'questions:read' },
    latest: { method: 'GET', path: '/boxes/{box_id}/parts/latest', scope: 'questions:read' },
    shelf: { method: 'GET', path: '/shelves/{shelf_id}/parts/{part_id}', scope: 'questions:read' },
    loose: { method: 'GET', path: '/loose/parts/spare', scope: 'questions:read' },
  });

  it('reserves for each id exactly the literal segments of routes that share the path before it', () => {
    const reserved = (name: keyof typeof ops) =>
      Object.fromEntries([...ops[name].reservedSegments].map(([param, set]) => [param, [...set].sort()]));
    expect(reserved('retrieve')).toEqual({ box_id: ['search'] });
    expect(reserved('part')).toEqual({ box_id: ['search'], part_id: ['latest'] });
    expect(reserved('shelf')).toEqual({});
    expect(ops.part.pathParams).toEqual(['box_id', 'part_id']);
  });

  it('fills the path with each id, encoded, between the literal parts', () => {
    expect(buildPath(ops.part, ['b 1', 'p%2'])).toBe('/boxes/b%201/parts/p%252');
    expect(buildPath(ops.shelf, ['latest', 'search'])).toBe('/shelves/latest/parts/search');
    expect(buildPath(ops.search, [])).toBe('/boxes/search');
  });

  it('refuses too few or too many path ids, naming the method and its parameters', () => {
    expect(() => buildPath(ops.part, ['b1'])).toThrow(new ValidationError('boxes.part takes 2 path parameter(s) (box_id, part_id), got 1'));
    expect(() => buildPath(ops.retrieve, ['b1', 'p1'])).toThrow(/boxes\.retrieve takes 1 path parameter\(s\) \(box_id\), got 2/);
    expect(() => buildPath(ops.search, ['x'])).toThrow(ValidationError);
  });

  it('names the field of a snake_case parameter in camelCase', () => {
    expect(() => buildPath(ops.part, ['b1', 'latest'])).toThrow(expect.objectContaining({ field: 'partId' }));
  });
});
