// Two edges of HTTP/1.1 a client may send the mock over a raw connection: an `Expect` it cannot
// meet, and bytes that are not HTTP pipelined behind a request it is still answering.
import { ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';
import { serveMock } from '../../src/testing/server.js';
import { DEFAULT_SERVER_LIMITS } from '../../src/testing/server-guard.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ clock: new ManualClock() });
});
afterAll(() => mock.close());

/** Writes `bytes` on a new connection and reads until the server closes it. */
function exchange(bytes: string): Promise<string> {
  const { port } = new URL(mock.baseURL);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

const request = (line: string, extra = '') => `${line} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${mock.apiKey}\r\n${extra}\r\n`;
/** Each answer on the connection: its status and its envelope's error, if any. */
const answers = (text: string) =>
  text
    .split(/(?=HTTP\/1\.1 \d{3} )/)
    .map((one) => ({ status: Number(one.slice(9, 12)), body: one.slice(one.indexOf('\r\n\r\n') + 4) }))
    .map(({ status, body }) => ({ status, error: (JSON.parse(body) as { error?: { type: string; message: string } }).error }));

describe('the mock over a raw HTTP/1.1 connection', () => {
  it('answers an Expect it cannot meet with 417 in the error envelope, not echoing the header, and closes', async () => {
    const before = mock.service.store.questions.size;
    const text = await exchange(request('POST /api/v1/external/questions', `Expect: pre_secret_in_expect\r\nContent-Type: application/json\r\nContent-Length: 40\r\n`));
    expect(answers(text)).toEqual([{ status: 417, error: { type: 'invalid_request_error', message: 'The Expect header asks for what the mock cannot meet: it meets only 100-continue' } }]);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(text).not.toContain('pre_secret_in_expect');
    expect(mock.service.store.questions.size).toBe(before);
  });

  it('answers a request first, then refuses the bytes that are not HTTP pipelined behind it, and closes', async () => {
    const text = await exchange(`${request('GET /api/v1/external/questions')}this is not HTTP\r\n\r\n`);
    const [first, second, ...rest] = answers(text);
    expect(first).toEqual({ status: 200, error: undefined });
    expect(second).toEqual({ status: 400, error: { type: 'invalid_request_error', message: 'The request is not valid HTTP/1.1' } });
    expect(rest).toEqual([]);
  });

  it('refuses bytes that are not HTTP after every answer queued before them, not in the place of the last', async () => {
    const before = mock.service.store.questions.size;
    // The second answer is made after the first is out: a refusal written then would read as it.
    mock.service.faults.add({ path: '/tags', method: 'GET', delayMs: 100 });
    mock.service.faults.add({ operation: 'questions.create', delayMs: 300 });
    const body = JSON.stringify({ type: 'binary', title: 'Pipelined?' });
    const text = await exchange(
      request('GET /api/v1/external/tags') + request('POST /api/v1/external/questions', `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n`) + body + 'this is not HTTP\r\n\r\n',
    );
    expect(answers(text).map((a) => a.status)).toEqual([200, 201, 400]);
    expect(mock.service.store.questions.size).toBe(before + 1);
  });

  it('decides once for bytes that are not HTTP trickled behind a pending answer (no listener per chunk)', async () => {
    const registered = vi.spyOn(ServerResponse.prototype, 'once');
    mock.service.faults.add({ path: '/tags', delayMs: 300 });
    try {
      const { port } = new URL(mock.baseURL);
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('utf8')));
      const closed = new Promise((resolve) => socket.on('close', resolve));
      socket.write(`${request('GET /api/v1/external/tags')}not HTTP`);
      // Chunks a few milliseconds apart, each met by Node's parser with the same error.
      for (let i = 0; i < 20; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        socket.write('\u0000');
      }
      await closed;
      expect(answers(text).map((a) => a.status)).toEqual([200, 400]);
      expect(registered.mock.calls.filter(([event]) => event === 'finish')).toHaveLength(1);
    } finally {
      registered.mockRestore();
      mock.service.faults.clear();
    }
  });

  it('sends nothing after a 417 that closed the connection, though the answer before it was late', async () => {
    mock.service.faults.add({ path: '/tags', method: 'GET', delayMs: 100 });
    const text = await exchange(`${request('GET /api/v1/external/tags')}${request('POST /api/v1/external/questions', 'Expect: x\r\nContent-Length: 2\r\n')}{}GARBAGE\r\n\r\n`);
    expect(answers(text).map((a) => a.status)).toEqual([200, 417]);
  });

  it('closes a connection on which nothing moves either way for idleMs (an answer that never comes, a client that never reads)', async () => {
    const quiet = await serveMock({ clock: new ManualClock() }, { ...DEFAULT_SERVER_LIMITS, idleMs: 300 });
    try {
      quiet.service.faults.add({ path: '/tags', delayMs: 60_000 });
      const socket = connect(Number(new URL(quiet.baseURL).port), '127.0.0.1');
      socket.on('error', () => undefined);
      const started = performance.now();
      await new Promise((resolve) => {
        socket.on('close', resolve);
        socket.write(`GET /api/v1/external/tags HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      });
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(DEFAULT_SERVER_LIMITS.idleMs).toBe(120_000);
    } finally {
      await quiet.close();
    }
  });

  it('still serves Expect: 100-continue', async () => {
    const body = JSON.stringify({ type: 'binary', title: 'Continue?' });
    const text = await exchange(request('POST /api/v1/external/questions', `Expect: 100-continue\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n`) + body);
    expect(text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
  });
});
