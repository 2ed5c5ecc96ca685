// Redis down: no call fails for it; the coordinator keeps the limits per process, warns once (no
// secret), and shares again once Redis answers.
import { describe, expect, it, vi } from 'vitest';
import { testClock } from './_clock.js';
import { API_KEY, KEY_HASH, processOn, useRedis } from './_setup.js';

const redis = useRedis();

describe('Redis down', () => {
  it('falls back to local limits with one warning, then returns to shared mode', async () => {
    const clock = testClock();
    const { coordinator, client, warnings } = await processOn(redis, clock, { requestsPerMinute: 2, maxActive: 1, probeIntervalMs: 20 });
    await coordinator.take('requests');
    expect(coordinator.mode).toBe('shared');

    await redis.stop();
    // Once the client has seen the connection close, calls fail over at once (before that, after a command's time-out).
    await vi.waitFor(() => expect(client.isReady).toBe(false));
    // Every call still answers, on this process's own limits.
    await coordinator.take('requests');
    const hold = await coordinator.hold(1);
    await hold.bind(['t1']);
    expect(await coordinator.claimEvent('evt_1')).toBe('claimed');
    expect(await coordinator.claimEvent('evt_1')).toBe('running');
    await coordinator.finishEvent('evt_1');
    expect(await coordinator.claimEvent('evt_1')).toBe('done');
    await coordinator.publish({ id: 'evt_1', type: 'forecast.completed', taskId: 't0', final: true });
    // No receiver's event can reach the other processes meanwhile: their waits poll by Retry-After.
    expect(coordinator.receiving()).toBe(false);
    const seen: string[] = [];
    coordinator.watch(['t1'], (n) => seen.push(n.taskId));
    await coordinator.settle([{ taskId: 't1', status: 'completed' }]);
    expect(seen).toEqual(['t1']);
    const stats = await coordinator.stats();
    expect(stats).toMatchObject({ mode: 'local', requestsInWindow: 1, activeSlots: 0, eventsDeduplicated: 1 });
    // The local window holds the same limit: a third request this minute waits.
    await coordinator.take('requests');
    const third = coordinator.take('requests');
    await vi.waitFor(() => expect(clock.sleepers).toBe(1));
    clock.advance(60_250);
    await third;

    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/limits now hold per process/);
    for (const secret of [redis.url, new URL(redis.url).port, '127.0.0.1', API_KEY, KEY_HASH]) expect(warnings[0]).not.toContain(secret);

    await redis.start();
    await vi.waitFor(() => expect(coordinator.mode).toBe('shared'), { timeout: 5_000 });
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(/answers again/);
    expect((await coordinator.stats()).mode).toBe('shared');
    await coordinator.take('requests');
    expect((await coordinator.stats()).requestsInWindow).toBe(1);
  });

  it("writes back the slots of its tasks still running once Redis is back (restarted empty), those started during the outage included", async () => {
    const clock = testClock();
    const { coordinator, client } = await processOn(redis, clock, { prefix: 'back', maxActive: 5, probeIntervalMs: 20 });
    await (await coordinator.hold(2)).bind(['before', 'before-done']);
    await redis.stop();
    await vi.waitFor(() => expect(client.isReady).toBe(false));
    await (await coordinator.hold(1)).bind(['during']);
    await (await coordinator.hold(1)).bind(['during-done']);
    // Seen final meanwhile, by this process or by any other's event: not written back.
    await coordinator.settle([{ taskId: 'before-done' }, { taskId: 'during-done' }]);
    await redis.start();
    await vi.waitFor(() => expect(coordinator.mode).toBe('shared'), { timeout: 5_000 });
    await vi.waitFor(async () => expect((await coordinator.stats()).activeTaskIds.sort()).toEqual(['before', 'during']));
    // Another process of the fleet counts them: it gets the 3 slots left of 5, and a fourth start waits.
    const other = await processOn(redis, clock, { prefix: 'back', maxActive: 5 });
    await (await other.coordinator.hold(3)).bind(['o1', 'o2', 'o3']);
    const controller = new AbortController();
    const fourth = other.coordinator.hold(1, { signal: controller.signal });
    await vi.waitFor(async () => expect(await other.coordinator.stats()).toMatchObject({ activeSlots: 5, startsWaiting: 1 }));
    controller.abort(new Error('enough'));
    await expect(fourth).rejects.toThrow('enough');
  });

  it('turns local when a command gets no answer within commandTimeoutMs', async () => {
    const clock = testClock();
    const { coordinator, warnings } = await processOn(redis, clock, { prefix: 'paused', commandTimeoutMs: 100, probeIntervalMs: 20 });
    const admin = await redis.client();
    // The server holds every client's commands for a while: connected, but no answer.
    await admin.sendCommand(['CLIENT', 'PAUSE', '400', 'ALL']);
    await expect(coordinator.claimEvent('evt_paused')).resolves.toBe('claimed');
    expect(coordinator.mode).toBe('local');
    expect(warnings[0]).toMatch(/did not answer \(TimeoutError\)/);
    await vi.waitFor(() => expect(coordinator.mode).toBe('shared'), { timeout: 5_000 });
  });
});
