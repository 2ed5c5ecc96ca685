// docs/fleet.md: "Give the fleet its own Redis user, limited to its prefix with an ACL
// (`~{fsdk:…}:*` and `&{fsdk:…}:events`)". A coordinator on such a user shares windows and slots,
// publishes and hears events, and never turns local for want of a permission.
import { createClient } from 'redis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createRedisCoordinator, type RedisCoordinator } from '../../src/redis/index.js';
import { realClock } from '../../src/core/clock.js';
import { KEY_HASH, useRedis } from './_setup.js';

const redis = useRedis();
const opened: { close(): Promise<unknown> | unknown }[] = [];
afterAll(async () => {
  for (const item of opened.splice(0)) await item.close();
});

describe('a least-privilege Redis user', () => {
  it('runs the fleet with only its prefix keys and channel allowed', async () => {
    const admin = await redis.client();
    await admin.sendCommand(['ACL', 'SETUSER', 'fleet', 'on', '>fleet-password', 'resetkeys', '~{acl-fleet}:*', 'resetchannels', '&{acl-fleet}:events', '+@all']);
    const url = redis.url.replace('redis://', 'redis://fleet:fleet-password@');
    const coordinators: RedisCoordinator[] = [];
    const warnings: string[] = [];
    for (let i = 0; i < 2; i++) {
      const client = createClient({ url });
      client.on('error', () => undefined);
      await client.connect();
      opened.push({ close: () => client.destroy() });
      const coordinator = createRedisCoordinator(client, { prefix: 'acl-fleet', maxActive: 1 });
      coordinator.attach({ keyHash: () => KEY_HASH, clock: realClock, warn: (m) => warnings.push(m) });
      opened.push(coordinator);
      coordinators.push(coordinator);
    }
    const [a, b] = coordinators as [RedisCoordinator, RedisCoordinator];
    (await a.take('requests'))?.();
    const held = await a.hold(1);
    await held.bind(['t1']);
    const seen: string[] = [];
    b.watch(['t1'], (notice) => seen.push(notice.taskId));
    const next = b.hold(1);
    await vi.waitFor(async () => expect(await admin.pubSubNumSub('{acl-fleet}:events')).toEqual({ '{acl-fleet}:events': 2 }));
    await a.publish({ id: 'e1', type: 'forecast.completed', taskId: 't1', status: 'completed', final: true });
    await vi.waitFor(() => expect(seen).toEqual(['t1']));
    await (await next).release();
    expect((await b.stats()).requestsInWindow).toBe(1);
    expect([a.mode, b.mode, warnings]).toEqual(['shared', 'shared', []]);
  });
});
