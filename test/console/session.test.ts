// The console under its secret base path: a browser sends its cookies for 127.0.0.1 to every local
// server whatever the port, so the session cookie is scoped to a path no other server knows; outside
// it everything is 404. The session lasts a day on the server too, and a jar full of other servers'
// cookies does not lock the user out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole } from '../../src/cli/console/server.js';
import { baseOf, clientOf, closeConsole, consoleFor, openConsole, raw, refreshTarget, type OpenConsole } from './_console.js';

let open: OpenConsole;
beforeAll(async () => void (open = await openConsole()));
afterAll(() => closeConsole(open));

const get = (target: string, headers: Record<string, string> = {}) => raw(open.running.port, 'GET', target, { host: open.host, cookie: open.cookie, ...headers });

describe('the secret base', () => {
  it('is 404 outside it, with or without the session, saying nothing of it; the printed address opens nothing there and still works under it', async () => {
    const fresh = await consoleFor(open.mock);
    try {
      const b = baseOf(fresh);
      const at = new URL(fresh.url).host;
      const token = new URL(fresh.url).searchParams.get('token')!;
      const flipped = `${b.slice(0, -1)}${b.endsWith('A') ? 'B' : 'A'}`;
      for (const target of ['/', `/?token=${token}`, `/questions?token=${token}`, '/questions', '/assets/console.js', `${b}x/questions`, `${flipped}/questions`, `${b.toLowerCase()}/questions`, `/x${b}/questions`]) {
        const answer = await raw(fresh.port, 'GET', target, { host: at });
        expect([answer.status, answer.body, answer.headers['set-cookie']], target).toEqual([404, 'Not found.\n', undefined]);
        expect(JSON.stringify(answer.headers), target).not.toContain(b);
      }
      const opened = await raw(fresh.port, 'GET', `${b}?token=${token}`, { host: at });
      expect([opened.status, refreshTarget(opened)]).toEqual([200, `${b}/`]);
      const session = String((opened.headers['set-cookie'] as string[])[0]).split(';')[0]!;
      expect((await raw(fresh.port, 'GET', '/questions', { host: at, cookie: session })).status).toBe(404);
      expect((await raw(fresh.port, 'POST', '/mock/advance', { host: at, cookie: session, origin: `http://${at}` }, 'ms=1')).status).toBe(404);
      // The base alone leads to the questions; a target after it that is not a path is refused.
      expect((await raw(fresh.port, 'GET', `${b}/`, { host: at, cookie: session })).headers.location).toBe(`${b}/questions`);
      expect((await raw(fresh.port, 'GET', b, { host: at, cookie: session })).headers.location).toBe(`${b}/questions`);
      expect((await raw(fresh.port, 'GET', `${b}//evil.example/questions`, { host: at, cookie: session })).status).toBe(400);
    } finally {
      await fresh.close();
    }
  });

  it('is in every link, form action, asset and redirect of every page, and of every refresh of a live page', async () => {
    const client = clientOf(open.mock);
    const q = await client.questions.create({ type: 'binary', title: 'Linked under the base?' });
    const task = await client.forecasts.create({ questionId: q.id });
    const pages = ['/questions', `/questions/${q.id}`, '/questions?q=Linked', '/tasks', `/tasks/${task.id}`, '/webhooks', '/credits', '/mock', '/nowhere'];
    for (const path of pages) {
      for (const fragment of [false, true]) {
        const answer = await get(`${open.base}${path}`, fragment ? { 'x-console-fragment': '1' } : {});
        const urls = [...answer.body.matchAll(/\s(?:src|href|action)="([^"]*)"/g)].map((m) => m[1]!);
        if (!fragment) expect(urls, path).toEqual(expect.arrayContaining([`${open.base}/assets/console.css`, `${open.base}/assets/console.js`, `${open.base}/questions`]));
        for (const url of urls) expect(url.startsWith(`${open.base}/`), `${path} ${fragment}: ${url}`).toBe(true);
      }
    }
    const form = { host: open.host, cookie: open.cookie, origin: `http://${open.host}`, 'content-type': 'application/x-www-form-urlencoded' };
    const cancelled = await raw(open.running.port, 'POST', `${open.base}/tasks/${task.id}/cancel`, form, 'back=/tasks');
    expect([cancelled.status, cancelled.headers.location]).toEqual([303, `${open.base}/tasks`]);
    // An error page's way back too.
    const failed = await raw(open.running.port, 'POST', `${open.base}/deliveries/no-such-delivery/replay`, form, 'back=/webhooks');
    expect(failed.status).toBe(404);
    expect(failed.body).toContain(`<a href="${open.base}/webhooks">Back</a>`);
  });
});

describe('the session', () => {
  it('ends after a day on the server too, as its cookie does', async () => {
    let now = Date.UTC(2030, 0, 1);
    const running = await startConsole({ client: clientOf(open.mock), baseURL: open.mock.baseURL, apiKey: open.mock.apiKey, now: () => now });
    try {
      const url = new URL(running.url);
      const opened = await raw(running.port, 'GET', `${url.pathname}${url.search}`, { host: url.host });
      expect(String((opened.headers['set-cookie'] as string[])[0])).toMatch(/; Max-Age=86400$/);
      const session = String((opened.headers['set-cookie'] as string[])[0]).split(';')[0]!;
      const questions = () => raw(running.port, 'GET', `${baseOf(running)}/questions`, { host: url.host, cookie: session });
      now += 86_400_000 - 1;
      expect((await questions()).status).toBe(200);
      now += 1;
      const ended = await questions();
      expect([ended.status, ended.body]).toEqual([401, 'Unauthorized: the session ended after a day. Restart the console for a new address.\n']);
    } finally {
      await running.close();
    }
  });

  it('is served through 100 KB of other local servers’ cookies (past Node’s 16 KB default), the session among them', async () => {
    const foreign = Array.from({ length: 25 }, (_, i) => `pad${i}=${'x'.repeat(4000)}`).join('; ');
    expect(foreign.length).toBeGreaterThan(100_000);
    const answer = await get(`${open.base}/questions`, { cookie: `${foreign}; ${open.cookie}` });
    expect(answer.status).toBe(200);
    expect((await get(`${open.base}/questions`, { cookie: foreign })).status).toBe(401);
  });
});
