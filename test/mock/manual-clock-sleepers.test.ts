// The client clock of a manual mock clock (clientClockFor, mockClientOptions) moves the mock's time to
// the next sleeper's wake-up. Sleeps often fall due together (the clock stands still while requests
// are in flight); one of them ending early (an abort, a coordinated wait woken by an event) took the
// wake-up time away from the others, which then slept for ever (held a defect, found by an attacker).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coordinatedTracker } from '../../src/core/coordinated-tracker.js';
import type { TaskFinalNotice } from '../../src/core/coordination.js';
import type { TaskSource } from '../../src/core/task-tracker.js';
import { ForecastingClient, type ClientClock } from '../../src/index.js';
import { clientClockFor, ManualClock, mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';
import { settlesWithin } from '../_timing.js';

describe('two sleeps due at the same mock time', () => {
  it('one aborted: the other still wakes', async () => {
    const clock = clientClockFor(new ManualClock());
    const stop = new AbortController();
    const kept = clock.sleep(15_000);
    const aborted = clock.sleep(15_000, stop.signal).catch((err: unknown) => err);
    stop.abort(new Error('gave up'));
    expect(((await aborted) as Error).message).toBe('gave up');
    expect(await settlesWithin(kept, 1_000)).toBe(true);
  });

  it('one woken early by a final event (a coordinated wait): the other still wakes', async () => {
    const clock = clientClockFor(new ManualClock());
    const source: TaskSource<{ id: string; status: string }> = {
      maxIds: 100,
      listByIds: async (ids) => ({ items: ids.map((id) => ({ id, status: 'running' })), retryAfter: 120_000 }),
      read: async (id) => ({ item: { id, status: 'running' }, retryAfter: undefined }),
      idOf: (t) => t.id,
      fallbackWait: () => 120_000,
      finalStatus: () => undefined,
    };
    let tell: ((notice: TaskFinalNotice) => void) | undefined;
    const coordinator = { watch: (_ids: readonly string[], onFinal: (notice: TaskFinalNotice) => void) => ((tell = onFinal), () => undefined), receiving: () => false, settle: async () => undefined };
    const tracker = coordinatedTracker(source, clock, { coordinator, interval: 600_000 });
    tracker.follow(['a']);
    const other = clock.sleep(120_000);
    const woken = tracker.sleep(120_000, undefined);
    tell!({ taskId: 'a', status: 'completed' });
    expect(await woken).toBe('woken');
    expect(await settlesWithin(other, 1_000)).toBe(true);
  });
});

describe("the manual clock's other edges (held a defect)", () => {
  it("a test's callback on the clock that throws is reported, and later sleepers still wake", async () => {
    const errors: unknown[] = [];
    const onError = (err: unknown) => void errors.push(err);
    const previous = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', onError);
    try {
      const manual = new ManualClock();
      const clock = clientClockFor(manual);
      manual.schedule(manual.now() + 500, () => {
        throw new Error("a test's own bug");
      });
      const first = clock.sleep(1_000);
      const second = clock.sleep(2_000);
      expect(await settlesWithin(first, 500)).toBe(true);
      expect(await settlesWithin(second, 500)).toBe(true);
      expect(errors.map((err) => (err as Error).message)).toEqual(["a test's own bug"]);
    } finally {
      process.off('uncaughtException', onError);
      for (const listener of previous) process.on('uncaughtException', listener);
    }
  });

  it('ends sleep(NaN) at once, as the real clock does (only Infinity is no wake-up)', async () => {
    expect(await settlesWithin(clientClockFor(new ManualClock()).sleep(Number.NaN), 500)).toBe(true);
  });
});

describe('two forecast waits on a manual mock clock, over HTTP', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ clock: new ManualClock() });
  });
  afterAll(() => mock.close());

  it('aborting one while both sleep to the same mock time leaves the other to complete', async () => {
    const options = mockClientOptions(mock);
    const stop = new AbortController();
    const sleeps: number[] = [];
    // The user gives up on one wait once both sleep.
    const clock: ClientClock = {
      ...options.clock,
      sleep(ms, signal) {
        const slept = options.clock.sleep(ms, signal);
        if (sleeps.push(ms) === 2) stop.abort(new Error('gave up'));
        return slept;
      },
    };
    const client = new ForecastingClient({ ...options, clock, logLevel: 'off' });
    const [q1, q2] = await Promise.all(['Paris', 'Lyon'].map((city) => client.questions.create({ type: 'binary', title: `Will it rain in ${city} on 1 June 2027?` })));
    const a = await client.forecasts.create({ questionId: q1!.id, runMode: 'light' });
    const b = await client.forecasts.create({ questionId: q2!.id, runMode: 'light' });
    const aborted = client.forecasts.wait(a.id, { signal: stop.signal }).catch((err: Error) => err.message);
    const kept = client.forecasts.wait(b.id);
    expect(await aborted).toBe('gave up');
    expect(sleeps[0]).toBe(sleeps[1]);
    expect(await settlesWithin(kept, 5_000)).toBe(true);
    expect((await kept).status).toBe('completed');
  });
});
