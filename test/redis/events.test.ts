// Webhook events across processes: one claim per event id, and the fan-out of final events.
import { describe, expect, it, vi } from 'vitest';
import type { TaskFinalNotice } from '../../src/redis/index.js';
import { RUNNING_CLAIM_TTL_MS } from '../../src/redis/claims.js';
import { testClock } from './_clock.js';
import { processOn, useRedis } from './_setup.js';

const redis = useRedis();

describe('event claims', () => {
  it('claims an event id once across processes: running while its handler runs, done once it finished', async () => {
    const clock = testClock();
    const [a, b] = await Promise.all([processOn(redis, clock, { prefix: 'ev-claim' }), processOn(redis, clock, { prefix: 'ev-claim' })]);
    expect(await a.coordinator.claimEvent('evt_1')).toBe('claimed');
    // The first run has not answered: a second delivery must not be told "handled".
    expect(await b.coordinator.claimEvent('evt_1')).toBe('running');
    await a.coordinator.finishEvent('evt_1');
    expect(await b.coordinator.claimEvent('evt_1')).toBe('done');
    expect(await a.coordinator.claimEvent('evt_1')).toBe('done');
    // Only the repeats of a handled event count as deduplicated.
    expect((await a.coordinator.stats()).eventsDeduplicated).toBe(2);
  });

  it('frees a claim whose handler failed (unclaimEvent), so the next delivery runs it', async () => {
    const clock = testClock();
    const [a, b] = await Promise.all([processOn(redis, clock, { prefix: 'ev-fail' }), processOn(redis, clock, { prefix: 'ev-fail' })]);
    expect(await a.coordinator.claimEvent('evt_f')).toBe('claimed');
    await a.coordinator.unclaimEvent('evt_f');
    expect(await b.coordinator.claimEvent('evt_f')).toBe('claimed');
  });

  it('keeps a running claim a minute (a dead process frees it before the retry at 2 minutes) and a done claim eventRetentionMs', async () => {
    const clock = testClock();
    const a = await processOn(redis, clock, { prefix: 'ev-ttl', eventRetentionMs: 3 * 60 * 60_000 });
    const client = await redis.client();
    await a.coordinator.claimEvent('evt_ttl');
    const running = await client.pTTL('{ev-ttl}:event:evt_ttl');
    expect(running).toBeGreaterThan(RUNNING_CLAIM_TTL_MS - 10_000);
    expect(running).toBeLessThanOrEqual(RUNNING_CLAIM_TTL_MS);
    expect(RUNNING_CLAIM_TTL_MS).toBeLessThan(2 * 60_000);
    await a.coordinator.finishEvent('evt_ttl');
    const done = await client.pTTL('{ev-ttl}:event:evt_ttl');
    expect(done).toBeGreaterThan(3 * 60 * 60_000 - 60_000);
    expect(done).toBeLessThanOrEqual(3 * 60 * 60_000);
  });

  it('records a run done when it outlived its running claim, so a later delivery is a repeat', async () => {
    const clock = testClock();
    const a = await processOn(redis, clock, { prefix: 'ev-slow' });
    const client = await redis.client();
    expect(await a.coordinator.claimEvent('evt_slow')).toBe('claimed');
    await client.del('{ev-slow}:event:evt_slow'); // the running claim expired while the handler ran
    await a.coordinator.finishEvent('evt_slow');
    expect(await a.coordinator.claimEvent('evt_slow')).toBe('done');
  });

  it('reads a claim of the previous version (one value for every claim) as done', async () => {
    const clock = testClock();
    const a = await processOn(redis, clock, { prefix: 'ev-old' });
    const client = await redis.client();
    await client.set('{ev-old}:event:evt_old', '1', { PX: 60_000 });
    expect(await a.coordinator.claimEvent('evt_old')).toBe('done');
  });
});

describe('event fan-out', () => {
  it("wakes a watch in another process on a task's final event, and marks a receiver seen", async () => {
    const clock = testClock();
    const [receiver, waiter] = await Promise.all([processOn(redis, clock, { prefix: 'ev-fan' }), processOn(redis, clock, { prefix: 'ev-fan' })]);
    const seen: TaskFinalNotice[] = [];
    const stop = waiter.coordinator.watch(['t9', 't10'], (notice) => seen.push(notice));
    expect(waiter.coordinator.receiving()).toBe(false);
    // The watch's subscriber connection is opened in the background.
    const client = await redis.client();
    await vi.waitFor(async () => expect(await client.pubSubNumSub('{ev-fan}:events')).toEqual({ '{ev-fan}:events': 1 }));

    await receiver.coordinator.publish({ id: 'evt_started', type: 'forecast.started', taskId: 't9', final: false });
    await receiver.coordinator.publish({ id: 'evt_done', type: 'forecast.completed', taskId: 't9', status: 'completed', final: true });
    await vi.waitFor(() => expect(seen).toEqual([{ taskId: 't9', status: 'completed' }]));
    // The waiter checks Redis's record of receivers at most once a second (claims share a read): a
    // read just before the claim puts the next a second later, past waitFor's default on a busy machine.
    await vi.waitFor(() => expect(waiter.coordinator.receiving()).toBe(true), { timeout: 3_000 });
    expect(receiver.coordinator.receiving()).toBe(true);

    // Once a watch stops, a later final event of its tasks calls nothing.
    stop();
    await receiver.coordinator.publish({ id: 'evt_t10', type: 'forecast.failed', taskId: 't10', status: 'failed', final: true });
    await waiter.coordinator.settle([{ taskId: 't10' }]);
    expect(seen).toHaveLength(1);
    expect(await waiter.coordinator.stats()).toMatchObject({ eventsPublished: 3, receiversSeen: 1 });
  });

  it("frees a task's slot on its final event and tells a settle to every watcher", async () => {
    const clock = testClock();
    const [a, b] = await Promise.all([processOn(redis, clock, { prefix: 'ev-free' }), processOn(redis, clock, { prefix: 'ev-free' })]);
    await (await a.coordinator.hold(2)).bind(['t1', 't2']);
    const seen: string[] = [];
    b.coordinator.watch(['t2'], (n) => seen.push(n.taskId));
    const client = await redis.client();
    // Both listen: b for its watch, a since it started tasks (it forgets those others see final).
    await vi.waitFor(async () => expect(await client.pubSubNumSub('{ev-free}:events')).toEqual({ '{ev-free}:events': 2 }));
    await a.coordinator.publish({ id: 'e1', type: 'forecast.completed', taskId: 't1', final: true });
    await a.coordinator.settle([{ taskId: 't2', status: 'cancelled' }]);
    await vi.waitFor(() => expect(seen).toEqual(['t2']));
    expect(await b.coordinator.stats()).toMatchObject({ activeSlots: 0, activeTaskIds: [] });
  });

  it('keeps watching a task told final before it is (a stray or early message): the real final event still wakes the watch', async () => {
    const clock = testClock();
    const [a, b] = await Promise.all([processOn(redis, clock, { prefix: 'ev-early' }), processOn(redis, clock, { prefix: 'ev-early' })]);
    const seen: string[] = [];
    b.coordinator.watch(['t1'], (n) => seen.push(`${n.taskId} ${n.status}`));
    const client = await redis.client();
    await vi.waitFor(async () => expect(await client.pubSubNumSub('{ev-early}:events')).toEqual({ '{ev-early}:events': 1 }));
    // Anyone who can PUBLISH on the channel can send this; the waiter reads the task and finds it running.
    await client.publish('{ev-early}:events', JSON.stringify({ notices: [{ taskId: 't1', status: 'completed' }], freed: true, receiver: false }));
    await vi.waitFor(() => expect(seen).toEqual(['t1 completed']));
    await a.coordinator.publish({ id: 'e1', type: 'forecast.failed', taskId: 't1', status: 'failed', final: true });
    await vi.waitFor(() => expect(seen).toEqual(['t1 completed', 't1 failed']));
  });

  it("counts a receiver's claim on the channel only when Redis's record of receivers confirms it (a forged one changes nothing)", async () => {
    const clock = testClock();
    const [receiver, waiter] = await Promise.all([processOn(redis, clock, { prefix: 'ev-forged' }), processOn(redis, clock, { prefix: 'ev-forged' })]);
    const seen: string[] = [];
    waiter.coordinator.watch(['t1'], (n) => seen.push(n.taskId));
    const client = await redis.client();
    await vi.waitFor(async () => expect(await client.pubSubNumSub('{ev-forged}:events')).toEqual({ '{ev-forged}:events': 1 }));
    // The message of the review, and one naming a receiver id Redis never recorded.
    await client.publish('{ev-forged}:events', '{"notices":[],"freed":0,"receiver":true}');
    await client.publish('{ev-forged}:events', JSON.stringify({ notices: [{ taskId: 't1' }], freed: 0, receiver: true, receiverId: 'forged' }));
    await vi.waitFor(() => expect(seen).toEqual(['t1']));
    for (let i = 0; i < 5; i++) await client.ping();
    expect(waiter.coordinator.receiving()).toBe(false);
    // A real receiver's event is in the record: it counts.
    await receiver.coordinator.publish({ id: 'e1', type: 'forecast.completed', taskId: 't1', status: 'completed', final: true });
    // Read at most once a second (COALESCE_MS): the forged claims' read was just before.
    await vi.waitFor(() => expect(waiter.coordinator.receiving()).toBe(true), { timeout: 3_000 });
  });

  it('reads the record of receivers at most once a second however many claims arrive (a flood of forged ones costs little)', async () => {
    const clock = testClock();
    const waiter = await processOn(redis, clock, { prefix: 'ev-flood' });
    waiter.coordinator.watch(['t1'], () => undefined);
    const client = await redis.client();
    await vi.waitFor(async () => expect(await client.pubSubNumSub('{ev-flood}:events')).toEqual({ '{ev-flood}:events': 1 }));
    const scriptCalls = async () => {
      const stats = await client.info('commandstats');
      return ['evalsha', 'eval'].reduce((sum, name) => sum + Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(stats)?.[1] ?? 0), 0);
    };
    const before = await scriptCalls();
    const started = Date.now();
    for (let i = 0; i < 500; i++) await client.publish('{ev-flood}:events', JSON.stringify({ notices: [], freed: 0, receiver: true, receiverId: `forged-${i}` }));
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const seconds = (Date.now() - started) / 1_000;
    // One read when the flood starts, then one a second at most (plus a first EVAL after NOSCRIPT).
    expect((await scriptCalls()) - before).toBeLessThanOrEqual(Math.ceil(seconds) + 2);
    expect(waiter.coordinator.receiving()).toBe(false);
  });

  it('sees a receiver that published before this process started', async () => {
    const clock = testClock();
    const receiver = await processOn(redis, clock, { prefix: 'ev-late' });
    await receiver.coordinator.publish({ id: 'e1', type: 'webhook.test', final: false });
    const late = await processOn(redis, clock, { prefix: 'ev-late' });
    late.coordinator.receiving();
    await vi.waitFor(() => expect(late.coordinator.receiving()).toBe(true), { timeout: 3_000 });
  });

  it("keeps a running task its own when a forged final notice names it: written back after a flush, its slot still counts", async () => {
    const clock = testClock();
    const options = { prefix: 'ev-forged-final', maxActive: 2 };
    const [a, b, c] = await Promise.all([processOn(redis, clock, options), processOn(redis, clock, options), processOn(redis, clock, options)]);
    await (await a.coordinator.hold(1)).bind(['t1']);
    const admin = await redis.client();
    await vi.waitFor(async () => expect(await admin.pubSubNumSub('{ev-forged-final}:events')).toEqual({ '{ev-forged-final}:events': 1 }));
    await admin.publish('{ev-forged-final}:events', JSON.stringify({ notices: [{ taskId: 't1' }], freed: 0, receiver: false }));
    for (let i = 0; i < 5; i++) await admin.ping();
    await admin.flushAll();
    // Another start finds Redis emptied: every process writes its running tasks back, t1 included.
    await (await b.coordinator.hold(1)).bind(['t2']);
    await vi.waitFor(async () => expect((await c.coordinator.stats()).activeTaskIds.sort()).toEqual(['t1', 't2']));
    const controller = new AbortController();
    const third = c.coordinator.hold(1, { signal: controller.signal });
    for (let i = 0; i < 5; i++) await admin.ping();
    let granted = false;
    void third.then(() => (granted = true), () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(granted).toBe(false);
    controller.abort(new Error('done'));
    await expect(third).rejects.toThrow('done');
  });

  it('believes no receiver record scored more than a receiver TTL ahead of now, and drops it at the next publish', async () => {
    const clock = testClock();
    const client = await redis.client();
    await client.zAdd('{ev-ahead}:receivers', { score: clock.now() + 10 * 15 * 60_000, value: 'ghost' });
    const late = await processOn(redis, clock, { prefix: 'ev-ahead' });
    late.coordinator.receiving();
    // The read at start has had its turn: the record named no receiver it believes.
    await vi.waitFor(async () => expect(await client.zCard('{ev-ahead}:receivers')).toBe(1));
    for (let i = 0; i < 5; i++) await client.ping();
    expect(late.coordinator.receiving()).toBe(false);
    expect((await late.coordinator.stats()).receiversSeen).toBe(0);
    await late.coordinator.publish({ id: 'e1', type: 'webhook.test', final: false });
    const left = await client.zRange('{ev-ahead}:receivers', 0, -1);
    expect(left).toHaveLength(1);
    expect(left).not.toContain('ghost');
    expect(late.coordinator.receiving()).toBe(true);
  });
});
