// A take or a hold that waited 5 s or more for the fleet logs it once at `info` (the client's logger,
// at logLevel 'info'), with how long and why. On the test's manual clock, through a real client.
import { describe, expect, it, vi } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { createRedisCoordinator } from '../../src/redis/index.js';
import { testClock } from './_clock.js';
import { processOn, useRedis } from './_setup.js';

const redis = useRedis();

/** A coordinator attached by a real client whose logger keeps its info lines. */
async function clientOn(prefix: string, clock: ReturnType<typeof testClock>, options = {}) {
  const lines: string[] = [];
  const coordinator = createRedisCoordinator(await redis.client(), { prefix, ...options });
  const log = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
  new ForecastingClient({ apiKey: 'pre_long_waits_key', baseURL: 'http://127.0.0.1:9/api/v1/external', clock, coordinator, logLevel: 'info', logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') } });
  return { coordinator, lines };
}

describe('long waits for the fleet', () => {
  it('logs a start that waited for a slot, with how long and why, once', async () => {
    const clock = testClock();
    const { coordinator, lines } = await clientOn('lw-slots', clock, { maxActive: 1 });
    const other = await processOn(redis, clock, { prefix: 'lw-slots', maxActive: 1 });
    await (await other.coordinator.hold(1)).bind(['t1']);
    const waiting = coordinator.hold(1);
    await vi.waitFor(async () => expect((await coordinator.stats()).startsWaiting).toBe(1));
    clock.advance(41_300);
    await other.coordinator.settle([{ taskId: 't1' }]);
    await (await waiting).release();
    expect(lines).toEqual(['info [forecasting-sdk] a start waited 41.3 s for an active-forecast slot (maxActive forecasts run at once across the fleet, first come, first served)']);
  });

  it("logs a request that waited for the shared budget, and nothing for a wait under 5 s", async () => {
    const clock = testClock();
    const { coordinator, lines } = await clientOn('lw-requests', clock, { requestsPerMinute: 1 });
    (await coordinator.take('requests'))?.();
    const next = coordinator.take('requests');
    await vi.waitFor(() => expect(clock.sleepers).toBe(1));
    clock.advanceTo(clock.nextWake()!);
    await next;
    expect(lines).toEqual([expect.stringMatching(/^info \[forecasting-sdk\] a request waited 60\.\d s for the fleet's shared request budget \(requestsPerMinute of the key, across every process\)$/)]);
    const { coordinator: quick, lines: none } = await clientOn('lw-quick', clock, { maxActive: 1 });
    const other = await processOn(redis, clock, { prefix: 'lw-quick', maxActive: 1 });
    await (await other.coordinator.hold(1)).bind(['t1']);
    const waiting = quick.hold(1);
    await vi.waitFor(async () => expect((await quick.stats()).startsWaiting).toBe(1));
    clock.advance(4_999);
    await other.coordinator.settle([{ taskId: 't1' }]);
    await (await waiting).release();
    expect(none).toEqual([]);
  });
});
