// Webhook deliveries when the mock answers through msw (docs/webhooks.md, "Deliveries from the mock
// service"): msw patches the global fetch the mock calls receivers with, and with
// onUnhandledRequest: 'error' refuses those calls. The real fetch, taken before listen(), or a fetch
// that calls a handler, delivers; the default says in the attempt's error what happened and the fix.
import { setupServer } from 'msw/node';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { clientClockFor, createMockService } from '../../src/testing/index.js';
import { mockHandlers } from '../../src/testing/msw.js';
import { verifyWebhook } from '../../src/webhooks/index.js';

const baseURL = 'https://forecasting.example/api/v1/external';
// Before any setupServer().listen(): the fetch msw has not patched.
const realFetch = globalThis.fetch;

const server = setupServer();
let receiver: Server;
let receiverURL = '';
const received: string[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    received.push(String(req.headers['x-service-delivery-id']));
    req.resume().on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverURL = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  server.listen({ onUnhandledRequest: 'error' });
});
afterEach(() => {
  server.resetHandlers();
  received.length = 0;
});
afterAll(async () => {
  server.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

/** A service answered by msw, and a client of it; its webhook calls go through `fetch` when given. */
function mswService(fetch?: typeof globalThis.fetch) {
  const service = createMockService({ webhooks: { allowLoopbackReceivers: true, ...(fetch ? { fetch } : {}) } });
  server.use(...mockHandlers(service, { baseURL }));
  const client = new ForecastingClient({ apiKey: service.apiKey, baseURL, clock: clientClockFor(service.clock), logLevel: 'off' });
  return { service, client };
}

describe('webhook deliveries under msw', () => {
  it('are delivered with the real fetch taken before server.listen()', async () => {
    const { service, client } = mswService(realFetch);
    const webhook = await client.webhooks.create({ url: receiverURL });
    const delivery = await client.webhooks.test(webhook.id);
    await service.webhooks.idle();
    expect((await client.webhooks.deliveries.retrieve(delivery.id)).status).toBe('succeeded');
    expect(received).toEqual([delivery.id]);
  });

  it('are delivered to a handler called directly, signed as over HTTP', async () => {
    let secret = '';
    const types: string[] = [];
    const handler = async (request: Request): Promise<Response> => {
      const event = await verifyWebhook(await request.text(), request.headers, secret);
      types.push(event.type);
      return new Response(null, { status: 200 });
    };
    const { service, client } = mswService((input, init) => handler(new Request(input, init)));
    const webhook = await client.webhooks.create({ url: 'http://127.0.0.1:9/webhooks' });
    secret = webhook.signingSecret;
    const delivery = await client.webhooks.test(webhook.id);
    await service.webhooks.idle();
    expect((await client.webhooks.deliveries.retrieve(delivery.id)).status).toBe('succeeded');
    expect(types).toEqual(['webhook.test']);
  });

  it("sit at retrying with the default fetch, the attempt's error naming msw and the fix", async () => {
    const { service, client } = mswService();
    const webhook = await client.webhooks.create({ url: receiverURL });
    const delivery = await client.webhooks.test(webhook.id);
    await service.webhooks.idle();
    const read = await client.webhooks.deliveries.retrieve(delivery.id);
    expect(read.status).toBe('retrying');
    expect(read.errorMessage).toMatch(/^unreachable: msw refused the call: the mock's webhook calls go through the global fetch, which msw patches/);
    expect(read.errorMessage).toContain('taken before server.listen()');
    expect(read.errorMessage).toContain('[MSW]');
    expect(received).toEqual([]);
  });
});
