// Coordinators on one test Redis, each on its own connection: several processes, as Redis sees them.
import { createHash } from 'node:crypto';
import { createRedisCoordinator, type RedisCoordinator, type RedisCoordinatorOptions } from '../../src/redis/index.js';
import type { ClientClock } from '../../src/core/clock.js';
import { afterAll, beforeAll } from 'vitest';
import { startRedis, type TestRedis, type TestRedisClient } from './_redis.js';

export const API_KEY = 'pre_test_secret_key_0123456789';
export const KEY_HASH = createHash('sha256').update(API_KEY).digest('hex');

export interface Process {
  coordinator: RedisCoordinator;
  client: TestRedisClient;
  warnings: string[];
}

const open: RedisCoordinator[] = [];

/** Closes every coordinator's own subscriber connection (before the server stops). */
export async function closeProcesses(): Promise<void> {
  await Promise.all(open.splice(0).map((c) => c.close()));
}

/** A coordinator on a new connection, attached as a client with the test key and clock would attach it. */
export async function processOn(redis: TestRedis, clock: ClientClock, options: RedisCoordinatorOptions = {}): Promise<Process> {
  const client = await redis.client();
  const coordinator = createRedisCoordinator(client, options);
  open.push(coordinator);
  const warnings: string[] = [];
  coordinator.attach({ keyHash: () => KEY_HASH, clock, warn: (message) => warnings.push(message) });
  return { coordinator, client, warnings };
}

/** One redis-server for a test file: started before its tests, stopped (with every coordinator's connections) after. */
export function useRedis(): TestRedis {
  let server: TestRedis | undefined;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await closeProcesses();
    await server?.close();
  });
  const started = (): TestRedis => {
    if (!server) throw new Error('useRedis(): the server starts in beforeAll');
    return server;
  };
  return {
    get url() {
      return started().url;
    },
    client: () => started().client(),
    stop: () => started().stop(),
    start: () => started().start(),
    close: () => started().close(),
  };
}
