// A webhook receiver process (bundled and run by waits-processes.test.ts): verifies each call with
// the webhook's secret and publishes the event through a Redis coordinator, as
// `webhookMiddleware(secret, { coordinator })` does. Env: PORT, SECRET, REDIS_URL, PREFIX.
import { createServer } from 'node:http';
import { createClient } from 'redis';
import { createRedisCoordinator } from '../../src/redis/index.js';
import { verifyWebhook } from '../../src/webhooks/index.js';

const env = (name: string) => process.env[name] ?? '';
const FINAL = new Set(['forecast.completed', 'forecast.failed', 'forecast.cancelled']);
const redis = createClient({ url: env('REDIS_URL') });
await redis.connect();
const coordinator = createRedisCoordinator(redis, { prefix: env('PREFIX') });

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    void (async () => {
      try {
        const event = await verifyWebhook(Buffer.concat(chunks), req.headers, env('SECRET'));
        const data = event.data as { taskId?: unknown };
        const taskId = typeof data.taskId === 'string' ? data.taskId : undefined;
        const final = FINAL.has(event.type);
        await coordinator.publish({ id: event.id, type: event.type, taskId, status: final ? event.type.slice('forecast.'.length) : undefined, final });
        res.writeHead(200).end();
      } catch (err) {
        res.writeHead(400).end(String(err));
      }
    })();
  });
});
server.listen(Number(env('PORT')), '127.0.0.1', () => console.log('listening'));
