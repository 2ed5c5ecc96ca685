// The task tracker `waitMany` and `runMany` share, on a source of plain functions (no HTTP), and the
// pieces of the flows that live in the core: key minting and the `timeout` check.
import { describe, expect, it } from 'vitest';
import { newIdempotencyKey, partKey, resendKey } from '../../src/core/idempotency.js';
import { checkTimeout } from '../../src/core/polling.js';
import { taskTracker, type TaskSource } from '../../src/core/task-tracker.js';
import { ValidationError } from '../../src/index.js';
import { taskStateWait } from '../../src/resources/forecasts/tracking.js';

interface Task {
  id: string;
  status: string;
}

/** A source whose list shows the tasks of `listed` only; records every call. */
function source(listed: Record<string, string>, retryAfter: Array<number | undefined> = [], maxIds = 2) {
  const calls: string[] = [];
  let answer = 0;
  const src: TaskSource<Task> = {
    maxIds,
    async listByIds(ids) {
      calls.push(`list ${ids.join(',')}`);
      // A task not asked for is not part of the round.
      return { items: [...ids.flatMap((id) => (listed[id] ? [{ id, status: listed[id] }] : [])), { id: 'stranger', status: 'queued' }], retryAfter: retryAfter[answer++] };
    },
    async read(id) {
      calls.push(`read ${id}`);
      if (id === 'unknown') throw new Error('not found');
      return { id, status: 'completed' };
    },
    idOf: (t) => t.id,
    fallbackWait: (t) => (t.status === 'running' ? 120_000 : 15_000),
    finalStatus: (t) => (t.status === 'completed' ? t.status : undefined),
  };
  return { src, calls };
}

const noSleep = { sleep: async () => {} };

describe('a tracker round', () => {
  it('lists maxIds ids a request and reads alone each id a list leaves out, in order', async () => {
    const { src, calls } = source({ a: 'queued', b: 'running', d: 'running' });
    const round = await taskTracker(src, noSleep).round(['a', 'b', 'c', 'd', 'e']);
    expect(calls).toEqual(['list a,b', 'list c,d', 'read c', 'list e', 'read e']);
    expect(round.map((t) => [t.id, t.item.status])).toEqual([
      ['a', 'queued'],
      ['b', 'running'],
      ['c', 'completed'],
      ['d', 'running'],
      ['e', 'completed'],
    ]);
  });

  it('waits for each task as the state asks when no answer names a wait, never under 1 s', async () => {
    const { src } = source({ a: 'queued', b: 'running' });
    expect((await taskTracker(src, noSleep).round(['a', 'b'])).map((t) => t.waitMs)).toEqual([15_000, 120_000]);
    const fast = { ...src, fallbackWait: () => 0 };
    expect((await taskTracker(fast, noSleep).round(['a'])).map((t) => t.waitMs)).toEqual([1000]);
  });

  it('applies the longest Retry-After of the round to every task, within an hour', async () => {
    const { src } = source({ a: 'queued', b: 'running', c: 'running' }, [5000, 9000]);
    expect((await taskTracker(src, noSleep).round(['a', 'b', 'c'])).map((t) => t.waitMs)).toEqual([9000, 9000, 9000]);
    const { src: far } = source({ a: 'queued' }, [10 ** 12]);
    expect((await taskTracker(far, noSleep).round(['a']))[0]!.waitMs).toBe(3_600_000);
  });

  it('rejects as a read of an unknown id does', async () => {
    const { src } = source({});
    await expect(taskTracker(src, noSleep).round(['unknown'])).rejects.toThrow('not found');
  });

  it('sleeps on the clock it is given', async () => {
    const slept: number[] = [];
    const { src } = source({});
    await taskTracker(src, { sleep: async (ms) => void slept.push(ms) }).sleep(1234, undefined);
    expect(slept).toEqual([1234]);
  });
});

describe("a forecast task's wait when the answer names none", () => {
  it('is 15 s queued or final (a report still awaited), 120 s running', () => {
    expect(['queued', 'completed', 'running_subforecasts', 'synthesizing', 'something_new'].map(taskStateWait)).toEqual([15_000, 15_000, 120_000, 120_000, 120_000]);
  });
});

describe('idempotency keys minted by the flows', () => {
  it('mints a new random key with a prefix, and derives the keys of parts and resends', () => {
    expect(newIdempotencyKey()).toMatch(/^sdk-[0-9a-f-]{36}$/);
    expect(newIdempotencyKey('run')).toMatch(/^run-[0-9a-f-]{36}$/);
    expect(newIdempotencyKey()).not.toBe(newIdempotencyKey());
    expect(partKey('job', 3)).toBe('job:3');
    expect(resendKey('job:3', 2)).toBe('job:3:r2');
  });
});

describe('the timeout option of a wait', () => {
  it('takes no limit or a number of ms >= 0, and names `timeout` otherwise', () => {
    for (const ok of [undefined, 0, 1.5, 3600_000]) expect(() => checkTimeout(ok)).not.toThrow();
    for (const bad of [-1, Number.NaN, '10', null]) {
      expect(() => checkTimeout(bad)).toThrow(ValidationError);
      expect(() => checkTimeout(bad)).toThrow(/timeout/);
    }
  });
});
