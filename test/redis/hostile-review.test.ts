// Hostile review: what a process (or anyone) with write access to the fleet's Redis keys can leave
// there, and option values given by the user. Each held a defect, fixed with it.
import { describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../src/core/errors.js';
import { createRedisCoordinator } from '../../src/redis/index.js';
import { RETRY_MS, WAITER_TTL_MS } from '../../src/redis/slots.js';
import { testClock } from './_clock.js';
import { processOn, useRedis } from './_setup.js';

const redis = useRedis();

let n = 0;
const fresh = (name: string) => `hostile-${name}-${++n}`;

/** Whether `promise` settled once the clock has moved `totalMs` in steps of `stepMs`, with real time for Redis between steps. */
async function settledWithin(clock: ReturnType<typeof testClock>, promise: Promise<unknown>, totalMs: number, stepMs: number): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  const client = await redis.client();
  for (let moved = 0; moved <= totalMs && !done; moved += stepMs) {
    for (let i = 0; i < 5 && !done; i++) await client.ping();
    clock.advance(stepMs);
  }
  for (let i = 0; i < 5 && !done; i++) await client.ping();
  return done;
}

describe('the shared queue of starts', () => {
  // HOLD drops a head of the queue that has no heartbeat, as it drops one whose process died: an entry
  // with neither a heartbeat nor a `<process>.` owner used to stay, and every start of the user, in
  // every process, waited behind it for good, with all slots free.
  it('does not let one stray queue entry (no owner, no heartbeat) block every start for good', async () => {
    const clock = testClock();
    const prefix = fresh('queue');
    const { coordinator } = await processOn(redis, clock, { prefix, maxActive: 2 });
    const client = await redis.client();
    await client.zAdd(`{${prefix}}:queue`, { score: 0, value: 'stray' });
    const abort = new AbortController();
    const hold = coordinator.hold(1, { signal: abort.signal });
    // A stray entry WITH a heartbeat leaves within WAITER_TTL_MS (slots.test.ts); give this one ten times that.
    const granted = await settledWithin(clock, hold, 10 * WAITER_TTL_MS, RETRY_MS);
    abort.abort();
    await hold.catch(() => undefined);
    expect(granted).toBe(true);
  });
});

describe('the shared request window', () => {
  // TAKE drops entries scored past any reservation the window could hold. It used to drop only the
  // old ones: with `limit` entries far ahead (junk, a far-off simulated clock), every take was given
  // a wait over MAX_TAKE_WAIT_MS (windows.ts), which turned the coordinator local, and the take's own
  // member, added at that far time, grew the junk by one per try: the window never worked again.
  it('recovers from entries scored far in the future instead of turning local for good and adding more', async () => {
    const clock = testClock();
    const prefix = fresh('window');
    const { coordinator, warnings } = await processOn(redis, clock, { prefix, requestsPerMinute: 2, probeIntervalMs: 10 });
    const client = await redis.client();
    const key = `{${prefix}}:requests`;
    const far = clock.now() + 1e12;
    await client.zAdd(key, [
      { score: far, value: 'junk-1' },
      { score: far, value: 'junk-2' },
    ]);
    // Two takes: the local budget (2 a minute) lets both through on the manual clock either way.
    const modes: string[] = [];
    for (let i = 0; i < 2; i++) {
      await coordinator.take('requests');
      modes.push(coordinator.mode);
      await vi.waitFor(() => expect(coordinator.mode).toBe('shared'));
    }
    const farAhead = await client.zCount(key, clock.now() + 24 * 60 * 60_000, '+inf');
    expect({ modes, farAhead, warnings }).toEqual({ modes: ['shared', 'shared'], farAhead: 0, warnings: [] });
  });
});

describe('option values', () => {
  // `prefix` goes into the same `{<prefix>}:…` hash tag as `userPrefix`, and was not checked: '' or '}x'
  // give an empty tag `{}`, so on a Cluster each key hashes whole, the scripts' keys land on different
  // slots (CROSSSLOT) and the coordinator is local for good; '*' widens the documented ACL `~{<prefix>}:*`.
  it.each(['', '}x', 'fleet*'])('refuses the prefix %j as it refuses such a userPrefix', async (prefix) => {
    const client = await redis.client();
    expect(() => createRedisCoordinator(client, { userPrefix: prefix })).toThrow(ValidationError);
    expect(() => createRedisCoordinator(client, { prefix })).toThrow(ValidationError);
  });

  it('names the field and shows a refused prefix clipped, or by its type: never a bare TypeError', async () => {
    const client = await redis.client();
    const refusal = (options: object) => {
      try {
        createRedisCoordinator(client, options);
      } catch (err) {
        return err as ValidationError;
      }
      throw new Error('accepted');
    };
    expect(refusal({ prefix: 'a b' })).toMatchObject({ field: 'prefix', message: 'prefix: must be 1 to 100 letters, digits or -_.: (the key namespace, in a hash tag), got "a b"' });
    expect(refusal({ prefix: 7n }).message).toMatch(/got bigint$/);
    expect(refusal({ userPrefix: 7n })).toMatchObject({ field: 'userPrefix' });
    expect(refusal({ prefix: '*'.repeat(10_000) }).message.length).toBeLessThan(250);
  });
});

// Values no process of ours writes, under the coordinator's keys (another writer, a clock far
// ahead): each once held a slot, blocked the queue, or failed the scripts, for good, with Redis up.
describe('foreign values under the keys (a second review)', () => {
  it.each([
    ['a member neither t: nor p:', 'junk'],
    ['a pending slot scored for good', 'p:foreign.1:1'],
  ])('frees a slot held by %s, scored +inf: a start is granted', async (_, member) => {
    const clock = testClock();
    const prefix = fresh('slots');
    const { coordinator } = await processOn(redis, clock, { prefix, maxActive: 2 });
    await (await redis.client()).zAdd(`{${prefix}}:slots`, { score: Infinity, value: member });
    const abort = new AbortController();
    const hold = coordinator.hold(2, { signal: abort.signal });
    const granted = await settledWithin(clock, hold, 2 * WAITER_TTL_MS, RETRY_MS);
    abort.abort();
    await hold.catch(() => undefined);
    expect({ granted, mode: coordinator.mode }).toEqual({ granted: true, mode: 'shared' });
  });

  it.each([
    ['no owner', 'stray', false],
    ['an owner alive for good', 'owner.stray', true],
  ])('drops a head of the queue with %s and a heartbeat scored +inf', async (_, head, ownerAlive) => {
    const clock = testClock();
    const prefix = fresh('queue-ahead');
    const { coordinator } = await processOn(redis, clock, { prefix, maxActive: 2 });
    const client = await redis.client();
    await client.zAdd(`{${prefix}}:queue`, { score: 0, value: head });
    await client.zAdd(`{${prefix}}:beats`, { score: Infinity, value: head });
    if (ownerAlive) await client.zAdd(`{${prefix}}:alive`, { score: Infinity, value: 'owner' });
    const abort = new AbortController();
    const hold = coordinator.hold(1, { signal: abort.signal });
    const granted = await settledWithin(clock, hold, 2 * WAITER_TTL_MS, RETRY_MS);
    abort.abort();
    await hold.catch(() => undefined);
    expect(granted).toBe(true);
  });

  // The counters are statistics: of another type, they failed every claim and publish, the
  // coordinator turned local again and again, and each replica ran the handler of a repeat itself.
  it('claims events once while the counters hold another type, and reads its stats shared', async () => {
    const clock = testClock();
    const prefix = fresh('counters');
    const { coordinator, warnings } = await processOn(redis, clock, { prefix });
    const client = await redis.client();
    await client.set(`{${prefix}}:counters`, 'not a hash');
    expect((await coordinator.stats()).mode).toBe('shared');
    expect(await coordinator.claimEvent('evt:1')).toBe('claimed');
    await coordinator.finishEvent('evt:1');
    expect(await coordinator.claimEvent('evt:1')).toBe('done');
    await coordinator.publish({ id: 'evt:2', type: 'forecast.completed', taskId: 't1', status: 'completed', final: true });
    await client.hSet(`{${prefix}}:counters`, 'deduplicated', 'many');
    expect(await coordinator.claimEvent('evt:1')).toBe('done');
    expect({ stats: await coordinator.stats(), warnings }).toMatchObject({ stats: { mode: 'shared', eventsPublished: 1, eventsDeduplicated: 1 }, warnings: [] });
  });

  it('claims an event whose key holds a value no claim writes', async () => {
    const prefix = fresh('event');
    const { coordinator } = await processOn(redis, testClock(), { prefix });
    const client = await redis.client();
    await client.rPush(`{${prefix}}:event:evt:list`, 'x');
    await client.set(`{${prefix}}:event:evt:text`, 'someone else');
    expect([await coordinator.claimEvent('evt:list'), await coordinator.claimEvent('evt:text'), coordinator.mode]).toEqual(['claimed', 'claimed', 'shared']);
    expect(await coordinator.claimEvent('evt:list')).toBe('running');
  });
});

describe('calls of the coordinator itself (a second review)', () => {
  // An unknown window had no limit: the take fell back to a local budget that never had room and
  // looped without yielding, holding the process's CPU for good.
  it('refuses a take of an unknown window with a ValidationError, still shared', async () => {
    const { coordinator } = await processOn(redis, testClock(), { prefix: fresh('window-name') });
    const take = coordinator.take('bogus' as never);
    await expect(take).rejects.toThrow(ValidationError);
    await expect(take).rejects.toMatchObject({ field: 'window', message: 'window: must be one of requests, modelCalls, drafting, chatMessages, webhookTests, got "bogus"' });
    // A String object names a window only by coercion: refused, as the key it would read is no key.
    await expect(coordinator.take(new String('requests') as never)).rejects.toMatchObject({ field: 'window', message: expect.stringMatching(/got object$/) });
    expect(coordinator.mode).toBe('shared');
  });

  it('names the argument a call got wrong, never a bare TypeError, and claims no `undefined` event', async () => {
    const client = await redis.client();
    expect(() => createRedisCoordinator(client, null as never)).toThrow(expect.objectContaining({ name: 'ValidationError', field: 'options' }));
    expect(() => createRedisCoordinator(client, { maxActive: '50' as never })).toThrow(expect.objectContaining({ field: 'maxActive', message: 'maxActive: must be a positive number, got "50"' }));
    const { coordinator } = await processOn(redis, testClock(), { prefix: fresh('arguments') });
    await expect(coordinator.claimEvent(undefined as never)).rejects.toMatchObject({ name: 'ValidationError', field: 'eventId' });
    await expect(coordinator.finishEvent('' as never)).rejects.toMatchObject({ name: 'ValidationError', field: 'eventId' });
    await expect(coordinator.settle(null as never)).rejects.toMatchObject({ name: 'ValidationError', field: 'notices' });
    expect(() => coordinator.watch(null as never, () => undefined)).toThrow(expect.objectContaining({ name: 'ValidationError', field: 'taskIds' }));
    expect(await client.keys('*undefined*')).toEqual([]);
  });

  // Closed, it hears no event: a wait that trusted one would sit on the 10-minute safety poll.
  it('is not receiving once closed', async () => {
    const { coordinator } = await processOn(redis, testClock(), { prefix: fresh('closed') });
    await coordinator.publish({ id: 'evt:r', type: 'webhook.test', final: false });
    expect(coordinator.receiving()).toBe(true);
    await coordinator.close();
    expect(coordinator.receiving()).toBe(false);
  });
});

// A key of the coordinator's namespace holding another type (an older layout, another writer)
// failed every script that touched it with WRONGTYPE while Redis answered: local limits for good,
// and each replica ran a repeated event's handler itself once PUBLISH had turned it local.
describe('a key of another type under the namespace (a second review)', () => {
  const names = ['requests', 'slots', 'queue', 'beats', 'alive', 'seq', 'receivers', 'counters', 'epoch', 'reconciled', 'reconcileGap'];
  it.each(names)('%s: replaced by the script that meets it; the fleet stays shared, a repeat is claimed once', async (name) => {
    const prefix = fresh(`type-${name}`);
    const { coordinator, warnings } = await processOn(redis, testClock(), { prefix, maxActive: 2 });
    const client = await redis.client();
    // A hash where a string is kept, a list where a sorted set or a hash is.
    const wrong = ['seq', 'epoch', 'reconciled', 'reconcileGap'].includes(name);
    if (wrong) await client.hSet(`{${prefix}}:${name}`, 'x', '1');
    else await client.rPush(`{${prefix}}:${name}`, 'x');
    await coordinator.take('requests');
    await (await coordinator.hold(1)).bind(['t1']);
    await coordinator.publish({ id: 'evt:1', type: 'forecast.completed', taskId: 't1', status: 'completed', final: true });
    const claims = [await coordinator.claimEvent('evt:1')];
    await coordinator.finishEvent('evt:1');
    claims.push(await coordinator.claimEvent('evt:1'));
    await coordinator.settle([{ taskId: 't1', status: 'completed' }]);
    expect({ claims, stats: await coordinator.stats(), warnings }).toMatchObject({ claims: ['claimed', 'done'], stats: { mode: 'shared' }, warnings: [] });
  });

  it('seq: an arrival counter INCR cannot count starts again', async () => {
    const prefix = fresh('seq-text');
    const { coordinator, warnings } = await processOn(redis, testClock(), { prefix, maxActive: 2 });
    await (await redis.client()).set(`{${prefix}}:seq`, 'not a number');
    await (await coordinator.hold(1)).bind(['t1']);
    expect([coordinator.mode, warnings]).toEqual(['shared', []]);
  });
});

// A review of the fixes above: what they must not drop, and reads that must not write.
describe('what the fixes leave alone (a third review)', () => {
  it('a read (stats) never writes: keys of another type under a prefix stay as they are', async () => {
    const prefix = fresh('read-only');
    const client = await redis.client();
    await client.set(`{${prefix}}:counters`, 'important');
    await client.rPush(`{${prefix}}:slots`, ['a', 'b']);
    await client.set(`{${prefix}}:requests`, '42');
    await client.hSet(`{${prefix}}:receivers`, 'x', '1');
    const { coordinator } = await processOn(redis, testClock(), { prefix });
    expect(await coordinator.stats()).toMatchObject({ mode: 'shared', activeSlots: 0, requestsInWindow: 0, receiversSeen: 0 });
    expect(await coordinator.used()).toBe(true);
    const types = await Promise.all(['counters', 'slots', 'requests', 'receivers'].map((k) => client.type(`{${prefix}}:${k}`)));
    expect(types).toEqual(['string', 'list', 'string', 'hash']);
  });

  // A replica with a shorter pendingHoldTtlMs (a deploy that changes it) dropped the live pending
  // slots of one with a longer, and both held the fleet's only slot.
  it('keeps a pending slot of a replica whose pendingHoldTtlMs is longer', async () => {
    const clock = testClock();
    const prefix = fresh('mixed-ttl');
    const a = await processOn(redis, clock, { prefix, maxActive: 1 });
    const b = await processOn(redis, clock, { prefix, maxActive: 1, pendingHoldTtlMs: 60_000 });
    const held = await a.coordinator.hold(1);
    const abort = new AbortController();
    const second = b.coordinator.hold(1, { signal: abort.signal });
    const granted = await settledWithin(clock, second, 3 * RETRY_MS, RETRY_MS);
    abort.abort();
    await second.catch(() => undefined);
    await held.release();
    expect(granted).toBe(false);
  });

  it.each(['007', '-0', '00'])('seq %j, which INCR refuses: counted again from 1, still shared', async (seq) => {
    const prefix = fresh('seq-canonical');
    const { coordinator, warnings } = await processOn(redis, testClock(), { prefix, maxActive: 2 });
    await (await redis.client()).set(`{${prefix}}:seq`, seq);
    await (await coordinator.hold(1)).bind(['t1']);
    expect([coordinator.mode, warnings]).toEqual(['shared', []]);
  });

  it('a watcher that throws costs the other watchers of the task nothing; one that is no function is refused', async () => {
    const { coordinator } = await processOn(redis, testClock(), { prefix: fresh('watchers') });
    expect(() => coordinator.watch(['a'], 'no function' as never)).toThrow(expect.objectContaining({ name: 'ValidationError', field: 'onFinal' }));
    const heard: string[] = [];
    coordinator.watch(['a'], () => {
      throw new Error('a watcher of yours');
    });
    coordinator.watch(['a'], (notice) => heard.push(notice.taskId));
    await coordinator.settle([{ taskId: 'a', status: 'completed' }]);
    expect(heard).toEqual(['a']);
    await expect(coordinator.settle([null] as never)).rejects.toMatchObject({ name: 'ValidationError', field: 'notices' });
  });

  it('publishes only an event whose ids and status are text (or absent): a number or null taskId is refused, nothing sent', async () => {
    const { coordinator } = await processOn(redis, testClock(), { prefix: fresh('publish-types') });
    const heard: string[] = [];
    coordinator.watch(['5'], (notice) => heard.push(notice.taskId));
    for (const bad of [null, { id: 1, type: 'x', final: false }, { id: 'e', type: 'forecast.completed', taskId: 5, final: true }, { id: 'e', type: 'forecast.completed', taskId: '5', status: 2, final: true }, { id: 'e', type: 'forecast.completed', taskId: '5', traceparent: {}, final: true }, { id: 'e', type: 'forecast.completed', taskId: null, final: true }, { id: 'e', type: 'forecast.completed', taskId: '5', status: null, traceparent: null, final: true }]) {
      await expect(coordinator.publish(bad as never)).rejects.toMatchObject({ name: 'ValidationError', field: 'event' });
    }
    expect(coordinator.receiving()).toBe(false);
    await coordinator.publish({ id: 'e', type: 'forecast.completed', taskId: '5', status: 'completed', final: true });
    expect(heard).toEqual(['5']);
  });
});
