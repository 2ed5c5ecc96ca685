/**
 * The coordinator's one port to Redis, and an adapter per client family, chosen by the client's
 * shape: node-redis (`createClient`, `createCluster`, `createSentinel`) and ioredis (`Redis`,
 * standalone or with `sentinels`, and `Cluster`). The scripts and the key layout are the same for
 * every kind; what differs is the call shape, how a cluster routes a command, and pub/sub.
 * Structural types only: these declarations need neither package installed.
 * @module
 */
import { ValidationError } from '../core/errors.js';

/**
 * A connected node-redis client: `createClient({ url })` of the `redis` package (v5 or v6), after `connect()`.
 * @example
 * ```ts
 * const redis: NodeRedisClientLike = await createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }).connect();
 * ```
 */
export interface NodeRedisClientLike {
  /** `false` while it reconnects (a command would wait in its offline queue). */
  readonly isReady: boolean;
  sendCommand(args: string[], options?: { timeout?: number }): Promise<unknown>;
  duplicate(): NodeRedisSubscriberLike;
}

/**
 * A connected node-redis cluster client: `createCluster({ rootNodes })`, after `connect()`.
 * @example
 * ```ts
 * const cluster: NodeRedisClusterLike = await createCluster({ rootNodes: [{ url: 'redis://10.0.0.1:7000' }] }).connect();
 * ```
 */
export interface NodeRedisClusterLike {
  readonly isReady: boolean;
  /** The cluster's masters: what tells a cluster from a single client. */
  readonly masters: readonly unknown[];
  sendCommand(firstKey: string | undefined, isReadonly: boolean | undefined, args: string[], options?: { timeout?: number }): Promise<unknown>;
  duplicate(): NodeRedisSubscriberLike;
}

/**
 * A connected node-redis sentinel client: `createSentinel({ name, sentinelRootNodes })`, after `connect()`.
 * @example
 * ```ts
 * const sentinel: NodeRedisSentinelLike = await createSentinel({ name: 'mymaster', sentinelRootNodes: [{ host: '10.0.0.1', port: 26379 }] }).connect();
 * ```
 */
export interface NodeRedisSentinelLike {
  readonly isReady: boolean;
  getMasterNode(): unknown;
  /** Its `topology-change` events tell a promotion: the coordinator then subscribes anew on the new primary. */
  on(event: 'topology-change', listener: (event: { type: string }) => void): unknown;
  sendCommand(isReadonly: boolean | undefined, args: string[], options?: { timeout?: number }): Promise<unknown>;
  duplicate(): NodeRedisSubscriberLike;
}

/**
 * The subscriber connection made with a node-redis client's `duplicate()` (its own: a subscribed
 * connection sends nothing else). A cluster's also has `sSubscribe` (sharded pub/sub, Redis 7).
 * @example
 * ```ts
 * const subscriber: NodeRedisSubscriberLike = redis.duplicate();
 * ```
 */
export interface NodeRedisSubscriberLike {
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  sSubscribe?(channel: string, listener: (message: string) => void): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  destroy(): unknown;
}

/**
 * An ioredis client: `new Redis(url)`, `new Redis({ sentinels, name })`, or `new Redis.Cluster(nodes)`
 * (5.9 or later). It connects by itself: a command sent while it first connects waits for the connection.
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * const redis: IoRedisLike = new Redis(process.env.REDIS_URL!);
 * ```
 */
export interface IoRedisLike {
  /** `ready` when commands go out at once; `reconnecting`, `close` and `end` count as offline. */
  readonly status: string;
  /** `true` for `Cluster`. */
  readonly isCluster: boolean;
  call(command: string, ...args: string[]): Promise<unknown>;
  /** A `Cluster`'s takes the start-up nodes first and its options second (`shardedSubscribers`, ioredis 5.9 or later). */
  duplicate(startupNodes?: unknown, options?: { shardedSubscribers?: boolean }): IoRedisSubscriberLike;
}

/**
 * The subscriber connection made with an ioredis client's `duplicate()`.
 * @example
 * ```ts
 * const subscriber: IoRedisSubscriberLike = redis.duplicate();
 * ```
 */
export interface IoRedisSubscriberLike {
  subscribe(...channels: string[]): Promise<unknown>;
  ssubscribe?(...channels: string[]): Promise<unknown>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  disconnect(): void;
}

/**
 * What `createRedisCoordinator` takes: a connected node-redis client, cluster or sentinel client,
 * or an ioredis `Redis` (standalone or with `sentinels`) or `Cluster`. Recognised by its shape.
 * @example
 * ```ts
 * const redis: RedisClientLike = await createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }).connect();
 * ```
 */
export type RedisClientLike = NodeRedisClientLike | NodeRedisClusterLike | NodeRedisSentinelLike | IoRedisLike;

/**
 * The kinds of client the coordinator tells apart.
 * @example
 * ```ts
 * const kind: RedisClientKind = 'ioredis-cluster';
 * ```
 */
export type RedisClientKind = 'node-redis' | 'node-redis-cluster' | 'node-redis-sentinel' | 'ioredis' | 'ioredis-cluster';

/** The subscriber side of the port: one connection, one channel, closed once. @internal */
export interface PortSubscriber {
  /** Connects (where the client needs it) and subscribes; `listener` gets each message's text. */
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  onError(listener: (error: unknown) => void): void;
  close(): void;
}

/** The coordinator's port: every kind of client seen the same way. @internal */
export interface RedisPort {
  readonly kind: RedisClientKind;
  /** Whether a command goes out now (not into an offline queue). */
  ready(): boolean;
  /** One command; `route` is a key of the coordinator's hash tag (a cluster sends the command to its slot). */
  send(args: readonly string[], route: string, timeoutMs: number): Promise<unknown>;
  /** The command the scripts publish with: `SPUBLISH` where the subscriber listens sharded. */
  readonly publishCommand: 'PUBLISH' | 'SPUBLISH';
  subscriber(): PortSubscriber;
  /**
   * Calls `listener` when the client saw a new primary and a subscription made before may not have
   * followed it (node-redis's sentinel client): the hub then subscribes anew. Returns a stop function.
   */
  onNewPrimary(listener: () => void): () => void;
}

const isFunction = (value: unknown): value is (...args: never[]) => unknown => typeof value === 'function';
const field = (client: object, name: string): unknown => (client as Record<string, unknown>)[name];

/** The kind of `client`, by its shape; a `ValidationError` naming what is accepted for anything else. @internal */
export function clientKind(client: unknown): RedisClientKind {
  if (typeof client === 'object' && client !== null) {
    if (isFunction(field(client, 'call')) && typeof field(client, 'status') === 'string') return field(client, 'isCluster') === true ? 'ioredis-cluster' : 'ioredis';
    if (isFunction(field(client, 'sendCommand'))) {
      if ('masters' in client && 'nodeByAddress' in client) return 'node-redis-cluster';
      if (isFunction(field(client, 'getMasterNode'))) return 'node-redis-sentinel';
      return 'node-redis';
    }
  }
  throw new ValidationError(
    'createRedisCoordinator needs a connected Redis client: node-redis createClient(), createCluster() or createSentinel() (after connect()), or an ioredis Redis or Cluster.',
    'client',
  );
}

/** The port over `client`, chosen by its shape. @internal */
export function redisPort(client: RedisClientLike): RedisPort {
  const kind = clientKind(client);
  switch (kind) {
    case 'node-redis':
      return nodeRedisPort(kind, client as NodeRedisClientLike, (c, args, _route, options) => (c as NodeRedisClientLike).sendCommand(args, options));
    case 'node-redis-sentinel': {
      const sentinel = client as NodeRedisSentinelLike;
      // Every command of the coordinator writes or must see the latest write: the primary's.
      const port = nodeRedisPort(kind, sentinel, (c, args, _route, options) => (c as NodeRedisSentinelLike).sendCommand(false, args, options));
      // Its pub/sub connection does not always follow a promotion (it may stay subscribed to nothing).
      return {
        ...port,
        onNewPrimary(listener) {
          let stopped = false;
          if (typeof sentinel.on !== 'function') return () => undefined;
          sentinel.on('topology-change', (event) => {
            if (!stopped && event?.type === 'MASTER_CHANGE') listener();
          });
          return () => void (stopped = true);
        },
      };
    }
    case 'node-redis-cluster':
      return nodeRedisPort(kind, client as NodeRedisClusterLike, (c, args, route, options) => (c as NodeRedisClusterLike).sendCommand(route, false, args, options));
    default:
      return ioRedisPort(kind, client as IoRedisLike);
  }
}

type NodeRedisAny = NodeRedisClientLike | NodeRedisClusterLike | NodeRedisSentinelLike;
type NodeRedisSend = (client: NodeRedisAny, args: string[], route: string, options: { timeout: number }) => Promise<unknown>;

function nodeRedisPort(kind: RedisClientKind, client: NodeRedisAny, sendCommand: NodeRedisSend): RedisPort {
  // Sharded pub/sub on a cluster: the channel lives on the prefix's slot, so a message reaches the
  // subscribers of that shard only, not every node of the cluster.
  const sharded = kind === 'node-redis-cluster';
  return {
    kind,
    ready: () => client.isReady !== false,
    send: (args, route, timeoutMs) => sendCommand(client, [...args], route, { timeout: timeoutMs }),
    publishCommand: sharded ? 'SPUBLISH' : 'PUBLISH',
    onNewPrimary: () => () => undefined,
    subscriber() {
      const connection = client.duplicate();
      let closed = false;
      // node-redis's destroy() during connect() has no socket to close yet: the connection completes
      // afterwards. Checked after each step, so a close() at any moment leaves nothing open.
      const stopIfClosed = () => {
        if (!closed) return;
        connection.destroy();
        throw new Error('the subscriber was closed');
      };
      return {
        async subscribe(channel, listener) {
          await connection.connect();
          stopIfClosed();
          if (sharded && connection.sSubscribe) await connection.sSubscribe(channel, listener);
          else await connection.subscribe(channel, listener);
          stopIfClosed();
        },
        onError: (listener) => void connection.on('error', listener),
        close: () => {
          closed = true;
          connection.destroy();
        },
      };
    },
  };
}

const OFFLINE_STATUSES = new Set(['reconnecting', 'close', 'end']);

function ioRedisPort(kind: RedisClientKind, client: IoRedisLike): RedisPort {
  const sharded = kind === 'ioredis-cluster';
  return {
    kind,
    // Connecting (the first time, or lazily on the first command) is not an outage: the command waits
    // in ioredis's queue for the connection, within the link's time limit. A client that lost its
    // connection ('reconnecting') or was closed fails at once.
    ready: () => !OFFLINE_STATUSES.has(client.status),
    // ioredis routes a cluster's command by its keys; it has no time limit per command (the link races one).
    send: (args, _route, _timeoutMs) => client.call(args[0]!, ...args.slice(1)),
    publishCommand: sharded ? 'SPUBLISH' : 'PUBLISH',
    onNewPrimary: () => () => undefined,
    subscriber() {
      // A cluster's sharded subscriber connects to the node of the channel's slot (and follows it on a failover).
      const connection = sharded ? client.duplicate(undefined, { shardedSubscribers: true }) : client.duplicate();
      return {
        async subscribe(channel, listener) {
          const event = sharded ? 'smessage' : 'message';
          connection.on(event, (from, text) => {
            if (from === channel && typeof text === 'string') listener(text);
          });
          if (sharded && connection.ssubscribe) await connection.ssubscribe(channel);
          else await connection.subscribe(channel);
        },
        onError: (listener) => void connection.on('error', (error) => listener(error)),
        close: () => connection.disconnect(),
      };
    },
  };
}
