// Many bodies at once: each request has its own cap, and the server bounds what all its connections
// hold together (150 clients each parking a 10 MiB upload held 1.5 GB). A 900 KiB bound here, through
// the internal serveMock, so the test sends little.
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock, MAX_HELD_BODY_BYTES, type MockServer } from '../../src/testing/index.js';
import { serveMock } from '../../src/testing/server.js';
import { DEFAULT_SERVER_LIMITS } from '../../src/testing/server-guard.js';

const HELD = 900 * 1024;
let mock: MockServer;
beforeAll(async () => {
  mock = await serveMock({ clock: new ManualClock() }, { ...DEFAULT_SERVER_LIMITS, heldBodyBytes: HELD });
});
afterAll(() => mock.close());

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A chunked POST /questions that sends `bytes` of a JSON body and holds it open until `finish()`. */
function parked(bytes: number): { req: ClientRequest; answer: Promise<Answer>; finish(): void } {
  const req = request(`${mock.baseURL}/questions`, { method: 'POST', headers: { authorization: `Bearer ${mock.apiKey}`, 'content-type': 'application/json' } });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
  });
  req.write(`{"type":"binary","title":"Held?","description":"${'x'.repeat(bytes)}`);
  return { req, answer, finish: () => req.end('"}') };
}

describe('the request bodies a mock server holds at once', () => {
  it('is 256 MiB by default', () => {
    expect(MAX_HELD_BODY_BYTES).toBe(256 * 1024 * 1024);
    expect(DEFAULT_SERVER_LIMITS.heldBodyBytes).toBe(MAX_HELD_BODY_BYTES);
  });

  it('answers 503 overloaded_error with Retry-After to the body that passes the bound, and frees what an answered request held', async () => {
    const a = parked(500 * 1024);
    const b = parked(500 * 1024);
    // Neither body is complete: the one whose bytes passed the bound in all is answered, the other waits.
    const refused = await Promise.race([a.answer.then(() => a), b.answer.then(() => b)]);
    const waiting = refused === a ? b : a;
    const answer = await refused.answer;
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.headers['connection']).toBe('close');
    expect(JSON.parse(answer.body)).toEqual({ type: 'error', error: { type: 'overloaded_error', message: `The mock server holds ${HELD} bytes of request bodies at most, across its connections: try again shortly` } });
    waiting.finish();
    expect((await waiting.answer).status).toBe(201);
    // Both answered: their bytes are free again, and a third body of the same size is taken.
    const c = parked(500 * 1024);
    c.finish();
    expect((await c.answer).status).toBe(201);
  });

  it('refuses one body over the bound by itself, though within its own cap (1 MiB of JSON)', async () => {
    const upload = parked(950 * 1024);
    expect((await upload.answer).status).toBe(503);
  });

  it('frees the body of a pipelined request once it is answered, though its answer waits behind another', async () => {
    // B's answer waits behind A's (60 s late): held until then, its bytes would keep every later body out.
    mock.service.faults.add({ path: '/run-modes', delayMs: 60_000 });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const socket = connect(Number(new URL(mock.baseURL).port), '127.0.0.1');
    socket.on('error', () => undefined);
    try {
      const body = 'x'.repeat(800 * 1024);
      const post = (n: number) => `POST /api/v1/external/questions?n=${n} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${n === 0 ? body.length : 2}\r\n\r\n${n === 0 ? body : '{}'}`;
      // A, then B with its body, then a dozen more with bodies: one connection, every answer queued.
      socket.write(`GET /api/v1/external/run-modes HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n${Array.from({ length: 13 }, (_, n) => post(n)).join('')}`);
      // B is read and answered (401: no key), its answer queued behind A's.
      await vi.waitFor(() => expect(mock.service.requests.list({ method: 'POST' }).filter((r) => r.status === 401)).toHaveLength(13), { timeout: 5_000 });
      const later = parked(500 * 1024);
      later.finish();
      expect((await later.answer).status).toBe(201);
      // No listener per queued body on the connection (Node warns past 10).
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      socket.destroy();
      mock.service.faults.clear();
    }
  });
});
