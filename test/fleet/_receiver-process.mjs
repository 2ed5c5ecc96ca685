// A webhook receiver process of the multi-process tests, as a replica of a user's app runs it: the
// built package (`forecasting-sdk/…`, resolved to this repository), node-redis, and either Express
// with webhookMiddleware (RECEIVER=express) or node:http with createWebhookHandler (RECEIVER=fetch),
// each with a coordinator on REDIS_URL under PREFIX. The handler counts its runs per event id in
// Redis (`handled:<event id>`, outside the coordinator's keys) and prints `handled <event id>`.
// Prints `listening <port>` once it serves; stops on SIGTERM.
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import express from 'express';
import { createClient } from 'redis';
import { createRedisCoordinator } from 'forecasting-sdk/redis';
import { webhookMiddleware } from 'forecasting-sdk/webhooks/express';
import { createWebhookHandler } from 'forecasting-sdk/webhooks/fetch';

const { REDIS_URL, PREFIX, WEBHOOK_SECRET, RECEIVER } = process.env;
const redis = await createClient({ url: REDIS_URL }).connect();
const coordinator = createRedisCoordinator(redis, { prefix: PREFIX });

async function handle(eventId) {
  await redis.incr(`handled:${eventId}`);
  process.stdout.write(`handled ${eventId}\n`);
}

let server;
if (RECEIVER === 'express') {
  const app = express();
  app.post('/hooks', webhookMiddleware(WEBHOOK_SECRET, { coordinator }), async (req, res) => {
    await handle(req.webhookEvent.id);
    res.sendStatus(200);
  });
  server = createServer(app);
} else {
  const route = createWebhookHandler(WEBHOOK_SECRET, (event) => handle(event.id), { coordinator });
  server = createServer(async (req, res) => {
    const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers, body: Readable.toWeb(req), duplex: 'half' });
    const response = await route(request);
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()));
  });
}
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void coordinator.close().then(() => redis.quit());
});
