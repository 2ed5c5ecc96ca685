// `forecasting fleet status` when it cannot connect: one line (exit 3, RedisConnectionError) that
// says which of --redis, --cluster, --sentinel is wrong and what to do, never the password. The
// built binary against a real redis-server, a single cluster-enabled node and a Sentinel set, each
// started once for the file.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, launchRedis, stopChild } from '../redis/_redis.js';
import { useRedis } from '../redis/_setup.js';
import { startSentinel, type TestSentinel } from '../redis/_topologies.js';
import { run } from './_cli.js';

const redis = useRedis();
const PASSWORD = 'Sup3r-s3cret-Pw';
let set: TestSentinel;
let clusterNode: { port: number; child: ChildProcess; dir: string };

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fsdk-cluster-node-'));
  const port = await freePort(new Set(), true);
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--cluster-enabled', 'yes'];
  const [child, sentinels] = await Promise.all([launchRedis(args), startSentinel()]);
  clusterNode = { port, child, dir };
  set = sentinels;
}, 60_000);

afterAll(async () => {
  await set?.close();
  await stopChild(clusterNode?.child);
  if (clusterNode) rmSync(clusterNode.dir, { recursive: true, force: true });
});

const local = (port: number | string, credentials = '') => `redis://${credentials}127.0.0.1:${port}`;
const sentinelUrl = () => local(set.sentinelPorts[0]!);
const plainPort = () => new URL(redis.url).port;

/** Runs fleet status with `args`; expects exit 3 and one `RedisConnectionError` line, and returns its message. */
async function failure(...args: string[]): Promise<string> {
  const r = await run(['fleet', 'status', ...args, '--prefix', 'fleet-errors']);
  expect([r.code, r.stdout]).toEqual([3, '']);
  expect(r.stderr).toMatch(/^RedisConnectionError: [^\n]+\n$/);
  expect(r.stderr).not.toContain(PASSWORD);
  return r.stderr.replace(/^RedisConnectionError: /, '').trimEnd();
}

describe('fleet status says what is wrong when it cannot connect', () => {
  it('--cluster given a server that is no cluster node: drop --cluster (or use --sentinel for a sentinel)', async () => {
    expect(await failure('--redis', local(plainPort(), `:${PASSWORD}@`), '--cluster')).toBe('--cluster: the server at --redis is not a cluster node (cluster support disabled); drop --cluster');
    expect(await failure('--redis', sentinelUrl(), '--cluster')).toBe('--cluster: the server at --redis is a sentinel, not a cluster node; use --sentinel <name> instead of --cluster');
  });

  it('--sentinel with a name the sentinel does not monitor', async () => {
    expect(await failure('--redis', sentinelUrl(), '--sentinel', 'mymaster')).toBe(
      '--sentinel mymaster: the sentinel at --redis knows no primary of that name; check the name (SENTINEL MASTERS on it lists those it monitors)',
    );
  });

  it('--sentinel given an address that is no sentinel: a single server, a cluster node', async () => {
    expect(await failure('--redis', redis.url, '--sentinel', set.name)).toBe(
      `--sentinel ${set.name}: the server at --redis is not a sentinel (it has no SENTINEL command); give a sentinel's address (often port 26379), or drop --sentinel`,
    );
    expect(await failure('--redis', local(clusterNode.port), '--sentinel', set.name)).toBe(`--sentinel ${set.name}: the server at --redis is a cluster node, not a sentinel; use --cluster instead of --sentinel`);
  });

  it('a wrong password or ACL user (WRONGPASS), with or without --cluster, never showing it', async () => {
    const admin = await redis.client();
    await admin.sendCommand(['ACL', 'SETUSER', 'fleet-reader', 'on', '>right-password', '~*', '&*', '+@all']);
    const line = 'the Redis of --redis refused the password (WRONGPASS): check the user and password in --redis (redis://user:password@host:port)';
    expect(await failure('--redis', local(plainPort(), `fleet-reader:${PASSWORD}@`))).toBe(line);
    expect(await failure('--redis', local(plainPort(), `no-such-user:${PASSWORD}@`))).toBe(line);
    expect(await failure('--redis', local(plainPort(), `fleet-reader:${PASSWORD}@`), '--cluster')).toBe(line);
  });

  it('a server that needs a password, given none (NOAUTH)', async () => {
    const admin = await redis.client();
    // Connections made before keep their login: the admin can lift it again.
    await admin.sendCommand(['CONFIG', 'SET', 'requirepass', PASSWORD]);
    try {
      expect(await failure('--redis', redis.url)).toBe('the Redis of --redis needs a password (NOAUTH): give it in --redis (redis://user:password@host:port)');
    } finally {
      await admin.sendCommand(['CONFIG', 'SET', 'requirepass', '']);
    }
  });

  it('a refused connection names ECONNREFUSED, and which server: the Redis, or the sentinel', async () => {
    const port = await freePort();
    const refused = 'could not connect to the Redis of --redis (ECONNREFUSED)';
    expect(await failure('--redis', local(port, `fleet:${PASSWORD}@`))).toBe(refused);
    expect(await failure('--redis', local(port, `fleet:${PASSWORD}@`), '--cluster')).toBe(refused);
    expect(await failure('--redis', local(port), '--sentinel', set.name)).toBe('could not connect to the sentinel at --redis (ECONNREFUSED)');
  });

  it('still reads the primary of a sentinel that knows the name', async () => {
    const r = await run(['fleet', 'status', '--redis', sentinelUrl(), '--sentinel', set.name, '--prefix', 'fleet-errors']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/^no fleet has used --prefix fleet-errors on this Redis/);
  });
});
