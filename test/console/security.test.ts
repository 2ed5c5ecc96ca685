// The console's door, each rule with the request that breaks it: loopback only, the access token
// (a cookie, HttpOnly and SameSite=Strict), its own Host only (DNS rebinding), a same-origin Origin
// for every change, a strict policy on every answer, and the key in no byte it serves.
import { readFileSync, readdirSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { gzipSync } from 'node:zlib';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/testing/index.js';
import type { RunningConsole } from '../../src/cli/console/server.js';
import { baseOf, clientOf, closeConsole, consoleFor, openConsole, raw, refreshTarget } from './_console.js';

let mock: MockServer;
let running: RunningConsole;
let cookie: string;
let host: string;
let base: string;
beforeAll(async () => void ({ mock, running, cookie, host, base } = await openConsole()));
afterAll(() => closeConsole({ mock, running }));

/** A GET of a path of the console (under its secret base). */
const get = (path: string, headers: Record<string, string> = {}) => raw(running.port, 'GET', `${base}${path}`, { host, cookie, ...headers });

describe('forecasting console: who may talk to it', () => {
  it('listens on 127.0.0.1 only, and prints an address under a secret base of 128 random bits with a token of 192', async () => {
    expect(running.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${running.port}/[A-Za-z0-9_-]{22}/\\?token=[A-Za-z0-9_-]{32}$`));
    const others = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).filter((a) => a.family === 'IPv4' && !a.internal).map((a) => a.address));
    for (const address of others) {
      const refused = await new Promise<string>((resolve) => {
        const socket = connect({ host: address, port: running.port }, () => {
          socket.destroy();
          resolve('connected');
        });
        socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
      });
      expect(refused).toBe('ECONNREFUSED');
    }
  });

  it('answers 401 without the token, or with a wrong one; the printed address sets a session cookie (HttpOnly, SameSite=Strict, named by port, for the secret base only), drops the token from the address, and works once', async () => {
    const fresh = await consoleFor(mock);
    try {
      const at = new URL(fresh.url).host;
      const name = `forecasting_console_${fresh.port}`;
      const b = baseOf(fresh);
      expect((await raw(fresh.port, 'GET', `${b}/questions`, { host: at })).status).toBe(401);
      expect((await raw(fresh.port, 'GET', `${b}/questions`, { host: at, cookie: `${name}=nope` })).status).toBe(401);
      expect((await raw(fresh.port, 'GET', `${b}/?token=nope`, { host: at })).status).toBe(401);
      const token = new URL(fresh.url).searchParams.get('token')!;
      const first = await raw(fresh.port, 'GET', `${b}/tasks?token=${token}`, { host: at });
      // A page of the console's own that moves on (a 303 would carry no Strict cookie in Chromium
      // when the address is opened from elsewhere: browser.test.ts opens it through --open).
      expect([first.status, first.headers.location, refreshTarget(first)]).toEqual([200, undefined, `${b}/tasks`]);
      const [set] = first.headers['set-cookie'] as string[];
      expect(set!.endsWith(`; Path=${b}; Max-Age=86400`)).toBe(true);
      expect(set).toMatch(new RegExp(`^${name}=[A-Za-z0-9_-]{32}; HttpOnly; SameSite=Strict; Path=/[A-Za-z0-9_-]{22}; Max-Age=86400$`));
      const session = set!.split(';')[0]!;
      // The cookie holds a session, not the token: the token is not a cookie that opens the console.
      expect(session).not.toContain(token);
      expect((await raw(fresh.port, 'GET', `${b}/questions`, { host: at, cookie: `${name}=${token}` })).status).toBe(401);
      expect((await raw(fresh.port, 'GET', `${b}/questions`, { host: at, cookie: session })).status).toBe(200);
      // The address opens nothing a second time (a shared screen, a history, a log).
      const again = await raw(fresh.port, 'GET', `${b}/?token=${token}`, { host: at });
      expect(again.status).toBe(401);
      expect(again.body).toMatch(/used already/);
      // The assets too: nothing is served without the session.
      expect((await raw(fresh.port, 'GET', `${b}/assets/console.js`, { host: at })).status).toBe(401);
      // A cookie of the same name another local server set for a longer path, sent first, shadows nothing.
      expect((await raw(fresh.port, 'GET', `${b}/questions`, { host: at, cookie: `${name}=tossed; ${session}` })).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it('answers 400 to a target that is not a path, and keeps serving (nothing a request holds ends the process)', async () => {
    for (const target of ['//', '//[', '//%5B/', '//%zz', 'http://evil.example/questions']) {
      expect((await raw(running.port, 'GET', target, { host, cookie })).status, target).toBe(400);
      // Before the token too: a page of any site can send these.
      expect((await raw(running.port, 'GET', target, { host })).status, target).toBe(400);
    }
    expect((await get('/questions')).status).toBe(200);
  });

  it('answers 400 to a malformed escape in a page’s address, and Node’s own refusals (431 headers past its 1 MiB) carry the console’s policy headers too', async () => {
    const bad = await get('/tasks/%E0%A4%A');
    expect([bad.status, bad.body]).toEqual([400, 'Bad request: a malformed escape in the path.\n']);
    const text = await new Promise<string>((resolve, reject) => {
      let got = '';
      const socket = connect(running.port, '127.0.0.1', () => socket.write(`GET ${base}/questions HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'x'.repeat(1024 * 1024)}\r\n\r\n`));
      socket.setEncoding('utf8').on('data', (d: string) => (got += d)).on('end', () => resolve(got)).on('error', reject);
    });
    expect(text).toMatch(/^HTTP\/1\.1 431 /);
    expect(text.toLowerCase()).toContain('\r\nx-frame-options: deny\r\n');
    expect(text.toLowerCase()).toContain('\r\ncontent-security-policy: ');
    expect((await get('/questions')).status).toBe(200);
  });

  it('answers what Node would answer alone with the console’s headers too: no Host (421), an unknown Expect (417), CONNECT (405); and closes a bad request’s connection even when the client keeps its side open', async () => {
    /**
     * Writes raw bytes and keeps its own side open. After the answer it goes on writing: only a
     * connection the console closed for good answers that with a reset (one it only half-closed
     * would take the bytes, and hold a descriptor for as long as the client likes). `held` after 2 s.
     */
    const exchange = (bytes: string) =>
      new Promise<string>((resolve, reject) => {
        let got = '';
        const socket = connect({ port: running.port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.write(bytes));
        let poke: NodeJS.Timeout | undefined;
        const held = setTimeout(() => socket.destroy(new Error('held')), 2_000);
        socket.setEncoding('utf8').on('data', (d: string) => (got += d));
        socket.on('error', (err: NodeJS.ErrnoException) => (/^(ECONNRESET|EPIPE)$/.test(err.code ?? '') ? undefined : reject(err)));
        socket.on('close', () => (clearTimeout(held), clearInterval(poke), resolve(got)));
        socket.on('end', () => (poke = setInterval(() => socket.write('more'), 20)));
      });
    const answers = {
      421: await exchange(`GET /questions HTTP/1.1\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`),
      417: await exchange(`GET /questions HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}\r\nExpect: something-else\r\nConnection: close\r\n\r\n`),
      405: await exchange(`CONNECT 127.0.0.1:${running.port} HTTP/1.1\r\nHost: ${host}\r\n\r\n`),
      400: await exchange(`GET /questions HTTP/1.1\r\nHost: ${host}\r\nNot a header\r\n\r\n`),
    };
    for (const [status, text] of Object.entries(answers)) {
      expect(text, status).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(text.toLowerCase(), status).toContain('\r\nx-frame-options: deny\r\n');
    }
    expect((await get('/questions')).status).toBe(200);
  });

  it('answers 421 to any other Host (a rebound DNS name, another port, none)', async () => {
    for (const other of ['evil.example', `evil.example:${running.port}`, `127.0.0.1:${running.port + 1}`, '127.0.0.1', '']) {
      const answer = await raw(running.port, 'GET', `${base}/questions`, { host: other, cookie });
      expect(answer.status, other).toBe(421);
    }
    expect((await raw(running.port, 'GET', `${base}/questions`, { host: `localhost:${running.port}`, cookie })).status).toBe(200);
  });

  it('refuses a change (403) without the same-origin Origin, and makes it with it', async () => {
    const q = await clientOf(mock).questions.create({ type: 'binary', title: 'Cancelled from the console?' });
    const task = await clientOf(mock).forecasts.create({ questionId: q.id });
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const path = `${base}/tasks/${task.id}/cancel`;
    for (const origin of [undefined, 'http://evil.example', `http://127.0.0.1:${running.port + 1}`, 'null']) {
      const answer = await raw(running.port, 'POST', path, { host, cookie, ...form, ...(origin ? { origin } : {}) }, 'back=/tasks');
      expect(answer.status, String(origin)).toBe(403);
    }
    // A page of another site can send the cookie-less form: the token is still missing.
    expect((await raw(running.port, 'POST', path, { host, origin: `http://${host}`, ...form }, 'back=/tasks')).status).toBe(401);
    expect((await clientOf(mock).forecasts.retrieve(task.id)).status).not.toBe('cancelled');
    for (const back of ['/\t/evil.example', '/\\evil.example', '/ok\nSet-Cookie: x=1']) {
      const answer = await raw(running.port, 'POST', `${base}/mock/advance`, { host, cookie, origin: `http://${host}`, ...form }, new URLSearchParams({ back, ms: '0' }).toString());
      expect(answer.headers.location, JSON.stringify(back)).toBe(`${base}/mock`);
    }
    // A `back` a header cannot carry (not ASCII) leads to the fallback, not to a failure after the action ran.
    const wide = await raw(running.port, 'POST', `${base}/mock/advance`, { host, cookie, origin: `http://${host}`, ...form }, new URLSearchParams({ back: '/questions/\u0100', ms: '0' }).toString());
    expect([wide.status, wide.headers.location]).toEqual([303, `${base}/mock`]);
    const done = await raw(running.port, 'POST', path, { host, cookie, origin: `http://${host}`, ...form }, 'back=//evil.example/');
    expect(done.status).toBe(303);
    // `back` leads inside the console only.
    expect(done.headers.location).toBe(`${base}/tasks/${task.id}`);
    expect((await clientOf(mock).forecasts.retrieve(task.id)).status).toBe('cancelled');
  });

  it('sends a strict Content-Security-Policy and no third-party asset with every answer', async () => {
    for (const path of ['/questions', '/tasks', '/webhooks', '/credits', '/mock', '/assets/console.css', '/assets/console.js', '/nowhere']) {
      const answer = await get(path);
      expect(answer.headers['content-security-policy'], path).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['referrer-policy']).toBe('same-origin');
      expect(answer.headers['cache-control']).toBe('no-store');
      // Every src, href and form action is a path of the console itself, under its base.
      for (const [, url] of answer.body.matchAll(/(?:src|href|action)="([^"]*)"/g)) expect(url!.startsWith(`${base}/`), `${path}: ${url}`).toBe(true);
    }
  });
});

describe('forecasting console: the key', () => {
  it('appears in no byte it serves, an error quoting it included; an error shows its message and request id', async () => {
    const client = clientOf(mock);
    const q = await client.questions.create({ type: 'numeric', title: 'Key never shown?', lowerBound: 0, upperBound: 10, scaleType: 'linear' });
    const task = await client.forecasts.createAndWait({ questionId: q.id, runMode: 'light' });
    const pages = ['/questions', `/questions/${q.id}`, '/tasks', `/tasks/${task.id}`, '/webhooks', '/credits', '/mock', '/assets/console.js', '/assets/console.css', '/questions/no-such-question'];
    for (const path of pages) {
      const answer = await get(path);
      if (!path.includes('no-such')) expect(answer.status, path).toBe(200);
      expect(JSON.stringify(answer), path).not.toContain(mock.apiKey);
    }
    const missing = await get('/questions/no-such-question');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatch(/NotFoundError<\/strong>: .*no-such-question/);
    expect(missing.body).toMatch(/request <code>[^<]+<\/code>/);

    // The service's error text quoting the key (as a careless proxy might) is blanked.
    mock.service.faults.add({ operation: 'credits.retrieve', status: 500, message: `upstream refused key ${mock.apiKey}`, times: 5 });
    const quoted = await get('/credits');
    expect(quoted.status).toBe(502);
    expect(quoted.body).toContain('upstream refused key [redacted]');
    expect(quoted.body).not.toContain(mock.apiKey);
    // Past where a long message would be clipped: the SDK has put `[redacted]` for the key before
    // the console reads the message, so no start of the key is left to cut.
    mock.service.faults.clear();
    mock.service.faults.add({ operation: 'credits.retrieve', status: 400, message: `${'A'.repeat(280)}${mock.apiKey}`, times: 5 });
    const clipped = await get('/credits');
    expect(clipped.body).toMatch(/A{280}\[redacted\] \(GET \/credits\)/);
    expect(clipped.body).not.toContain(mock.apiKey.slice(0, 8));
    mock.service.faults.clear();
  });
});

describe('forecasting console: built light', () => {
  it('weighs at most 100 KB gzipped a page, its style sheet and script included', async () => {
    const client = clientOf(mock);
    const q = await client.questions.create({ type: 'numeric', title: 'How heavy is a page?', lowerBound: 0, upperBound: 100, scaleType: 'linear' });
    for (let i = 0; i < 3; i++) await client.forecasts.createAndWait({ questionId: q.id, runMode: 'light' });
    const parts = await Promise.all([`/questions/${q.id}`, '/assets/console.css', '/assets/console.js'].map((path) => get(path)));
    const gzipped = parts.reduce((sum, part) => sum + gzipSync(part.body).length, 0);
    expect(gzipped).toBeGreaterThan(1024);
    expect(gzipped).toBeLessThan(100 * 1024);
  });

  it("is loaded by none of the library's entries: only the CLI serves it", () => {
    const dist = new URL('../../dist/', import.meta.url);
    const library = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(c?js|mjs)$/.test(f) && !f.startsWith('cli'));
    expect(library.length).toBeGreaterThan(10);
    for (const file of library) expect(readFileSync(new URL(file, dist), 'utf8'), file).not.toContain('forecasting_console');
    const cli = readdirSync(new URL('cli/', dist), { recursive: true, encoding: 'utf8' }).map((f) => readFileSync(new URL(`cli/${f}`, dist), 'utf8'));
    expect(cli.some((text) => text.includes('forecasting_console'))).toBe(true);
  });
});
