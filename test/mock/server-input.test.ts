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

describe('methods a path does not take, never a 500', () => {
  const send = (method: string, target: string, key = true) =>
    raw(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${key ? `Authorization: Bearer ${mock.apiKey}\r\n` : ''}Connection: close\r\n\r\n`);
  const header = (text: string, name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(text.slice(0, text.indexOf('\r\n\r\n')))?.[1];

  it('answers TRACE (which a Fetch Request cannot carry) with 405 and Allow on a known path, 404 elsewhere', async () => {
    const { text } = await send('TRACE', '/api/v1/external/questions');
    expect(statusOf(text)).toBe(405);
    expect(header(text, 'allow')).toBe('GET, POST');
    expect(JSON.parse(bodyOf(text))).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'TRACE is not allowed here; allowed: GET, POST' } });
    expect(statusOf((await send('TRACE', '/api/v1/external/nowhere')).text)).toBe(404);
  });

  it('answers CONNECT as a request for its target, then closes: the mock tunnels nothing', async () => {
    const authority = await send('CONNECT', 'example.com:443');
    expect(statusOf(authority.text)).toBe(404);
    expect(authority.closed).toBe(true);
    const path = await send('CONNECT', '/api/v1/external/questions/some-id');
    expect(statusOf(path.text)).toBe(405);
    expect(header(path.text, 'allow')).toBe('GET, PATCH');
  });

  it('survives a CONNECT whose connection is reset before the answer (no key needed): the socket error is handled', async () => {
    for (let i = 0; i < 20; i++) {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
        socket.resetAndDestroy();
      });
      socket.on('error', () => undefined);
      await new Promise((resolve) => socket.once('close', resolve));
    }
    // Let the answers meet their reset connections, then the mock still serves.
    await new Promise((resolve) => setImmediate(resolve));
    expect(statusOf((await send('GET', '/api/v1/external/nowhere')).text)).toBe(404);
  });

  it('answers OPTIONS with 204 and Allow, no key needed', async () => {
    const { text } = await send('OPTIONS', '/api/v1/external/questions', false);
    expect(statusOf(text)).toBe(204);
    expect(header(text, 'allow')).toBe('GET, POST');
    expect(statusOf((await send('OPTIONS', '/api/v1/external/nowhere')).text)).toBe(404);
  });

  it('answers HEAD on a GET route as GET, without the body', async () => {
    const headers = { authorization: `Bearer ${mock.apiKey}` };
    const got = await fetch(`${mock.baseURL}/questions`, { headers });
    const length = (await got.arrayBuffer()).byteLength;
    const { text } = await send('HEAD', '/api/v1/external/questions');
    expect(statusOf(text)).toBe(200);
    expect(header(text, 'content-type')).toBe('application/json');
    expect(header(text, 'content-length')).toBe(String(length));
    expect(bodyOf(text)).toBe('');
    expect(mock.service.requests.last()).toMatchObject({ method: 'HEAD', operation: 'questions.list', status: 200 });
    expect(statusOf((await send('HEAD', '/api/v1/external/questions', false)).text)).toBe(401);
    const post = await send('HEAD', '/api/v1/external/forecasts/batch');
    expect(statusOf(post.text)).toBe(405);
    expect(header(post.text, 'allow')).toBe('POST');
    expect(bodyOf(post.text)).toBe('');
  });

  it('leaves a lowercase or unknown method to Node, which answers 400', async () => {
    for (const method of ['get', 'TRACK', 'BREW']) expect(statusOf((await send(method, '/api/v1/external/questions')).text), method).toBe(400);
  });
});

describe('__proto__ is never a field', () => {
  const auth = () => ({ authorization: `Bearer ${mock.apiKey}` });
  const post = async (path: string, body: BodyInit, headers: Record<string, string> = {}) => {
    const res = await fetch(`${mock.baseURL}${path}`, { method: 'POST', headers: { ...auth(), ...headers }, body });
    return { status: res.status, body: (await res.json()) as { id: string; error?: { message: string } } };
  };
  const json = { 'content-type': 'application/json' };
  const form = (name: string, value: string | File) => {
    const fd = new FormData();
    fd.append('file', new File(['a,b\n1,2'], 'data.csv'));
    fd.append(name, value);
    return fd;
  };

  it('answers 400 naming a multipart field __proto__, on every upload route', async () => {
    const question = await post('/questions', JSON.stringify({ type: 'binary', title: 'Will it rain?' }), json);
    const template = await post('/question-templates', JSON.stringify({ scope: 'personal', name: 'T', questionType: 'binary', fields: { title: 'Will it rain?' }, blanks: [] }), json);
    const preset = await post('/forecast-presets', JSON.stringify({ scope: 'personal', name: 'P' }), json);
    for (const id of [question.body.id, template.body.id, preset.body.id]) expect(id).toBeTypeOf('string');
    const routes = [`/questions/${question.body.id}/files`, `/question-templates/${template.body.id}/files`, `/forecast-presets/${preset.body.id}/files`];
    for (const path of routes) {
      for (const value of ['text', new File(['x'], 'x.txt')]) {
        const res = await post(path, form('__proto__', value));
        expect(res.status, path).toBe(400);
        expect(res.body.error?.message).toBe('__proto__: is not a field the service takes');
      }
    }
  });

  it('answers 400 naming a __proto__ key of a JSON body or a query', async () => {
    const body = await post('/question-templates/00000000-0000-4000-8000-00000000b001/apply', '{"templateValues":{"event":"x","deadline":"y","__proto__":"z"}}', json);
    expect(body.status).toBe(400);
    expect(body.body.error?.message).toBe('templateValues.__proto__: is not a field the service takes');
    const query = await fetch(`${mock.baseURL}/questions?__proto__=a&__proto__=b`, { headers: auth() });
    expect(query.status).toBe(400);
  });
});
