// The fleet's outage and recovery as ForecastingInstrumentation records them, on a real redis-server
// stopped and started again: a span when the coordinator turns local (with what Redis failed with)
// and one when it is shared again (with how long the outage lasted), and the channel's messages.
import diagnostics from 'node:diagnostics_channel';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHANNELS, type CoordinatorMessage } from '../../src/index.js';
import { testClock } from '../redis/_clock.js';
import { processOn, useRedis } from '../redis/_setup.js';
import { outageErrorType } from '../../src/otel/outcomes.js';
import { useOtel } from './_otel.js';

const otel = useOtel();
const redis = useRedis();
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

describe("an outage's error.type", () => {
  it('is a code: timeout for a command that got no answer in time, a phrase joined by _, a code or class as it is', () => {
    expect(['no answer within 300 ms', 'connection closed', 'no cluster node reachable', 'ECONNREFUSED', 'READONLY', 'MaxRetriesPerRequestError'].map(outageErrorType)).toEqual([
      'timeout',
      'connection_closed',
      'no_cluster_node_reachable',
      'ECONNREFUSED',
      'READONLY',
      'MaxRetriesPerRequestError',
    ]);
  });
});

describe('the fleet going local and shared again', () => {
  it('publishes both on forecasting-sdk:coordinator, and makes a span of each', async () => {
    const seen: CoordinatorMessage[] = [];
    const onMessage = (m: unknown) => void seen.push(m as CoordinatorMessage);
    diagnostics.subscribe(CHANNELS.coordinator, onMessage);
    stops.push(() => diagnostics.unsubscribe(CHANNELS.coordinator, onMessage));
    const { coordinator, client } = await processOn(redis, testClock(), { prefix: 'otel-outage', probeIntervalMs: 20 });
    await coordinator.take('requests');
    await redis.stop();
    await vi.waitFor(() => expect(client.isReady).toBe(false));
    await coordinator.take('requests');
    expect(coordinator.mode).toBe('local');
    await redis.start();
    await vi.waitFor(() => expect(coordinator.mode).toBe('shared'), { timeout: 5_000 });
    expect(seen).toEqual([{ mode: 'local', errorType: expect.any(String) }, { mode: 'shared', outageMs: expect.any(Number) }]);
    const local = otel.span('forecasting.fleet.local');
    const shared = otel.span('forecasting.fleet.shared');
    // The channel's reason is the warning's (a code or a phrase); the span's a code.
    expect(local.attributes).toMatchObject({ 'forecasting.fleet.mode': 'local', 'error.type': outageErrorType(seen[0]!.errorType!) });
    expect(local.attributes['error.type']).toMatch(/^[\w.]+$/);
    expect(shared.attributes).toMatchObject({ 'forecasting.fleet.mode': 'shared', 'forecasting.fleet.outage_ms': seen[1]!.outageMs });
    expect(seen[1]!.outageMs).toBeGreaterThan(0);
    // Nothing of the Redis URL (its port, a password) in what was exported.
    expect(JSON.stringify([local.attributes, shared.attributes])).not.toContain(new URL(redis.url).port);
  });
});
