/**
 * `forecasting-sdk/redis`: many processes, one key. A coordinator on Redis that every client and
 * webhook receiver of one API key shares: one request budget, one set of active-forecast slots, one
 * model-call budget, exactly-once webhook handling and a fan-out of tasks' final events. It takes
 * the client you already hold (node-redis, ioredis; one server, Cluster or Sentinel: both are
 * optional peer dependencies) and loads no Redis code of its own.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { ForecastingClient } from 'forecasting-sdk';
 * import { createRedisCoordinator } from 'forecasting-sdk/redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }).on('error', () => {}).connect();
 * const coordinator = createRedisCoordinator(redis);
 * const client = new ForecastingClient({ coordinator }); // every replica: one budget, one set of slots
 * console.log((await coordinator.stats()).mode); // 'shared'
 * ```
 * @module
 */
import { RedisCoordinator } from './coordinator.js';
import type { RedisClientLike } from './clients.js';
import type { RedisCoordinatorOptions } from './options.js';

export { RedisCoordinator } from './coordinator.js';
export type {
  IoRedisLike,
  IoRedisSubscriberLike,
  NodeRedisClientLike,
  NodeRedisClusterLike,
  NodeRedisSentinelLike,
  NodeRedisSubscriberLike,
  RedisClientKind,
  RedisClientLike,
} from './clients.js';
export type { RedisCoordinatorOptions } from './options.js';
export type {
  CoordinatedWindow,
  WindowEnd,
  Coordinator,
  CoordinatorAttachment,
  CoordinatorStats,
  EventClaim,
  EventCoordinator,
  HoldOptions,
  SlotHold,
  TaskFinalNotice,
} from '../core/coordination.js';

/**
 * Makes a coordinator on a connected node-redis client. It opens one more connection of its own
 * (`redis.duplicate()`) for pub/sub, when first needed; `close()` ends it. If Redis stops answering,
 * no call fails for it: the coordinator warns once and keeps the limits per process (`stats().mode`
 * is `local`) until Redis answers again.
 *
 * @param redis A connected client: `createClient({ url })` of the `redis` package (v6), after `connect()`.
 * @param options Limits and the key namespace; see {@link RedisCoordinatorOptions}.
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { ForecastingClient } from 'forecasting-sdk';
 * import { createRedisCoordinator } from 'forecasting-sdk/redis';
 *
 * // node-redis ends the process on a connection 'error' nobody listens to: the coordinator reports outages itself.
 * const redis = await createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }).on('error', () => {}).connect();
 * const coordinator = createRedisCoordinator(redis, { requestsPerMinute: 60, maxActive: 50 });
 * const client = new ForecastingClient({ coordinator });
 * console.log(await coordinator.stats()); // { mode: 'shared', requestsInWindow: 0, … }
 * ```
 */
export function createRedisCoordinator(redis: RedisClientLike, options: RedisCoordinatorOptions = {}): RedisCoordinator {
  return new RedisCoordinator(redis, options);
}
