// Unknown keys pass at run time (the service may add fields), but a typo from plain JavaScript or a
// JSON file would be dropped in silence: the client warns through its logger, once per key.
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../src/index.js';
import { BASE, makeClient, question, useMswServer } from './helpers.js';

const { server, seen } = useMswServer();

function recorder() {
  const warn = vi.fn<Logger['warn']>();
  const logger: Logger = { debug: vi.fn(), info: vi.fn(), warn, error: vi.fn() };
  return { logger, lines: () => warn.mock.calls.map(([line]) => line) };
}

const created = () => http.post(`${BASE}/questions`, () => HttpResponse.json(question('q1'), { status: 201 }));
const task = { type: 'forecast_task', id: 't1', taskId: 't1', status: 'queued', questionId: 'q1', runMode: 'standard', createdAt: '2026-11-22T10:00:00.000Z' };
/** Calls as plain JavaScript would, free of the types. */
const untyped = <T>(value: unknown) => value as T;

describe('unknown keys in params', () => {
  it('warns once, naming the key and the field it resembles, and still sends it as is', async () => {
    server.use(created());
    const { logger, lines } = recorder();
    const client = makeClient({ logger, logLevel: 'warn' });
    const params = untyped<never>({ type: 'binary', title: 'Will it rain?', resolutionCriterea: 'Any rain at Montsouris' });
    await client.questions.create(params);
    await client.questions.create(params);
    expect(lines()).toEqual(['[forecasting-sdk] questions.create: unknown field `resolutionCriterea` sent as is; did you mean `resolutionCriteria`?']);
    expect(await seen[0]!.json()).toMatchObject({ resolutionCriterea: 'Any rain at Montsouris' });
  });

  it('says a __proto__ key is left out, as it is (the body has it nowhere), at the top or nested', async () => {
    server.use(created(), http.post(`${BASE}/forecasts`, () => HttpResponse.json(task, { status: 202 })));
    const { logger, lines } = recorder();
    const client = makeClient({ logger, logLevel: 'warn' });
    // As JSON.parse gives it: an own key named __proto__, not a prototype.
    await client.questions.create(JSON.parse('{"type":"binary","title":"Will it rain?","__proto__":{"polluted":1}}') as never);
    await client.forecasts.create(JSON.parse('{"question":{"type":"binary","title":"Rain?","__proto__":1}}') as never);
    expect(lines()).toEqual(['[forecasting-sdk] questions.create: unknown field `__proto__` left out', '[forecasting-sdk] forecasts.create: unknown field `question.__proto__` left out']);
    for (const request of seen) expect(await request.text()).not.toContain('__proto__');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('says a __proto__ key of a query is sent as is, as it is', async () => {
    server.use(http.get(`${BASE}/questions`, () => HttpResponse.json({ type: 'list', data: [], hasMore: false, nextCursor: null })));
    const { logger, lines } = recorder();
    await makeClient({ logger, logLevel: 'warn' }).questions.list(JSON.parse('{"limit":2,"__proto__":"x"}') as never);
    expect(lines()).toEqual(['[forecasting-sdk] questions.list: unknown field `__proto__` sent as is']);
    expect(new URL(seen[0]!.url).searchParams.get('__proto__')).toBe('x');
  });

  it('warns about a query key too: limt is not limit', async () => {
    server.use(http.get(`${BASE}/questions`, () => HttpResponse.json({ type: 'list', data: [], hasMore: false, nextCursor: null })));
    const { logger, lines } = recorder();
    await makeClient({ logger, logLevel: 'warn' }).questions.list(untyped({ limt: 1 }));
    expect(lines()).toEqual(['[forecasting-sdk] questions.list: unknown field `limt` sent as is; did you mean `limit`?']);
    expect(new URL(seen[0]!.url).searchParams.get('limt')).toBe('1');
  });

  it('names a nested key with its path: question.resolutionCriterea inside forecasts.create', async () => {
    server.use(http.post(`${BASE}/forecasts`, () => HttpResponse.json(task, { status: 202 })));
    const { logger, lines } = recorder();
    await makeClient({ logger, logLevel: 'warn' }).forecasts.create(untyped({ question: { type: 'numeric', title: 'Brent?', lowerBound: 1, upperBound: 2, scaleType: 'linear', resolutionCriterea: 'x' } }));
    expect(lines()).toEqual(['[forecasting-sdk] forecasts.create: unknown field `question.resolutionCriterea` sent as is; did you mean `question.resolutionCriteria`?']);
    // Sent as is, nested too: the body goes as the schema gives it back, which keeps unknown keys.
    expect(await seen.at(-1)!.json()).toMatchObject({ question: { resolutionCriterea: 'x' } });
  });

  it('looks inside batch items, warning once for a key repeated in every item', async () => {
    server.use(
      http.post(`${BASE}/forecasts/batch`, () =>
        HttpResponse.json({ counts: { total: 2, accepted: 2, rejected: 0 }, items: [{ index: 0, status: 'accepted', taskId: 't1' }, { index: 1, status: 'accepted', taskId: 't2' }] }),
      ),
    );
    const { logger, lines } = recorder();
    const item = { question: { type: 'binary', title: 'Rain?', visiblity: 'organization' } };
    await makeClient({ logger, logLevel: 'warn' }).forecasts.createBatch(untyped({ items: [item, item] }));
    expect(lines()).toEqual(['[forecasting-sdk] forecasts.createBatch: unknown field `items.0.question.visiblity` sent as is; did you mean `items.0.question.visibility`?']);
  });

  it('suggests nothing when no known key is a small edit away', async () => {
    server.use(created());
    const { logger, lines } = recorder();
    await makeClient({ logger, logLevel: 'warn' }).questions.create(untyped({ type: 'binary', title: 'Rain?', source: 'import-2027' }));
    expect(lines()).toEqual(['[forecasting-sdk] questions.create: unknown field `source` sent as is']);
  });

  it('clips a huge key and escapes its control characters, so the line stays short and single', async () => {
    server.use(created());
    const { logger, lines } = recorder();
    await makeClient({ logger, logLevel: 'warn' }).questions.create(untyped({ type: 'binary', title: 'Rain?', [`x\n${'k'.repeat(1_000_000)}`]: 1 }));
    const [line] = lines();
    expect(line!.length).toBeLessThan(250);
    expect(line).not.toContain('\n');
    expect(line).toContain('unknown field `x\\nkkk');
  });

  it('escapes what JSON leaves raw but a terminal acts on: bidi overrides, C1 controls, DEL', async () => {
    server.use(created());
    const { logger, lines } = recorder();
    await makeClient({ logger, logLevel: 'warn' }).questions.create(untyped({ type: 'binary', title: 'Rain?', ['evil\u202e\u0085\u007f\u2066x']: 1 }));
    const [line] = lines();
    expect(line).toContain('unknown field `evil\\u202e\\u0085\\u007f\\u2066x`');
    expect(line).not.toMatch(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it('names at most ten unknown keys of one input', async () => {
    server.use(created());
    const { logger, lines } = recorder();
    const junk = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`junk${i}`, i]));
    await makeClient({ logger, logLevel: 'warn' }).questions.create(untyped({ type: 'binary', title: 'Rain?', ...junk }));
    expect(lines()).toHaveLength(10);
  });

  it('says nothing for known keys, nor below the warn level', async () => {
    server.use(created());
    const quiet = recorder();
    await makeClient({ logger: quiet.logger, logLevel: 'warn' }).questions.create({ type: 'binary', title: 'Rain?', resolutionCriteria: 'x', tags: ['a'] });
    const off = recorder();
    await makeClient({ logger: off.logger, logLevel: 'error' }).questions.create(untyped({ type: 'binary', title: 'Rain?', resolutionCriterea: 'x' }));
    expect([...quiet.lines(), ...off.lines()]).toEqual([]);
  });
});

describe('unknownFields', () => {
  it('lists the unknown keys of an operation’s params in the client’s words, for input read from a file', async () => {
    const { unknownFields, ValidationError } = await import('../../src/index.js');
    expect(await unknownFields('questions.create', { type: 'binary', title: 'Rain?', titel: 'x' })).toEqual([
      { field: 'titel', suggestion: 'title', message: 'unknown field `titel` sent as is; did you mean `title`?' },
    ]);
    expect(await unknownFields('questions.create', { type: 'binary', title: 'Rain?' })).toEqual([]);
    expect(await unknownFields('questions.retrieve', { anything: 1 })).toEqual([]);
    await expect(unknownFields('questions.fetch', {})).rejects.toThrow(ValidationError);
    // A __proto__ key: left out of a body, sent in a query, as the client does.
    const proto = (json: string) => JSON.parse(json) as Record<string, unknown>;
    expect((await unknownFields('questions.create', proto('{"type":"binary","title":"Rain?","__proto__":1}')))[0]?.message).toBe('unknown field `__proto__` left out');
    expect((await unknownFields('questions.list', proto('{"__proto__":1}')))[0]?.message).toBe('unknown field `__proto__` sent as is');
  });
});
