// Real Redis topologies for the client-kind tests: a 6-node Redis Cluster (3 masters, 3 replicas)
// and a Sentinel set (a primary, a replica, 3 sentinels), from Debian's redis-server, on free
// loopback ports in temporary directories. Started once per test file; missing binaries fail.
import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findBinary, freePort, launchRedis, stopChild } from './_redis.js';

const run = promisify(execFile);

async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run(findBinary('redis-cli'), ['-h', '127.0.0.1', '-p', String(port), ...args]);
  return stdout;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 100 ms until it holds, for at most `ms`. */
async function until(what: string | (() => string), check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
}

export interface TestCluster {
  /** The ports of the nodes (masters first once created; roles change on a failover). */
  readonly ports: number[];
  /** The port of the master that holds `key`'s slot now. */
  masterOf(key: string): Promise<number>;
  /** SIGKILLs the node on `port`; resolves once a replica has been promoted for its slots. */
  killNode(port: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a 6-node cluster (3 masters, 3 replicas, node timeout 1 s) and waits until it is ok. */
export async function startCluster(): Promise<TestCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'fsdk-cluster-'));
  const taken = new Set<number>();
  const ports: number[] = [];
  for (let i = 0; i < 6; i++) ports.push(await freePort(taken, true));
  const nodes = new Map<number, ChildProcess>();
  await Promise.all(
    ports.map(async (port) => {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--cluster-enabled', 'yes'];
      args.push('--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '1000', '--dbfilename', `dump-${port}.rdb`);
      nodes.set(port, await launchRedis(args, /Ready to accept connections/));
    }),
  );
  await run(findBinary('redis-cli'), ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '1', '--cluster-yes']);
  await until('the cluster to be ok on every node', async () => {
    for (const port of ports) if (!(await cli(port, 'CLUSTER', 'INFO')).includes('cluster_state:ok')) return false;
    return true;
  });
  // A replica that has not synced with its master yet is never promoted: wait for every link.
  await until('every replica to sync', async () => {
    for (const port of ports) {
      const replication = await cli(port, 'INFO', 'replication');
      if (replication.includes('role:slave') && !replication.includes('master_link_status:up')) return false;
    }
    return true;
  });
  const masterOf = async (key: string): Promise<number> => {
    const alive = ports.find((p) => nodes.get(p)?.exitCode === null && nodes.get(p)?.signalCode === null)!;
    const slot = Number((await cli(alive, 'CLUSTER', 'KEYSLOT', key)).trim());
    for (const line of (await cli(alive, 'CLUSTER', 'NODES')).split('\n')) {
      const [, address, flags, , , , , state, ...ranges] = line.split(' ');
      if (!flags?.includes('master') || flags.includes('fail') || state !== 'connected') continue;
      for (const range of ranges) {
        const [from, to = from] = range.split('-').map(Number);
        if (slot >= from! && slot <= to!) return Number(address!.split('@')[0]!.split(':')[1]);
      }
    }
    throw new Error(`no master holds the slot of ${key}`);
  };
  return {
    ports,
    masterOf,
    async killNode(port) {
      const deadId = (await cli(port, 'CLUSTER', 'MYID')).trim();
      await stopChild(nodes.get(port));
      nodes.delete(port);
      const alive = ports.filter((p) => nodes.has(p));
      // Promoted once no live node lists the dead one as a master holding slots, and the cluster is ok.
      let last = '';
      await until(() => `a replica to be promoted; last seen:\n${last}`, async () => {
        for (const p of alive) {
          const info = await cli(p, 'CLUSTER', 'INFO');
          last = `${p}: ${info.split('\n').slice(0, 3).join(' ')} ${await cli(p, 'CLUSTER', 'NODES')}`;
          if (!info.includes('cluster_state:ok')) return false;
          const dead = (await cli(p, 'CLUSTER', 'NODES')).split('\n').find((l) => l.startsWith(deadId));
          if (dead && !dead.includes('fail')) return false;
        }
        return true;
      });
    },
    async close() {
      await Promise.all([...nodes.values()].map((child) => stopChild(child)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestSentinel {
  /** The name the sentinels monitor. */
  readonly name: string;
  readonly sentinelPorts: number[];
  /** The port of the primary now, as the sentinels say. */
  primary(): Promise<number>;
  /** SIGKILLs the primary; resolves once the sentinels have promoted the replica. */
  killPrimary(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a primary, a replica and 3 sentinels (quorum 2, down after 1 s) and waits until they agree. */
export async function startSentinel(): Promise<TestSentinel> {
  const dir = mkdtempSync(join(tmpdir(), 'fsdk-sentinel-'));
  const taken = new Set<number>();
  const name = 'fsdkprimary';
  const [primaryPort, replicaPort] = [await freePort(taken), await freePort(taken)];
  const sentinelPorts = [await freePort(taken), await freePort(taken), await freePort(taken)];
  const servers = new Map<number, ChildProcess>();
  const base = (port: number) => ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--dbfilename', `dump-${port}.rdb`];
  servers.set(primaryPort!, await launchRedis(base(primaryPort!), /Ready to accept connections/));
  servers.set(replicaPort!, await launchRedis([...base(replicaPort!), '--replicaof', '127.0.0.1', String(primaryPort)], /Ready to accept connections/));
  await until('the replica to sync', async () => (await cli(replicaPort!, 'INFO', 'replication')).includes('master_link_status:up'));
  const sentinels: ChildProcess[] = [];
  for (const port of sentinelPorts) {
    const conf = join(dir, `sentinel-${port}.conf`);
    const lines = [`port ${port}`, 'bind 127.0.0.1', `dir ${dir}`, `sentinel monitor ${name} 127.0.0.1 ${primaryPort} 2`];
    lines.push(`sentinel down-after-milliseconds ${name} 1000`, `sentinel failover-timeout ${name} 5000`, `sentinel parallel-syncs ${name} 1`);
    writeFileSync(conf, lines.join('\n') + '\n');
    sentinels.push(await launchRedis([conf, '--sentinel'], /Sentinel ID is|monitor master/));
  }
  const primary = async (): Promise<number> => {
    const reply = await cli(sentinelPorts[0]!, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name);
    return Number(reply.trim().split('\n')[1]);
  };
  await until('the sentinels to see the replica and each other', async () => {
    for (const port of sentinelPorts) {
      const info = await cli(port, 'SENTINEL', 'MASTER', name);
      const fields = info.trim().split('\n');
      const value = (key: string) => Number(fields[fields.indexOf(key) + 1]);
      if (value('num-slaves') < 1 || value('num-other-sentinels') < 2) return false;
    }
    return true;
  });
  return {
    name,
    sentinelPorts,
    primary,
    async killPrimary() {
      const before = await primary();
      await stopChild(servers.get(before));
      servers.delete(before);
      await until('the sentinels to promote the replica', async () => {
        const now = await primary();
        return now !== before && (await cli(now, 'ROLE')).startsWith('master');
      });
    },
    async close() {
      await Promise.all([...servers.values(), ...sentinels].map((child) => stopChild(child)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
