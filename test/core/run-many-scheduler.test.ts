// runMany's scheduler, a pure state machine: states and answers in, decisions out. No clock (the
// time is an argument), no I/O, no mock service: the driver's requests are played as plain values.
import { describe, expect, it } from 'vitest';
import {
  batchSizeFor,
  drain,
  initialRun,
  nextStep,
  priced,
  pricingOf,
  progressOf,
  pulled,
  startFailure,
  startSettled,
  tasksSeen,
  type Batch,
  type RunState,
  type RunStep,
  type SeenTask,
} from '../../src/resources/forecasts/run-many/scheduler.js';
import type { ForecastCreateParams, ForecastListItem } from '../../src/index.js';

const items = (from: number, n: number): ForecastCreateParams[] => Array.from({ length: n }, (_, i) => ({ questionId: `q${from + i}` }));
const PRICING = pricingOf([{ key: 'light', credits: 1, isDefault: true }, { key: 'standard', credits: 3, isDefault: false }]);
const fresh = (o: Partial<Parameters<typeof initialRun>[0]> = {}) => initialRun({ runId: 'run', maxActive: 50, total: undefined, began: 0, ...o });
/** A batch answer accepting every item `i` as task `<prefix><i>`. */
const acceptAll = (batch: Batch, prefix = 't', replayed = false) => ({
  kind: 'answered' as const,
  items: batch.items.map((_, index) => ({ index, status: 'accepted', taskId: `${prefix}${batch.indexes[index]}` })),
  replayed,
  retryAfter: undefined,
});

/** Steps the scheduler from `s`, asserting the step's kind, and returns it with the new state. */
function step<K extends RunStep['kind']>(s: RunState, kind: K, now = 0, aborted = false): [RunState, Extract<RunStep, { kind: K }>] {
  const [next, decided] = nextStep(s, now, aborted);
  expect(decided.kind).toBe(kind);
  return [next, decided as Extract<RunStep, { kind: K }>];
}

/** A run with `n` items pulled, priced, and the first batch of them started and accepted at `now`. */
function startedRun(n: number, o: Partial<Parameters<typeof initialRun>[0]> = {}, now = 0): RunState {
  let [s, pull] = step(fresh(o), 'pull');
  s = pulled(s, items(0, Math.min(n, pull.size)), n <= pull.size);
  [s] = step(s, 'price');
  s = priced(s, PRICING);
  const [next, start] = step(s, 'start');
  return startSettled(next, start.batch, acceptAll(start.batch), now);
}

const seen = (id: string, status: string, due = 0): SeenTask => ({ id, status, task: { taskId: id, status: status as ForecastListItem['status'], forecastData: null }, due });

describe('batch size', () => {
  it('is the largest even split of maxActive into batches of at most 25', () => {
    expect([50, 40, 30, 26, 25, 7, 1].map(batchSizeFor)).toEqual([25, 20, 15, 13, 25, 7, 1]);
  });
});

describe('what the run starts', () => {
  it('asks the input for one batch of items at a time, on fixed index ranges keyed <runId>:<n>', () => {
    let [s, pull] = step(fresh({ maxActive: 40 }), 'pull');
    expect(pull.size).toBe(20);
    s = pulled(s, items(0, 20), false);
    expect(s.held).toMatchObject({ key: 'run:0', indexes: Array.from({ length: 20 }, (_, i) => i), origin: 'run:0', resends: 0 });
    expect(s.total).toBeUndefined();
    s = pulled({ ...s, held: undefined }, items(20, 3), true);
    expect(s.held).toMatchObject({ key: 'run:1', indexes: [20, 21, 22] });
    expect([s.read, s.total, s.exhausted]).toEqual([23, 23, true]);
  });

  it('reads the prices once, before the first start', () => {
    let [s] = step(fresh(), 'pull');
    s = pulled(s, items(0, 3), true);
    [s] = step(s, 'price');
    const [, start] = step(priced(s, PRICING), 'start');
    expect(start.batch.key).toBe('run:0');
  });

  it('makes accepted items running tasks read after the queued wait, and counts their credits', () => {
    const s = startedRun(3, {}, 1000);
    expect([...s.active.keys()]).toEqual(['t0', 't1', 't2']);
    expect(s.active.get('t0')).toMatchObject({ index: 0, status: 'queued', resumed: false, due: 16_000 });
    expect([s.started, s.resumed, s.creditsSpent, s.held]).toEqual([3, 0, 3, undefined]);
  });

  it('reads a replayed batch at once, as resumed, and charges nothing for it', () => {
    let [s] = step(fresh(), 'pull');
    s = priced(pulled(s, items(0, 2), true), PRICING);
    const [next, start] = step(s, 'start');
    s = startSettled(next, start.batch, acceptAll(start.batch, 't', true), 500);
    expect(s.active.get('t1')).toMatchObject({ resumed: true, due: 500 });
    expect([s.started, s.resumed, s.creditsSpent]).toEqual([2, 2, 0]);
  });

  it('first reads a new task after the Retry-After a start states, within bounds', () => {
    let [s] = step(fresh(), 'pull');
    s = priced(pulled(s, items(0, 1), true), PRICING);
    const [next, start] = step(s, 'start');
    expect(startSettled(next, start.batch, { ...acceptAll(start.batch), retryAfter: 2000 }, 0).active.get('t0')!.due).toBe(2000);
    expect(startSettled(next, start.batch, { ...acceptAll(start.batch), retryAfter: 0 }, 0).active.get('t0')!.due).toBe(1000);
  });

  it('prices an item by its run mode, else the default mode, else at nothing', () => {
    let [s] = step(fresh(), 'pull');
    s = priced(pulled(s, [{ questionId: 'a', runMode: 'standard' }, { questionId: 'b' }, { questionId: 'c', runMode: 'deep' }], true), PRICING);
    const [next, start] = step(s, 'start');
    expect(startSettled(next, start.batch, acceptAll(start.batch), 0).creditsSpent).toBe(4);
    expect(pricingOf([{ key: 'light', credits: undefined, isDefault: true }])).toEqual({ prices: new Map(), defaultMode: 'light' });
  });

  it('starts no batch that would run more than maxActive: it waits for the running tasks instead', () => {
    let s = startedRun(30, { maxActive: 30 }, 0); // 15 running
    let pull;
    [s, pull] = step(s, 'pull');
    s = pulled(s, items(15, pull.size), false);
    let start;
    [s, start] = step(s, 'start');
    s = startSettled(s, start.batch, acceptAll(start.batch), 4000); // 30 running, the last due at 19 s
    [s, pull] = step(s, 'pull');
    s = pulled(s, items(30, pull.size), false);
    const [, sleep] = step(s, 'sleep', 5000);
    expect(sleep.ms).toBe(14_000);
  });
});

describe('what a start that did not start everything changes', () => {
  it('sends items refused only because the service was full again first, under <origin>:r<k>, one level deep', () => {
    let [s] = step(fresh(), 'pull');
    s = priced(pulled(s, items(0, 3), false), PRICING);
    let start;
    [s, start] = step(s, 'start');
    const full = { index: 1, status: 'rejected', error: { type: 'too_many_active_forecasts', message: 'full' } };
    s = startSettled(s, start.batch, { kind: 'answered', items: [{ index: 0, status: 'accepted', taskId: 't0' }, full, { index: 2, status: 'accepted', taskId: 't2' }], replayed: false, retryAfter: undefined }, 0);
    expect(s.retries).toEqual([{ key: 'run:0:r1', items: [{ questionId: 'q1' }], indexes: [1], origin: 'run:0', resends: 1 }]);
    expect(s.hold).toBe(15_000);
    // The resend refused again: r2, not r1:r1.
    s = { ...s, hold: 0 };
    [s, start] = step(s, 'start');
    expect(start.batch.key).toBe('run:0:r1');
    s = startSettled(s, start.batch, { kind: 'answered', items: [{ ...full, index: 0 }], replayed: false, retryAfter: undefined }, 0);
    expect(s.retries.map((b) => b.key)).toEqual(['run:0:r2']);
  });

  it('holds a batch the service could not take (429) at the front, and sleeps as asked when nothing runs', () => {
    let [s] = step(fresh(), 'pull');
    s = priced(pulled(s, items(0, 2), true), PRICING);
    let start;
    [s, start] = step(s, 'start');
    s = startSettled(s, start.batch, { kind: 'held', retryAfter: 30_000 }, 0);
    expect(s.retries).toEqual([start.batch]);
    const [after, sleep] = step(s, 'sleep');
    expect(sleep.ms).toBe(30_000);
    const [, again] = step(after, 'start');
    expect(again.batch).toBe(start.batch);
  });

  it('rejects each item of a batch refused as a whole, and each item the answer refuses or leaves out', () => {
    let [s] = step(fresh(), 'pull');
    s = priced(pulled(s, items(0, 2), true), PRICING);
    const [next, start] = step(s, 'start');
    const error = { type: 'invalid_request_error', message: 'key reused' };
    const [, whole] = drain(startSettled(next, start.batch, { kind: 'refused', error }, 0));
    expect(whole).toEqual([
      { status: 'rejected', index: 0, item: { questionId: 'q0' }, error },
      { status: 'rejected', index: 1, item: { questionId: 'q1' }, error },
    ]);
    const [, some] = drain(startSettled(next, start.batch, { kind: 'answered', items: [{ index: 0, status: 'rejected', error: { type: 'not_found_error', message: 'no q0' } }], replayed: false, retryAfter: undefined }, 0));
    expect(some.map((r) => (r.status === 'rejected' ? r.error : undefined))).toEqual([
      { type: 'not_found_error', message: 'no q0' },
      { type: 'api_error', message: 'no usable result for item 1 of the batch' },
    ]);
  });

  it('gives an item an error, not silence, when the answer gives it the task of another item', () => {
    let [s] = step(fresh(), 'pull');
    s = priced(pulled(s, items(0, 3), true), PRICING);
    const [next, start] = step(s, 'start');
    const same = { kind: 'answered' as const, items: [0, 1, 2].map((index) => ({ index, status: 'accepted', taskId: 'T1' })), replayed: false, retryAfter: undefined };
    const after = startSettled(next, start.batch, same, 0);
    expect([...after.active.keys()]).toEqual(['T1']);
    const [, rejected] = drain(after);
    expect(rejected.map((r) => [r.status, r.index, r.status === 'rejected' ? r.error.type : undefined])).toEqual([
      ['rejected', 1, 'invalid_response'],
      ['rejected', 2, 'invalid_response'],
    ]);
  });

  it('reports nothing for a start aborted while waiting to send it again', () => {
    let [s] = step(fresh(), 'pull');
    s = priced(pulled(s, items(0, 2), true), PRICING);
    const [next, start] = step(s, 'start');
    const after = startSettled(next, start.batch, { kind: 'aborted' }, 0);
    expect([after.held, after.ready, after.active.size]).toEqual([undefined, [], 0]);
    expect(step(after, 'done', 0, true)[0].stopped).toBe('aborted');
  });

  it('classifies a failed start: hold it, refuse its items, or end the run', () => {
    expect([startFailure(429, 'rate_limit_error'), startFailure(429, 'too_many_active_forecasts'), startFailure(409, 'idempotency_in_progress')]).toEqual(['hold', 'hold', 'hold']);
    expect([400, 404, 409, 422].map((status) => startFailure(status, 'invalid_request_error'))).toEqual(['refuse', 'refuse', 'refuse', 'refuse']);
    expect([startFailure(401, 'authentication_error'), startFailure(500, 'api_error')]).toEqual(['fatal', 'fatal']);
  });
});

describe('short credits', () => {
  it('stops starting at the refused item and reports every item after it as not started, the input read to its end', () => {
    let [s] = step(fresh({ maxActive: 2 }), 'pull');
    s = priced(pulled(s, items(0, 2), false), PRICING);
    let start;
    [s, start] = step(s, 'start');
    const credits = { type: 'invalid_request_error', message: 'Not enough credits' };
    s = startSettled(s, start.batch, { kind: 'answered', items: [{ index: 0, status: 'accepted', taskId: 't0' }, { index: 1, status: 'rejected', error: credits }], replayed: false, retryAfter: undefined }, 0);
    expect(s.stopped).toBe('insufficient_credits');
    let pull;
    [s, pull] = step(s, 'pull');
    s = pulled(s, items(2, pull.size), false);
    [s] = step(s, 'pull');
    s = pulled(s, items(4, 1), true);
    let ready;
    [s, ready] = drain(s);
    expect(ready.map((r) => [r.status, r.index, 'error' in r && r.error !== undefined])).toEqual([
      ['not_started', 1, true],
      ['not_started', 2, false],
      ['not_started', 3, false],
      ['not_started', 4, false],
    ]);
    // The running task is still waited for; then the run is done.
    [s] = step(s, 'sleep');
    [s] = step(s, 'poll');
    s = tasksSeen(s, [seen('t0', 'completed')]);
    step(s, 'done');
  });
});

describe('what a polling round changes', () => {
  it('yields a final task with its item and index, and reads the others again when they are due', () => {
    let s = startedRun(3);
    [s] = step(s, 'sleep');
    const [polling, poll] = step(s, 'poll');
    expect(poll.taskIds).toEqual(['t0', 't1', 't2']);
    s = tasksSeen(polling, [seen('t0', 'completed'), seen('t1', 'synthesizing', 120_000), seen('t2', 'queued', 15_000)]);
    const [after, ready] = drain(s);
    expect(ready).toEqual([{ status: 'completed', index: 0, item: { questionId: 'q0' }, taskId: 't0', task: { taskId: 't0', status: 'completed', forecastData: null }, resumed: false }]);
    expect(after.active.get('t1')).toMatchObject({ status: 'synthesizing', due: 120_000 });
    const [, sleep] = step(after, 'sleep', 20_000);
    expect(sleep.ms).toBe(100_000);
  });

  it('counts the running items by the status last seen, and the ETA at the pace so far', () => {
    let s = startedRun(4, { total: 8, began: 0 });
    s = tasksSeen(s, [seen('t0', 'completed'), seen('t1', 'running_subforecasts'), seen('t2', 'synthesizing')]);
    const p = progressOf(s, 10_000);
    expect(p.counts).toMatchObject({ queued: 1, running_subforecasts: 1, synthesizing: 1, completed: 1 });
    expect([p.active, p.done, p.elapsedMs, p.etaMs, p.stopped]).toEqual([3, 1, 10_000, 70_000, undefined]);
    expect(progressOf(startedRun(1), 5).etaMs).toBeUndefined();
  });

  it('is done once the input is read, nothing is held back and nothing runs', () => {
    let s = startedRun(2);
    [s] = step(s, 'sleep');
    [s] = step(s, 'poll');
    s = tasksSeen(s, [seen('t0', 'failed'), seen('t1', 'cancelled')]);
    expect(drain(s)[1].map((r) => r.status)).toEqual(['failed', 'cancelled']);
    step(s, 'done');
  });
});

describe('an abort', () => {
  it('stops the starts and still waits for the running tasks', () => {
    let s = startedRun(30, {}, 0);
    [s] = step(s, 'sleep', 0, true);
    expect(s.stopped).toBe('aborted');
    [s] = step(s, 'poll', 15_000, true);
    s = tasksSeen(s, [...s.active.keys()].map((id) => seen(id, 'completed')));
    step(s, 'done', 15_000, true);
  });

  it('with cancelOnAbort, wakes at once, cancels every running task once, then reads them', () => {
    let s = startedRun(3, { cancelOnAbort: true });
    let sleep;
    [s, sleep] = step(s, 'sleep', 0, true);
    expect(sleep.ms).toBe(0);
    let cancel;
    [s, cancel] = step(s, 'cancel', 0, true);
    expect(cancel.taskIds).toEqual(['t0', 't1', 't2']);
    [s] = step(s, 'poll', 0, true);
    s = tasksSeen(s, [seen('t0', 'cancelling')]);
    [s, sleep] = step(s, 'sleep', 0, true);
    expect(sleep.ms).toBe(15_000);
    step(s, 'poll', 15_000, true);
  });
});
