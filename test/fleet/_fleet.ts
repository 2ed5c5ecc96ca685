// What the fleet tests share: a node-redis client whose commands in flight hold a manual mock clock
// (a request is then stamped by the mock at the time the budget counted it), and the mock's record.
import { expect } from 'vitest';
import type { NodeRedisClientLike } from '../../src/redis/index.js';
import type { MockServer } from '../../src/testing/index.js';
import type { TestRedisClient } from '../redis/_redis.js';

/** `redis` as the coordinator sees it, counting its commands in flight in `busy()`. */
export function countingRedis(redis: TestRedisClient): NodeRedisClientLike & { busy(): boolean } {
  let inFlight = 0;
  return {
    get isReady() {
      return redis.isReady;
    },
    async sendCommand(args, options) {
      inFlight++;
      try {
        return await redis.sendCommand([...args], options);
      } finally {
        inFlight--;
      }
    },
    duplicate: () => redis.duplicate(),
    busy: () => inFlight > 0,
  };
}

/** The mock's own record: no 429 of any kind, no refused start for too many active, never more than `maxActive` running. */
export function expectWithinLimits(mock: MockServer, maxActive = 50): void {
  const { maxActive: most, refused } = mock.service.forecastControls.activity();
  expect(mock.service.requests.list({ status: 429 }).map((r) => `${r.method} ${r.path} at ${r.at}`)).toEqual([]);
  expect(refused['too_many_active_forecasts'] ?? 0).toBe(0);
  expect(most).toBeLessThanOrEqual(maxActive);
}
