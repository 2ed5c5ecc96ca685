// The client's steps for a coordinator, against msw and a recording coordinator (the Redis one is
// tested on a real Redis in limits.test.ts): slots around a start's attempts, the shared budget on
// each attempt, model calls, and slots freed by answers that show tasks final.
import { createHash } from 'node:crypto';
import { inspect } from 'node:util';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Coordinator, CoordinatorAttachment, HoldOptions, SlotHold, TaskFinalNotice, WindowEnd } from '../../src/index.js';
import { ForecastingClient, RateLimitError, ValidationError } from '../../src/index.js';
import { apiError, BASE, fakeClock, KEY, makeClient, useMswServer } from '../core/helpers.js';

const { server, seen } = useMswServer();

/** A coordinator that writes down what the client asks of it, in order, and grants everything at once. */
class RecordingCoordinator implements Coordinator {
  readonly log: string[] = [];
  readonly attachments: CoordinatorAttachment[] = [];
  readonly settled: TaskFinalNotice[][] = [];
  reconcile: HoldOptions['reconcile'];
  /** When set, `hold` and `take` wait until the signal aborts. */
  blockHold = false;
  blockTake = false;
  /** When set, `take` resolves to this end hook of its window (a coordinator that counts from the attempt's end). */
  endOfTake: ((window: string) => unknown) | undefined;

  attach(attachment: CoordinatorAttachment): void {
    this.attachments.push(attachment);
  }
  take(window: string, signal?: AbortSignal): Promise<WindowEnd | void> {
    this.log.push(`take ${window}`);
    if (this.blockTake) return blockUntil(signal);
    const end = this.endOfTake;
    // Returned as is: an async hook hands back its promise, as a custom coordinator may.
    return Promise.resolve(end && ((() => end(window)) as WindowEnd));
  }
  async hold(count: number, options: HoldOptions = {}): Promise<SlotHold> {
    this.log.push(`hold ${count}`);
    this.reconcile = options.reconcile;
    if (this.blockHold) await blockUntil(options.signal);
    return {
      count,
      bind: async (taskIds) => void this.log.push(`bind ${taskIds.join(',')}`),
      release: async () => void this.log.push('release'),
    };
  }
  async settle(notices: readonly TaskFinalNotice[]): Promise<void> {
    this.log.push(`settle ${notices.map((n) => n.taskId).join(',')}`);
    this.settled.push([...notices]);
  }
  watch(): () => void {
    return () => undefined;
  }
  receiving(): boolean {
    return false;
  }
  stats(): never {
    throw new Error('not used');
  }
}

function blockUntil(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
}

/** A client on a recording coordinator; the server's answers are logged as `POST /path` in the same log. */
function coordinated(): { client: ForecastingClient; coordinator: RecordingCoordinator } {
  const coordinator = new RecordingCoordinator();
  server.events.removeAllListeners('request:start');
  server.events.on('request:start', ({ request }) => {
    seen.push(request.clone());
    coordinator.log.push(`${request.method} ${new URL(request.url).pathname.replace('/api/v1/external', '')}`);
  });
  return { client: makeClient({ coordinator, clock: fakeClock() }), coordinator };
}

const task = (id: string, status = 'queued') => ({ id, type: 'forecast_task', status, createdAt: '2026-11-22T10:00:00.000Z', question: { id: 'q1' }, pollingUrl: `/forecasts/${id}` });
const listItem = (taskId: string, status: string) => ({ taskId, status, forecastData: null });

describe('active-forecast slots around a start', () => {
  it('takes the slots before the first attempt and binds them to the started task', async () => {
    const { client, coordinator } = coordinated();
    server.use(http.post(`${BASE}/forecasts`, () => HttpResponse.json(task('t1'), { status: 202 })));
    await client.forecasts.create({ questionId: 'q1' });
    expect(coordinator.log).toEqual(['hold 1', 'take requests', 'POST /forecasts', 'bind t1']);
  });

  it('keeps one hold across the retries of the same start', async () => {
    const { client, coordinator } = coordinated();
    let calls = 0;
    server.use(http.post(`${BASE}/forecasts`, () => (++calls === 1 ? apiError(503, 'overloaded_error') : HttpResponse.json(task('t1'), { status: 202 }))));
    await client.forecasts.create({ questionId: 'q1' });
    expect(coordinator.log).toEqual(['hold 1', 'take requests', 'POST /forecasts', 'take requests', 'POST /forecasts', 'bind t1']);
  });

  it('gives the slots back when the start is refused for good', async () => {
    const { client, coordinator } = coordinated();
    server.use(http.post(`${BASE}/forecasts`, () => apiError(409, 'forecast_already_running')));
    await expect(client.forecasts.create({ questionId: 'q1' })).rejects.toMatchObject({ status: 409 });
    expect(coordinator.log).toEqual(['hold 1', 'take requests', 'POST /forecasts', 'release']);
    // A 400 is a refusal too (the lowest 4xx).
    coordinator.log.length = 0;
    server.use(http.post(`${BASE}/forecasts`, () => apiError(400, 'invalid_request_error')));
    await expect(client.forecasts.create({ questionId: 'q1' })).rejects.toMatchObject({ status: 400 });
    expect(coordinator.log).toEqual(['hold 1', 'take requests', 'POST /forecasts', 'release']);
  });

  it('keeps the slots pending when the start may have reached the service (a 5xx, a broken connection): the coordinator frees them later', async () => {
    const { client, coordinator } = coordinated();
    server.use(http.post(`${BASE}/forecasts`, () => apiError(500, 'api_error')));
    await expect(client.forecasts.create({ questionId: 'q1' }, { maxRetries: 0 })).rejects.toMatchObject({ status: 500 });
    server.use(http.post(`${BASE}/forecasts`, () => HttpResponse.error()));
    await expect(client.forecasts.create({ questionId: 'q1' }, { maxRetries: 0 })).rejects.toThrow();
    expect(coordinator.log.filter((l) => l === 'release' || l.startsWith('bind'))).toEqual([]);
  });

  it('warns once for a failing take and once for a failing hold, however many calls meet them, naming no key', async () => {
    const coordinator = new RecordingCoordinator();
    coordinator.hold = () => Promise.reject(new Error(`down at redis://user:${KEY}@10.0.0.1`));
    coordinator.take = () => Promise.reject(new Error('down'));
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => void warnings.push(m), error() {} };
    const client = makeClient({ coordinator, clock: fakeClock(), logger, logLevel: 'warn' });
    server.use(http.post(`${BASE}/forecasts`, () => HttpResponse.json(task('t1'), { status: 202 })));
    for (let i = 0; i < 3; i++) await client.forecasts.create({ questionId: 'q1' });
    expect(warnings).toHaveLength(2);
    expect(warnings.join('\n')).toMatch(/take\(\) failed[^]*hold\(\) failed|hold\(\) failed[^]*take\(\) failed/);
    for (const w of warnings) {
      expect(w).toMatch(/^\[forecasting-sdk\] the coordinator's (take|hold)\(\) failed/);
      expect(w).not.toContain(KEY);
      expect(w).not.toContain('10.0.0.1');
    }
  });

  it('starts uncoordinated when a coordinator fails (throws, rejects) rather than failing the call; an abort still ends it', async () => {
    const { client, coordinator } = coordinated();
    coordinator.hold = () => {
      throw new TypeError('broken coordinator');
    };
    coordinator.take = () => Promise.reject(new Error('down'));
    coordinator.settle = () => {
      throw new TypeError('broken settle');
    };
    server.use(http.post(`${BASE}/forecasts`, () => HttpResponse.json(task('t1', 'completed'), { status: 202 })));
    await expect(client.forecasts.create({ questionId: 'q1' })).resolves.toMatchObject({ id: 't1' });
    const { client: second, coordinator: hanging } = coordinated();
    hanging.blockHold = true;
    const controller = new AbortController();
    const started = second.forecasts.create({ questionId: 'q1' }, { signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(started).rejects.toThrow('stop');
  });

  it('holds a slot per batch item and binds only the accepted ones (a refused item frees its slot)', async () => {
    const { client, coordinator } = coordinated();
    server.use(
      http.post(`${BASE}/forecasts/batch`, () =>
        HttpResponse.json({
          counts: { total: 2, accepted: 1, rejected: 1 },
          items: [
            { index: 0, status: 'accepted', taskId: 't1' },
            { index: 1, status: 'rejected', error: { type: 'forecast_already_running', message: 'busy' } },
          ],
        }),
      ),
    );
    await client.forecasts.createMany([{ questionId: 'q1' }, { questionId: 'q2' }]);
    expect(coordinator.log).toEqual(['hold 2', 'take requests', 'POST /forecasts/batch', 'bind t1']);
  });

  it('binds a task named twice by a hostile batch answer once (its second slot goes back)', async () => {
    const { client, coordinator } = coordinated();
    server.use(
      http.post(`${BASE}/forecasts/batch`, () =>
        HttpResponse.json({
          counts: { total: 2, accepted: 2, rejected: 0 },
          items: [
            { index: 0, status: 'accepted', taskId: 't1' },
            { index: 1, status: 'accepted', taskId: 't1' },
          ],
        }),
      ),
    );
    await client.forecasts.createMany([{ questionId: 'q1' }, { questionId: 'q2' }]).catch(() => undefined);
    expect(coordinator.log.filter((l) => l.startsWith('bind'))).toEqual(['bind t1']);
  });

  it("holds a slot for a question's forecast and one per question of a decision's forecasts", async () => {
    const { client, coordinator } = coordinated();
    server.use(
      http.post(`${BASE}/questions/q1/forecasts`, () => HttpResponse.json(task('t1'), { status: 202 })),
      http.post(`${BASE}/decisions/d1/forecasts`, () =>
        HttpResponse.json({ creditsCharged: 2, items: [{ questionId: 'q1', status: 'accepted', taskId: 't2' }, { questionId: 'q2', status: 'accepted', taskId: 't3' }] }, { status: 202 }),
      ),
    );
    await client.questions.forecasts.create('q1');
    await client.decisions.forecasts.create('d1', { questionIds: ['q1', 'q2', 'q1'], maxTotalCredits: 10 });
    // Without questionIds the decision forecasts all its questions, a count the call does not tell: it holds the service's 50.
    await client.decisions.forecasts.create('d1', { maxTotalCredits: 10 });
    expect(coordinator.log.filter((l) => /^(hold|bind)/.test(l))).toEqual(['hold 1', 'bind t1', 'hold 2', 'bind t2,t3', 'hold 50', 'bind t2,t3']);
  });

  it('ends a start aborted while it waits for slots with the abort reason, nothing sent', async () => {
    const { client, coordinator } = coordinated();
    coordinator.blockHold = true;
    const controller = new AbortController();
    const started = client.forecasts.create({ questionId: 'q1' }, { signal: controller.signal });
    controller.abort(new Error('shutting down'));
    await expect(started).rejects.toThrow('shutting down');
    expect(seen).toHaveLength(0);
  });

  it('asks the service which held tasks are final, by the forecasts list filtered by task ids', async () => {
    const { client, coordinator } = coordinated();
    server.use(
      http.post(`${BASE}/forecasts`, () => HttpResponse.json(task('t9'), { status: 202 })),
      http.get(`${BASE}/forecasts`, () => HttpResponse.json({ data: [listItem('t1', 'completed'), listItem('t2', 'running_subforecasts')], hasMore: false, nextCursor: null })),
    );
    await client.forecasts.create({ questionId: 'q1' });
    expect(await coordinator.reconcile!(['t1', 't2'])).toEqual(['t1']);
    expect(new URL(seen.at(-1)!.url).searchParams.get('taskId')).toBe('t1,t2');
  });
});

describe('the shared budget', () => {
  it('takes a slot of the shared request window on every attempt, instead of the in-process budget', async () => {
    const { client, coordinator } = coordinated();
    let calls = 0;
    server.use(http.get(`${BASE}/forecasts/t1`, () => (++calls === 1 ? apiError(503, 'overloaded_error') : HttpResponse.json(task('t1')))));
    await client.forecasts.retrieve('t1');
    expect(coordinator.log).toEqual(['take requests', 'GET /forecasts/t1', 'take requests', 'GET /forecasts/t1']);
  });

  it("counts decisions' model calls in their own window, and a link only when it is conditional", async () => {
    const { client, coordinator } = coordinated();
    server.use(
      http.post(`${BASE}/decisions/d1/summary/refresh`, () => HttpResponse.json({})),
      http.post(`${BASE}/decisions/d1/links`, () => HttpResponse.json({}, { status: 201 })),
    );
    await client.decisions.summary.refresh('d1');
    await client.decisions.links.create('d1', { fromNodeId: 'n1', toNodeId: 'n2', kind: 'related' });
    await client.decisions.links.create('d1', { fromNodeId: 'n1', toNodeId: 'n2', kind: 'conditional' });
    expect(coordinator.log.filter((l) => l.startsWith('take'))).toEqual(['take modelCalls', 'take requests', 'take requests', 'take modelCalls', 'take requests']);
  });

  it('counts drafting, chat messages and webhook tests and replays each in its own window, and a chat read in none', async () => {
    const { client, coordinator } = coordinated();
    server.use(
      http.post(`${BASE}/*`, () => HttpResponse.json({})),
      http.get(`${BASE}/forecasts/t1/chat/th1`, () => HttpResponse.json({})),
    );
    const calls: [string, () => Promise<unknown>][] = [
      ['drafting', () => client.questions.normalize({ title: 'Will it rain?' })],
      ['drafting', () => client.questions.clarify({ title: 'Will it rain?', answer: 'In Paris' })],
      ['drafting', () => client.questions.revise({ question: {}, guidance: 'Name the station' })],
      ['chatMessages', () => client.forecasts.chat.create('t1', { message: 'Why?' })],
      ['webhookTests', () => client.webhooks.test('w1')],
      ['webhookTests', () => client.webhooks.deliveries.replay('d1')],
      ['none', () => client.forecasts.chat.retrieve('t1', 'th1')],
    ];
    for (const [window, call] of calls) {
      coordinator.log.length = 0;
      await call();
      expect(coordinator.log.filter((l) => l.startsWith('take'))).toEqual(window === 'none' ? ['take requests'] : [`take ${window}`, 'take requests']);
    }
  });

  it("tells each window's take when its attempt has ended, answered or failed, so the entry can count from then", async () => {
    const { client, coordinator } = coordinated();
    coordinator.endOfTake = (window) => void coordinator.log.push(`end ${window}`);
    let calls = 0;
    server.use(http.post(`${BASE}/decisions/d1/summary/refresh`, () => (++calls === 1 ? apiError(503, 'overloaded_error') : HttpResponse.json({}))));
    await client.decisions.summary.refresh('d1');
    const attempt = ['take modelCalls', 'take requests', 'POST /decisions/d1/summary/refresh', 'end modelCalls', 'end requests'];
    expect(coordinator.log).toEqual([...attempt, ...attempt]);
  });

  it("answers the call when a coordinator's end hook throws or rejects (an async hook), leaving no unhandled rejection", async () => {
    const { client, coordinator } = coordinated();
    server.use(http.get(`${BASE}/forecasts/t1`, () => HttpResponse.json(task('t1'))));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      coordinator.endOfTake = () => {
        throw new Error('hook broke');
      };
      await expect(client.forecasts.retrieve('t1')).resolves.toMatchObject({ id: 't1' });
      coordinator.endOfTake = async () => {
        throw new Error('async hook broke');
      };
      await expect(client.forecasts.retrieve('t1')).resolves.toMatchObject({ id: 't1' });
      // Unhandled rejections are reported after a turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('ends a call aborted while it waits for the budget with the abort reason, nothing sent', async () => {
    const { client, coordinator } = coordinated();
    coordinator.blockTake = true;
    const controller = new AbortController();
    const read = client.forecasts.retrieve('t1', {}, { signal: controller.signal });
    controller.abort(new Error('no longer needed'));
    await expect(read).rejects.toThrow('no longer needed');
    expect(seen).toHaveLength(0);
  });

  it('meets a 429 like any client when the coordinator lets it through (the retry takes the budget again)', async () => {
    const { client, coordinator } = coordinated();
    server.use(http.get(`${BASE}/forecasts/t1`, () => apiError(429, 'rate_limit_error', 'slow down', { headers: { 'retry-after': '1' } })));
    await expect(client.forecasts.retrieve('t1', {}, { maxRetries: 1 })).rejects.toBeInstanceOf(RateLimitError);
    expect(coordinator.log.filter((l) => l.startsWith('take'))).toHaveLength(2);
  });
});

describe('slots freed by answers that show tasks final', () => {
  it('settles a task read final, a list page’s final tasks and a cancel result, each task once', async () => {
    const { client, coordinator } = coordinated();
    server.use(
      http.get(`${BASE}/forecasts/t1`, () => HttpResponse.json(task('t1', 'completed'))),
      http.get(`${BASE}/forecasts/t2`, () => HttpResponse.json(task('t2', 'running_subforecasts'))),
      http.get(`${BASE}/forecasts`, () => HttpResponse.json({ data: [listItem('t1', 'completed'), listItem('t3', 'failed'), listItem('t4', 'queued')], hasMore: false, nextCursor: null })),
      http.post(`${BASE}/forecasts/t5/cancel`, () => HttpResponse.json(task('t5', 'cancelled'))),
      http.post(`${BASE}/forecasts/cancel`, () => HttpResponse.json({ items: [{ taskId: 't6', status: 'already_finished' }, { taskId: 't7', status: 'rejected' }] })),
    );
    await client.forecasts.retrieve('t1');
    await client.forecasts.retrieve('t2');
    await client.forecasts.list({ taskId: 't1,t3,t4' });
    await client.forecasts.cancel('t5');
    await client.forecasts.cancelBatch({ taskIds: ['t6', 't7'] });
    expect(coordinator.settled).toEqual([[{ taskId: 't1', status: 'completed' }], [{ taskId: 't3', status: 'failed' }], [{ taskId: 't5', status: 'cancelled' }], [{ taskId: 't6' }]]);
  });
});

describe('the coordinator option', () => {
  it("attaches once with the key's digest made by the coordinator's own hash, the client clock and its logger; the key goes nowhere", async () => {
    const warnings: string[] = [];
    const coordinator = new RecordingCoordinator();
    const clock = fakeClock();
    const client = new ForecastingClient({ apiKey: KEY, baseURL: BASE, coordinator, clock, logger: { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} } });
    expect(coordinator.attachments).toHaveLength(1);
    const [attachment] = coordinator.attachments;
    expect(attachment!.keyHash((text) => createHash('sha256').update(text).digest('hex'))).toBe(createHash('sha256').update(KEY).digest('hex'));
    expect(attachment!.clock).toBe(clock);
    attachment!.warn!('redis is down');
    expect(warnings).toEqual(['[forecasting-sdk] redis is down']);
    expect(JSON.stringify(coordinator.attachments)).not.toContain(KEY);
    // The client shows nothing of its coordinator.
    expect(JSON.stringify(client)).not.toMatch(/coordinator|Recording/);
    expect(inspect(client, { depth: 5 })).not.toMatch(/coordinator|Recording|pre_/);
  });

  it('refuses something that is not a coordinator, naming the option', () => {
    expect(() => makeClient({ coordinator: {} as Coordinator })).toThrow(ValidationError);
    expect(() => makeClient({ coordinator: {} as Coordinator })).toThrow(/coordinator/);
  });
});
