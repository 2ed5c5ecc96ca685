// A client whose coordinator's Redis stops: its calls still complete, on the process's own limits,
// and its logger gets one warning that names no secret.
import { describe, expect, it, vi } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { createRedisCoordinator } from '../../src/redis/index.js';
import { ManualClock, mockClientOptions, startMockServer } from '../../src/testing/index.js';
import { useRedis } from '../redis/_setup.js';
import { countingRedis, expectWithinLimits } from './_fleet.js';

const redis = useRedis();

describe('Redis down', () => {
  it('a client still completes its calls, and logs one warning with no secret', { timeout: 60_000 }, async () => {
    const mock = await startMockServer({ clock: new ManualClock(), rateLimit: { requestsPerMinute: 60 } });
    const connection = await redis.client();
    const shared = countingRedis(connection);
    const coordinator = createRedisCoordinator(shared, { probeIntervalMs: 60_000 });
    const lines: string[] = [];
    const log = (line: string) => void lines.push(line);
    try {
      const client = new ForecastingClient({ ...mockClientOptions(mock, { busy: shared.busy }), coordinator, logger: { debug: log, info: log, warn: log, error: log } });
      const question = await client.questions.create({ type: 'binary', title: 'Will it rain in Paris tomorrow?' });

      await redis.stop();
      await vi.waitFor(() => expect(connection.isReady).toBe(false));
      // A start (slots and budget) and its wait (reads that free the slot) answer as without a coordinator.
      const task = await client.forecasts.createAndWait({ questionId: question.id, runMode: 'light' });
      expect(task.status).toBe('completed');
      const more = await client.forecasts.createMany([{ questionId: question.id, runMode: 'light' }]);
      expect(more[0]?.status).toBe('accepted');
      expectWithinLimits(mock);
      expect(await coordinator.stats()).toMatchObject({ mode: 'local', activeSlots: 1 });

      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/Redis did not answer.*per process/);
      expect(lines.join('\n')).not.toContain(mock.apiKey);
      expect(lines.join('\n')).not.toContain(redis.url);
    } finally {
      await coordinator.close();
      await mock.close();
      await redis.start();
    }
  });
});
