// The coordinator tells the client kinds apart by their shape, and refuses anything else before any
// command. The adapters themselves run on real servers in kinds-*.test.ts.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/core/errors.js';
import { createRedisCoordinator } from '../../src/redis/index.js';
import { clientKind, redisPort } from '../../src/redis/clients.js';

const subscriber = { connect: async () => undefined, subscribe: async () => undefined, on: () => undefined, destroy: () => undefined };

describe('the client kinds', () => {
  it('recognises each family by its shape', () => {
    const nodeRedis = { isReady: true, sendCommand: async () => 'PONG', duplicate: () => subscriber };
    expect(clientKind(nodeRedis)).toBe('node-redis');
    expect(clientKind({ ...nodeRedis, masters: [], nodeByAddress: new Map() })).toBe('node-redis-cluster');
    expect(clientKind({ ...nodeRedis, getMasterNode: () => undefined })).toBe('node-redis-sentinel');
    const ioredis = { status: 'ready', isCluster: false, call: async () => 'PONG', duplicate: () => ({}) };
    expect(clientKind(ioredis)).toBe('ioredis');
    expect(clientKind({ ...ioredis, isCluster: true })).toBe('ioredis-cluster');
  });

  it('sends each kind its own call shape: a cluster gets the route, a sentinel the primary, ioredis call()', async () => {
    const calls: unknown[][] = [];
    const record = (...args: unknown[]) => {
      calls.push(args);
      return Promise.resolve('PONG');
    };
    const base = { isReady: true, duplicate: () => subscriber };
    await redisPort({ ...base, sendCommand: record }).send(['PING'], '{p}:slots', 500);
    await redisPort({ ...base, masters: [], nodeByAddress: new Map(), sendCommand: record } as never).send(['PING'], '{p}:slots', 500);
    await redisPort({ ...base, getMasterNode: () => undefined, sendCommand: record }).send(['PING'], '{p}:slots', 500);
    await redisPort({ status: 'ready', isCluster: true, call: record, duplicate: () => ({ subscribe: record, on: () => undefined, disconnect: () => undefined }) }).send(['EXISTS', '{p}:x'], '{p}:slots', 500);
    expect(calls).toEqual([
      [['PING'], { timeout: 500 }],
      ['{p}:slots', false, ['PING'], { timeout: 500 }],
      [false, ['PING'], { timeout: 500 }],
      ['EXISTS', '{p}:x'],
    ]);
  });

  it('publishes sharded on a cluster only, and counts a client not ready as offline', () => {
    const nodeRedis = { isReady: false, sendCommand: async () => 'PONG', duplicate: () => subscriber };
    expect(redisPort(nodeRedis).publishCommand).toBe('PUBLISH');
    expect(redisPort(nodeRedis).ready()).toBe(false);
    expect(redisPort({ ...nodeRedis, masters: [], nodeByAddress: new Map() } as never).publishCommand).toBe('SPUBLISH');
    expect(redisPort({ status: 'connecting', isCluster: false, call: async () => 'PONG', duplicate: () => ({}) } as never).ready()).toBe(true);
    const ioredis = { status: 'reconnecting', isCluster: true, call: async () => 'PONG', duplicate: () => ({ subscribe: async () => 1, on: () => undefined, disconnect: () => undefined }) };
    expect(redisPort(ioredis).publishCommand).toBe('SPUBLISH');
    expect(redisPort(ioredis).ready()).toBe(false);
    expect(redisPort({ ...ioredis, isCluster: false }).publishCommand).toBe('PUBLISH');
  });

  it.each([[undefined], [null], ['redis://127.0.0.1:6379'], [{}], [{ get: () => undefined }], [{ sendCommand: 'no' }]])('refuses %j with a ValidationError naming the client, before any command', (value) => {
    const make = () => createRedisCoordinator(value as never);
    expect(make).toThrow(ValidationError);
    expect(make).toThrow(/needs a connected Redis client: node-redis createClient\(\), createCluster\(\) or createSentinel\(\).*ioredis Redis or Cluster/);
    try {
      make();
    } catch (error) {
      expect((error as ValidationError).field).toBe('client');
    }
  });
});
