// Real sockets on 127.0.0.1 (no msw here): refused connections, resets after sending, timeouts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { APIConnectionError, APITimeoutError, ForecastingClient } from '../../src/index.js';
import { KEY, question } from './helpers.js';

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => { s.close(r); s.closeAllConnections(); })));
  servers = [];
});

/** A server whose handler gets the attempt number; returns its base URL. */
async function serve(handler: (attempt: number, req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void) {
  let attempt = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(++attempt, req, res));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/external`, attempts: () => attempt };
}

/** A port with nothing listening: bind, read the port, close. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

const client = (baseURL: string, extra: Partial<ConstructorParameters<typeof ForecastingClient>[0]> = {}) =>
  new ForecastingClient({ apiKey: KEY, baseURL, retryBackoff: { initialDelay: 0, maxDelay: 0 }, logLevel: 'off', ...extra });

describe('connection failures on real sockets', () => {
  it('retries a refused connection for every operation, POST included, since nothing was sent', async () => {
    const port = await closedPort();
    const c = client(`http://127.0.0.1:${port}/api/v1/external`, { maxRetries: 2 });
    const retries: number[] = [];
    c.on('retry', (e) => retries.push(e.attempt));
    const err = await c.questions.create({ type: 'binary', title: 't' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toContain('ECONNREFUSED');
    expect(retries).toEqual([1, 2]);
  });

  it('does not retry a POST whose connection reset after sending', async () => {
    const { baseURL, attempts } = await serve((_, req) => req.socket.destroy());
    const err = await client(baseURL).questions.create({ type: 'binary', title: 't' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(attempts()).toBe(1);
  });

  it('retries a GET whose connection reset after sending', async () => {
    const { baseURL, attempts } = await serve((n, req, res) => {
      if (n === 1) return req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(question('q1')));
    });
    const q = await client(baseURL).questions.retrieve('q1');
    expect(q.id).toBe('q1');
    expect(attempts()).toBe(2);
  });

  it('times out an attempt, retries a GET, and reports APITimeoutError in the end', async () => {
    const { baseURL, attempts } = await serve(() => {
      /* never answers */
    });
    // 300 ms: long enough for the request to reach the server on a busy machine, so each attempt counts.
    const err = await client(baseURL, { timeout: 300, maxRetries: 1 }).questions.retrieve('q1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APITimeoutError);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(attempts()).toBe(2);
  });

  it('does not retry a POST that timed out, and honours a per-request timeout', async () => {
    const { baseURL, attempts } = await serve(() => {
      /* never answers */
    });
    const err = await client(baseURL, { timeout: 60_000 }).questions.create({ type: 'binary', title: 't' }, { timeout: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APITimeoutError);
    expect(attempts()).toBe(1);
  });
});
