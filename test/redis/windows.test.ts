// The shared one-minute windows: every process's take() counts in one sorted set on Redis.
import { describe, expect, it, vi } from 'vitest';
import { testClock, type TestClock } from './_clock.js';
import { processOn, useRedis } from './_setup.js';

const redis = useRedis();

/** Runs `takes` to the end, moving the clock to the next wake-up whenever every taker is done or asleep. */
async function drive(clock: TestClock, takes: (() => Promise<unknown>)[]): Promise<number[]> {
  const times: number[] = [];
  // Each request is answered at once (its end told), as the client does after every attempt.
  const all = Promise.all(takes.map((take) => take().then((ended) => void (times.push(clock.now()), typeof ended === 'function' && ended()))));
  while (times.length < takes.length) {
    await vi.waitFor(() => expect(times.length + clock.sleepers).toBe(takes.length));
    const next = clock.nextWake();
    if (next !== undefined) clock.advanceTo(next);
  }
  await all;
  return times.sort((a, b) => a - b);
}

/** The most calls any one-minute window (t - 60 s, t] holds. */
const busiestMinute = (times: number[]) => Math.max(...times.map((t) => times.filter((s) => s > t - 60_000 && s <= t).length));

describe('shared windows', () => {
  it('keeps two coordinators together within requestsPerMinute in every minute', async () => {
    const clock = testClock();
    const start = clock.now();
    const [a, b] = await Promise.all([processOn(redis, clock, { prefix: 'win-a', requestsPerMinute: 5 }), processOn(redis, clock, { prefix: 'win-a', requestsPerMinute: 5 })]);
    const times = await drive(clock, Array.from({ length: 16 }, (_, i) => () => (i % 2 ? a : b).coordinator.take('requests')));
    expect(busiestMinute(times)).toBe(5);
    // 16 calls at 5 a minute: the last goes in the fourth minute, not at once.
    expect(times.at(-1)! - start).toBeGreaterThanOrEqual(3 * 60_000);
    expect((await a.coordinator.stats()).requestsInWindow).toBeLessThanOrEqual(5);
  });

  it('serves a long line at the full rate: 300 takes at 60 a minute end in the fifth minute, 60 in each', async () => {
    const clock = testClock();
    const start = clock.now();
    const [a, b] = await Promise.all([processOn(redis, clock, { prefix: 'win-line', requestsPerMinute: 60 }), processOn(redis, clock, { prefix: 'win-line', requestsPerMinute: 60 })]);
    const times = await drive(clock, Array.from({ length: 300 }, (_, i) => () => (i % 2 ? a : b).coordinator.take('requests')));
    expect(busiestMinute(times)).toBe(60);
    // A place that came due is kept, not put behind the places reserved after it (the line took 40 minutes so).
    expect(times.at(-1)! - start).toBeLessThan(5 * 60_000);
    expect(Array.from({ length: 5 }, (_, m) => times.filter((t) => t - start >= m * 60_000 && t - start < (m + 1) * 60_000).length)).toEqual([60, 60, 60, 60, 60]);
  });

  it('counts model calls in their own window, with their own limit', async () => {
    const clock = testClock();
    const [a, b] = await Promise.all([processOn(redis, clock, { prefix: 'win-m', modelCallsPerMinute: 2 }), processOn(redis, clock, { prefix: 'win-m', modelCallsPerMinute: 2 })]);
    const times = await drive(clock, [a, b, a, b, a].map((p) => () => p.coordinator.take('modelCalls')));
    expect(busiestMinute(times)).toBe(2);
    expect((await a.coordinator.stats()).requestsInWindow).toBe(0);
  });

  it('counts drafting and chat messages per key, each in its own window with its own limit', async () => {
    const clock = testClock();
    const limits = { draftingPerMinute: 2, chatMessagesPerMinute: 3 };
    const [a, b] = await Promise.all([processOn(redis, clock, { prefix: 'win-d', ...limits }), processOn(redis, clock, { prefix: 'win-d', ...limits })]);
    const other = await processOn(redis, clock, { prefix: 'win-d2', ...limits });
    const drafts = await drive(clock, [a, b, a, b, a].map((p) => () => p.coordinator.take('drafting')));
    expect(busiestMinute(drafts)).toBe(2);
    const chats = await drive(clock, [a, b, a, b, a, b, a].map((p) => () => p.coordinator.take('chatMessages')));
    expect(busiestMinute(chats)).toBe(3);
    // Another key has its own windows: its two drafts go at once.
    const before = clock.now();
    expect(await drive(clock, [other, other].map((p) => () => p.coordinator.take('drafting')))).toEqual([before, before]);
  });

  it("counts webhook tests and replays per user: the coordinators of one user's keys share one window", async () => {
    const clock = testClock();
    const user = { userPrefix: 'win-user', webhookTestsPerMinute: 2 };
    const [a, b] = await Promise.all([processOn(redis, clock, { prefix: 'win-k1', ...user }), processOn(redis, clock, { prefix: 'win-k2', ...user })]);
    const times = await drive(clock, [a, b, a, b, a].map((p) => () => p.coordinator.take('webhookTests')));
    expect(busiestMinute(times)).toBe(2);
    expect(await (await redis.client()).exists('{win-user}:webhookTests')).toBe(1);
  });

  it('counts in stats the requests sent in the last minute, not the places reserved for later', async () => {
    const clock = testClock();
    const a = await processOn(redis, clock, { prefix: 'win-stats', requestsPerMinute: 1 });
    ((await a.coordinator.take('requests')) as () => void)();
    const later = a.coordinator.take('requests');
    await vi.waitFor(() => expect(clock.sleepers).toBe(1));
    expect((await a.coordinator.stats()).requestsInWindow).toBe(1);
    clock.advanceTo(clock.nextWake()!);
    await later;
    expect((await a.coordinator.stats()).requestsInWindow).toBe(1);
  });

  it('gives up a wait when its signal aborts', async () => {
    const clock = testClock();
    const a = await processOn(redis, clock, { prefix: 'win-abort', requestsPerMinute: 1 });
    await a.coordinator.take('requests');
    const controller = new AbortController();
    const waiting = a.coordinator.take('requests', controller.signal);
    await vi.waitFor(() => expect(clock.sleepers).toBe(1));
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });

  it('counts a request from when its attempt ended: a slow answer keeps it in the window a minute after it came back', async () => {
    const clock = testClock();
    const a = await processOn(redis, clock, { prefix: 'win-end', requestsPerMinute: 1 });
    const ended = await a.coordinator.take('requests');
    // The service answers 30 s later (a slow way there): it may have counted the request just now.
    clock.advanceTo(clock.now() + 30_000);
    const answeredAt = clock.now();
    expect(ended).toBeTypeOf('function');
    (ended as () => void)();
    clock.advanceTo(clock.now() + 31_000);
    const next = a.coordinator.take('requests');
    await vi.waitFor(() => expect(clock.sleepers).toBe(1));
    // Not at the first take's minute: a minute (and the margin) after the answer.
    expect(clock.nextWake()).toBe(answeredAt + 60_000 + 250);
    clock.advanceTo(clock.nextWake()!);
    await next;
  });

  it('checks a reserved place again when it comes due: a request answered late since keeps it waiting', async () => {
    const clock = testClock();
    const [a, b] = await Promise.all([processOn(redis, clock, { prefix: 'win-recheck', requestsPerMinute: 1 }), processOn(redis, clock, { prefix: 'win-recheck', requestsPerMinute: 1 })]);
    const start = clock.now();
    const ended = (await a.coordinator.take('requests')) as () => void;
    const next = b.coordinator.take('requests');
    await vi.waitFor(() => expect(clock.sleepers).toBe(1));
    expect(clock.nextWake()).toBe(start + 60_250);
    // a's answer comes 30 s later: the service may have counted it then.
    clock.advanceTo(start + 30_000);
    ended();
    await vi.waitFor(async () => expect((await b.coordinator.stats()).requestsInWindow).toBe(1));
    clock.advanceTo(start + 60_250);
    await vi.waitFor(() => expect(clock.nextWake()).toBe(start + 90_250));
    clock.advanceTo(start + 90_250);
    await next;
  });

  it('keeps a request still in flight counted past its minute: the next take of its process moves it to now', async () => {
    const clock = testClock();
    const a = await processOn(redis, clock, { prefix: 'win-flight', requestsPerMinute: 2 });
    const start = clock.now();
    await a.coordinator.take('requests'); // never answered yet
    ((await a.coordinator.take('requests')) as () => void)();
    clock.advanceTo(start + 61_000);
    // The first is still in flight: this take moves it to now, so only the answered one's place frees.
    ((await a.coordinator.take('requests')) as () => void)();
    expect((await a.coordinator.stats()).requestsInWindow).toBe(2);
    const fourth = a.coordinator.take('requests');
    await vi.waitFor(() => expect(clock.sleepers).toBe(1));
    expect(clock.nextWake()! - clock.now()).toBeGreaterThan(59_000);
    clock.advanceTo(clock.nextWake()!);
    await fourth;
  });

  it("still counts a request exactly a minute old: the margin covers another process's clock and the network", async () => {
    const clock = testClock();
    const a = await processOn(redis, clock, { prefix: 'win-margin', requestsPerMinute: 1 });
    // Answered at once: it counts from when it was sent.
    ((await a.coordinator.take('requests')) as () => void)();
    clock.advanceTo(clock.now() + 60_000);
    const next = a.coordinator.take('requests');
    // At exactly 60 s the first one still counts; the second waits out the margin.
    await vi.waitFor(() => expect(clock.sleepers).toBe(1));
    const wake = clock.nextWake()!;
    expect(wake - clock.now()).toBeGreaterThan(0);
    expect(wake - clock.now()).toBeLessThanOrEqual(250);
    clock.advanceTo(wake);
    await next;
  });
});

describe('a request in flight in a process that takes nothing else', () => {
  it('stays counted past its minute: the process moves it to now every third of a window, and the end counts it again', async () => {
    // The process moves it on the client's clock (the window's own): here the test's manual clock.
    const clock = testClock();
    const [a, b] = await Promise.all([processOn(redis, clock, { prefix: 'win-idle', requestsPerMinute: 2 }), processOn(redis, clock, { prefix: 'win-idle', requestsPerMinute: 2 })]);
    const ended = (await a.coordinator.take('requests')) as () => void;
    clock.advance(61_000);
    const counted = async () => (await b.coordinator.stats()).requestsInWindow;
    for (let i = 0; i < 50 && (await counted()) !== 1; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await counted()).toBe(1);
    // The attempt ends two minutes later: it counts from then, even had it left the window.
    clock.advance(120_000);
    ended();
    for (let i = 0; i < 50 && (await counted()) !== 1; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await counted()).toBe(1);
  });
});
