// The key namespace: one Redis Cluster hash tag for every key, and a prefix that is a hash, never the key.
import { createHash } from 'node:crypto';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRedisCoordinator } from '../../src/redis/index.js';
import { testClock } from './_clock.js';
import { API_KEY, KEY_HASH, processOn, useRedis } from './_setup.js';

const redis = useRedis();
afterEach(() => {
  vi.unstubAllEnvs();
});

const DEFAULT_PREFIX = `fsdk:${KEY_HASH.slice(0, 16)}`;

describe('the key namespace', () => {
  it('puts every key of a workload under one hash tag derived from the key hash', async () => {
    const client = await redis.client();
    await client.flushAll();
    const clock = testClock();
    const [a, b] = await Promise.all([processOn(redis, clock, { maxActive: 1 }), processOn(redis, clock, { maxActive: 1 })]);
    await a.coordinator.take('requests');
    await b.coordinator.take('modelCalls');
    await (await a.coordinator.hold(1)).bind(['t1']);
    const waiting = b.coordinator.hold(1);
    await vi.waitFor(async () => expect((await a.coordinator.stats()).startsWaiting).toBe(1));
    await a.coordinator.claimEvent('evt_1');
    await b.coordinator.claimEvent('evt_1');
    await a.coordinator.publish({ id: 'evt_1', type: 'forecast.completed', taskId: 't1', status: 'completed', final: true });
    await (await waiting).bind(['t2']);

    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: '*' })) keys.push(...batch);
    expect(keys.filter((k) => !k.startsWith(`{${DEFAULT_PREFIX}}:`))).toEqual([]);
    // The queue and its heartbeats are gone once no hold waits (Redis drops an empty set); the
    // record of live waiting processes expires ALIVE_TTL_MS after the last try.
    expect(await client.pTTL(`{${DEFAULT_PREFIX}}:alive`)).toBeGreaterThan(0);
    expect(keys.map((k) => k.slice(DEFAULT_PREFIX.length + 3)).sort()).toEqual(['alive', 'counters', 'epoch', 'event:evt_1', 'modelCalls', 'receivers', 'requests', 'seq', 'slots']);
    expect(keys.join(' ')).not.toContain(API_KEY);
  });

  it('holds neither the API key nor its hash where JSON.stringify or inspect can show it', async () => {
    const { coordinator } = await processOn(redis, testClock());
    await coordinator.take('requests');
    for (const shown of [JSON.stringify(coordinator), inspect(coordinator, { depth: 5, showHidden: true })]) {
      expect(shown).not.toContain(API_KEY);
      expect(shown).not.toContain(KEY_HASH);
    }
  });

  it('derives the prefix of a receiver with no client from FORECASTING_API_KEY', async () => {
    vi.stubEnv('FORECASTING_API_KEY', API_KEY);
    const coordinator = createRedisCoordinator(await redis.client());
    expect(await coordinator.claimEvent('evt_env')).toBe('claimed');
    const client = await redis.client();
    expect(await client.exists(`{${DEFAULT_PREFIX}}:event:evt_env`)).toBe(1);
    await coordinator.close();
  });

  // As the client takes the key: spaces at either end dropped (the same namespace), a control
  // character refused (a CRLF .env file's `\r` gave a namespace no client of the key has).
  it('takes FORECASTING_API_KEY as the client does: its spaces dropped, a `\\r` refused', async () => {
    vi.stubEnv('FORECASTING_API_KEY', ` ${API_KEY}  `);
    const spaced = createRedisCoordinator(await redis.client());
    expect(await spaced.claimEvent('evt_spaced')).toBe('claimed');
    expect(await (await redis.client()).exists(`{${DEFAULT_PREFIX}}:event:evt_spaced`)).toBe(1);
    await spaced.close();
    vi.stubEnv('FORECASTING_API_KEY', `${API_KEY}\r`);
    const crlf = createRedisCoordinator(await redis.client());
    await expect(crlf.claimEvent('evt_crlf')).rejects.toMatchObject({ name: 'ValidationError', field: 'prefix', message: expect.stringMatching(/^prefix: FORECASTING_API_KEY must be printable ASCII/) });
    await crlf.close();
  });

  it('asks for `prefix` when there is neither a client nor FORECASTING_API_KEY', async () => {
    vi.stubEnv('FORECASTING_API_KEY', '');
    const coordinator = createRedisCoordinator(await redis.client());
    await expect(coordinator.claimEvent('evt_x')).rejects.toMatchObject({ name: 'ValidationError', field: 'prefix', message: expect.stringMatching(/`prefix`/) });
    await expect(createRedisCoordinator(await redis.client(), { prefix: 'mine' }).claimEvent('evt_x')).resolves.toBe('claimed');
  });

  it('refuses a second client with another API key', async () => {
    const { coordinator } = await processOn(redis, testClock());
    const other = createHash('sha256').update('pre_other').digest('hex');
    expect(() => coordinator.attach({ keyHash: () => other, clock: testClock() })).toThrow(/same API key/);
    expect(() => coordinator.attach({ keyHash: () => KEY_HASH, clock: testClock() })).not.toThrow();
  });
});
