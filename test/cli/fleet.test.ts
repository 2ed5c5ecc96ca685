// `forecasting fleet status --redis <url>`: the built binary against a real redis-server, reading
// what coordinators (standing for the processes of a fleet) left there.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realClock } from '../../src/core/clock.js';
import { createRedisCoordinator, type CoordinatorStats, type RedisCoordinator } from '../../src/redis/index.js';
import { API_KEY, KEY_HASH, useRedis } from '../redis/_setup.js';
import { statusLines } from '../../src/cli/commands/fleet.js';
import { ROOT, run } from './_cli.js';

const redis = useRedis();
const open: RedisCoordinator[] = [];
afterAll(() => Promise.all(open.map((c) => c.close())));

/** A coordinator as a client of the test key attaches it, on real time (the binary reads real time too). */
async function processOn(options: { prefix?: string; userPrefix?: string }): Promise<{ coordinator: RedisCoordinator }> {
  const coordinator = createRedisCoordinator(await redis.client(), options);
  open.push(coordinator);
  coordinator.attach({ keyHash: () => KEY_HASH, clock: realClock });
  return { coordinator };
}

/** A fleet's traces under `prefix` (or the key's own namespace): requests, two running tasks, a pending start, events. */
async function activity(prefix?: string): Promise<void> {
  const { coordinator } = await processOn(prefix === undefined ? {} : { prefix });
  for (let i = 0; i < 3; i++) await coordinator.take('requests');
  await (await coordinator.hold(2)).bind(['task_a', 'task_b']);
  await coordinator.hold(1);
  await coordinator.publish({ id: 'svc:forecast.started:task_a', type: 'forecast.started', taskId: 'task_a', final: false });
  await coordinator.claimEvent('svc:forecast.started:task_a');
  await coordinator.finishEvent('svc:forecast.started:task_a');
  await coordinator.claimEvent('svc:forecast.started:task_a');
}

describe('the text of fleet status', () => {
  const stats = (activeTaskIds: string[]): CoordinatorStats => ({ mode: 'shared', requestsInWindow: 0, activeSlots: activeTaskIds.length, activeTaskIds, startsWaiting: 0, receiversSeen: 0, eventsPublished: 0, eventsDeduplicated: 0 });
  const idsLine = (ids: string[]) => statusLines(stats(ids), 'p').find((l) => l.startsWith('active task ids'));

  it('cuts a long task id to 8 characters and shows ten at most, saying how many more --json lists', () => {
    const uuids = Array.from({ length: 12 }, (_, i) => `${String(i).padStart(8, '0')}-8d8f-4a53-9a43-3f4f2a8f0c11`);
    expect(idsLine(['task_a', uuids[0]!])).toBe('active task ids     task_a 00000000…');
    expect(idsLine(uuids)).toBe(`active task ids     ${uuids.slice(0, 10).map((id) => `${id.slice(0, 8)}…`).join(' ')} … and 2 more (--json lists them all)`);
    expect(idsLine([])).toBe('active task ids     -');
  });
});

describe('forecasting fleet status', () => {
  beforeAll(async () => {
    await activity('fleet-cli');
    await activity();
  });

  it('prints the stats of a prefix as text', async () => {
    const r = await run(['fleet', 'status', '--redis', redis.url, '--prefix', 'fleet-cli']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'mode                shared',
        'prefix              fleet-cli',
        'requests in window  3',
        'active slots        3',
        'active task ids     task_a task_b',
        'starts waiting      0',
        'receivers seen      1',
        'events published    1',
        'events deduplicated 1',
        '',
      ].join('\n'),
    );
  });

  it('says so when no fleet has used the prefix on this Redis, instead of zeros and mode shared', async () => {
    const r = await run(['fleet', 'status', '--redis', redis.url, '--prefix', 'fleet-never-used']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('no fleet has used --prefix fleet-never-used on this Redis (no keys under it): check the prefix (as given to createRedisCoordinator), the API key, and the Redis database');
    const asJson = await run(['fleet', 'status', '--redis', redis.url, '--prefix', 'fleet-never-used', '--json']);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ mode: 'unused', requestsInWindow: 0, activeSlots: 0 });
    // A namespace with traces is not unused, even with nothing running.
    const used = await run(['fleet', 'status', '--redis', redis.url, '--prefix', 'fleet-cli']);
    expect(used.stdout).toMatch(/^mode {16}shared$/m);
  });

  it('prints the stats as JSON with --json: what coordinator.stats() returns', async () => {
    const r = await run(['fleet', 'status', '--redis', redis.url, '--prefix', 'fleet-cli', '--json']);
    expect(r.code).toBe(0);
    const stats = JSON.parse(r.stdout) as CoordinatorStats;
    const { coordinator } = await processOn({ prefix: 'fleet-cli' });
    expect(stats).toEqual({ ...(await coordinator.stats()), activeTaskIds: expect.arrayContaining(['task_a', 'task_b']) });
    expect(stats).toMatchObject({ mode: 'shared', requestsInWindow: 3, activeSlots: 3, eventsPublished: 1, eventsDeduplicated: 1 });
  });

  it("reads the namespace of FORECASTING_API_KEY's hash without --prefix, and never prints the key", async () => {
    const r = await run(['fleet', 'status', '--redis', redis.url, '--json'], { env: { FORECASTING_API_KEY: API_KEY } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ requestsInWindow: 3, activeTaskIds: expect.arrayContaining(['task_a', 'task_b']) });
    const text = await run(['fleet', 'status', '--redis', redis.url], { env: { FORECASTING_API_KEY: API_KEY } });
    expect(text.stdout).toContain("prefix              derived from FORECASTING_API_KEY's hash\n");
    expect(`${r.stdout}${r.stderr}${text.stdout}${text.stderr}`).not.toContain(API_KEY);
  });

  it('reads the Redis of REDIS_URL without --redis (the variable the docs use); --redis wins over it', async () => {
    const r = await run(['fleet', 'status', '--prefix', 'fleet-cli', '--json'], { env: { REDIS_URL: redis.url } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ mode: 'shared', requestsInWindow: 3 });
    const both = await run(['fleet', 'status', '--redis', redis.url, '--prefix', 'fleet-cli', '--json'], { env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    expect(JSON.parse(both.stdout)).toMatchObject({ mode: 'shared' });
  });

  it("reads a user's slots under --user-prefix, and the key's requests under --prefix; a bad --user-prefix is bad usage", async () => {
    const { coordinator } = await processOn({ prefix: 'fleet-cli-key', userPrefix: 'fleet-cli-user' });
    await coordinator.take('requests');
    await (await coordinator.hold(1)).bind(['task_u']);
    const r = await run(['fleet', 'status', '--redis', redis.url, '--prefix', 'fleet-cli-key', '--user-prefix', 'fleet-cli-user', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ mode: 'shared', requestsInWindow: 1, activeTaskIds: ['task_u'] });
    const bad = await run(['fleet', 'status', '--redis', redis.url, '--prefix', 'p', '--user-prefix', 'a}b']);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringMatching(/userPrefix/)]);
  });

  // A fleet of clients of `forecasting mock --time-scale 600` (clientClockFor(600)) counts its
  // window in the mock's minute, 100 ms; read on real minutes, fleet status counted the last 600.
  it("counts the window in a sped-up mock's minute with --time-scale; a time scale that is no positive number is bad usage", async () => {
    const coordinator = createRedisCoordinator(await redis.client(), { prefix: 'fleet-cli-fast' });
    open.push(coordinator);
    coordinator.attach({ keyHash: () => KEY_HASH, clock: { ...realClock, serviceTimeScale: 600 } });
    // Three requests sent and answered (an answer ends a request's time in flight, which renews it).
    for (let i = 0; i < 3; i++) (await coordinator.take('requests'))?.();
    // A process takes far longer than the mock's minute (100 ms) to start and read.
    const fast = await run(['fleet', 'status', '--redis', redis.url, '--prefix', 'fleet-cli-fast', '--json', '--time-scale', '600']);
    const real = await run(['fleet', 'status', '--redis', redis.url, '--prefix', 'fleet-cli-fast', '--json']);
    expect(JSON.parse(fast.stdout)).toMatchObject({ mode: 'shared', requestsInWindow: 0 });
    expect(JSON.parse(real.stdout)).toMatchObject({ mode: 'shared', requestsInWindow: 3 });
    // The same read by a coordinator with the option: its window is the mock's minute.
    const reader = createRedisCoordinator(await redis.client(), { prefix: 'fleet-cli-fast', serviceTimeScale: 600 });
    open.push(reader);
    await new Promise((r) => setTimeout(r, 150));
    expect(await reader.stats()).toMatchObject({ requestsInWindow: 0 });
    for (const bad of ['0', '-1', 'fast']) {
      const r = await run(['fleet', 'status', '--redis', redis.url, '--prefix', 'fleet-cli-fast', '--time-scale', bad]);
      expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/^UsageError: --time-scale must be/)]);
    }
    for (const bad of [0, -1, Number.NaN, Infinity, '600']) {
      expect(() => createRedisCoordinator({} as never, { serviceTimeScale: bad as number })).toThrow(expect.objectContaining({ name: 'ValidationError', field: 'serviceTimeScale' }));
    }
  });

  it('is bad usage (exit 2) without --redis, with a --redis that is no URL, or with no namespace', async () => {
    const noRedis = await run(['fleet', 'status', '--prefix', 'p']);
    expect([noRedis.code, noRedis.stderr]).toEqual([2, expect.stringMatching(/^UsageError: --redis \(or REDIS_URL\) is required/)]);
    const notUrl = await run(['fleet', 'status', '--redis', 'localhost:6379', '--prefix', 'p']);
    expect([notUrl.code, notUrl.stderr]).toEqual([2, expect.stringMatching(/^UsageError: --redis must be a URL/)]);
    const noNamespace = await run(['fleet', 'status', '--redis', redis.url]);
    expect([noNamespace.code, noNamespace.stderr]).toEqual([2, expect.stringMatching(/^UsageError: the key namespace is unknown: pass --prefix/)]);
  });

  it('is bad usage (exit 2) naming --redis when its user or password is not valid percent-encoding, showing none of it', async () => {
    for (const url of ['redis://u:bad%zzPW@127.0.0.1:6379', 'redis://us%zzer:s3cretPW@127.0.0.1:6379']) {
      const r = await run(['fleet', 'status', '--redis', url, '--prefix', 'p']);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toMatch(/^UsageError: --redis has a user name or password that is not valid percent-encoding/);
      expect(r.stderr).not.toMatch(/bad|zzPW|s3cretPW|us%zzer|URIError/);
    }
  });

  it('keeps the API key and the Redis password out of stdout (text and --json) whatever Redis holds, a password of 2 characters too', async () => {
    const admin = await redis.client();
    await admin.sendCommand(['ACL', 'SETUSER', 'fleetuser', 'on', '>pw', '~*', '&*', '+@all']);
    const { coordinator } = await processOn({ prefix: 'fleet-secret' });
    // Task ids are whatever is in Redis: here, ones that carry both secrets.
    await (await coordinator.hold(2)).bind([`task_${API_KEY}`, 'task_pw']);
    const { port } = new URL(redis.url);
    const url = `redis://fleetuser:pw@127.0.0.1:${port}`;
    const env = { env: { FORECASTING_API_KEY: API_KEY } };
    const text = await run(['fleet', 'status', '--redis', url, '--prefix', 'fleet-secret'], env);
    const asJson = await run(['fleet', 'status', '--redis', url, '--prefix', 'fleet-secret', '--json'], env);
    expect([text.code, asJson.code]).toEqual([0, 0]);
    expect(text.stdout).toContain('active task ids     task_[redacted] task_[redacted]\n');
    expect((JSON.parse(asJson.stdout) as CoordinatorStats).activeTaskIds.sort()).toEqual(['task_[redacted]', 'task_[redacted]']);
    for (const output of [text.stdout, text.stderr, asJson.stdout, asJson.stderr]) {
      expect(output).not.toContain(API_KEY);
      expect(output).not.toContain('pw');
    }
  });

  it('exits 3 with one line when Redis cannot be reached, never showing the password of the URL', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => resolve(free));
      });
    });
    const r = await run(['fleet', 'status', '--redis', `redis://fleet:s3cret-pass@127.0.0.1:${port}`, '--prefix', 'p']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^RedisConnectionError: could not connect to the Redis of --redis \(ECONNREFUSED\)\n$/);
    expect(r.stderr).not.toContain('s3cret-pass');
  });

  it('exits 3 within seconds when the server at --redis accepts the connection and never answers', async () => {
    const sockets: import('node:net').Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    const port = await new Promise<number>((resolve) => silent.listen(0, '127.0.0.1', () => resolve((silent.address() as { port: number }).port)));
    try {
      const began = Date.now();
      const r = await run(['fleet', 'status', '--redis', `redis://127.0.0.1:${port}`, '--prefix', 'p']);
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/^RedisConnectionError: could not connect to the Redis of --redis \(no answer within 5 s\)\n$/);
      expect(Date.now() - began).toBeLessThan(20_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 30_000);

  it('says to install redis when the optional peer is missing (exit 2)', () => {
    // The package as installed without its optional peers: dist/ and package.json, no node_modules.
    const dir = mkdtempSync(join(tmpdir(), 'fleet-no-redis-'));
    try {
      cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
      cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
      writeFileSync(join(dir, 'README.md'), '');
      const r = spawnSync(process.execPath, [join(dir, 'dist/cli.js'), 'fleet', 'status', '--redis', redis.url, '--prefix', 'p'], { cwd: dir, encoding: 'utf8' });
      expect(r.stderr).toBe('UsageError: fleet status needs the `redis` package (node-redis), an optional peer dependency: npm install redis\n');
      expect(r.status).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
