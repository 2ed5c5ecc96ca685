// The fleet's behaviour, run for every client kind on every topology (kinds-*.test.ts): a shared
// request budget, first-come-first-served slots woken by pub/sub, the fan-out of final events,
// exactly-once claims, a webhook receiver seen by the others, and the waiting starts of a process
// that stopped trying. Each suite gets new connections per simulated process and a prefix of its own.
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createRedisCoordinator, type RedisCoordinator, type RedisCoordinatorOptions, type TaskFinalNotice } from '../../src/redis/index.js';
import { redisPort } from '../../src/redis/clients.js';
import { ALIVE_REFRESH_MS, ALIVE_TTL_MS } from '../../src/redis/slots.js';
import { testClock, type TestClock } from './_clock.js';
import type { KindClient } from './_kinds.js';
import { settlesWithin } from '../_timing.js';

const KEY_HASH = createHash('sha256').update('pre_kind_suite_key').digest('hex');

export interface KindProcess {
  coordinator: RedisCoordinator;
  connection: KindClient;
  warnings: string[];
}

/** Processes on `connect()`'s kind, closed after the file's tests. */
export function kindProcesses(connect: () => Promise<KindClient>) {
  const open: KindProcess[] = [];
  afterAll(async () => {
    for (const p of open.splice(0)) {
      await p.coordinator.close();
      await p.connection.close();
    }
  });
  return async (clock: TestClock, options: RedisCoordinatorOptions): Promise<KindProcess> => {
    const connection = await connect();
    const coordinator = createRedisCoordinator(connection.client, options);
    const warnings: string[] = [];
    coordinator.attach({ keyHash: () => KEY_HASH, clock, warn: (message) => warnings.push(message) });
    const p = { coordinator, connection, warnings };
    open.push(p);
    return p;
  };
}

let suites = 0;

/** The fleet tests for one client kind; `kind` is what the coordinator must recognise it as, `label` names the suite (a second version of one kind). */
export function fleetSuite(kind: string, connect: () => Promise<KindClient>, label = kind): void {
  const suite = ++suites;
  const processes = kindProcesses(connect);
  let n = 0;
  const fleet = async (clock: TestClock, count: number, options: RedisCoordinatorOptions) => {
    const prefix = `kind-${suite}-${++n}`;
    // One after another: many cluster clients connecting at once on two cores may miss their connect timeout.
    const made: KindProcess[] = [];
    for (let i = 0; i < count; i++) made.push(await processes(clock, { prefix, ...options }));
    return made;
  };

  describe(label, () => {
    it('is recognised by its shape', async () => {
      const connection = await connect();
      try {
        expect(redisPort(connection.client).kind).toBe(kind);
      } finally {
        await connection.close();
      }
    });

    it('shares one request budget across processes, and reserves the next place in the window', async () => {
      const clock = testClock();
      const [a, b] = await fleet(clock, 2, { requestsPerMinute: 3 });
      await a!.coordinator.take('requests');
      await b!.coordinator.take('requests');
      await a!.coordinator.take('requests');
      const fourth = b!.coordinator.take('requests');
      expect(await settlesWithin(fourth, 300)).toBe(false);
      expect((await a!.coordinator.stats()).requestsInWindow).toBe(3);
      // On a busy machine the fourth may still be asking Redis as the clock moves: it sleeps only what is left.
      clock.advance(60_000 + 250);
      await fourth;
      expect(a!.coordinator.mode).toBe('shared');
      expect([...a!.warnings, ...b!.warnings]).toEqual([]);
      expect(await a!.coordinator.used()).toBe(true);
      const [other] = await fleet(clock, 1, {});
      expect(await other!.coordinator.used()).toBe(false);
    });

    it("shares one user's slots, events and webhook-test window across two keys (one userPrefix), each key keeping its own request window", async () => {
      const clock = testClock();
      const userPrefix = `user-${suite}-${++n}`;
      // Two keys of one user: a prefix each (on a cluster, most likely on other nodes than the user's keys).
      const a = await processes(clock, { prefix: `${userPrefix}-key-a`, userPrefix, maxActive: 1, requestsPerMinute: 1, webhookTestsPerMinute: 1 });
      const b = await processes(clock, { prefix: `${userPrefix}-key-b`, userPrefix, maxActive: 1, requestsPerMinute: 1, webhookTestsPerMinute: 1 });
      expect(await settlesWithin(a.coordinator.take('requests'), 2_000)).toBe(true);
      expect(await settlesWithin(b.coordinator.take('requests'), 2_000)).toBe(true);
      expect([(await a.coordinator.stats()).requestsInWindow, (await b.coordinator.stats()).requestsInWindow]).toEqual([1, 1]);
      // Webhook tests and replays the service counts per user: one window for both keys.
      expect(await settlesWithin(a.coordinator.take('webhookTests'), 2_000)).toBe(true);
      const stop = new AbortController();
      const secondTest = b.coordinator.take('webhookTests', stop.signal).catch(() => 'aborted');
      expect(await settlesWithin(secondTest, 300)).toBe(false);
      stop.abort();
      expect(await secondTest).toBe('aborted');
      await (await a.coordinator.hold(1)).bind(['u1']);
      const seen: string[] = [];
      const heard: string[] = [];
      b.coordinator.watch(['u1', 'ready'], (notice) => (notice.taskId === 'ready' ? heard : seen).push(notice.taskId));
      // The subscription is made in the background (slower through a sentinel, and under load): the
      // other key publishes until it has been heard, so u1's end below cannot come before it.
      await vi.waitFor(
        async () => {
          await a.coordinator.publish({ id: `evt_ready_${Date.now()}`, type: 'forecast.completed', taskId: 'ready', status: 'completed', final: true });
          expect(heard).not.toEqual([]);
        },
        { timeout: 10_000, interval: 100 },
      );
      const next = b.coordinator.hold(1);
      expect(await settlesWithin(next, 300)).toBe(false);
      expect((await b.coordinator.stats()).activeTaskIds).toEqual(['u1']);
      await a.coordinator.settle([{ taskId: 'u1', status: 'completed' }]);
      expect(await settlesWithin(next, 5_000)).toBe(true);
      await vi.waitFor(() => expect(seen).toEqual(['u1']), { timeout: 5_000 });
      await (await next).release();
      expect([await a.coordinator.used(), a.warnings, b.warnings]).toEqual([true, [], []]);
    });

    it('serves slots first come, first served, never past maxActive, woken by pub/sub when one is freed', async () => {
      const clock = testClock();
      const [a, b, c] = await fleet(clock, 3, { maxActive: 2 });
      await (await a!.coordinator.hold(2)).bind(['t1', 't2']);
      const bWaits = b!.coordinator.hold(1);
      await vi.waitFor(async () => expect((await a!.coordinator.stats()).startsWaiting).toBe(1));
      const cWaits = c!.coordinator.hold(1);
      await vi.waitFor(async () => expect((await a!.coordinator.stats()).startsWaiting).toBe(2));
      // The clock never moves, and each wake comes well before the real-time heartbeat: the message on the channel woke it.
      let freedAt = Date.now();
      await a!.coordinator.settle([{ taskId: 't1', status: 'completed' }]);
      await (await bWaits).bind(['t3']);
      expect(Date.now() - freedAt).toBeLessThan(ALIVE_REFRESH_MS / 2);
      expect(await settlesWithin(cWaits, 200)).toBe(false);
      freedAt = Date.now();
      await a!.coordinator.settle([{ taskId: 't2' }]);
      await (await cWaits).bind(['t4']);
      expect(Date.now() - freedAt).toBeLessThan(ALIVE_REFRESH_MS / 2);
      const stats = await c!.coordinator.stats();
      expect(stats).toMatchObject({ mode: 'shared', activeSlots: 2, startsWaiting: 0 });
      expect(stats.activeTaskIds.sort()).toEqual(['t3', 't4']);
    });

    it("tells every process of a task's final event, and counts a receiver as seen", async () => {
      const clock = testClock();
      const [receiver, waiter] = await fleet(clock, 2, {});
      const seen: TaskFinalNotice[] = [];
      const stop = waiter!.coordinator.watch(['t9'], (notice) => seen.push(notice));
      expect(waiter!.coordinator.receiving()).toBe(false);
      // The subscription is made in the background: publish until it has heard one.
      await vi.waitFor(async () => {
        await receiver!.coordinator.publish({ id: `evt_${seen.length}_${Date.now()}`, type: 'forecast.completed', taskId: 't9', status: 'completed', final: true });
        expect(seen.length).toBeGreaterThan(0);
      });
      stop();
      expect(seen[0]).toEqual({ taskId: 't9', status: 'completed' });
      // The claim counts once the record of receivers is read (at most once a second: COALESCE_MS).
      await vi.waitFor(() => expect(waiter!.coordinator.receiving()).toBe(true), { timeout: 3_000 });
      expect((await waiter!.coordinator.stats()).receiversSeen).toBe(1);
    });

    it('keeps a handled event 24 hours, and the record of receivers only as long as they are seen', async () => {
      const clock = testClock();
      // 20 short-lived receivers beside a: each publishes once and goes.
      const [a, ...receivers] = await fleet(clock, 21, { receiverTtlMs: 60_000 });
      const prefix = `kind-${suite}-${n}`;
      for (const [i, r] of receivers.entries()) await r.coordinator.publish({ id: `e${i}`, type: 'webhook.test', final: false });
      expect((await a!.coordinator.stats()).receiversSeen).toBe(20);
      clock.advance(61_000);
      await a!.coordinator.publish({ id: 'e-last', type: 'webhook.test', final: false });
      expect((await a!.coordinator.stats()).receiversSeen).toBe(1);
      expect(await a!.coordinator.claimEvent('evt_kept')).toBe('claimed');
      await a!.coordinator.finishEvent('evt_kept');
      // The record itself holds one entry now: the 20 left it (read through the port, as any kind reads it).
      const port = redisPort(a!.connection.client);
      expect(await port.send(['ZCARD', `{${prefix}}:receivers`], `{${prefix}}:slots`, 2_000)).toBe(1);
      const ttl = Number(await port.send(['PTTL', `{${prefix}}:event:evt_kept`], `{${prefix}}:slots`, 2_000));
      expect(ttl).toBeGreaterThan(24 * 60 * 60_000 - 60_000);
      expect(ttl).toBeLessThanOrEqual(24 * 60 * 60_000);
    }, 30_000);

    it('claims a webhook event once across processes', async () => {
      const clock = testClock();
      const [a, b] = await fleet(clock, 2, {});
      const claims = await Promise.all([a!.coordinator.claimEvent('evt_once'), b!.coordinator.claimEvent('evt_once')]);
      expect(claims.sort()).toEqual(['claimed', 'running']);
      await (claims[0] === 'claimed' ? a : b)!.coordinator.finishEvent('evt_once');
      expect(await a!.coordinator.claimEvent('evt_once')).toBe('done');
      expect((await b!.coordinator.stats()).eventsDeduplicated).toBe(1);
    });

    it("frees a killed holder's slots once the service says its tasks ended (a waiting start's reconcile)", async () => {
      const clock = testClock();
      const [holder, waiter] = await fleet(clock, 2, { maxActive: 2 });
      await (await holder!.coordinator.hold(2)).bind(['k1', 'k2']);
      // The holder dies with its tasks running: nothing will settle them but a reconcile.
      await holder!.coordinator.close();
      await holder!.connection.close();
      const asked: string[][] = [];
      const next = waiter!.coordinator.hold(1, { reconcile: async (ids) => (asked.push([...ids].sort()), ['k1']) });
      expect(await settlesWithin(next, 5_000)).toBe(true);
      expect(asked[0]).toEqual(['k1', 'k2']);
      expect((await waiter!.coordinator.stats()).activeTaskIds).toEqual(['k2']);
      await (await next).release();
    });

    it('lets the starts behind a process that stopped trying go within ALIVE_TTL_MS and a retry', async () => {
      const clock = testClock();
      const [holder, dead, live] = await fleet(clock, 3, { maxActive: 1 });
      await (await holder!.coordinator.hold(1)).bind(['t0']);
      // The dying process queues first; then its connection goes with no goodbye, as a SIGKILL would.
      void dead!.coordinator.hold(1).catch(() => undefined);
      await vi.waitFor(async () => expect((await holder!.coordinator.stats()).startsWaiting).toBe(1));
      await dead!.coordinator.close();
      await dead!.connection.close();
      const liveWaits = live!.coordinator.hold(1);
      await vi.waitFor(async () => expect((await holder!.coordinator.stats()).startsWaiting).toBe(2));
      const freedAt = Date.now();
      await holder!.coordinator.settle([{ taskId: 't0' }]);
      expect(await settlesWithin(liveWaits, ALIVE_TTL_MS + ALIVE_REFRESH_MS + 1_500)).toBe(true);
      expect(Date.now() - freedAt).toBeLessThan(15_000);
      await (await liveWaits).bind(['t1']);
    }, 30_000);
  });
}

/**
 * A failover under a fleet of two processes on one prefix (`first` and `second` may be different
 * kinds: one fleet can mix clients): `kill` SIGKILLs the primary that holds `key`'s slot and resolves
 * once a replica is promoted.
 */
export function failoverSuite(name: string, first: () => Promise<KindClient>, second: () => Promise<KindClient>, kill: (key: string) => Promise<void>): void {
  const processesA = kindProcesses(first);
  const processesB = kindProcesses(second);
  const suite = ++suites;

  it(`${name}: goes local with one warning, is shared again within 20 s of the promotion, and frees the slots of tasks that ended meanwhile`, async () => {
    const clock = testClock();
    const prefix = `failover-${suite}`;
    const a = await processesA(clock, { prefix, maxActive: 1 });
    const b = await processesB(clock, { prefix, maxActive: 1 });
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      await (await a.coordinator.hold(1)).bind(['t1']);
      const seen: string[] = [];
      const seenByA: string[] = [];
      b.coordinator.watch(['t1', 't2'], (notice) => seen.push(notice.taskId));
      a.coordinator.watch(['t3'], (notice) => seenByA.push(notice.taskId));
      await kill(`{${prefix}}:slots`);
      const promotedAt = Date.now();
      // The task ends while the fleet finds the new primary: told on local limits if Redis does not answer.
      await a.coordinator.settle([{ taskId: 't1', status: 'completed' }]);
      for (;;) {
        const modes = [(await a.coordinator.stats()).mode, (await b.coordinator.stats()).mode];
        if (modes.every((mode) => mode === 'shared')) break;
        expect(Date.now() - promotedAt).toBeLessThan(20_000);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      // t1's slot is free again without a start tripping over it: b's start goes at once.
      const bHold = b.coordinator.hold(1);
      expect(await settlesWithin(bHold, 3_000)).toBe(true);
      await (await bHold).bind(['t2']);
      expect(await b.coordinator.stats()).toMatchObject({ mode: 'shared', activeTaskIds: ['t2'] });
      // The channel works again for every process.
      await vi.waitFor(
        async () => {
          await a.coordinator.settle([{ taskId: 't2', status: 'completed' }]);
          expect(seen).toContain('t2');
        },
        { timeout: 20_000 - (Date.now() - promotedAt), interval: 250 },
      );
      await vi.waitFor(
        async () => {
          await b.coordinator.settle([{ taskId: 't3', status: 'completed' }]);
          expect(seenByA).toContain('t3');
        },
        { timeout: Math.max(1_000, 20_000 - (Date.now() - promotedAt)), interval: 250 },
      );
      for (const p of [a, b]) {
        expect(p.warnings.filter((w) => w.includes('did not answer')).length).toBeLessThanOrEqual(1);
        expect(p.warnings.filter((w) => w.includes('Redis answers again')).length).toBeLessThanOrEqual(1);
      }
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  }, 60_000);
}
