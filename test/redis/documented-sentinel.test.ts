// docs/fleet.md on a real Sentinel set (a primary, a replica, 3 sentinels: _topologies.ts):
// - ioredis 5.9 (the oldest the peer range takes) runs the fleet tests on Sentinel, as the newest
//   ioredis and node-redis do in kinds-sentinel.test.ts;
// - "Failover": "the fleet behaves as in an outage: each process warns once and keeps the limits per
//   process while its client finds the new primary". failoverSuite checks "at most once"; here each
//   process of a fleet of the three Sentinel clients must warn exactly once (not zero, not twice),
//   and, per "What a coordinator guarantees" ("When Redis answers again, it logs one more line";
//   only a failure "right after it came back" is the same outage), a later outage warns again once.
import { mkdtempSync, rmSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Redis as Redis5 } from 'ioredis-5';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fleetSuite, kindProcesses, type KindProcess } from './_kind-suite.js';
import { sentinelled, type KindClient } from './_kinds.js';
import { testClock } from './_clock.js';
import { launchRedis, stopChild } from './_redis.js';
import { startSentinel, type TestSentinel } from './_topologies.js';

let set: TestSentinel | undefined;
/** The old primary, started again as a replica of the new one (for the second failover). */
let restarted: ChildProcess | undefined;
const dir = mkdtempSync(join(tmpdir(), 'fsdk-documented-sentinel-'));
beforeAll(async () => void (set = await startSentinel()), 60_000);
afterAll(async () => {
  await stopChild(restarted);
  await set?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** ioredis 5.9 on the Sentinel set, as _kinds.ts connects the newest ioredis (quick retries, one try per command). */
async function ioredis5Sentinel(name: string, ports: number[]): Promise<KindClient> {
  const client = new Redis5({ name, sentinels: ports.map((port) => ({ host: '127.0.0.1', port })), retryStrategy: () => 50, maxRetriesPerRequest: 1 });
  // A test's outage is expected: connection errors are events, not failures.
  client.on('error', () => undefined);
  if (client.status !== 'ready') await new Promise<void>((resolve) => client.once('ready', () => resolve()));
  return { client, close: async () => client.disconnect() };
}

fleetSuite('ioredis', () => ioredis5Sentinel(set!.name, set!.sentinelPorts), 'ioredis 5.9');

// ---- Failover: each process warns once per outage --------------------------------------------

/** FLAP_MS of src/redis/link.ts: a failure this soon after Redis came back is the same outage. "Later" is well past it. */
const LATER_MS = 60_000;
const DOWN = 'did not answer';
const BACK = 'Redis answers again';

const connectors = {
  'node-redis-sentinel': () => sentinelled['node-redis-sentinel'](set!.name, set!.sentinelPorts),
  ioredis: () => sentinelled.ioredis(set!.name, set!.sentinelPorts),
  'ioredis 5.9': () => ioredis5Sentinel(set!.name, set!.sentinelPorts),
};
const makers = Object.entries(connectors).map(([label, connect]) => [label, kindProcesses(connect)] as const);

interface FleetProcess extends KindProcess {
  label: string;
  /** Calls (take, settle) that rejected: "no call fails". */
  failures: unknown[];
}

const count = (p: FleetProcess, text: string) => p.warnings.filter((w) => w.includes(text)).length;
const counts = (fleet: readonly FleetProcess[], text: string) => Object.fromEntries(fleet.map((p) => [p.label, count(p, text)]));

/** One call on Redis's path: a take of the request window (a rejection is recorded, never thrown). */
async function use(p: FleetProcess): Promise<void> {
  await p.coordinator.take('requests').catch((error: unknown) => p.failures.push(error));
}

/**
 * Runs `kill` (SIGKILL the primary, resolving once the sentinels promoted the replica) while every
 * process keeps calling: each must turn local meanwhile (the outage is seen, not slept through), then
 * be shared again within 20 s of the promotion.
 */
async function failover(fleet: readonly FleetProcess[], kill: () => Promise<void>): Promise<void> {
  const wentLocal = new Set<string>();
  const killed = kill();
  await vi.waitFor(
    async () => {
      for (const p of fleet) {
        await use(p);
        if (p.coordinator.mode === 'local') wentLocal.add(p.label);
      }
      expect([...wentLocal].sort(), 'every process turned local during the failover').toEqual(fleet.map((p) => p.label).sort());
    },
    { timeout: 30_000, interval: 50 },
  );
  await killed;
  const promotedAt = Date.now();
  await vi.waitFor(
    async () => {
      for (const p of fleet) await use(p);
      expect(fleet.map((p) => p.coordinator.mode)).toEqual(fleet.map(() => 'shared'));
    },
    { timeout: 20_000, interval: 100 },
  );
  expect(Date.now() - promotedAt).toBeLessThan(20_000);
}

/** Slots, the channel and the request window all work again for every process (and so keep each process busy on Redis after the failover). */
async function exercise(fleet: readonly FleetProcess[], round: string): Promise<void> {
  for (const [i, p] of fleet.entries()) {
    const listener = fleet[(i + 1) % fleet.length]!;
    const taskId = `${round}-${p.label}`;
    const seen: string[] = [];
    const stop = listener.coordinator.watch([taskId], (notice) => seen.push(notice.taskId));
    const hold = await p.coordinator.hold(1);
    await hold.bind([taskId]);
    await vi.waitFor(
      async () => {
        await p.coordinator.settle([{ taskId, status: 'completed' }]);
        expect(seen).toContain(taskId);
      },
      { timeout: 10_000, interval: 250 },
    );
    stop();
  }
  for (const p of fleet) {
    await use(p);
    expect((await p.coordinator.stats()).mode).toBe('shared');
  }
}

/** Whether each sentinel lists `port` as a healthy replica, with its link to the primary up. */
async function sentinelsSeeReplica(port: number): Promise<boolean> {
  for (const sentinelPort of set!.sentinelPorts) {
    const sentinel = new Redis({ host: '127.0.0.1', port: sentinelPort, maxRetriesPerRequest: 1, lazyConnect: true });
    sentinel.on('error', () => undefined);
    try {
      const replicas = (await sentinel.call('SENTINEL', 'REPLICAS', set!.name)) as string[][];
      const fields = replicas.map((flat) => new Map(flat.flatMap((v, i) => (i % 2 === 0 ? [[v, flat[i + 1] ?? '']] : []))));
      const entry = fields.find((f) => f.get('port') === String(port));
      if (entry?.get('flags') !== 'slave' || entry.get('master-link-status') !== 'ok') return false;
    } finally {
      sentinel.disconnect();
    }
  }
  return true;
}

describe('Failover on Sentinel (docs/fleet.md "Failover"): each process warns once', () => {
  const fleet: FleetProcess[] = [];
  let oldPrimary = 0;

  // Last in the file: it kills the primary (twice).
  it('a failover makes each process (node-redis, ioredis and ioredis 5.9 sentinel clients in one fleet) warn exactly once, and say once that Redis answers again', async () => {
    const clock = testClock();
    for (const [label, make] of makers) {
      const p = await make(clock, { prefix: 'documented-failover', maxActive: 10, requestsPerMinute: 100_000, commandTimeoutMs: 500 });
      fleet.push({ ...p, label, failures: [] });
    }
    // Each process runs a task and listens: the fleet is in use when the primary dies.
    for (const p of fleet) await (await p.coordinator.hold(1)).bind([`running-${p.label}`]);
    await exercise(fleet, 'before');
    expect(counts(fleet, DOWN)).toEqual({ 'node-redis-sentinel': 0, ioredis: 0, 'ioredis 5.9': 0 });

    oldPrimary = await set!.primary();
    await failover(fleet, () => set!.killPrimary());
    // Busy on the new primary for a while: a late second warning of the same failover would show here.
    await exercise(fleet, 'after');

    expect(counts(fleet, DOWN), '"Redis did not answer" per process').toEqual({ 'node-redis-sentinel': 1, ioredis: 1, 'ioredis 5.9': 1 });
    expect(counts(fleet, BACK), '"Redis answers again" per process').toEqual({ 'node-redis-sentinel': 1, ioredis: 1, 'ioredis 5.9': 1 });
    expect(fleet.flatMap((p) => p.failures), 'no call fails').toEqual([]);
  }, 90_000);

  it('a second failover, later, makes each process warn once more (a recovery ends the outage)', async () => {
    expect(fleet, 'the fleet of the first failover').toHaveLength(makers.length);
    const before = { down: counts(fleet, DOWN), back: counts(fleet, BACK) };
    // The old primary comes back as a replica of the new one: the sentinels have a replica to promote again.
    const primary = await set!.primary();
    const base = ['--port', String(oldPrimary), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'];
    restarted = await launchRedis([...base, '--replicaof', '127.0.0.1', String(primary)], /Ready to accept connections/);
    await vi.waitFor(async () => expect(await sentinelsSeeReplica(oldPrimary)).toBe(true), { timeout: 30_000, interval: 250 });
    await exercise(fleet, 'between');
    // "Later": the link times the end of an outage on the real clock (Date.now), moved here instead of waited for.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      vi.setSystemTime(Date.now() + LATER_MS);
      await failover(fleet, () => set!.killPrimary());
      expect(await set!.primary()).toBe(oldPrimary);
      await exercise(fleet, 'after-second');
    } finally {
      vi.useRealTimers();
    }
    const more = (now: Record<string, number>, then: Record<string, number>) => Object.fromEntries(Object.entries(now).map(([k, v]) => [k, v - (then[k] ?? 0)]));
    expect(more(counts(fleet, DOWN), before.down), 'new "Redis did not answer" per process').toEqual({ 'node-redis-sentinel': 1, ioredis: 1, 'ioredis 5.9': 1 });
    expect(more(counts(fleet, BACK), before.back), 'new "Redis answers again" per process').toEqual({ 'node-redis-sentinel': 1, ioredis: 1, 'ioredis 5.9': 1 });
    expect(fleet.flatMap((p) => p.failures), 'no call fails').toEqual([]);
  }, 120_000);
});
