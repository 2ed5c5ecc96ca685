// Active-forecast slots across processes: a FIFO queue, maxActive, bind/settle, abort, and the
// slots of a process that died.
import { describe, expect, it, vi } from 'vitest';
import { RETRY_MS, WAITER_TTL_MS } from '../../src/redis/slots.js';
import { testClock } from './_clock.js';
import { type Process, useRedis } from './_setup.js';
import { runClockUntil, slotFleets } from './_slots.js';

const redis = useRedis();

const { fleet, isPending, prefix } = slotFleets(redis, 'slots');

describe('shared active slots', () => {
  it('serves holds first come, first served across processes, never past maxActive, and frees on settle', async () => {
    const clock = testClock();
    const [a, b, c] = await fleet(clock, 3, 3);
    const first = await a!.coordinator.hold(3);
    await first.bind(['t1', 't2', 't3']);
    const bWaits = b!.coordinator.hold(1);
    await vi.waitFor(async () => expect((await a!.coordinator.stats()).startsWaiting).toBe(1));
    const cWaits = c!.coordinator.hold(2);
    await vi.waitFor(async () => expect((await a!.coordinator.stats()).startsWaiting).toBe(2));

    // One slot freed: b, first in line, gets it, woken by pub/sub (the clock never moves).
    await a!.coordinator.settle([{ taskId: 't1', status: 'completed' }]);
    const bHold = await bWaits;
    expect(await isPending(cWaits)).toBe(true);
    expect((await a!.coordinator.stats()).activeSlots).toBe(3);

    // b's start was refused: its slot comes back, and c still needs two.
    await bHold.release();
    expect(await isPending(cWaits)).toBe(true);
    await a!.coordinator.settle([{ taskId: 't2' }]);
    const cHold = await cWaits;
    await cHold.bind(['t4', 't5']);
    const stats = await b!.coordinator.stats();
    expect(stats).toMatchObject({ mode: 'shared', activeSlots: 3, startsWaiting: 0 });
    expect(stats.activeTaskIds.sort()).toEqual(['t3', 't4', 't5']);
    expect(clock.now()).toBe(testClock().now());
  });

  it('never holds more than maxActive while many starts of several processes compete', async () => {
    const clock = testClock();
    const processes = await fleet(clock, 3, 4);
    const granted: string[] = [];
    const starts = Array.from({ length: 12 }, (_, i) =>
      processes[i % 3]!.coordinator.hold(1).then(async (hold) => {
        await hold.bind([`task${i}`]);
        granted.push(`task${i}`);
      }),
    );
    for (let settled = 0; settled <= 8; settled++) {
      await vi.waitFor(() => expect(granted).toHaveLength(4 + settled));
      const stats = await processes[0]!.coordinator.stats();
      expect(stats.activeSlots).toBe(4);
      expect(stats.startsWaiting).toBe(8 - settled);
      if (settled < 8) await processes[settled % 3]!.coordinator.settle([{ taskId: granted[settled]! }]);
    }
    await Promise.all(starts);
  });

  it("lets only a process's first waiting hold try again; its tries keep the others' places, first come, first served across processes", async () => {
    const clock = testClock();
    const [holder, a, b] = await fleet(clock, 3, 1);
    await (await holder!.coordinator.hold(1)).bind(['t0']);
    const order: string[] = [];
    const queue = async (name: string, process: Process, waiting: number) => {
      const hold = process.coordinator.hold(1).then(async (h) => {
        order.push(name);
        await h.bind([name]);
      });
      await vi.waitFor(async () => expect((await holder!.coordinator.stats()).startsWaiting).toBe(waiting));
      return { hold };
    };
    const a1 = await queue('a1', a!, 1);
    const b1 = await queue('b1', b!, 2);
    const a2 = await queue('a2', a!, 3);
    const a3 = await queue('a3', a!, 4);
    // One timer per process: a1's and b1's, none for a2 and a3.
    await vi.waitFor(() => expect(clock.sleepers).toBe(2));
    const sendCommand = vi.spyOn(a!.client, 'sendCommand');
    // Far past a waiter's heartbeat: a1's tries renew a2's and a3's, so none of them loses its place.
    for (let i = 0; i < 4; i++) {
      clock.advance(RETRY_MS);
      await vi.waitFor(() => expect(clock.sleepers).toBe(2));
    }
    expect(clock.now() - testClock().now()).toBeGreaterThan(WAITER_TTL_MS);
    expect(sendCommand).toHaveBeenCalledTimes(4);
    expect((await holder!.coordinator.stats()).startsWaiting).toBe(4);
    for (const [i, { hold }] of [a1, b1, a2, a3].entries()) {
      await holder!.coordinator.settle([{ taskId: i === 0 ? 't0' : order[i - 1]! }]);
      await hold;
    }
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('wakes as many waiting holds as one settle frees slots, each process its first (the clock never moves)', async () => {
    const clock = testClock();
    const [holder, a, b] = await fleet(clock, 3, 3);
    await (await holder!.coordinator.hold(3)).bind(['t1', 't2', 't3']);
    const holds = [a!.coordinator.hold(1), b!.coordinator.hold(1), a!.coordinator.hold(1)];
    await vi.waitFor(async () => expect((await holder!.coordinator.stats()).startsWaiting).toBe(3));
    const admin = await redis.client();
    await vi.waitFor(async () => expect(await admin.pubSubNumSub(`{${prefix()}}:events`)).toEqual({ [`{${prefix()}}:events`]: 3 }));
    await holder!.coordinator.settle([{ taskId: 't1' }, { taskId: 't2' }, { taskId: 't3' }]);
    await expect(Promise.all(holds)).resolves.toHaveLength(3);
  });

  it("wakes its own process's waiting hold once its settle has freed the slot in Redis, even when the script must be sent again", async () => {
    const clock = testClock();
    const [p] = await fleet(clock, 1, 1);
    await (await p!.coordinator.hold(1)).bind(['t1']);
    const waiting = p!.coordinator.hold(1);
    await vi.waitFor(async () => expect((await p!.coordinator.stats()).startsWaiting).toBe(1));
    // Redis forgot the scripts (a restart, SCRIPT FLUSH): the settle's script goes again in full, after a NOSCRIPT.
    await (await redis.client()).scriptFlush();
    await p!.coordinator.settle([{ taskId: 't1' }]);
    await expect(waiting).resolves.toMatchObject({ count: 1 });
  });

  it('binds a task named twice once: the second slot goes back', async () => {
    const [a] = await fleet(testClock(), 1, 5);
    await (await a!.coordinator.hold(2)).bind(['t1', 't1']);
    expect(await a!.coordinator.stats()).toMatchObject({ activeSlots: 1, activeTaskIds: ['t1'] });
  });

  it('gives back the slots a start did not bind', async () => {
    const clock = testClock();
    const [a] = await fleet(clock, 1, 5);
    const hold = await a!.coordinator.hold(3);
    await hold.bind(['only']);
    await hold.release(); // after bind: a no-op
    expect(await a!.coordinator.stats()).toMatchObject({ activeSlots: 1, activeTaskIds: ['only'] });
  });

  it('lets an aborted hold leave the queue', async () => {
    const clock = testClock();
    const [a, b] = await fleet(clock, 2, 1);
    await (await a!.coordinator.hold(1)).bind(['t1']);
    const controller = new AbortController();
    const waiting = b!.coordinator.hold(1, { signal: controller.signal });
    await vi.waitFor(async () => expect((await a!.coordinator.stats()).startsWaiting).toBe(1));
    controller.abort(new Error('no longer wanted'));
    await expect(waiting).rejects.toThrow('no longer wanted');
    await vi.waitFor(async () => expect((await a!.coordinator.stats()).startsWaiting).toBe(0));
    // The next one is not stuck behind it.
    await a!.coordinator.settle([{ taskId: 't1' }]);
    await expect(a!.coordinator.hold(1)).resolves.toMatchObject({ count: 1 });
  });

  it.each([3, 3_000_000])('holds maxActive for hold(%s): a start larger than the fleet waits for every slot, never a huge hold', async (count) => {
    const [a] = await fleet(testClock(), 1, 2);
    await expect(a!.coordinator.hold(count)).resolves.toMatchObject({ count: 2 });
    expect((await a!.coordinator.stats()).activeSlots).toBe(2);
  });

  it.each([Number.NaN, -10, 0, 1.5, Number.POSITIVE_INFINITY])('refuses hold(%s) with a ValidationError naming count, before any command', async (count) => {
    const [a] = await fleet(testClock(), 1, 2);
    const sendCommand = vi.spyOn(a!.client, 'sendCommand');
    await expect(a!.coordinator.hold(count)).rejects.toMatchObject({ name: 'ValidationError', field: 'count' });
    expect(sendCommand).not.toHaveBeenCalled();
    expect(a!.coordinator.mode).toBe('shared');
    expect((await a!.coordinator.stats()).activeSlots).toBe(0);
  });
});

describe('slots of a process that died', () => {

  it('frees a pending hold that was never bound once pendingHoldTtlMs passes', async () => {
    const clock = testClock();
    const [dead, alive] = await fleet(clock, 2, 2, { pendingHoldTtlMs: 25_000 });
    await dead!.coordinator.hold(2); // never bound: its process died mid-start
    const start = clock.now();
    await runClockUntil(clock, alive!.coordinator.hold(1));
    expect(clock.now() - start).toBeGreaterThanOrEqual(25_000);
    expect(clock.now() - start).toBeLessThanOrEqual(25_000 + RETRY_MS);
  });

  it('drops a waiter whose heartbeat stopped from the head of the queue', async () => {
    const clock = testClock();
    const [holder, next] = await fleet(clock, 2, 1);
    const namespace = prefix();
    await (await holder!.coordinator.hold(1)).bind(['t1']);
    // A process queued first, then died: its entry stays, its heartbeat is never renewed.
    const client = await redis.client();
    await client.zAdd(`{${namespace}}:queue`, { score: 0, value: 'ghost' });
    await client.zAdd(`{${namespace}}:beats`, { score: clock.now() + WAITER_TTL_MS, value: 'ghost' });
    const waiting = next!.coordinator.hold(1);
    await holder!.coordinator.settle([{ taskId: 't1' }]);
    expect(await isPending(waiting)).toBe(true);
    const start = clock.now();
    await runClockUntil(clock, waiting);
    expect(clock.now() - start).toBeGreaterThanOrEqual(WAITER_TTL_MS);
    expect(clock.now() - start).toBeLessThanOrEqual(WAITER_TTL_MS + RETRY_MS);
  });
});

describe('a queue Redis lost (FLUSHALL)', () => {
  it("serves a process's starts in Redis's new order: no two waiting starts block each other with nothing running", async () => {
    const clock = testClock();
    const [holder, x, other] = await fleet(clock, 3, 1);
    await (await holder!.coordinator.hold(1)).bind(['t1']);
    const order: string[] = [];
    const start = (process: Process, name: string) =>
      process.coordinator.hold(1).then(async (hold) => {
        order.push(name);
        await hold.bind([name]);
      });
    const p2 = start(x!, 'p2');
    await vi.waitFor(async () => expect((await holder!.coordinator.stats()).startsWaiting).toBe(1));
    const admin = await redis.client();
    await admin.flushAll();
    // Another process takes the emptied slot (the documented gap); then x asks again: Redis queues p3
    // ahead of p2. (Should p2's heartbeat win the slot first, the line is p2, o1, p3: no deadlock either.)
    const o1 = start(other!, 'o1');
    await vi.waitFor(() => expect(order).toHaveLength(1), { timeout: 8_000 });
    const p3 = start(x!, 'p3');
    await vi.waitFor(async () => expect((await holder!.coordinator.stats()).startsWaiting).toBeGreaterThanOrEqual(1));
    // The clock never moves: each start goes on a message or a heartbeat, within seconds of the slot's end.
    // t1 ran before the flush and still runs as far as its holder knows: written back, it ends first.
    for (let done = 1; done < 3; done++) {
      await holder!.coordinator.settle([...(done === 1 ? [{ taskId: 't1' }] : []), { taskId: order[done - 1]! }]);
      await vi.waitFor(() => expect(order).toHaveLength(done + 1), { timeout: 8_000 });
    }
    await Promise.all([p2, p3, o1]);
    expect([...order].sort()).toEqual(['o1', 'p2', 'p3']);
  }, 30_000);
});

describe('a grant Redis lost (a failover promoted a replica that had not seen it)', () => {
  /** Resolves `'granted'` with `promise`, or `'waiting'` after `ms` of real time (under the heartbeat's 3 s: no timer rescues it). */
  const within = (promise: Promise<unknown>, ms: number) => Promise.race([promise.then(() => 'granted'), new Promise((resolve) => setTimeout(resolve, ms, 'waiting'))]);

  it("drops its own stale entry from the head of the queue at its next try, and wakes the other process's hold behind it", async () => {
    const clock = testClock();
    const [a, b] = await fleet(clock, 2, 1);
    const admin = await redis.client();
    const queue = `{${prefix()}}:queue`;
    const beats = `{${prefix()}}:beats`;
    await (await a!.coordinator.hold(1)).bind(['t1']);
    const second = a!.coordinator.hold(1);
    await vi.waitFor(async () => expect((await a!.coordinator.stats()).startsWaiting).toBe(1));
    // What the replica had when it was promoted: the second hold still waiting.
    const queued = await admin.zRangeWithScores(queue, 0, -1);
    const beating = await admin.zRangeWithScores(beats, 0, -1);
    await a!.coordinator.settle([{ taskId: 't1' }]);
    await (await second).bind(['t2']);
    await admin.zAdd(queue, queued);
    await admin.zAdd(beats, beating);
    await a!.coordinator.settle([{ taskId: 't2' }]);
    expect((await a!.coordinator.stats()).startsWaiting).toBe(1);

    // A slot is free, but the queue's head is a's hold that already ran: alive, renewed, it would
    // stand there for its heartbeat's 90 s. b queues behind it; a's next start sees it and drops it.
    const bWaits = b!.coordinator.hold(1);
    await vi.waitFor(async () => expect((await a!.coordinator.stats()).startsWaiting).toBe(2));
    const aWaits = a!.coordinator.hold(1);
    expect(await within(bWaits, 2_000)).toBe('granted');
    expect(await isPending(aWaits)).toBe(true);
    await (await bWaits).bind(['t3']);
    await b!.coordinator.settle([{ taskId: 't3' }]);
    expect(await within(aWaits, 2_000)).toBe('granted');
    expect((await a!.coordinator.stats()).startsWaiting).toBe(0);
  }, 15_000);
});
