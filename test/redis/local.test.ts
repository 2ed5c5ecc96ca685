// The pure parts of the Redis coordinator, without Redis: its local fallback, its channel messages, its options.
import { describe, expect, it } from 'vitest';
import { parseHubMessage } from '../../src/redis/hub.js';
import { LocalLimits } from '../../src/redis/local.js';
import { prefixFromKeyHash, resolveOptions } from '../../src/redis/options.js';
import { testClock } from './_clock.js';

const limits = (maxActive: number) => new LocalLimits({ requests: 2, modelCalls: 1, drafting: 1, chatMessages: 1, webhookTests: 1, maxActive, pendingHoldTtlMs: 300_000 }, () => clock);
const clock = testClock();

describe('local limits (Redis down)', () => {
  it('grants holds first come, first served within maxActive, and frees on bind and settle', async () => {
    const local = limits(2);
    const first = await local.hold(2);
    const order: string[] = [];
    const second = local.hold(1).then((pending) => (order.push('second'), pending));
    const third = local.hold(1).then(() => order.push('third'));
    local.bind(first, ['t1', 't2']);
    expect(local.held).toBe(2);
    local.settle(['t1']);
    local.bind(await second, []);
    await third;
    expect(order).toEqual(['second', 'third']);
    expect({ held: local.held, taskIds: local.taskIds, waiting: local.waiting }).toEqual({ held: 2, taskIds: ['t2'], waiting: 0 });
  });

  it('refuses a hold that is not a whole number of slots from 1, naming count', () => {
    const local = limits(2);
    for (const count of [Number.NaN, -10, 0, 1.5, Number.POSITIVE_INFINITY]) {
      expect(() => local.hold(count)).toThrow(expect.objectContaining({ name: 'ValidationError', field: 'count' }));
    }
    expect(local.held).toBe(0);
  });

  it('lets an aborted hold leave the line without holding up the next', async () => {
    const local = limits(1);
    const first = await local.hold(1);
    const controller = new AbortController();
    const aborted = local.hold(1, controller.signal);
    const next = local.hold(1);
    controller.abort(new Error('gone'));
    await expect(aborted).rejects.toThrow('gone');
    local.bind(first, []);
    await expect(next).resolves.toMatchObject({ count: 1 });
  });

  it('keeps a grant while its start goes on, and gives it back pendingHoldTtlMs after the start ended without an answer', async () => {
    const local = limits(1);
    const grant = await local.hold(1);
    let granted = false;
    const next = local.hold(1).then(() => (granted = true));
    // However long the start waits (its turn in the request budget, its retries): no expiry.
    expect(clock.nextWake()).toBeUndefined();
    clock.advance(3_600_000);
    await Promise.resolve();
    expect(granted).toBe(false);
    local.abandon(grant);
    expect(clock.nextWake()).toBe(clock.now() + 300_000);
    clock.advance(299_999);
    await Promise.resolve();
    expect([granted, local.held]).toEqual([false, 1]);
    clock.advance(1);
    await next;
    expect(local.held).toBe(1);
  });

  it('starts from the tasks the process runs, not from zero, and forgets them as they end', async () => {
    const local = limits(2);
    local.startFrom(['t1', 't2']);
    let granted = false;
    const next = local.hold(1).then(() => (granted = true));
    await Promise.resolve();
    expect([granted, local.held]).toEqual([false, 2]);
    local.settle(['t1']);
    await next;
    expect(local.taskIds).toEqual(['t2']);
  });

  it('counts the request window on the attached clock', async () => {
    const local = limits(1);
    await local.take('requests');
    await local.take('requests');
    expect(local.requestsInWindow()).toBe(2);
    clock.advance(60_249);
    expect(local.requestsInWindow()).toBe(2);
    // A start leaves the window a minute and the budget's 250 ms margin after it.
    clock.advance(1);
    expect(local.requestsInWindow()).toBe(0);
  });

  it('counts no request for a take aborted while it waits, and gives its place back', async () => {
    const local = limits(1);
    await local.take('requests');
    await local.take('requests');
    const controller = new AbortController();
    const waiting = local.take('requests', controller.signal);
    controller.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    expect(local.requestsInWindow()).toBe(2);
    // The aborted take's place is free: the next waits only for the window, not behind it.
    const next = local.take('requests');
    expect(clock.nextWake()! - clock.now()).toBe(60_250);
    clock.advance(60_250);
    await next;
    expect(local.requestsInWindow()).toBe(1);
  });
});

describe('channel messages', () => {
  it('reads a message of this coordinator and ignores anything else on the channel', () => {
    expect(parseHubMessage('{"notices":[{"taskId":"t1","status":"completed"}],"freed":1,"receiver":true}')).toEqual({ notices: [{ taskId: 't1', status: 'completed' }], freed: 1, receiver: true });
    // How many slots a message may have freed: `true` (an older version's) is one; a wrong count, none or at most 10,000.
    expect(parseHubMessage('{"notices":[],"freed":true}')).toMatchObject({ freed: 1 });
    expect(parseHubMessage('{"notices":[],"freed":3}')).toMatchObject({ freed: 3 });
    expect(parseHubMessage('{"notices":[],"freed":-1}')).toMatchObject({ freed: 0 });
    expect(parseHubMessage('{"notices":[],"freed":1.5}')).toMatchObject({ freed: 0 });
    expect(parseHubMessage('{"notices":[],"freed":1e300}')).toMatchObject({ freed: 0 });
    expect(parseHubMessage('{"notices":[],"freed":99999}')).toMatchObject({ freed: 10_000 });
    expect(parseHubMessage('{"notices":[],"freed":0,"rewrite":"e2"}')).toMatchObject({ rewrite: 'e2' });
    expect(parseHubMessage(`{"notices":[],"rewrite":"${'x'.repeat(101)}"}`)).not.toHaveProperty('rewrite');
    expect(parseHubMessage('{"notices":[{"id":"t1"}]}')).toBeUndefined();
    expect(parseHubMessage('hello')).toBeUndefined();
  });
});

describe('options', () => {
  it('defaults to the service limits and an event retention past its 3-hour retry schedule', () => {
    const options = resolveOptions({});
    expect(options).toMatchObject({ requestsPerMinute: 60, maxActive: 50, modelCallsPerMinute: 10, draftingPerMinute: 20, chatMessagesPerMinute: 30, webhookTestsPerMinute: 20 });
    expect(options.eventRetentionMs).toBeGreaterThanOrEqual(3 * 60 * 60_000);
    // As long as the in-process de-duplicator's default: a replay comes later than the retries.
    expect(options.eventRetentionMs).toBe(24 * 60 * 60_000);
  });

  it('refuses a userPrefix that could end a hash tag or widen an ACL pattern, naming userPrefix', () => {
    for (const userPrefix of ['', 'a}b', 'a{b', 'user*', 'x'.repeat(101), 'with space']) {
      expect(() => resolveOptions({ userPrefix })).toThrow(expect.objectContaining({ name: 'ValidationError', field: 'userPrefix' }));
    }
    expect(() => resolveOptions({ userPrefix: 'acme-prod:user_1.eu' })).not.toThrow();
  });

  it('refuses a limit that is not a positive number, naming it', () => {
    expect(() => resolveOptions({ maxActive: 0 })).toThrow(/maxActive/);
    expect(() => resolveOptions({ requestsPerMinute: Number.NaN })).toThrow(/requestsPerMinute/);
  });

  it('refuses a fraction of a request or a slot, and takes a fraction of a millisecond', () => {
    expect(() => resolveOptions({ requestsPerMinute: 1.5 })).toThrow('requestsPerMinute: must be a whole number, got 1.5');
    expect(() => resolveOptions({ maxActive: 2.5 })).toThrow('maxActive: must be a whole number, got 2.5');
    expect(() => resolveOptions({ modelCallsPerMinute: 0.5 })).toThrow('modelCallsPerMinute: must be a whole number, got 0.5');
    for (const name of ['draftingPerMinute', 'chatMessagesPerMinute', 'webhookTestsPerMinute'] as const) {
      expect(() => resolveOptions({ [name]: 2.5 })).toThrow(`${name}: must be a whole number, got 2.5`);
      expect(() => resolveOptions({ [name]: 0 })).toThrow(`${name}: must be a positive number, got 0`);
    }
    expect(resolveOptions({ windowMarginMs: 0.5 }).windowMarginMs).toBe(0.5);
  });

  // A duration past Node's longest timer fired at once (every command timed out: local for good), and
  // a fraction where Redis counts whole ms (`SET … PX 0.5`) failed each time (found by a review).
  it('refuses a duration past the longest timer, and a fraction of a millisecond where Redis or its client counts whole ones', () => {
    for (const name of ['receiverTtlMs', 'reconcileIntervalMs', 'windowMarginMs', 'pendingHoldTtlMs', 'commandTimeoutMs', 'probeIntervalMs'] as const) {
      expect(resolveOptions({ [name]: 2 ** 31 - 1 })[name]).toBe(2 ** 31 - 1);
      expect(() => resolveOptions({ [name]: 2 ** 31 })).toThrow(`${name}: must be at most 2147483647 ms (about 24.8 days, Node's longest timer), got 2147483648`);
    }
    expect(() => resolveOptions({ commandTimeoutMs: 0.5 })).toThrow('commandTimeoutMs: must be a whole number of milliseconds, got 0.5');
    expect(() => resolveOptions({ eventRetentionMs: 1.5 })).toThrow(expect.objectContaining({ field: 'eventRetentionMs' }));
    expect(() => resolveOptions({ eventRetentionMs: 1e20 })).toThrow(expect.objectContaining({ field: 'eventRetentionMs' }));
    // A retention is Redis's `PX` alone, no timer: a month is kept (a replay may come weeks later).
    expect(resolveOptions({ eventRetentionMs: 30 * 24 * 3_600_000 }).eventRetentionMs).toBe(2_592_000_000);
  });

  it('makes the default prefix of 16 hex digits of the key hash', () => {
    expect(prefixFromKeyHash('0123456789abcdef'.repeat(4))).toBe('fsdk:0123456789abcdef');
  });
});
