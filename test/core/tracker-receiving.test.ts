// A coordinated tracker's sleep on the safety cadence looks, at its tasks' own pace, whether events
// can still come; once they cannot, it ends `'due'` (read now, a poll). With no receiver seen at its
// start, a sleep is one sleep, as without a coordinator.
import { describe, expect, it } from 'vitest';
import { coordinatedTracker } from '../../src/core/coordinated-tracker.js';
import type { TaskFinalNotice } from '../../src/core/coordination.js';
import type { TaskSource } from '../../src/core/task-tracker.js';

interface Task {
  id: string;
  status: string;
}

/** Tasks listed with the status of `states`; queued asks for 15 s, running for 120 s. */
function source(states: Record<string, string>): { src: TaskSource<Task>; reads: string[][] } {
  const reads: string[][] = [];
  const src: TaskSource<Task> = {
    maxIds: 100,
    async listByIds(ids) {
      reads.push([...ids]);
      return { items: ids.map((id) => ({ id, status: states[id]! })), retryAfter: undefined };
    },
    read: async (id) => ({ item: { id, status: states[id]! }, retryAfter: undefined }),
    idOf: (t) => t.id,
    fallbackWait: (t) => (t.status === 'running' ? 120_000 : 15_000),
    finalStatus: () => undefined,
  };
  return { src, reads };
}

/** A coordinator whose `receiving()` answers what `state.receiving` says (a throw when it is `'throws'`). */
function coordination(state: { receiving: boolean | 'throws' }) {
  const watchers = new Map<string, (n: TaskFinalNotice) => void>();
  return {
    interval: 600_000,
    tell: (taskId: string) => watchers.get(taskId)?.({ taskId, status: 'completed' }),
    coordinator: {
      watch(ids: readonly string[], onFinal: (n: TaskFinalNotice) => void) {
        for (const id of ids) watchers.set(id, onFinal);
        return () => undefined;
      },
      receiving: () => {
        if (state.receiving === 'throws') throw new Error('closed');
        return state.receiving;
      },
      settle: async () => undefined,
    },
  };
}

/** A clock whose sleeps pass at once, recording their ms, and run `after(n)` once the n-th has. */
function passingClock(after: (n: number) => void = () => undefined) {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
      slept.push(ms);
      after(slept.length);
    },
  };
}

describe('a coordinated sleep on the safety cadence', () => {
  it('ends due at the first step of its tasks’ pace after the receiver is no longer seen', async () => {
    const state: { receiving: boolean | 'throws' } = { receiving: true };
    const { src, reads } = source({ a: 'running', b: 'queued' });
    const clock = passingClock((n) => n === 2 && (state.receiving = false));
    const tracker = coordinatedTracker(src, clock, coordination(state));
    expect((await tracker.round(['a', 'b'])).map((t) => t.waitMs)).toEqual([600_000, 600_000]);
    await expect(tracker.sleep(600_000, undefined)).resolves.toBe('due');
    // Steps of the shortest wait a pending task asks for (15 s queued), then due.
    expect(clock.slept).toEqual([15_000, 15_000]);
    // Due by the service's pace now: the queued task at once, the running one once 120 s have passed.
    await tracker.round(['a', 'b']);
    expect(reads).toEqual([['a', 'b'], ['b']]);
  });

  it('ends due when the coordinator throws (closed) or answers no boolean', async () => {
    for (const lost of ['throws', undefined] as const) {
      const state = { receiving: true as boolean | 'throws' };
      const clock = passingClock(() => (state.receiving = lost as 'throws'));
      const tracker = coordinatedTracker(source({ a: 'running' }).src, clock, coordination(state));
      await tracker.round(['a']);
      await expect(tracker.sleep(600_000, undefined)).resolves.toBe('due');
      expect(clock.slept).toEqual([120_000]);
    }
  });

  it('sleeps the whole cadence, in steps, while the receiver is still seen, and ends as a plain sleep', async () => {
    const clock = passingClock();
    const tracker = coordinatedTracker(source({ a: 'running' }).src, clock, coordination({ receiving: true }));
    await tracker.round(['a']);
    await expect(tracker.sleep(600_000, undefined)).resolves.toBeUndefined();
    expect(clock.slept).toEqual([120_000, 120_000, 120_000, 120_000, 120_000]);
    expect(clock.now()).toBe(600_000);
  });

  it('is woken by a final notice in a later step', async () => {
    let tell = (_id: string) => undefined as void;
    const clock = passingClock((n) => n === 2 && tell('a'));
    const c = coordination({ receiving: true });
    tell = c.tell;
    const tracker = coordinatedTracker(source({ a: 'running' }).src, clock, c);
    await tracker.round(['a']);
    await expect(tracker.sleep(600_000, undefined)).resolves.toBe('woken');
    expect(clock.slept).toEqual([120_000, 120_000]);
  });

  it('is one sleep when no receiver is seen at its start, however long (a waitMany of queued and running tasks)', async () => {
    const clock = passingClock();
    const tracker = coordinatedTracker(source({ a: 'running', b: 'queued' }).src, clock, coordination({ receiving: false }));
    await tracker.round(['a', 'b']);
    await expect(tracker.sleep(120_000, undefined)).resolves.toBeUndefined();
    expect(clock.slept).toEqual([120_000]);
  });

  it('seen by the round but not at its start (the receiver just lost): one step of the tasks’ longest wait, then due', async () => {
    const state: { receiving: boolean | 'throws' } = { receiving: true };
    const clock = passingClock();
    const tracker = coordinatedTracker(source({ a: 'running', b: 'queued' }).src, clock, coordination(state));
    expect((await tracker.round(['a', 'b'])).map((t) => t.waitMs)).toEqual([600_000, 600_000]);
    state.receiving = false;
    await expect(tracker.sleep(600_000, undefined)).resolves.toBe('due');
    expect(clock.slept).toEqual([120_000]);
  });

  it('counts its time down, not off the clock: a clock set back an hour at each step stretches nothing', async () => {
    const clock = passingClock();
    const tracker = coordinatedTracker(source({ a: 'running' }).src, { ...clock, now: () => clock.now() - 3_600_000 * clock.slept.length }, coordination({ receiving: true }));
    await tracker.round(['a']);
    await expect(tracker.sleep(600_000, undefined)).resolves.toBeUndefined();
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBe(600_000);
  });

  it('ends after one sleep when asked a NaN wait (no loop)', async () => {
    const clock = passingClock();
    const tracker = coordinatedTracker(source({ a: 'running' }).src, { ...clock, now: () => Number.NaN }, coordination({ receiving: true }));
    await tracker.round(['a']);
    await expect(tracker.sleep(Number.NaN, undefined)).resolves.toBeUndefined();
    expect(clock.slept).toHaveLength(1);
  });

  it('is woken by a notice even on a clock whose sleep ignores its signal', async () => {
    const c = coordination({ receiving: true });
    let now = 0;
    const deaf = { now: () => now, sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(() => resolve(void (now += ms)), 50)) };
    const tracker = coordinatedTracker(source({ a: 'running' }).src, deaf, c);
    await tracker.round(['a']);
    const sleeping = tracker.sleep(600_000, undefined);
    await new Promise((r) => setTimeout(r, 0));
    c.tell('a');
    await expect(sleeping).resolves.toBe('woken');
    expect(now).toBe(0);
  });

  it('says woken, not due, when a notice came while it asked whether the receiver is still seen', async () => {
    const c = coordination({ receiving: true });
    let asked = 0;
    // The round asks twice, the sleep once before its first step; the fourth question hears a notice and the loss.
    c.coordinator.receiving = () => {
      if (++asked < 4) return true;
      c.tell('a');
      return false;
    };
    const tracker = coordinatedTracker(source({ a: 'running' }).src, passingClock(), c);
    await tracker.round(['a']);
    await expect(tracker.sleep(600_000, undefined)).resolves.toBe('woken');
    expect(asked).toBe(4);
  });
});
