// A webhook receiver process (bundled and run by waits-processes.test.ts): an Express route with
// `webhookMiddleware(secret, { coordinator })`, which verifies each call and publishes its event
// through the Redis coordinator to every process. Env: REDIS_URL, PREFIX. It prints the port it
// listens on, then reads the webhook's secret (made for that address) from stdin.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import { createRedisCoordinator } from '../../src/redis/index.js';
import { webhookMiddleware } from '../../src/webhooks/express.js';

const env = (name: string) => process.env[name] ?? '';
const redis = createClient({ url: env('REDIS_URL') });
await redis.connect();
const coordinator = createRedisCoordinator(redis, { prefix: env('PREFIX') });

const secret = new Promise<string>((resolve) => {
  let text = '';
  process.stdin.on('data', (c: Buffer) => {
    text += c.toString();
    if (text.includes('\n')) resolve(text.trim());
  });
});
const app = express();
// The secret comes after the port is printed (the webhook is made for this address): the route waits for it.
const verified = secret.then((s) => webhookMiddleware(s, { coordinator }));
app.post('/hooks', (req, res, next) => void verified.then((middleware) => middleware(req, res, next)), (req, res) => void res.sendStatus(200));
const server = app.listen(0, '127.0.0.1', () => console.log((server.address() as AddressInfo).port));
