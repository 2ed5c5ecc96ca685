// One connected client of each kind the coordinator accepts, on a topology of the tests
// (_redis.ts, _topologies.ts), reconnecting quickly so outages and failovers end within a test.
import { Cluster, Redis } from 'ioredis';
// The oldest ioredis the peer range takes (5.9), beside the newest: both are proven.
import { Cluster as Cluster5, Redis as Redis5 } from 'ioredis-5';
import { createClient, createCluster, createSentinel } from 'redis';
import type { RedisClientKind, RedisClientLike } from '../../src/redis/index.js';

export interface KindClient {
  client: RedisClientLike;
  close(): Promise<void>;
}

const quiet = <T extends { on(event: 'error', listener: () => void): unknown }>(client: T): T => {
  // Both families report connection errors as events; a test's outage is expected.
  client.on('error', () => undefined);
  return client;
};

/** A standalone server's clients, by kind. */
export const standalone = {
  'node-redis': async (url: string): Promise<KindClient> => {
    const client = await quiet(createClient({ url, socket: { reconnectStrategy: () => 50 } })).connect();
    return { client, close: async () => client.destroy() };
  },
  ioredis: async (url: string): Promise<KindClient> => {
    const client = quiet(new Redis(url, { retryStrategy: () => 50, maxRetriesPerRequest: 1 }));
    await waitReady(client);
    return { client, close: async () => client.disconnect() };
  },
} satisfies Partial<Record<RedisClientKind, (url: string) => Promise<KindClient>>>;

/** ioredis 5.9, the oldest the peer range takes: a standalone server's client and a cluster's. */
export const ioredis5 = {
  standalone: async (url: string): Promise<KindClient> => {
    const client = quiet(new Redis5(url, { retryStrategy: () => 50, maxRetriesPerRequest: 1 }));
    await waitReady(client);
    return { client, close: async () => client.disconnect() };
  },
  cluster: async (port: number): Promise<KindClient> => {
    const client = quiet(new Cluster5([{ host: '127.0.0.1', port }], { clusterRetryStrategy: () => 50, redisOptions: { maxRetriesPerRequest: 1 } }));
    await waitReady(client);
    return { client, close: async () => client.disconnect() };
  },
};

/** A cluster's clients, by kind, from one node's port. */
export const clustered = {
  'node-redis-cluster': async (port: number): Promise<KindClient> => {
    const client = await quiet(createCluster({ rootNodes: [{ url: `redis://127.0.0.1:${port}` }], defaults: { socket: { reconnectStrategy: () => 50, connectTimeout: 1_000 } } })).connect();
    return { client, close: async () => client.destroy() };
  },
  'ioredis-cluster': async (port: number): Promise<KindClient> => {
    const client = quiet(new Cluster([{ host: '127.0.0.1', port }], { clusterRetryStrategy: () => 50, redisOptions: { maxRetriesPerRequest: 1 } }));
    await waitReady(client);
    return { client, close: async () => client.disconnect() };
  },
} satisfies Partial<Record<RedisClientKind, (port: number) => Promise<KindClient>>>;

/** A Sentinel set's clients, by kind, from the monitored name and the sentinels' ports. */
export const sentinelled = {
  'node-redis-sentinel': async (name: string, ports: number[]): Promise<KindClient> => {
    const client = await quiet(
      createSentinel({ name, sentinelRootNodes: ports.map((port) => ({ host: '127.0.0.1', port })), nodeClientOptions: { socket: { reconnectStrategy: () => 50 } } }),
    ).connect();
    return { client, close: async () => void (await client.destroy()) };
  },
  ioredis: async (name: string, ports: number[]): Promise<KindClient> => {
    const client = quiet(new Redis({ name, sentinels: ports.map((port) => ({ host: '127.0.0.1', port })), retryStrategy: () => 50, maxRetriesPerRequest: 1 }));
    await waitReady(client);
    return { client, close: async () => client.disconnect() };
  },
} satisfies Partial<Record<RedisClientKind, (name: string, ports: number[]) => Promise<KindClient>>>;

function waitReady(client: { status: string; once(event: 'ready', listener: () => void): unknown }): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => client.once('ready', () => resolve()));
}
