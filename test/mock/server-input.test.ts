// Bad input over real HTTP: oversized bodies answered and the connection closed without reading the
// rest, and routing by the request path alone. Raw sockets where fetch would tidy the request up.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';

const MiB = 1024 * 1024;
let mock: MockServer;
let port: number;

beforeEach(async () => {
  mock = await startMockServer({ clock: new ManualClock() });
  port = Number(new URL(mock.baseURL).port);
});
afterEach(() => mock.close());

/** Sends raw bytes on a new connection; resolves with everything the server sent once it closes (or after `ms`). */
function raw(head: string, body = '', ms = 3_000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, ms);
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('error', (err) => (text ? undefined : reject(err)));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    socket.write(head + body);
  });
}

const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
const bodyOf = (text: string) => text.slice(text.indexOf('\r\n\r\n') + 4);

describe('oversized bodies over HTTP', () => {
  it('answers 413 to a declared Content-Length over the cap at once, and closes the connection', async () => {
    const head = `POST /api/v1/external/questions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${mock.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${100 * MiB}\r\n\r\n`;
    const { text, closed } = await raw(head, '{"type":"bin');
    expect(statusOf(text)).toBe(413);
    expect(JSON.parse(bodyOf(text))).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
    expect(text.toLowerCase()).toContain('connection: close');
    expect(closed).toBe(true);
    expect(mock.service.requests.last()).toMatchObject({ operation: 'questions.create', status: 413 });
  });

  it('stops reading a chunked body at the cap, answers 413 and closes', async () => {
    const result = await new Promise<{ status: number; body: string; written: number }>((resolve, reject) => {
      const req = httpRequest(`${mock.baseURL}/questions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${mock.apiKey}`, 'content-type': 'application/json' },
      });
      let written = 0;
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let answered = false;
      const pump = () => {
        while (!answered && written < 64 * MiB) {
          written += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!answered) req.end();
      };
      req.on('response', (res) => {
        answered = true;
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body, written }));
        res.on('error', reject);
      });
      req.on('error', (err) => (answered ? undefined : reject(err)));
      pump();
    });
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body).error.type).toBe('request_too_large');
    // The server stopped long before the 64 MiB the client had to send (socket buffers hold a few MiB).
    expect(result.written).toBeLessThan(32 * MiB);
    expect(mock.service.store.questions.size).toBe(0);
  });

  it('answers fetch with 413 for a 2 MiB JSON body, and keeps serving', async () => {
    const headers = { authorization: `Bearer ${mock.apiKey}`, 'content-type': 'application/json' };
    const big = JSON.stringify({ type: 'binary', title: 'Too big?', description: 'x'.repeat(2 * MiB) });
    const res = await fetch(`${mock.baseURL}/questions`, { method: 'POST', headers, body: big });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('request_too_large');
    const ok = await fetch(`${mock.baseURL}/questions`, { method: 'POST', headers, body: JSON.stringify({ type: 'binary', title: 'Small?' }) });
    expect(ok.status).toBe(201);
  });
});

describe('routing by the request path alone', () => {
  const get = (target: string, host: string) =>
    raw(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${mock.apiKey}\r\nConnection: close\r\n\r\n`);

  it('ignores a forged Host header that carries a path', async () => {
    const { text } = await get('/api/v1/external/questions', '127.0.0.1/api/v1/external/tags#');
    expect(statusOf(text)).toBe(200);
    expect(mock.service.requests.last()).toMatchObject({ operation: 'questions.list', path: '/questions' });
  });

  it('routes an absolute-form target by its path and query, whatever host it names', async () => {
    const { text } = await get('http://elsewhere.example/api/v1/external/questions?limit=1', `127.0.0.1:${port}`);
    expect(statusOf(text)).toBe(200);
    expect(mock.service.requests.last()).toMatchObject({ operation: 'questions.list', path: '/questions?limit=1' });
  });

  it('never reads a doubled slash as a host', async () => {
    const { text } = await get('//elsewhere.example/api/v1/external/questions', `127.0.0.1:${port}`);
    expect(statusOf(text)).toBe(404);
  });

  it('ignores a forged Host sent through http.request', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/api/v1/external/questions', headers: { host: 'evil.example/api/v1/external/tags#', authorization: `Bearer ${mock.apiKey}` } });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    expect(mock.service.requests.last()?.operation).toBe('questions.list');
  });
});
