// A webhook receiver process (bundled and run by waits-processes.test.ts): verifies each call with
// the webhook's secret and publishes the event through a Redis coordinator, as
// `webhookMiddleware(secret, { coordinator })` does. Env: REDIS_URL, PREFIX. It prints the port it
// listens on, then reads the webhook's secret (made for that address) from stdin.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
        const event = await verifyWebhook(Buffer.concat(chunks), req.headers, await secret);
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
const secret = new Promise<string>((resolve) => {
  let text = '';
  process.stdin.on('data', (c: Buffer) => {
    text += c.toString();
    if (text.includes('\n')) resolve(text.trim());
  });
});
server.listen(0, '127.0.0.1', () => console.log((server.address() as AddressInfo).port));
