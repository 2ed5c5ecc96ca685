// Real sockets on 127.0.0.1 (no msw here): bodies that trickle, aborts mid-body, redirects.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { APIError, APITimeoutError, ForecastingClient, InternalServerError } from '../../src/index.js';
import { KEY, question } from './helpers.js';

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => { s.close(r); s.closeAllConnections(); })));
  servers = [];
});

type Handler = (attempt: number, req: IncomingMessage, res: ServerResponse) => void;

async function serve(handler: Handler) {
  let attempt = 0;
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    req.resume();
    req.on('end', () => handler(++attempt, req, res));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, baseURL: `${origin}/api/v1/external`, attempts: () => attempt, seen };
}

/** Answers the status and headers at once, then one byte of body every 20 ms, forever. */
const trickle =
  (status: number): Handler =>
  (_, __, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.write('{"type":"error","error":{"type":"x","message":"');
    const drip = setInterval(() => res.write('a'), 20);
    res.on('close', () => clearInterval(drip));
  };

const client = (baseURL: string, extra: Partial<ConstructorParameters<typeof ForecastingClient>[0]> = {}) =>
  new ForecastingClient({ apiKey: KEY, baseURL, retryBackoff: { initialDelay: 0, maxDelay: 0 }, logLevel: 'off', ...extra });

/** How long `promise` takes to settle, and what it settled with. */
async function timed(promise: Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const start = performance.now();
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { ms: performance.now() - start, error };
}

describe('timeout covers the whole attempt, body included', () => {
  it('ends a 2xx answer whose body trickles in APITimeoutError within the timeout', async () => {
    const { baseURL, attempts } = await serve(trickle(200));
    const { ms, error } = await timed(client(baseURL, { timeout: 300, maxRetries: 0 }).questions.retrieve('q1'));
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(ms).toBeLessThan(1500);
    expect(attempts()).toBe(1);
  });

  it('ends an error answer whose body trickles in APITimeoutError too', async () => {
    const { baseURL } = await serve(trickle(500));
    const { ms, error } = await timed(client(baseURL, { timeout: 300, maxRetries: 0 }).questions.retrieve('q1'));
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error).not.toBeInstanceOf(InternalServerError);
    expect(ms).toBeLessThan(1500);
  });

  it('retries a slow body like any timeout, then answers', async () => {
    const { baseURL, attempts } = await serve((n, req, res) => {
      if (n === 1) return trickle(200)(n, req, res);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(question('q1')));
    });
    const q = await client(baseURL, { timeout: 300, maxRetries: 1 }).questions.retrieve('q1');
    expect(q.id).toBe('q1');
    expect(attempts()).toBe(2);
  });

  it('takes a per-request timeout for the body too', async () => {
    const { baseURL } = await serve(trickle(200));
    const { ms, error } = await timed(client(baseURL, { timeout: 60_000, maxRetries: 0 }).questions.retrieve('q1', { timeout: 200 }));
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(ms).toBeLessThan(1500);
  });
});

describe('an abort is never lost', () => {
  it('rejects with the caller’s reason at once when aborted while the body is read', async () => {
    const { baseURL, attempts } = await serve(trickle(200));
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const call = client(baseURL, { timeout: 0 }).questions.retrieve('q1', { signal: controller.signal });
    // Abort once the body has started to arrive.
    while (attempts() === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 60));
    controller.abort(reason);
    const { ms, error } = await timed(call);
    expect(error).toBe(reason);
    expect(ms).toBeLessThan(200);
  });
});

describe('redirects are not followed', () => {
  it('ends a 3xx as an APIError with its status and headers, and sends nothing to the Location', async () => {
    const elsewhere = await serve((_, __, res) => res.writeHead(200).end('{}'));
    const { baseURL } = await serve((_, __, res) => res.writeHead(302, { location: `${elsewhere.origin}/steal` }).end());
    const err = await client(baseURL, { maxRetries: 2 }).questions.retrieve('q1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).status).toBe(302);
    expect((err as APIError).headers.get('location')).toBe(`${elsewhere.origin}/steal`);
    expect((err as Error).message).toContain('redirect');
    expect(elsewhere.attempts()).toBe(0);
  });

  it('does not follow a 307 on a POST either (the body and key would go with it)', async () => {
    const elsewhere = await serve((_, __, res) => res.writeHead(200).end('{}'));
    const { baseURL, attempts } = await serve((_, __, res) => res.writeHead(307, { location: `${elsewhere.origin}/steal` }).end());
    const err = await client(baseURL).questions.create({ type: 'binary', title: 'Will it rain?' }).catch((e: unknown) => e);
    expect((err as APIError).status).toBe(307);
    expect(attempts()).toBe(1);
    expect(elsewhere.attempts()).toBe(0);
  });
});
