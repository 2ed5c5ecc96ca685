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
    // Receivers go on too, each with its own memory of the events: said in the same line.
    expect(warnings[0]).toMatch(/a webhook event is handled once per process \(another process may run it again\)/);
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

  it('writes back only the tasks no process has reported final: a process that only starts hears the others', async () => {
    const clock = testClock();
    const starter = await processOn(redis, clock, { prefix: 'back-heard', maxActive: 5, probeIntervalMs: 20 });
    const reader = await processOn(redis, clock, { prefix: 'back-heard', maxActive: 5 });
    await (await starter.coordinator.hold(3)).bind(['t1', 't2', 't3']);
    const admin = await redis.client();
    await vi.waitFor(async () => expect(await admin.pubSubNumSub('{back-heard}:events')).toEqual({ '{back-heard}:events': 1 }));
    const sent = vi.spyOn(starter.client, 'sendCommand');
    await reader.coordinator.settle([{ taskId: 't1' }, { taskId: 't2' }]);
    // The starter checks the notice against Redis (their slots gone) before it forgets the tasks.
    // The check is the script carrying t1 and t2 (other scripts, a heartbeat's, may run meanwhile);
    // once its answer is in, the turn after the microtasks has the tasks forgotten.
    const isCheck = ([args]: Parameters<typeof starter.client.sendCommand>) => (args[0] === 'EVALSHA' || args[0] === 'EVAL') && args.includes('t1') && args.includes('t2');
    // (EVALSHA may first meet NOSCRIPT, and the link sends the script itself.)
    await vi.waitFor(() => expect(sent.mock.calls.some((call, i) => isCheck(call) && sent.mock.settledResults[i]?.type === 'fulfilled')).toBe(true));
    await new Promise((resolve) => setImmediate(resolve));
    await redis.stop();
    await vi.waitFor(() => expect(starter.client.isReady).toBe(false));
    await starter.coordinator.take('requests');
    expect(starter.coordinator.mode).toBe('local');
    await redis.start();
    await vi.waitFor(() => expect(starter.coordinator.mode).toBe('shared'), { timeout: 5_000 });
    await vi.waitFor(async () => expect((await reader.coordinator.stats()).activeTaskIds).toEqual(['t3']));
  });

  it('writes back when Redis lost its data with no outage noticed (a flush, a fast restart): the try that finds it empty tells every process', async () => {
    const clock = testClock();
    const [a, b] = await Promise.all([processOn(redis, clock, { prefix: 'flushed', maxActive: 5 }), processOn(redis, clock, { prefix: 'flushed', maxActive: 5 })]);
    await (await a.coordinator.hold(2)).bind(['a1', 'a2']);
    await (await b.coordinator.hold(1)).bind(['b1']);
    const admin = await redis.client();
    await vi.waitFor(async () => expect(await admin.pubSubNumSub('{flushed}:events')).toEqual({ '{flushed}:events': 2 }));
    await admin.flushAll();
    // A newcomer's first hold finds no data: it sets a new epoch and tells the fleet.
    const c = await processOn(redis, clock, { prefix: 'flushed', maxActive: 5 });
    await (await c.coordinator.hold(1)).bind(['c1']);
    await vi.waitFor(async () => expect((await c.coordinator.stats()).activeTaskIds.sort()).toEqual(['a1', 'a2', 'b1', 'c1']));
    expect(a.coordinator.mode).toBe('shared');
  });

  it('sends every waiting hold to local limits at once when Redis stops answering, and takes their queue entries out once it answers again', async () => {
    const clock = testClock();
    const other = await processOn(redis, clock, { prefix: 'line-down', maxActive: 1 });
    const p = await processOn(redis, clock, { prefix: 'line-down', maxActive: 1, commandTimeoutMs: 100, probeIntervalMs: 20 });
    await (await other.coordinator.hold(1)).bind(['t1']);
    const waiting = [p.coordinator.hold(1), p.coordinator.hold(1)];
    await vi.waitFor(async () => expect((await other.coordinator.stats()).startsWaiting).toBe(2));
    const admin = await redis.client();
    await admin.sendCommand(['CLIENT', 'PAUSE', '400', 'ALL']);
    // Any command that gets no answer turns the link local; the clock never moves, and still both holds go on.
    await p.coordinator.take('requests');
    expect(p.coordinator.mode).toBe('local');
    // On this process's own limits (1 slot): the first now, the second once the first gives its slot back.
    const first = await waiting[0]!;
    await first.release();
    await expect(waiting[1]!).resolves.toMatchObject({ count: 1 });
    await vi.waitFor(() => expect(p.coordinator.mode).toBe('shared'), { timeout: 5_000 });
    await vi.waitFor(async () => expect((await other.coordinator.stats()).startsWaiting).toBe(0));
    const client = await redis.client();
    expect(await client.zCard('{line-down}:queue')).toBe(0);
  });

  it('takes from the shared window again once Redis is back, rather than wait out a local window filled in the outage', async () => {
    const clock = testClock();
    const { coordinator, client } = await processOn(redis, clock, { prefix: 'back-take', requestsPerMinute: 2, probeIntervalMs: 20 });
    await redis.stop();
    await vi.waitFor(() => expect(client.isReady).toBe(false));
    await coordinator.take('requests');
    await coordinator.take('requests');
    const third = coordinator.take('requests');
    await vi.waitFor(() => expect(clock.sleepers).toBe(1));
    await redis.start();
    // The clock never moves: the local minute is not waited out.
    await expect(third).resolves.toBeTypeOf('function');
    expect(coordinator.mode).toBe('shared');
    expect((await coordinator.stats()).requestsInWindow).toBe(1);
  });

  it('queues a start waiting on local limits in Redis again once it is back', async () => {
    const clock = testClock();
    const { coordinator, client } = await processOn(redis, clock, { prefix: 'back-hold', maxActive: 1, probeIntervalMs: 20 });
    await redis.stop();
    await vi.waitFor(() => expect(client.isReady).toBe(false));
    await (await coordinator.hold(1)).bind(['t1']);
    const second = coordinator.hold(1);
    await redis.start();
    // t1 was written back: the second start waits its turn in the shared queue, then goes when t1 ends.
    await vi.waitFor(async () => expect(await coordinator.stats()).toMatchObject({ mode: 'shared', activeTaskIds: ['t1'], startsWaiting: 1 }), { timeout: 5_000 });
    await coordinator.settle([{ taskId: 't1' }]);
    await expect(second).resolves.toMatchObject({ count: 1 });
  });

  it('turns local as soon as its listening connection loses Redis, so waiting starts go on without a command to fail', async () => {
    const clock = testClock();
    const holder = await processOn(redis, clock, { prefix: 'sub-down', maxActive: 1 });
    const { coordinator, warnings } = await processOn(redis, clock, { prefix: 'sub-down', maxActive: 1, probeIntervalMs: 20 });
    await (await holder.coordinator.hold(1)).bind(['t1']);
    const waiting = coordinator.hold(1);
    const admin = await redis.client();
    await vi.waitFor(async () => expect(await admin.pubSubNumSub('{sub-down}:events')).toEqual({ '{sub-down}:events': 2 }));
    await redis.stop();
    await expect(waiting).resolves.toMatchObject({ count: 1 });
    expect(warnings[0]).toMatch(/limits now hold per process/);
    await redis.start();
  });

  it("prefixes a receiver's warnings as a client's logger does, when no client attached", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const client = await redis.client();
      const { createRedisCoordinator } = await import('../../src/redis/index.js');
      const coordinator = createRedisCoordinator(client, { prefix: 'receiver-only', commandTimeoutMs: 100, probeIntervalMs: 20 });
      await client.sendCommand(['CLIENT', 'PAUSE', '300', 'ALL']);
      await coordinator.claimEvent('evt_x');
      expect(warn.mock.calls[0]?.[0]).toMatch(/^\[forecasting-sdk\] forecasting-sdk\/redis: Redis did not answer/);
      await vi.waitFor(() => expect(coordinator.mode).toBe('shared'), { timeout: 5_000 });
      await coordinator.close();
    } finally {
      warn.mockRestore();
    }
  });

  it('takes out what a hold try that timed out did once Redis ran it late (a pending slot nobody binds)', async () => {
    const clock = testClock();
    const { coordinator } = await processOn(redis, clock, { prefix: 'late-try', maxActive: 2, commandTimeoutMs: 300, probeIntervalMs: 20 });
    // Redis knows the script (a first start), so the late try runs it as sent.
    await (await coordinator.hold(1)).release();
    const admin = await redis.client();
    // Writes wait 1 s on the server: the try times out here, and Redis runs it later all the same.
    await admin.sendCommand(['CLIENT', 'PAUSE', '1000', 'WRITE']);
    const hold = await coordinator.hold(1);
    await hold.bind(['taskA']);
    expect(coordinator.mode).toBe('local');
    await vi.waitFor(async () => expect(await coordinator.stats()).toMatchObject({ mode: 'shared', activeSlots: 1, activeTaskIds: ['taskA'] }), { timeout: 5_000 });
  });

  it('counts a Redis that answers PING but not the scripts as one outage: one warning each way, and the probe backs off', async () => {
    const clock = testClock();
    const { coordinator, client, warnings } = await processOn(redis, clock, { prefix: 'flap', maxActive: 1, probeIntervalMs: 20 });
    const admin = await redis.client();
    // An ACL that denies the scripts: every HOLD fails, PING still answers. (A key of the wrong type
    // no longer does: the scripts replace it.)
    await admin.sendCommand(['ACL', 'SETUSER', 'default', '-eval', '-evalsha']);
    try {
      await (await coordinator.hold(1)).bind(['t1']);
      const controller = new AbortController();
      const second = coordinator.hold(1, { signal: controller.signal });
      const pings = vi.spyOn(client, 'sendCommand');
      await vi.waitFor(() => expect(pings.mock.calls.filter(([args]) => args[0] === 'PING').length).toBeGreaterThanOrEqual(5), { timeout: 5_000 });
      expect(warnings).toHaveLength(2);
      controller.abort(new Error('done'));
      await expect(second).rejects.toThrow('done');
    } finally {
      await admin.sendCommand(['ACL', 'SETUSER', 'default', '+@all']);
    }
  });

  it('ignores a rewrite told on the channel for an epoch Redis does not hold (anyone on the prefix can publish one)', async () => {
    const clock = testClock();
    const { coordinator, client } = await processOn(redis, clock, { prefix: 'forged', maxActive: 5 });
    await (await coordinator.hold(1)).bind(['t1']);
    const admin = await redis.client();
    await vi.waitFor(async () => expect(await admin.pubSubNumSub('{forged}:events')).toEqual({ '{forged}:events': 1 }));
    // The slot goes without this process hearing of it; a write-back would bring it back.
    await admin.zRem('{forged}:slots', 't:t1');
    const sent = vi.spyOn(client, 'sendCommand');
    await admin.publish('{forged}:events', JSON.stringify({ notices: [], freed: 0, receiver: false, rewrite: 'not-the-epoch' }));
    await vi.waitFor(() => expect(sent.mock.calls.some(([args]) => args[0] === 'GET')).toBe(true));
    expect(sent.mock.calls.some(([args]) => args[0] === 'ZADD')).toBe(false);
    expect((await coordinator.stats()).activeSlots).toBe(0);
  });

  it('reads the epoch at most once a second however many rewrites are told on the channel (a flood of forged ones costs little)', async () => {
    const clock = testClock();
    const { coordinator, client } = await processOn(redis, clock, { prefix: 'forged-flood', maxActive: 5 });
    await (await coordinator.hold(1)).bind(['t1']);
    const admin = await redis.client();
    await vi.waitFor(async () => expect(await admin.pubSubNumSub('{forged-flood}:events')).toEqual({ '{forged-flood}:events': 1 }));
    const sent = vi.spyOn(client, 'sendCommand');
    const started = Date.now();
    for (let i = 0; i < 300; i++) await admin.publish('{forged-flood}:events', JSON.stringify({ notices: [], freed: 0, receiver: false, rewrite: `forged-${i}` }));
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const seconds = (Date.now() - started) / 1_000;
    expect(sent.mock.calls.filter(([args]) => args[0] === 'GET').length).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    expect(sent.mock.calls.some(([args]) => args[0] === 'ZADD')).toBe(false);
  });

  it('turns local when a command gets no answer within commandTimeoutMs', async () => {
    const clock = testClock();
    const { coordinator, warnings } = await processOn(redis, clock, { prefix: 'paused', commandTimeoutMs: 100, probeIntervalMs: 20 });
    const admin = await redis.client();
    // The server holds every client's commands for a while: connected, but no answer.
    await admin.sendCommand(['CLIENT', 'PAUSE', '400', 'ALL']);
    await expect(coordinator.claimEvent('evt_paused')).resolves.toBe('claimed');
    expect(coordinator.mode).toBe('local');
    expect(warnings[0]).toMatch(/did not answer \(no answer within 100 ms\)/);
    await vi.waitFor(() => expect(coordinator.mode).toBe('shared'), { timeout: 5_000 });
  });
});
