// Hostile review of `forecasting fleet status`'s connection diagnostics: Sentinel set-ups the
// flags can name (a primary that needs the password of --redis, a sentinel at an IPv6 address,
// rediss://), and names and URLs with control characters or the password in them. The built binary
// against real redis-server and redis-sentinel processes, on loopback ports in a temporary directory.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, launchRedis, stopChild } from '../redis/_redis.js';
import { run } from './_cli.js';

const PASSWORD = 'Sup3r-s3cret-Pw';
const NAME = 'authprimary';
const hasIPv6Loopback = Object.values(networkInterfaces()).some((list) => list?.some((i) => i.address === '::1'));
let dir: string;
const children: ChildProcess[] = [];
let primaryPort: number;
let sentinelPort: number;
let v6SentinelPort: number;

/** A sentinel on `bind`:`port` that monitors the primary (which needs PASSWORD) as `name`. */
async function sentinelAt(bind: string, port: number, name: string): Promise<void> {
  const conf = join(dir, `sentinel-${port}.conf`);
  const lines = [`port ${port}`, `bind ${bind}`, `dir ${dir}`, `sentinel monitor ${name} 127.0.0.1 ${primaryPort} 1`, `sentinel auth-pass ${name} ${PASSWORD}`];
  writeFileSync(conf, `${lines.join('\n')}\n`);
  children.push(await launchRedis([conf, '--sentinel'], /Sentinel ID is|monitor master/));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fsdk-hostile-sentinel-'));
  const taken = new Set<number>();
  [primaryPort, sentinelPort, v6SentinelPort] = [await freePort(taken), await freePort(taken), await freePort(taken)];
  children.push(await launchRedis(['--port', String(primaryPort), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--requirepass', PASSWORD]));
  await sentinelAt('127.0.0.1', sentinelPort, NAME);
  if (hasIPv6Loopback) await sentinelAt('::1', v6SentinelPort, NAME);
}, 60_000);

afterAll(async () => {
  await Promise.all(children.map((child) => stopChild(child)));
  rmSync(dir, { recursive: true, force: true });
});

const sentinelUrl = (credentials = '', host = '127.0.0.1', port = sentinelPort) => `redis://${credentials}${host}:${port}`;

/** fleet status with `args`; the result, and how long it took. */
async function status(...args: string[]) {
  const started = Date.now();
  const r = await run(['fleet', 'status', ...args, '--prefix', 'hostile-status']);
  expect(r.stdout + r.stderr).not.toContain(PASSWORD);
  return { ...r, ms: Date.now() - started };
}

const UNUSED = /^no fleet has used --prefix hostile-status on this Redis/;

describe('a primary under Sentinel that needs a password (held a defect)', () => {
  // The password of --redis went nowhere under --sentinel: the sentinel client logged in to the
  // primary with none, and after 5 s the line said "no answer within 5 s", with or without it.
  it('reads it with the user and password of --redis', async () => {
    const r = await status('--redis', sentinelUrl(`:${PASSWORD}@`), '--sentinel', NAME);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(UNUSED);
  });

  it('says at once that the password is missing (NOAUTH) or wrong (WRONGPASS), and where it goes', async () => {
    const missing = await status('--redis', sentinelUrl(), '--sentinel', NAME);
    expect([missing.code, missing.stderr]).toEqual([3, `RedisConnectionError: the primary of --sentinel ${NAME} needs a password (NOAUTH): give it in --redis (redis://user:password@host:port)\n`]);
    const wrong = await status('--redis', sentinelUrl(':not-the-password@'), '--sentinel', NAME);
    expect([wrong.code, wrong.stderr]).toEqual([3, `RedisConnectionError: the primary of --sentinel ${NAME} refused the password (WRONGPASS): check the user and password in --redis (redis://user:password@host:port)\n`]);
    expect(Math.max(missing.ms, wrong.ms)).toBeLessThan(4_000);
  });
});

describe('the database of --redis (held a defect)', () => {
  // Under --sentinel the URL's database went nowhere: the primary's database 0 was read, "no fleet".
  it('reads the database the URL names on the primary of --sentinel', async () => {
    const before = await run(['fleet', 'status', '--redis', sentinelUrl(`:${PASSWORD}@`) + '/3', '--sentinel', NAME, '--prefix', 'hostile-db', '--json']);
    expect(JSON.parse(before.stdout)).toMatchObject({ mode: 'unused' });
    const { createClient } = await import('redis');
    const client = createClient({ url: `redis://:${PASSWORD}@127.0.0.1:${primaryPort}/3` });
    await client.connect();
    try {
      await client.zAdd('{hostile-db}:requests', { score: 1, value: 'r' });
      const r = await run(['fleet', 'status', '--redis', sentinelUrl(`:${PASSWORD}@`) + '/3', '--sentinel', NAME, '--prefix', 'hostile-db', '--json']);
      expect([r.code, JSON.parse(r.stdout).mode]).toEqual([0, 'shared']);
    } finally {
      client.destroy();
    }
  });

  // node-redis threw "TypeError: Invalid pathname": exit 1, an unexpected error, for a typo.
  it('refuses a path that is no database number as bad usage, showing none of it', async () => {
    const r = await status('--redis', `redis://:${PASSWORD}@127.0.0.1:${await freePort()}/db\u001b[2J`);
    expect([r.code, r.stderr]).toEqual([2, 'UsageError: --redis may end only with a database number: redis://host:6379/0\n']);
  });
});

describe('the address of the sentinel (held a defect)', () => {
  // The URL's hostname keeps an IPv6 address's brackets ("[::1]"): the sentinel was looked up as a
  // host name, ENOTFOUND.
  it.runIf(hasIPv6Loopback)('reaches a sentinel at an IPv6 address written [::1]', async () => {
    const r = await status('--redis', sentinelUrl(`:${PASSWORD}@`, '[::1]', v6SentinelPort), '--sentinel', NAME);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(UNUSED);
  });

  // rediss:// asked for TLS; the sentinel (and now the primary, with the password) got plain text.
  it('speaks TLS to the sentinel of a rediss:// URL, never plain text', async () => {
    const first: Buffer[] = [];
    const fake: Server = createServer((socket) => {
      socket.once('data', (chunk) => (first.push(chunk), socket.destroy()));
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    try {
      const port = (fake.address() as { port: number }).port;
      const r = await status('--redis', `rediss://:${PASSWORD}@127.0.0.1:${port}`, '--sentinel', NAME);
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/^RedisConnectionError: could not connect to the sentinel at --redis \([^)]+\)\n$/);
      // A TLS handshake record (0x16), not a RESP command.
      expect(first[0]?.[0]).toBe(0x16);
    } finally {
      fake.close();
    }
  });
});

describe('names and URLs that carry control characters or the password', () => {
  it('escapes them and never shows the password', async () => {
    const name = `\u001b[31mred\u0007\u009b2J${PASSWORD}\u202e`;
    const r = await status('--redis', sentinelUrl(`:${PASSWORD}@`), '--sentinel', name);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe('RedisConnectionError: --sentinel \\u001b[31mred\\u0007\\u009b2J[redacted]\\u202e: the sentinel at --redis knows no primary of that name; check the name (SENTINEL MASTERS on it lists those it monitors)\n');
    // A URL cannot hold them in its host; in its query they go nowhere (node-redis reads none of it).
    const url = await status('--redis', `redis://:${PASSWORD}@127.0.0.1:${await freePort()}/?\u001b[2J\u0007`);
    expect(url.stderr).toBe('RedisConnectionError: could not connect to the Redis of --redis (ECONNREFUSED)\n');
  });
});
