// Webhook events across processes: one claim per event id, and the fan-out of final events.
import { describe, expect, it, vi } from 'vitest';
import type { TaskFinalNotice } from '../../src/redis/index.js';
import { testClock } from './_clock.js';
import { processOn, useRedis } from './_setup.js';

const redis = useRedis();

describe('event claims', () => {
  it('claims an event id once across processes, and again after unclaimEvent', async () => {
    const clock = testClock();
    const [a, b] = await Promise.all([processOn(redis, clock, { prefix: 'ev-claim' }), processOn(redis, clock, { prefix: 'ev-claim' })]);
    expect(await a.coordinator.claimEvent('evt_1')).toBe(true);
    expect(await b.coordinator.claimEvent('evt_1')).toBe(false);
    expect(await a.coordinator.claimEvent('evt_1')).toBe(false);
    // The handler failed: the service's retry must run it again.
    await a.coordinator.unclaimEvent('evt_1');
    expect(await b.coordinator.claimEvent('evt_1')).toBe(true);
    expect((await a.coordinator.stats()).eventsDeduplicated).toBe(2);
  });

  it('keeps a claim for eventRetentionMs', async () => {
    const clock = testClock();
    const a = await processOn(redis, clock, { prefix: 'ev-ttl', eventRetentionMs: 3 * 60 * 60_000 });
    await a.coordinator.claimEvent('evt_ttl');
    const client = await redis.client();
    const ttl = await client.pTTL('{ev-ttl}:event:evt_ttl');
    expect(ttl).toBeGreaterThan(3 * 60 * 60_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(3 * 60 * 60_000);
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
    expect(waiter.coordinator.receiving()).toBe(true);
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
    await vi.waitFor(async () => expect(await client.pubSubNumSub('{ev-free}:events')).toEqual({ '{ev-free}:events': 1 }));
    await a.coordinator.publish({ id: 'e1', type: 'forecast.completed', taskId: 't1', final: true });
    await a.coordinator.settle([{ taskId: 't2', status: 'cancelled' }]);
    await vi.waitFor(() => expect(seen).toEqual(['t2']));
    expect(await b.coordinator.stats()).toMatchObject({ activeSlots: 0, activeTaskIds: [] });
  });

  it('sees a receiver that published before this process started', async () => {
    const clock = testClock();
    const receiver = await processOn(redis, clock, { prefix: 'ev-late' });
    await receiver.coordinator.publish({ id: 'e1', type: 'webhook.test', final: false });
    const late = await processOn(redis, clock, { prefix: 'ev-late' });
    late.coordinator.receiving();
    await vi.waitFor(() => expect(late.coordinator.receiving()).toBe(true));
  });
});
