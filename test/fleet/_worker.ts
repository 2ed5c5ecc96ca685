// One process of the fleet tests (bundled by processes-limits.test.ts and run with node): a client on
// a Redis coordinator starts forecasts on the questions it is given and waits for them, then prints
// one JSON line. With `hang`, it prints `held` once its starts are bound to their tasks and waits to
// be killed. Its clock is the mock's scaled time (see `scaledClock`).
import { createClient } from 'redis';
import { ForecastingClient, type ClientClock } from '../../src/index.js';
import { createRedisCoordinator } from '../../src/redis/index.js';

export interface WorkerConfig {
  baseURL: string;
  apiKey: string;
  redisURL: string;
  questionIds: string[];
  /** The mock's time scale, and its time at the real time `realStart` (ms since the epoch). */
  timeScale: number;
  mockStart: number;
  realStart: number;
  hang?: boolean;
}

/**
 * The mock's own time (a ScaledClock on Date.now), so that the shared windows are counted on the
 * time the mock counts by, and waits on it take 1/timeScale of their real time.
 */
function scaledClock({ timeScale, mockStart, realStart }: WorkerConfig): ClientClock {
  return {
    // Not real time: the fleet counts on this clock, which every worker shares (same epoch and scale).
    simulated: true,
    now: () => mockStart + (Date.now() - realStart) * timeScale,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        signal?.throwIfAborted();
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, Math.max(0, ms) / timeScale);
        const onAbort = () => {
          clearTimeout(timer);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
  };
}

async function main(): Promise<void> {
  const config = JSON.parse(process.env['FLEET_WORKER'] ?? '{}') as WorkerConfig;
  const redis = await createClient({ url: config.redisURL }).connect();
  // 50 of the mock's 60 a minute. The coordinator counts a request when it takes its slot, the mock
  // when it arrives, and the budget's margin for the difference is 250 ms: on a clock 60 times
  // faster that is 4 real ms, less than five busy processes on two cores may take between the two.
  // The exact boundary is proven in one process on a manual clock (limits.test.ts).
  const coordinator = createRedisCoordinator(redis, { requestsPerMinute: 50 });
  const client = new ForecastingClient({ apiKey: config.apiKey, baseURL: config.baseURL, coordinator, clock: scaledClock(config) });
  const started = await client.forecasts.createMany(config.questionIds.map((questionId) => ({ questionId, runMode: 'light' })));
  const taskIds = started.flatMap((r) => (r.status === 'accepted' ? [r.taskId] : []));
  if (config.hang) {
    console.log('held');
    await new Promise(() => undefined);
  }
  const tasks = await client.forecasts.waitMany(taskIds, { full: false });
  console.log(JSON.stringify({ rejected: started.length - taskIds.length, statuses: tasks.map((t) => t.status) }));
  await coordinator.close();
  redis.destroy();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
