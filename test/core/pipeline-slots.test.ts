// The coordinator's pipeline steps on their own, with a recording coordinator and hand-made calls:
// which windows an attempt takes, when a start's slots are held, bound or given back, and how an
// answer that shows tasks final settles them once.
import { describe, expect, it, vi } from 'vitest';
import type { Coordinator, SlotHold, TaskFinalNotice } from '../../src/core/coordination.js';
import { APIError } from '../../src/core/errors.js';
import type { Operation } from '../../src/core/operation.js';
import { Call } from '../../src/core/pipeline.js';
import { settlingDecode, sharedBudgetStep, slotsStep, warnOnceFailed } from '../../src/core/pipeline-slots.js';
import type { Received } from '../../src/core/transport.js';

/** A coordinator that records what it is asked; `take` and `hold` do what the test says. */
function recorder(over: Partial<Coordinator> = {}) {
  const log: string[] = [];
  const hold: Omit<SlotHold, 'count'> & { count: number; bound?: readonly string[]; released: number; abandoned: number } = {
    count: 0,
    released: 0,
    abandoned: 0,
    bind: async (ids) => void (hold.bound = ids),
    release: async () => void hold.released++,
    abandon: async () => void hold.abandoned++,
  };
  const coordinator: Coordinator = {
    attach: () => {},
    take: async (window) => void log.push(`take ${window}`),
    hold: async (count) => (log.push(`hold ${count}`), hold),
    settle: async (notices) => void log.push(`settle ${notices.map((n) => n.taskId).join(',')}`),
    watch: () => () => {},
    receiving: () => false,
    stats: () => Promise.reject(new Error('not asked')),
    ...over,
  };
  return { coordinator, log, hold };
}

const op = (declared: Partial<Operation>): Operation => ({ sdkMethod: 'forecasts.create', ...declared }) as Operation;

function call(operation: Operation | undefined, { body, query, signal }: { body?: unknown; query?: Record<string, unknown>; signal?: AbortSignal } = {}): Call {
  const c = new Call(operation, 'POST', '/forecasts', query, body, signal ? { signal } : {}, undefined);
  c.request = { method: 'POST', path: '/forecasts', query: undefined, body: undefined, headers: {} };
  return c;
}

const answer = (body: unknown, status = 200): Received => ({ response: new Response(null, { status }), text: JSON.stringify(body), request: 'POST /forecasts' });
const oneTask = { slots: () => 1, taskIds: (a: unknown) => [(a as { taskId: string }).taskId] };

describe('the shared budget step', () => {
  it('takes the requests window once for a generic request', async () => {
    const { coordinator, log } = recorder();
    await sharedBudgetStep(coordinator, () => {})(call(undefined), async () => answer({}));
    expect(log).toEqual(['take requests']);
  });

  it('takes the windows an operation declares first, requests last and once', async () => {
    const { coordinator, log } = recorder();
    await sharedBudgetStep(coordinator, () => {})(call(op({ windows: ['requests', 'modelCalls'] })), async () => answer({}));
    expect(log).toEqual(['take modelCalls', 'take requests']);
  });

  it("asks a windows function with the call's body, or its query for a read", async () => {
    const seen: unknown[] = [];
    const windows = (params: unknown) => (seen.push(params), ['modelCalls'] as const);
    const { coordinator, log } = recorder();
    const step = sharedBudgetStep(coordinator, () => {});
    await step(call(op({ windows }), { body: { a: 1 } }), async () => answer({}));
    await step(call(op({ windows }), { query: { q: 2 } }), async () => answer({}));
    expect(seen).toEqual([{ a: 1 }, { q: 2 }]);
    expect(log).toEqual(['take modelCalls', 'take requests', 'take modelCalls', 'take requests']);
  });

  it('goes on without the budget when take rejects, telling the client once per failure', async () => {
    const failed = vi.fn();
    const { coordinator } = recorder({ take: () => Promise.reject(new Error('down')) });
    const received = await sharedBudgetStep(coordinator, failed)(call(undefined), async () => answer({ ok: true }));
    expect(received.text).toBe('{"ok":true}');
    expect(failed).toHaveBeenCalledWith('take');
  });

  it('ends with the abort when take rejects after the signal aborted, sending nothing and warning of nothing', async () => {
    const controller = new AbortController();
    const failed = vi.fn();
    const next = vi.fn(async () => answer({}));
    const { coordinator } = recorder({
      take: () => {
        controller.abort(new Error('stop'));
        return Promise.reject(new Error('aborted while waiting'));
      },
    });
    await expect(sharedBudgetStep(coordinator, failed)(call(undefined, { signal: controller.signal }), next)).rejects.toThrow('aborted while waiting');
    expect(next).not.toHaveBeenCalled();
    expect(failed).not.toHaveBeenCalled();
  });

  it('calls every window end after the attempt, a throwing one changing nothing', async () => {
    const ended: string[] = [];
    const { coordinator } = recorder({
      take: async (window) => () => {
        ended.push(window);
        if (window === 'modelCalls') throw new Error('hook failed');
      },
    });
    const received = await sharedBudgetStep(coordinator, () => {})(call(op({ windows: ['modelCalls'] })), async () => answer({ ok: 1 }));
    expect(received.text).toBe('{"ok":1}');
    expect(ended).toEqual(['modelCalls', 'requests']);
  });
});

describe('the slots step', () => {
  it('holds no slot for a call that starts nothing, or whose params need none', async () => {
    const { coordinator, log } = recorder();
    const step = slotsStep(coordinator, undefined, () => {});
    await step(call(undefined), async () => answer({}));
    await step(call(op({})), async () => answer({}));
    await step(call(op({ starts: { slots: () => 0, taskIds: () => [] } })), async () => answer({}));
    await step(call(op({ starts: { slots: () => -1, taskIds: () => [] } })), async () => answer({}));
    expect(log).toEqual([]);
  });

  it('holds the slots the params need, then binds them to the started tasks, each once', async () => {
    const { coordinator, log, hold } = recorder();
    const starts = { slots: (p: unknown) => (p as { items: unknown[] }).items.length, taskIds: (a: unknown) => (a as { ids: string[] }).ids };
    await slotsStep(coordinator, undefined, () => {})(call(op({ starts }), { body: { items: [1, 2, 3] } }), async () => answer({ ids: ['t1', 't2', 't1'] }));
    expect(log).toEqual(['hold 3']);
    expect(hold.bound).toEqual(['t1', 't2']);
    expect(hold.released).toBe(0);
  });

  it("refuses a counted start larger than the coordinator's maxActive, naming the field, before any hold or attempt", async () => {
    const { coordinator, log, hold } = recorder({ maxActive: 2 });
    hold.count = 2;
    const starts = { slots: (p: unknown) => (p as { items: unknown[] }).items.length, taskIds: () => [], countedBy: 'items' };
    const attempts = vi.fn(async () => answer({}));
    const refused = slotsStep(coordinator, undefined, () => {})(call(op({ starts }), { body: { items: [1, 2, 3] } }), attempts);
    await expect(refused).rejects.toMatchObject({ name: 'ValidationError', field: 'items', message: expect.stringContaining("3 forecasts in one start, over the coordinator's maxActive (2)") });
    expect(log).toEqual([]);
    expect(attempts).not.toHaveBeenCalled();
    // At the cap, and a start whose count is only a bound (no countedBy), go as before.
    await slotsStep(coordinator, undefined, () => {})(call(op({ starts }), { body: { items: [1, 2] } }), attempts);
    await slotsStep(coordinator, undefined, () => {})(call(op({ starts: { slots: () => 50, taskIds: () => [] } })), attempts);
    expect(log).toEqual(['hold 2', 'hold 50']);
  });

  it('gives back a smaller hold than a counted start needs (a coordinator that states no maxActive) and refuses the start', async () => {
    const { coordinator, hold } = recorder();
    hold.count = 2;
    const attempts = vi.fn(async () => answer({}));
    const starts = { slots: () => 3, taskIds: () => [], countedBy: 'items' };
    await expect(slotsStep(coordinator, undefined, () => {})(call(op({ starts })), attempts)).rejects.toMatchObject({ name: 'ValidationError', field: 'items', message: expect.stringContaining('maxActive (2)') });
    expect(hold.released).toBe(1);
    expect(attempts).not.toHaveBeenCalled();
  });

  it('binds nothing (every slot back) when the answer does not name its tasks', async () => {
    const { coordinator, hold } = recorder();
    const received = await slotsStep(coordinator, undefined, () => {})(call(op({ starts: oneTask })), async () => ({ ...answer({}), text: 'not json' }));
    expect(received.text).toBe('not json');
    expect(hold.bound).toEqual([]);
  });

  it('runs the call without slots when hold fails, telling the client', async () => {
    const failed = vi.fn();
    const { coordinator } = recorder({ hold: () => Promise.reject(new Error('down')) });
    const received = await slotsStep(coordinator, undefined, failed)(call(op({ starts: oneTask })), async () => answer({ taskId: 't1' }));
    expect(JSON.parse(received.text)).toEqual({ taskId: 't1' });
    expect(failed).toHaveBeenCalledWith('hold');
  });

  const failing = (sent: boolean, err: unknown) => async (c: Call) => {
    c.sent = sent;
    throw err;
  };
  const apiError = (status: number) => new APIError({ status, type: undefined, message: 'no', headers: new Headers(), body: undefined, request: 'POST /forecasts' });

  it.each([
    ['never sent', false, new Error('x'), 1],
    ['refused with a 400', true, apiError(400), 1],
    ['refused with a 499', true, apiError(499), 1],
    ['answered a 500', true, apiError(500), 0],
    ['answered a 399', true, apiError(399), 0],
    ['broken after sending', true, new Error('socket hang up'), 0],
    ['failing with a 404-shaped object that is no APIError', true, { status: 404 }, 0],
  ])('a start %s gives its slots back %i times (else abandons them: pending for the coordinator\'s time)', async (_, sent, err, releases) => {
    const { coordinator, hold } = recorder();
    await expect(slotsStep(coordinator, undefined, () => {})(call(op({ starts: oneTask })), failing(sent, err))).rejects.toBe(err);
    expect([hold.released, hold.abandoned]).toEqual([releases, 1 - releases]);
    expect(hold.bound).toBeUndefined();
  });
});

describe('the settling decode', () => {
  const finalTasks = (answer: unknown): TaskFinalNotice[] => (answer as { done: string[] }).done.map((taskId) => ({ taskId, status: 'completed' }));

  it('settles the final tasks an answer shows, once per task, and hands the answer on', async () => {
    const { coordinator, log } = recorder();
    const decode = settlingDecode((_, r) => JSON.parse(r.text) as unknown, coordinator);
    const c = call(op({ finalTasks }));
    expect(await decode(c, answer({ done: ['a', 'b'] }))).toEqual({ done: ['a', 'b'] });
    expect(await decode(c, answer({ done: ['b', 'c'] }))).toEqual({ done: ['b', 'c'] });
    expect(await decode(c, answer({ done: ['a'] }))).toEqual({ done: ['a'] });
    expect(log).toEqual(['settle a,b', 'settle c']);
  });

  it('waits for a decode that answers with a promise', async () => {
    const { coordinator, log } = recorder();
    const decode = settlingDecode(async () => ({ done: ['p'] }), coordinator);
    expect(await decode(call(op({ finalTasks })), answer({}))).toEqual({ done: ['p'] });
    expect(log).toEqual(['settle p']);
  });

  it('hands the answer on when settle fails, and leaves calls without finalTasks alone', async () => {
    const { coordinator, log } = recorder({ settle: () => Promise.reject(new Error('down')) });
    const decode = settlingDecode((_, r) => JSON.parse(r.text) as unknown, coordinator);
    expect(await decode(call(op({ finalTasks })), answer({ done: ['x'] }))).toEqual({ done: ['x'] });
    expect(decode(call(op({})), answer({ done: ['y'] }))).toEqual({ done: ['y'] });
    expect(log).toEqual([]);
  });

  it('remembers the last 10,000 settled ids: the oldest is forgotten first, and settled again when seen again', async () => {
    const settled: string[] = [];
    const { coordinator } = recorder({ settle: async (n) => void settled.push(...n.map((x) => x.taskId)) });
    const decode = settlingDecode((_, r) => JSON.parse(r.text) as unknown, coordinator);
    const c = call(op({ finalTasks }));
    const ids = Array.from({ length: 10_000 }, (_, i) => `t${i}`);
    await decode(c, answer({ done: ids }));
    await decode(c, answer({ done: ['t0', 't9999'] }));
    expect(settled).toHaveLength(10_000);
    await decode(c, answer({ done: ['t10000'] }));
    await decode(c, answer({ done: ['t0'] }));
    await decode(c, answer({ done: ['t2', 't9999'] }));
    expect(settled.slice(10_000)).toEqual(['t10000', 't0']);
  });
});

describe("the client's warning for a failing coordinator", () => {
  it('is given once for take and once for hold, naming what calls go on without', () => {
    const warn = vi.fn();
    const failed = warnOnceFailed(warn);
    failed('take');
    failed('take');
    failed('hold');
    failed('hold');
    expect(warn.mock.calls).toEqual([
      ["the coordinator's take() failed; calls go on without the shared request budget while it fails (this warning is shown once)."],
      ["the coordinator's hold() failed; calls go on without the shared active-forecast slots while it fails (this warning is shown once)."],
    ]);
  });
});
