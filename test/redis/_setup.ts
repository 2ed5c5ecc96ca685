// Coordinators on one test Redis, each on its own connection: several processes, as Redis sees them.
import { createHash } from 'node:crypto';
import { createRedisCoordinator, type RedisCoordinator, type RedisCoordinatorOptions } from '../../src/redis/index.js';
import type { TestClock } from './_clock.js';
import type { TestRedis } from './_redis.js';

export const API_KEY = 'pre_test_secret_key_0123456789';
export const KEY_HASH = createHash('sha256').update(API_KEY).digest('hex');

export interface Process {
  coordinator: RedisCoordinator;
  warnings: string[];
}

/** A coordinator on a new connection, attached as a client with the test key and clock would attach it. */
export async function processOn(redis: TestRedis, clock: TestClock, options: RedisCoordinatorOptions = {}): Promise<Process> {
  const coordinator = createRedisCoordinator(await redis.client(), options);
  const warnings: string[] = [];
  coordinator.attach({ keyHash: KEY_HASH, clock, warn: (message) => warnings.push(message) });
  return { coordinator, warnings };
}
