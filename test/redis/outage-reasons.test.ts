// What the outage warning names as the reason, for the errors node-redis and ioredis really raise on
// a real redis-server: stopped, stopped under a command, frozen (SIGSTOP), a closed client, a
// read-only replica, a key of the wrong type, an ACL. A code or a fixed phrase, never the message:
// no password, user, host, port or key name reaches the line.
import { ErrorReply, RootNodesUnavailableError, ClientClosedError, ReconnectStrategyError, SocketClosedUnexpectedlyError, SimpleError } from 'redis';
import { ReplyError } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRedisCoordinator, type RedisCoordinator, type RedisCoordinatorOptions } from '../../src/redis/index.js';
import { reasonOf } from '../../src/redis/reasons.js';
import { testClock } from './_clock.js';
import { standalone, type KindClient } from './_kinds.js';
import { KEY_HASH, useRedis } from './_setup.js';

const redis = useRedis();
const KINDS = ['node-redis', 'ioredis'] as const;
type Kind = (typeof KINDS)[number];

const open: Array<RedisCoordinator | KindClient> = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close().catch(() => undefined);
});

interface Fleet {
  coordinator: RedisCoordinator;
  connection: KindClient;
  warnings: string[];
  /** The reason of the one "did not answer" warning. */
  reason(): string | undefined;
}

let prefixes = 0;

/** A coordinator of `kind` on the test server (or `url`), with a prefix of its own. */
async function fleetOn(kind: Kind, options: RedisCoordinatorOptions = {}, url = redis.url): Promise<Fleet> {
  const connection = await standalone[kind](url);
  const coordinator = createRedisCoordinator(connection.client, { prefix: `reasons-${++prefixes}`, probeIntervalMs: 60_000, ...options });
  open.push(coordinator, connection);
  const warnings: string[] = [];
  coordinator.attach({ keyHash: () => KEY_HASH, clock: testClock(), warn: (message) => warnings.push(message) });
  const reason = () => warnings.map((w) => /Redis did not answer \((.*?)\); limits now hold/.exec(w)?.[1]).find((r) => r !== undefined);
  return { coordinator, connection, warnings, reason };
}

/** Whether the client has seen its connection go (node-redis `isReady`, ioredis `status`). */
function offline({ client }: KindClient): boolean {
  const state = client as { isReady?: boolean; status?: string };
  return state.isReady === false || (state.status !== undefined && state.status !== 'ready');
}

async function admin(): Promise<Awaited<ReturnType<typeof redis.client>>> {
  return redis.client();
}

describe.each(KINDS)('the outage warning names why (%s)', (kind) => {
  it('server stopped: "not connected" once the client has seen it go', async () => {
    const fleet = await fleetOn(kind);
    await fleet.coordinator.take('requests');
    await redis.stop();
    try {
      await vi.waitFor(() => expect(offline(fleet.connection)).toBe(true));
      await fleet.coordinator.take('requests');
      expect(fleet.coordinator.mode).toBe('local');
      expect(fleet.reason()).toBe('not connected');
    } finally {
      await redis.start();
    }
  });

  it('server stopped under a command: node-redis "connection closed", ioredis "connection lost" (its maxRetriesPerRequest)', async () => {
    const fleet = await fleetOn(kind, { commandTimeoutMs: 10_000 });
    await fleet.coordinator.take('requests');
    // Paused, the server holds the command; killed, it drops it on the way.
    await (await admin()).sendCommand(['CLIENT', 'PAUSE', '10000', 'ALL']);
    const taking = fleet.coordinator.take('requests');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await redis.stop();
    try {
      await taking;
      expect(fleet.reason()).toBe(kind === 'node-redis' ? 'connection closed' : 'connection lost');
    } finally {
      await redis.start();
    }
  });

  it('server frozen (SIGSTOP): "no answer within <commandTimeoutMs> ms"', async () => {
    const fleet = await fleetOn(kind, { commandTimeoutMs: 300 });
    await fleet.coordinator.take('requests');
    const info = String(await (await admin()).sendCommand(['INFO', 'server']));
    const pid = Number(/process_id:(\d+)/.exec(info)?.[1]);
    process.kill(pid, 'SIGSTOP');
    try {
      await fleet.coordinator.take('requests');
      expect(fleet.reason()).toBe('no answer within 300 ms');
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  });

  it('client closed by the app: node-redis "not connected", ioredis "connection closed"', async () => {
    const fleet = await fleetOn(kind);
    await fleet.coordinator.take('requests');
    await fleet.connection.close();
    await fleet.coordinator.take('requests');
    expect(fleet.reason()).toBe(kind === 'node-redis' ? 'not connected' : 'connection closed');
  });

  it('a read-only replica: "READONLY"', async () => {
    const fleet = await fleetOn(kind);
    const server = await admin();
    // A primary that does not exist: the server turns replica (read-only) and stays so.
    await server.sendCommand(['REPLICAOF', '127.0.0.1', '1']);
    try {
      await fleet.coordinator.take('requests');
      expect(fleet.reason()).toBe('READONLY');
    } finally {
      await server.sendCommand(['REPLICAOF', 'NO', 'ONE']);
    }
  });

  // It was an outage ("WRONGTYPE") that never healed: every script failed while Redis answered.
  it('a key of the wrong type: no outage, the script replaces it', async () => {
    const fleet = await fleetOn(kind, { prefix: `wrong-type-${kind}` });
    await (await admin()).sendCommand(['SET', `{wrong-type-${kind}}:requests`, 'not a sorted set']);
    await fleet.coordinator.take('requests');
    expect([fleet.coordinator.mode, fleet.warnings]).toEqual(['shared', []]);
    expect(await (await admin()).sendCommand(['TYPE', `{wrong-type-${kind}}:requests`])).toBe('zset');
  });

  it('an ACL that denies the keys: "NOPERM", with no password, user, host, port or key in the line', async () => {
    const password = `pw-${kind}-Zq81xk`;
    const user = `fleet-acl-${kind}`;
    await (await admin()).sendCommand(['ACL', 'SETUSER', user, 'on', `>${password}`, '~other:*', '+@all']);
    const { port } = new URL(redis.url);
    const fleet = await fleetOn(kind, { prefix: `denied-${kind}` }, `redis://${user}:${password}@127.0.0.1:${port}`);
    await fleet.coordinator.take('requests');
    expect(fleet.reason()).toBe('NOPERM');
    const line = fleet.warnings.join('\n');
    for (const secret of [password, user, '127.0.0.1', port, `denied-${kind}`]) expect(line).not.toContain(secret);
  });
});

describe('reasonOf, on the clients’ own error classes', () => {
  it('names each by its code or a fixed phrase, never by its message', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:6379'), { code: 'ECONNREFUSED', address: '10.0.0.7' });
    const cases: Array<[unknown, string]> = [
      [new SimpleError('CLUSTERDOWN The cluster is down'), 'CLUSTERDOWN'],
      [new ReplyError('MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to no'), 'MASTERDOWN'],
      [new SimpleError('MOVED 3999 10.0.0.7:7001'), 'MOVED'],
      [new ErrorReply("ERR unknown command 'EVALSHA', with args beginning with: 'abc'"), 'ERR unknown command'],
      [new RootNodesUnavailableError(), 'no cluster node reachable'],
      [new ClientClosedError(), 'client closed'],
      [new SocketClosedUnexpectedlyError(), 'connection closed'],
      [new ReconnectStrategyError(new Error('redis://user:pw@10.0.0.7'), refused), 'ECONNREFUSED'],
      [new Error('None of startup nodes is available'), 'no cluster node reachable'],
      [new Error('All sentinels are unreachable. Retrying from scratch after 10ms.'), 'no sentinel reachable'],
      [refused, 'ECONNREFUSED'],
      [new TypeError('tls socket option is set to false which is mismatch with protocol or the URL rediss://u:pw@10.0.0.7 passed'), 'TypeError'],
      [new Error('failed for redis://u:pw@10.0.0.7:6379'), 'Error'],
      ['a string', 'no answer'],
    ];
    for (const [error, reason] of cases) expect(reasonOf(error, 2000)).toBe(reason);
  });
});
