// createRedisCoordinator takes every client kind users run, without a cast, and nothing else.
import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster, createSentinel } from 'redis';
import { createRedisCoordinator } from '../../src/redis/index.js';

export async function everyKind(): Promise<void> {
  createRedisCoordinator(await createClient({ url: 'redis://127.0.0.1:6379' }).connect());
  createRedisCoordinator(await createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:7000' }] }).connect());
  createRedisCoordinator(await createSentinel({ name: 'mymaster', sentinelRootNodes: [{ host: '127.0.0.1', port: 26379 }] }).connect());
  createRedisCoordinator(new Redis('redis://127.0.0.1:6379'));
  createRedisCoordinator(new Redis({ sentinels: [{ host: '127.0.0.1', port: 26379 }], name: 'mymaster' }));
  createRedisCoordinator(new Cluster([{ host: '127.0.0.1', port: 7000 }]));
  // A client of RESP3 and with type mappings is still a client.
  createRedisCoordinator(await createClient({ RESP: 3 }).connect());
  // @ts-expect-error not a Redis client
  createRedisCoordinator({ get: (key: string) => key });
  // @ts-expect-error a URL is not a client: connect one first
  createRedisCoordinator('redis://127.0.0.1:6379');
}
