// The task tracker `waitMany` and `runMany` share, on a source of plain functions (no HTTP), and the
// pieces of the flows that live in the core: key minting and the `timeout` check.
import { describe, expect, it } from 'vitest';
import { newIdempotencyKey, partKey, resendKey } from '../../src/core/idempotency.js';
import { checkTimeout } from '../../src/core/polling.js';
import { taskTracker, type TaskSource } from '../../src/core/task-tracker.js';
import { coordinatedTracker, safetyWait } from '../../src/core/coordinated-tracker.js';
import type { TaskFinalNotice } from '../../src/core/coordination.js';
import { ValidationError } from '../../src/index.js';
import { taskStateWait } from '../../src/resources/forecasts/tracking.js';

interface Task {
  id: string;
  status: string;
}

/** A source whose list shows the tasks of `listed` only (a read alone answers `readRetryAfter`); records every call. */
function source(listed: Record<string, string>, retryAfter: Array<number | undefined> = [], maxIds = 2, readRetryAfter?: number) {
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
      return { item: { id, status: readRetryAfter === undefined ? 'completed' : 'running' }, retryAfter: readRetryAfter };
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

  // A list answer adding tasks it was not asked for (a hostile one, 24 MiB of them a request) had them
  // kept for the whole round, and a later chunk's task taken from a list that was never asked for it.
  it("takes a task only from a list asked for it: one another list shows is read alone", async () => {
    const { src, calls } = source({ a: 'queued' });
    const listByIds = src.listByIds;
    src.listByIds = async (ids) => {
      const answer = await listByIds(ids);
      return ids.includes('a') ? { ...answer, items: [...answer.items, { id: 'c', status: 'completed' }] } : answer;
    };
    const round = await taskTracker(src, noSleep).round(['a', 'b', 'c']);
    expect(calls).toEqual(['list a,b', 'read b', 'list c', 'read c']);
    expect(round.map((t) => [t.id, t.item.status])).toEqual([
      ['a', 'queued'],
      ['b', 'completed'],
      ['c', 'completed'],
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

  it("waits for a task read alone as its own answer asks, not the list's (which did not show it)", async () => {
    // The list asks 9 s; the task it leaves out is read alone, running, and its answer asks 2 s.
    const { src } = source({ a: 'queued' }, [9000], 2, 2000);
    expect((await taskTracker(src, noSleep).round(['a', 'b'])).map((t) => [t.id, t.waitMs])).toEqual([
      ['a', 9000],
      ['b', 2000],
    ]);
    // Its answer asks nothing: its state's wait (running: 120 s), not the list's 9 s either.
    const { src: silent } = source({ a: 'queued' }, [9000], 2);
    expect((await taskTracker({ ...silent, read: async (id) => ({ item: { id, status: 'running' }, retryAfter: undefined }) }, noSleep).round(['a', 'b'])).map((t) => t.waitMs)).toEqual([9000, 120_000]);
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

/** The parts of a coordinator a tracker uses, in memory: `tell` stands for a final event from elsewhere. */
function coordination(receiving: boolean, interval = 600_000) {
  const watchers = new Map<string, (n: TaskFinalNotice) => void>();
  const settled: string[] = [];
  const coordinator = {
    watch(ids: readonly string[], onFinal: (n: TaskFinalNotice) => void) {
      for (const id of ids) watchers.set(id, onFinal);
      return () => ids.forEach((id) => watchers.delete(id));
    },
    receiving: () => receiving,
    settle: async (notices: readonly TaskFinalNotice[]) => void settled.push(...notices.map((n) => `${n.taskId} ${n.status}`)),
  };
  return { coordinator, interval, settled, watchers, tell: (taskId: string) => watchers.get(taskId)?.({ taskId, status: 'completed' }) };
}

/** A clock whose sleeps wait until `wake()` (or the abort) and record their ms. */
function heldClock() {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    pass: (ms: number) => void (now += ms),
    sleep: (ms: number, signal?: AbortSignal) =>
      new Promise<void>((_, reject) => {
        slept.push(ms);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
  };
}

describe('a tracker with a coordinator', () => {
  it('reads every task at first, then, woken by a final event, only the task told final, once', async () => {
    const listed: Record<string, string> = { a: 'running', b: 'running', c: 'running' };
    const { src, calls } = source(listed, [], 100);
    const c = coordination(true);
    const clock = heldClock();
    const tracker = coordinatedTracker(src, clock, c);
    await tracker.round(['a', 'b', 'c']);
    const sleeping = tracker.sleep(600_000, undefined);
    listed['b'] = 'completed';
    c.tell('b');
    await expect(sleeping).resolves.toBe('woken');
    const round = await tracker.round(['a', 'b', 'c']);
    expect(calls).toEqual(['list a,b,c', 'list b']);
    // The others are not due before the safety cadence; the final one waits as its state asks.
    expect(round.map((t) => [t.item.status, t.waitMs])).toEqual([
      ['running', 600_000],
      ['completed', 15_000],
      ['running', 600_000],
    ]);
  });

  it('settles each task seen final once, and is not woken by its own settle', async () => {
    const { src } = source({ a: 'completed', b: 'running' }, [], 100);
    const c = coordination(true);
    const tracker = coordinatedTracker(src, heldClock(), c);
    await tracker.round(['a', 'b']);
    c.tell('a');
    await tracker.round(['a', 'b']);
    expect(c.settled).toEqual(['a completed']);
  });

  it('waits by Retry-After while no receiver is seen, and reads every task when due', async () => {
    const { src, calls } = source({ a: 'running', b: 'queued' }, [], 100);
    const clock = heldClock();
    const tracker = coordinatedTracker(src, clock, coordination(false));
    expect((await tracker.round(['a', 'b'])).map((t) => t.waitMs)).toEqual([120_000, 15_000]);
    clock.pass(15_000);
    await tracker.round(['a', 'b']);
    clock.pass(105_000);
    await tracker.round(['a', 'b']);
    expect(calls).toEqual(['list a,b', 'list b', 'list a,b']);
  });

  it('ends a sleep at once when a task was told final since its read, and rejects on abort', async () => {
    const { src } = source({ a: 'running' }, [], 100);
    const c = coordination(true);
    const tracker = coordinatedTracker(src, heldClock(), c);
    await tracker.round(['a']);
    c.tell('a');
    await expect(tracker.sleep(1000, undefined)).resolves.toBe('woken');
    const controller = new AbortController();
    const sleeping = coordinatedTracker(src, heldClock(), c).sleep(1000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
  });

  it('reads again at once when a task is told final during a read that still showed it running', async () => {
    const { src } = source({ a: 'running' }, [], 100);
    const c = coordination(true);
    const listing = src.listByIds.bind(src);
    const tracker = coordinatedTracker({ ...src, listByIds: async (ids) => (c.tell('a'), listing(ids)) }, heldClock(), c);
    tracker.follow(['a']);
    await tracker.round(['a']);
    await expect(tracker.sleep(600_000, undefined)).resolves.toBe('woken');
  });

  it('follows a task before its first read: an event in between is not missed', async () => {
    const { src } = source({}, [], 100);
    const c = coordination(true);
    const tracker = coordinatedTracker(src, heldClock(), c);
    tracker.follow(['a']);
    c.tell('a');
    // Told final but read running (a replica behind): read again at the service's pace, not the cadence.
    expect(await tracker.seen('a', { id: 'a', status: 'running' }, 120_000)).toBe(120_000);
    // And again while no read has shown it final (notices are ignored meanwhile: see below).
    expect(await tracker.seen('a', { id: 'a', status: 'running' }, 120_000)).toBe(120_000);
  });

  it('stops watching once closed', async () => {
    const { src } = source({ a: 'running' }, [], 100);
    const c = coordination(true);
    const tracker = coordinatedTracker(src, heldClock(), c);
    await tracker.round(['a']);
    expect([...c.watchers.keys()]).toEqual(['a']);
    tracker.close();
    expect(c.watchers.size).toBe(0);
  });

  it('polls as without a receiver when a custom coordinator throws, or answers watch and receiving with no function and no boolean', async () => {
    const hostile = [
      {
        watch: (): (() => void) => {
          throw new Error('watch broke');
        },
        receiving: (): boolean => {
          throw new Error('receiving broke');
        },
        settle: (): Promise<void> => {
          throw new Error('settle broke');
        },
      },
      // What a JavaScript coordinator may return, typed as the interface says it must not.
      { watch: () => 'nothing' as unknown as () => void, receiving: () => 'yes' as unknown as boolean, settle: () => undefined as unknown as Promise<void> },
      {
        watch: () => () => {
          throw new Error('stop broke');
        },
        receiving: () => false,
        settle: () => Promise.reject(new Error('settle down')),
      },
    ];
    for (const coordinator of hostile) {
      const { src, calls } = source({ a: 'running', b: 'completed' }, [], 100);
      const clock = heldClock();
      const tracker = coordinatedTracker(src, clock, { coordinator, interval: 600_000 });
      expect((await tracker.round(['a', 'b'])).map((t) => t.waitMs)).toEqual([120_000, 15_000]);
      expect(await tracker.seen('a', { id: 'a', status: 'running' }, 120_000)).toBe(120_000);
      clock.pass(120_000);
      await tracker.round(['a', 'b']);
      expect(calls).toEqual(['list a,b', 'list a,b']);
      expect(() => tracker.close()).not.toThrow();
    }
  });

  it("wakes again on the real final event after an early notice that a read showed wrong, once the service's wait has passed", async () => {
    const listed: Record<string, string> = { a: 'running' };
    const { src, calls } = source(listed, [], 100);
    const c = coordination(true);
    const clock = heldClock();
    const tracker = coordinatedTracker(src, clock, c);
    await tracker.round(['a']);
    c.tell('a');
    await expect(tracker.sleep(600_000, undefined)).resolves.toBe('woken');
    await tracker.round(['a']);
    listed['a'] = 'completed';
    clock.pass(120_000);
    c.tell('a');
    await expect(tracker.sleep(600_000, undefined)).resolves.toBe('woken');
    expect((await tracker.round(['a']))[0]!.item.status).toBe('completed');
    expect(calls).toEqual(['list a', 'list a', 'list a']);
  });

  // An attacker's review of the fleet's Redis: forged "final" notices published 50 times a second
  // made a read each, and used up the whole fleet's request budget.
  it("reads a task at most once per service's wait while notices keep telling it final and reads keep showing it running", async () => {
    const { src, calls } = source({ a: 'running' }, [], 100);
    const c = coordination(true);
    const clock = heldClock();
    const tracker = coordinatedTracker(src, clock, c);
    await tracker.round(['a']);
    c.tell('a');
    await tracker.round(['a']);
    for (let n = 0; n < 200; n++) {
      c.tell('a');
      clock.pass(1000);
      await tracker.round(['a']);
    }
    // The first read, the first notice's, then one when the running task's 120 s had passed (of 200).
    expect(calls).toEqual(['list a', 'list a', 'list a']);
  });

  // An attacker's review of that change: after the second read (the service's pace, no notice) the
  // safety cadence came back, while notices were still ignored: the true event, 5 s later, was
  // dropped, and the next read was 10 minutes away.
  it('keeps reading a doubted task at the service\'s pace, so a true event it ignored is read within that wait', async () => {
    const listed: Record<string, string> = { a: 'running' };
    const { src } = source(listed, [], 100);
    const c = coordination(true);
    const clock = heldClock();
    const tracker = coordinatedTracker(src, clock, c);
    await tracker.round(['a']);
    c.tell('a'); // forged
    await tracker.round(['a']);
    clock.pass(120_000);
    expect((await tracker.round(['a']))[0]!.waitMs).toBe(120_000);
    clock.pass(5000);
    listed['a'] = 'completed';
    c.tell('a'); // true, within the wait: ignored
    expect((await tracker.round(['a']))[0]!.waitMs).toBe(115_000);
    clock.pass(115_000);
    expect((await tracker.round(['a']))[0]!.item.status).toBe('completed');
  });

  it("says a task read alone waits the safety cadence while a receiver is seen, the answer's wait otherwise", async () => {
    const { src } = source({}, [], 100);
    expect(await coordinatedTracker(src, heldClock(), coordination(true)).seen('a', { id: 'a', status: 'running' }, 120_000)).toBe(600_000);
    expect(await coordinatedTracker(src, heldClock(), coordination(false)).seen('a', { id: 'a', status: 'running' }, 120_000)).toBe(120_000);
    // A final task waits for no event (its report, say): the answer's wait.
    expect(await coordinatedTracker(src, heldClock(), coordination(true)).seen('a', { id: 'a', status: 'completed' }, 15_000)).toBe(15_000);
  });
});

describe('a tracker with a coordinator, at its edges', () => {
  /** Whether `promise` is still pending once the queued callbacks ran. */
  const pending = async (promise: Promise<unknown>) => {
    const marker = Symbol('pending');
    await new Promise((r) => setTimeout(r, 0));
    return (await Promise.race([promise, Promise.resolve(marker)])) === marker;
  };

  it('watches each task once, however many rounds and follows name it, and never an empty list', async () => {
    const { src } = source({ a: 'running', b: 'running' }, [], 100);
    const c = coordination(true);
    const asked: string[][] = [];
    const watch = c.coordinator.watch.bind(c.coordinator);
    c.coordinator.watch = (ids, onFinal) => (asked.push([...ids]), watch(ids, onFinal));
    const tracker = coordinatedTracker(src, heldClock(), c);
    await tracker.round(['a']);
    await tracker.round(['a', 'b']);
    tracker.follow(['a', 'b']);
    await tracker.seen('b', { id: 'b', status: 'running' }, undefined);
    expect(asked).toEqual([['a'], ['b']]);
  });

  it('watches a task first seen by a single read, so its final event wakes the sleep', async () => {
    const { src } = source({}, [], 100);
    const c = coordination(true);
    const tracker = coordinatedTracker(src, heldClock(), c);
    await tracker.seen('a', { id: 'a', status: 'running' }, undefined);
    c.tell('a');
    await expect(tracker.sleep(600_000, undefined)).resolves.toBe('woken');
  });

  it('is not woken by a final event of a task it already read final', async () => {
    const { src } = source({ a: 'completed', b: 'running' }, [], 100);
    const c = coordination(true);
    const tracker = coordinatedTracker(src, heldClock(), c);
    await tracker.round(['a', 'b']);
    c.tell('a');
    expect(await pending(tracker.sleep(600_000, undefined))).toBe(true);
  });

  it('settles nothing after a round in which no task was final', async () => {
    const { src } = source({ a: 'running' }, [], 100);
    const asked: number[] = [];
    const c = coordination(true);
    c.coordinator.settle = async (notices) => void asked.push(notices.length);
    await coordinatedTracker(src, heldClock(), c).round(['a']);
    expect(asked).toEqual([]);
  });

  it("reads a task told final but read running again at the service's pace, not the safety cadence", async () => {
    const { src } = source({ a: 'running' }, [], 100);
    const c = coordination(true);
    const tracker = coordinatedTracker(src, heldClock(), c);
    expect((await tracker.round(['a']))[0]!.waitMs).toBe(600_000);
    c.tell('a');
    expect((await tracker.round(['a']))[0]!.waitMs).toBe(120_000);
  });

  it('rejects a sleep asked with an aborted signal at once, without sleeping', async () => {
    const clock = heldClock();
    const tracker = coordinatedTracker(source({}).src, clock, coordination(true));
    await expect(tracker.sleep(1000, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    expect(clock.slept).toEqual([]);
  });

  it('removes its abort listener once a sleep ends, woken or slept out', async () => {
    const added: unknown[] = [];
    const removed: unknown[] = [];
    const signal = {
      aborted: false,
      addEventListener: (type: string, listener: unknown, options: unknown) => void added.push([type, listener, options]),
      removeEventListener: (type: string, listener: unknown) => void removed.push([type, listener]),
    } as unknown as AbortSignal;
    const { src } = source({ a: 'running' }, [], 100);
    const c = coordination(true);
    const tracker = coordinatedTracker(src, heldClock(), c);
    await tracker.round(['a']);
    const woken = tracker.sleep(600_000, signal);
    // Told once the sleep listens (told before, it would not sleep at all).
    await new Promise((r) => setTimeout(r, 0));
    c.tell('a');
    await expect(woken).resolves.toBe('woken');
    const slept = coordinatedTracker(src, { now: () => 0, sleep: async () => {} }, c).sleep(5, signal);
    await expect(slept).resolves.toBeUndefined();
    expect(added).toHaveLength(2);
    for (const [i, [type, listener, options]] of (added as [string, unknown, unknown][]).entries()) {
      expect([type, options]).toEqual(['abort', { once: true }]);
      expect(removed.some((r) => (r as unknown[])[0] === 'abort' && (r as unknown[])[1] === listener), `listener ${i} removed`).toBe(true);
    }
  });
});

describe('the safety wait', () => {
  it("is the cadence at the spec's pace, shrunk as the service's stated waits are, never under the stated wait", () => {
    expect(safetyWait(600_000, 120_000, 120_000)).toBe(600_000);
    expect(safetyWait(600_000, undefined, 120_000)).toBe(600_000);
    // A state with no wait of its own (0): the cadence as is.
    expect(safetyWait(600_000, 0, 0)).toBe(600_000);
    // The mock's fast clock states 1 s for the running 120 s.
    expect(safetyWait(600_000, 1000, 120_000)).toBe(5000);
    expect(safetyWait(60_000, 120_000, 120_000)).toBe(120_000);
    expect(safetyWait(10 * 3_600_000, 120_000, 120_000)).toBe(3_600_000);
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
