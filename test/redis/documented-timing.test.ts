// Timings docs/fleet.md promises, checked on a real Redis: the probe that checks whether a flapping
// Redis is back waits longer each time, doubling up to a minute; a granted slot not yet bound is
// renewed every third of pendingHoldTtlMs, at most a minute apart.
//
// Not here: "a Sentinel failover makes each process warn exactly once". It needs a Sentinel set (a
// primary, a replica, 3 sentinels: _topologies.ts startSentinel) on top of this file's one Redis and
// a failover of several seconds; kinds-sentinel.test.ts (failoverSuite) runs that one.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testClock, type TestClock } from './_clock.js';
import { processOn, useRedis, type Process } from './_setup.js';

const redis = useRedis();

/** The probe's longest wait (MAX_PROBE_MS in src/redis/link.ts): a minute. */
const MAX_PROBE_MS = 60_000;

type Admin = Awaited<ReturnType<typeof redis.client>>;
/** Scripts refused (NOPERM) to every connection of the default user, this file's coordinators': PING still answers. */
const denyScripts = (admin: Admin) => admin.sendCommand(['ACL', 'SETUSER', 'default', '-eval', '-evalsha']);
const allowScripts = (admin: Admin) => admin.sendCommand(['ACL', 'SETUSER', 'default', '+@all']);

afterEach(async () => {
  vi.useRealTimers();
  await allowScripts(await redis.client());
});

/** How many PINGs the spied client has sent since the spy started counting. */
type SendSpy = { mock: { calls: readonly (readonly [readonly unknown[], ...unknown[]])[] } };
const pingsOf = (spy: SendSpy): number => spy.mock.calls.filter(([args]) => args[0] === 'PING').length;

/** Moves the faked timers on by `delay`: no PING 1 ms before it, exactly one at it (sent in the timer's own turn). */
function probesAt(pings: SendSpy, delay: number): void {
  const before = pingsOf(pings);
  vi.advanceTimersByTime(delay - 1);
  expect(pingsOf(pings), `no probe 1 ms before ${delay} ms`).toBe(before);
  vi.advanceTimersByTime(1);
  expect(pingsOf(pings), `a probe at ${delay} ms`).toBe(before + 1);
}

/**
 * One more failure right after Redis came back: a take while an ACL denies the scripts (PING still
 * answers). Resolves once the link has turned local again.
 */
async function failAgain(process: Process): Promise<void> {
  await process.coordinator.take('requests');
  expect(process.coordinator.mode).toBe('local');
}

describe('the probe after a flap', () => {
  it('waits probeIntervalMs, then twice as long after each failure right after Redis came back, up to a minute', async () => {
    const clock = testClock();
    const probeIntervalMs = 1_000;
    const p = await processOn(redis, clock, { prefix: 'probe-backoff', requestsPerMinute: 1_000, probeIntervalMs });
    const admin = await redis.client();
    // An ACL that denies the scripts: every take fails, PING answers. (A key of the wrong type no
    // longer does: the scripts replace it.)
    await denyScripts(admin);
    const pings = vi.spyOn(p.client, 'sendCommand');
    // The probe runs on real time (setTimeout, Date.now: src/redis/link.ts #schedule, failed): fake
    // those two so the test moves them by hand. Socket I/O and vi.waitFor stay real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });

    await failAgain(p);
    expect(p.warnings).toHaveLength(1);
    // First outage: probeIntervalMs; each flap doubles it (1, 2, 4 … 32 s), then 64 s is capped at 60 s.
    const expected = [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, MAX_PROBE_MS, MAX_PROBE_MS];
    for (const delay of expected) {
      probesAt(pings, delay);
      // PONG comes back over the real socket: the link is shared again, and the next take fails at once.
      await vi.waitFor(() => expect(p.coordinator.mode).toBe('shared'), { timeout: 5_000 });
      await failAgain(p);
    }
    // One outage throughout: the first down and the first back are told, no flap after them.
    expect(p.warnings).toHaveLength(2);
    expect(p.warnings[0]).toMatch(/did not answer/);
    expect(p.warnings[1]).toMatch(/answers again/);

    // And it stays at a minute: nothing sooner, one PING at the minute.
    probesAt(pings, MAX_PROBE_MS);
    await vi.waitFor(() => expect(p.coordinator.mode).toBe('shared'), { timeout: 5_000 });

    vi.useRealTimers();
    await allowScripts(admin);
    await p.coordinator.take('requests');
    expect(p.coordinator.mode).toBe('shared');
  }, 30_000);

  it('goes back to probeIntervalMs for an outage that starts long after Redis came back (not a flap)', async () => {
    const clock = testClock();
    const p = await processOn(redis, clock, { prefix: 'probe-reset', requestsPerMinute: 1_000, probeIntervalMs: 1_000 });
    const admin = await redis.client();
    await denyScripts(admin);
    const pings = vi.spyOn(p.client, 'sendCommand');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });

    // Two flaps: the probe is at 4 s.
    await failAgain(p);
    for (const delay of [1_000, 2_000]) {
      vi.advanceTimersByTime(delay);
      await vi.waitFor(() => expect(p.coordinator.mode).toBe('shared'), { timeout: 5_000 });
      await failAgain(p);
    }
    vi.advanceTimersByTime(4_000);
    await vi.waitFor(() => expect(p.coordinator.mode).toBe('shared'), { timeout: 5_000 });
    // Shared for longer than the flap window (10 s, FLAP_MS): the next failure is a new outage.
    vi.advanceTimersByTime(10_001);
    await failAgain(p);
    expect(p.warnings).toHaveLength(3);
    expect(p.warnings[2]).toMatch(/did not answer/);
    probesAt(pings, 1_000);
    await vi.waitFor(() => expect(p.coordinator.mode).toBe('shared'), { timeout: 5_000 });

    vi.useRealTimers();
    await allowScripts(admin);
  }, 30_000);
});

/** The expiry (the client's clock) of the first pending slot on `prefix`. */
async function pendingExpiry(p: Process, prefix: string): Promise<number> {
  const [member] = await p.client.zRange(`{${prefix}}:slots`, 0, 0);
  if (member === undefined) throw new Error('no pending slot');
  return Number(await p.client.zScore(`{${prefix}}:slots`, member));
}

/**
 * Whether the pending slot's expiry stays at `expiry` while its renewal timer looks at the clock a
 * few times. The renewal looks at a simulated clock every 50 ms of real time (src/redis/every.ts):
 * a short bounded real wait is the only way to let it look and find nothing due.
 */
async function staysAt(p: Process, prefix: string, expiry: number): Promise<boolean> {
  for (let i = 0; i < 6; i++) {
    await new Promise((resolve) => setTimeout(resolve, 60));
    if ((await pendingExpiry(p, prefix)) !== expiry) return false;
  }
  return true;
}

/** Waits (a few real seconds at most) until the pending slot's expiry is `expiry`. */
async function renewedTo(p: Process, prefix: string, expiry: number): Promise<void> {
  await vi.waitFor(async () => expect(await pendingExpiry(p, prefix)).toBe(expiry), { timeout: 5_000, interval: 20 });
}

describe('the renewal of a granted slot not yet bound', () => {
  const TTL = 10 * 60_000;

  it('renews every minute, not every third of a 10-minute pendingHoldTtlMs (200 s)', async () => {
    const clock: TestClock = testClock();
    const prefix = 'renew-cap';
    const p = await processOn(redis, clock, { prefix, maxActive: 1, pendingHoldTtlMs: TTL });
    const granted = await p.coordinator.hold(1);
    const start = clock.now();
    expect(await pendingExpiry(p, prefix)).toBe(start + TTL);
    for (let minute = 1; minute <= 3; minute++) {
      const renewedAt = start + minute * 60_000;
      // A second short of the minute: not renewed yet.
      clock.advanceTo(renewedAt - 1_000);
      expect(await staysAt(p, prefix, renewedAt - 60_000 + TTL)).toBe(true);
      // At the minute: renewed to a full time to live from then.
      clock.advanceTo(renewedAt);
      await renewedTo(p, prefix, renewedAt + TTL);
    }
    await granted.release();
  }, 30_000);

  it('renews every third of pendingHoldTtlMs when that is under a minute (90 s: every 30 s)', async () => {
    const clock: TestClock = testClock();
    const prefix = 'renew-third';
    const ttl = 90_000;
    const p = await processOn(redis, clock, { prefix, maxActive: 1, pendingHoldTtlMs: ttl });
    const granted = await p.coordinator.hold(1);
    const start = clock.now();
    expect(await pendingExpiry(p, prefix)).toBe(start + ttl);
    clock.advanceTo(start + 29_000);
    expect(await staysAt(p, prefix, start + ttl)).toBe(true);
    clock.advanceTo(start + 30_000);
    await renewedTo(p, prefix, start + 30_000 + ttl);
    await granted.release();
  }, 30_000);
});
