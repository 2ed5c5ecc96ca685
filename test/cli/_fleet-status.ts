// `forecasting fleet status` on the Redis users run beside one server: a Redis Cluster (--cluster,
// any node) and Sentinel (--sentinel <name>, a sentinel's address). Without the flag, a cluster node
// or a sentinel is one line and exit 3, naming the flag. Run inside the topology files
// (test/redis/kinds-*.test.ts): one topology per file, started once.
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisCoordinator, type RedisCoordinator } from '../../src/redis/index.js';
import { realClock } from '../../src/core/clock.js';
import { clustered, sentinelled, type KindClient } from '../redis/_kinds.js';
import type { TestCluster, TestSentinel } from '../redis/_topologies.js';
import { run } from './_cli.js';

const open: Array<RedisCoordinator | KindClient> = [];
afterAll(async () => {
  for (const item of open.splice(0)) await item.close();
});

/** A fleet's traces under `prefix`: one request, one running task. */
async function activity(connection: KindClient, prefix: string): Promise<void> {
  open.push(connection);
  const coordinator = createRedisCoordinator(connection.client, { prefix });
  open.push(coordinator);
  coordinator.attach({ keyHash: () => 'c'.repeat(64), clock: realClock });
  (await coordinator.take('requests'))?.();
  await (await coordinator.hold(1)).bind(['task_t']);
}

export function fleetStatusOnCluster(cluster: () => TestCluster): void {
  describe('forecasting fleet status on a Redis Cluster', () => {
    it('reads it from any node with --cluster; without it, any node exits 3 naming --cluster, in one line', async () => {
      const { ports } = cluster();
      await activity(await clustered['node-redis-cluster'](ports[0]!), 'cli-cluster');
      for (const port of ports.slice(0, 3)) {
        const r = await run(['fleet', 'status', '--redis', `redis://127.0.0.1:${port}`, '--cluster', '--prefix', 'cli-cluster', '--json']);
        expect([r.code, JSON.parse(r.stdout)]).toEqual([0, expect.objectContaining({ mode: 'shared', requestsInWindow: 1, activeTaskIds: ['task_t'] })]);
      }
      // Without it, any node (the one holding the namespace too): one line naming the flag, and nothing else.
      const holder = await cluster().masterOf('{cli-cluster}:slots');
      for (const port of [holder, ports.find((p) => p !== holder)!]) {
        const r = await run(['fleet', 'status', '--redis', `redis://127.0.0.1:${port}`, '--prefix', 'cli-cluster']);
        expect([r.code, r.stdout, r.stderr.trim().split('\n')]).toEqual([3, '', [expect.stringMatching(/node of a Redis Cluster: add --cluster$/)]]);
      }
    });
  });
}

export function fleetStatusOnSentinel(set: () => TestSentinel): void {
  describe('forecasting fleet status under Sentinel', () => {
    it('reads the primary a sentinel names with --sentinel <name>', async () => {
      const { name, sentinelPorts } = set();
      await activity(await sentinelled['node-redis-sentinel'](name, sentinelPorts), 'cli-sentinel');
      const r = await run(['fleet', 'status', '--redis', `redis://127.0.0.1:${sentinelPorts[0]}`, '--sentinel', name, '--prefix', 'cli-sentinel', '--json']);
      expect([r.code, JSON.parse(r.stdout)]).toEqual([0, expect.objectContaining({ mode: 'shared', activeTaskIds: ['task_t'] })]);
    });

    it('a sentinel given without --sentinel: one line naming the flag, and nothing else', async () => {
      const r = await run(['fleet', 'status', '--redis', `redis://127.0.0.1:${set().sentinelPorts[0]}`, '--prefix', 'cli-sentinel']);
      expect([r.code, r.stdout, r.stderr.trim().split('\n')]).toEqual([3, '', [expect.stringMatching(/is a sentinel: add --sentinel <name>/)]]);
    });
  });
}
