// A waiting process (bundled and run by waits-processes.test.ts): a client on a Redis coordinator
// waits for one task, once a webhook receiver has been seen; prints the task's final status.
// Env: BASE_URL, API_KEY, REDIS_URL, PREFIX. Prints `ready` once set up, then reads the task id on
// stdin: the task starts only then, so a slow start of this process never races it.
import { createClient } from 'redis';
import { ForecastingClient } from '../../src/index.js';
import { createRedisCoordinator } from '../../src/redis/index.js';

const env = (name: string) => process.env[name] ?? '';
const redis = createClient({ url: env('REDIS_URL') });
await redis.connect();
const coordinator = createRedisCoordinator(redis, { prefix: env('PREFIX') });
// `coordinator` is the `limits` change's client option: the cast stands until it is in ClientOptions.
const client = new ForecastingClient({ apiKey: env('API_KEY'), baseURL: env('BASE_URL'), logLevel: 'off', coordinator });
for (let i = 0; !coordinator.receiving(); i++) {
  if (i > 200) throw new Error('no receiver seen');
  await new Promise((resolve) => setTimeout(resolve, 10));
}
console.log('ready');
let taskId = '';
for await (const chunk of process.stdin) taskId += String(chunk);
const task = await client.forecasts.wait(taskId.trim());
console.log(JSON.stringify({ status: task.status }));
await coordinator.close();
await redis.quit();
