// A server that answers 200 and then never stops sending: the client reads at most
// MAX_RESPONSE_BYTES of it, then ends the call with InvalidResponseError and does not ask again.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ForecastingClient, InvalidResponseError } from '../../src/index.js';
import { MAX_RESPONSE_BYTES } from '../../src/core/transport.js';

let server: Server;
let baseURL = '';
let requests = 0;
let sent = 0;

beforeAll(async () => {
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  server = createServer((req, res) => {
    requests++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"id": "t1", "pad": "');
    // Writes for as long as the client reads: the end never comes.
    const pump = () => {
      while (!res.destroyed && res.write(chunk)) sent += chunk.length;
    };
    res.on('drain', pump);
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/external`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

it('stops reading an endless answer at the cap with InvalidResponseError, and does not send the request again', async () => {
  const client = new ForecastingClient({ apiKey: 'pre_test', baseURL, logLevel: 'off', maxRetries: 3, timeout: 0 });
  const err = await client.forecasts.retrieve('t1').catch((e: unknown) => e);
  expect(err).toBeInstanceOf(InvalidResponseError);
  expect((err as Error).message).toContain('larger than 32 MiB');
  expect(requests).toBe(1);
  // The server had written at most a little past the cap (socket buffers) when the client let go.
  expect(sent).toBeLessThan(MAX_RESPONSE_BYTES + 16 * 1024 * 1024);
});
