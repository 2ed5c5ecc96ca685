// What docs/console.md promises and no other test checked, against the mock on a manual clock: the pages, the
// door, the key; the command (a free port, Ctrl-C, Retry-After) and, in Chromium, the live refresh.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FINAL_STATUSES } from '../../src/cli/output.js';
import { forecastSvg } from '../../src/cli/console/svg.js';
import { when } from '../../src/cli/console/view.js';
import type { RunningConsole } from '../../src/cli/console/server.js';
import { ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';
import { envFor, start, type Running } from '../cli/_cli.js';
import { launchChromium } from '../_setup/chromium.js';
import { baseOf, clientOf, consoleFor, cookieOf, raw, refreshTarget, unmounted, type Answer } from './_console.js';

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const SECOND_LINE = 'The Forecasting console: open the address above (its token opens one browser, once). Ctrl-C stops it.\n';

let clock: ManualClock, mock: MockServer, running: RunningConsole, cookie: string, host: string;
let plain: MockServer, plainConsole: RunningConsole, receiver: Server, proxy: Server, browser: Browser;
/** The second console's session (made by the sessions test), the delivery the broken receiver failed (by the webhooks test). */
let [plainCookie, sentBroken] = ['', ''];
const hooks: Record<'unsent' | 'broken' | 'ok', string> = { unsent: '', broken: '', ok: '' };
/** Every answer a console gave in this file, for the last test to search for the key. */
const served: Answer[] = [];
/** Calls the proxy in front of the mock saw, by path; the Retry-After of its first answer to a path. */
const proxied = new Map<string, number>();
const RETRY_AFTER: Record<string, string> = { '/api/v1/external/questions': '5', '/api/v1/external/credits': '6' };

const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

/** In front of the mock: 404 for its control routes, a first 503 with a Retry-After for a path of RETRY_AFTER, else the mock's answer. */
async function relay(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://proxy.invalid').pathname;
  if (path.startsWith('/__mock')) return void res.writeHead(404).end();
  proxied.set(path, (proxied.get(path) ?? 0) + 1);
  if (proxied.get(path) === 1 && RETRY_AFTER[path]) {
    res.writeHead(503, { 'retry-after': RETRY_AFTER[path], 'content-type': 'application/json' });
    return void res.end(JSON.stringify({ error: { type: 'service_unavailable', message: 'busy for a moment' } }));
  }
  const answer = await fetch(new URL(req.url ?? '/', mock.baseURL).href, { headers: { authorization: req.headers.authorization ?? '' } });
  res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
}

beforeAll(async () => {
  clock = new ManualClock();
  mock = await startMockServer({ clock, httpControls: true, webhooks: { allowLoopbackReceivers: true } });
  // A receiver that answers 500 after 1234 ms of mock time (and no real time), or 200.
  receiver = createServer((req, res) => {
    req.resume();
    if (req.url === '/broken') clock.advance(1234);
    res.writeHead(req.url === '/broken' ? 500 : 200).end();
  });
  const at = `http://127.0.0.1:${await listen(receiver)}`;
  proxy = createServer((req, res) => void relay(req, res).catch(() => res.destroy()));
  await listen(proxy);
  // Paused: no other test's forecast makes a delivery; test calls are still sent.
  for (const [name, url] of [['unsent', 'https://receiver.example.com/hook'], ['broken', `${at}/broken`], ['ok', `${at}/ok`]] as const) {
    hooks[name] = (await clientOf(mock).webhooks.create({ url, eventKinds: ['forecast.completed'] })).id;
    await clientOf(mock).webhooks.update(hooks[name], { enabled: false });
  }
  running = await consoleFor(mock);
  [cookie, host] = [await cookieOf(running), new URL(running.url).host];
  plainConsole = await consoleFor((plain = await startMockServer({ clock: new ManualClock() })));
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all([running?.close(), plainConsole?.close(), ...[receiver, proxy].map((server) => server && new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))))]);
  await Promise.all([mock?.close(), plain?.close()]);
});

/** A request to a path of the console on `port` (under its secret base), its answer's links read from the console's root. */
const on = (port: number, method: string, path: string, headers: Record<string, string>, body?: string, base = baseOf(port === running.port ? running : plainConsole)) =>
  raw(port, method, `${base}${path}`, headers, body).then((a) => (served.push(a), unmounted(a, base)));
const get = (path: string, headers: Record<string, string> = {}) => on(running.port, 'GET', path, { host, cookie, ...headers });
const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = { origin: `http://${host}` }) => on(running.port, 'POST', path, { host, cookie, ...FORM, ...headers }, new URLSearchParams(fields).toString());
const page = async (path: string) => (await get(path)).body;
/** Moves the mock's clock a minute at a time (at most a day), each webhook call answered, until `done` holds. */
async function until(done: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1440 && !(await done()); i++) await (clock.advance(60_000), mock.service.webhooks.idle());
  expect(await done()).toBe(true);
}
const finished = (id: string) => until(async () => FINAL_STATUSES.has((await clientOf(mock).forecasts.retrieve(id)).status));
const task = async (title: string) => clientOf(mock).forecasts.create({ questionId: (await clientOf(mock).questions.create({ type: 'binary', title })).id, runMode: 'light' });
const svgOf = (body: string, kind: string) => new RegExp(`<svg [^>]*class="${kind}">[\\s\\S]*?</svg>`).exec(body)?.[0] ?? '';
const rowOf = (body: string, href: string) => new RegExp(`<tr><td><a class="id" href="${href}">[\\s\\S]*?</tr>`).exec(body)?.[0] ?? '';
const all = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]);

describe('console.md, the pages', () => {
  it('Questions: yours newest first; the clock panel offers the newest 50 ids', async () => {
    const made: string[] = [];
    for (let i = 0; i < 51; i++, clock.advance(1000)) made.push((await clientOf(mock).questions.create({ type: 'binary', title: `Ordered question ${i}` })).id);
    expect(all(await page('/questions'), /<tr><td><a href="\/questions\/[^"]+">([^<]+)<\/a>/g)).toEqual(Array.from({ length: 50 }, (_, i) => `Ordered question ${50 - i}`));
    const datalist = /<datalist id="question-ids">.*?<\/datalist>/s.exec(await page('/mock'))?.[0] ?? '';
    expect(all(datalist, /<option value="([^"]+)">/g)).toEqual(made.slice(1).reverse());
  });
  it("A question's page: its latest forecast, and a history of its forecasts by hand, by schedule and by watch", async () => {
    const client = clientOf(mock);
    const q = await client.questions.create({ type: 'binary', title: 'Started three ways?' });
    await finished((await client.forecasts.create({ questionId: q.id, runMode: 'light' })).id);
    await client.questions.watch.update(q.id, { enabled: true, changeThreshold: 0.1 });
    await finished(mock.service.forecastControls.moveNews(q.id, 0.5)!.id);
    await client.questions.watch.update(q.id, { enabled: false });
    await client.questions.schedule.update(q.id, { intervalCount: 1, intervalUnit: 'days' });
    await until(async () => (await client.questions.forecasts.list(q.id)).data.filter((f) => f.status === 'completed').length === 3);
    const body = await page(`/questions/${q.id}`);
    for (const by of ['by hand', 'watch', 'schedule']) expect(body, by).toContain(`<td>${by}</td>`);
    expect(svgOf(body, 'history-chart')).toMatch(/aria-label="Forecast history: 3 forecasts/);
    const newest = (await client.questions.forecasts.list(q.id)).data.sort((x, y) => Date.parse(y.createdAt!) - Date.parse(x.createdAt!))[0]!;
    const bar = forecastSvg(newest.forecastData, { title: q.title });
    expect(bar).toMatch(/class="track"[\s\S]*class="bar"/);
    expect(svgOf(body, 'forecast-chart')).toBe(bar);
  });
  it('draws a bar per option, and a logarithmic question on a log axis ticked at round values', async () => {
    const client = clientOf(mock);
    const choice = await client.questions.create({ type: 'multiple_choice', title: 'Which port?', options: ['Lyon', 'Porto', 'Turin', 'Oslo'] });
    const log = await client.questions.create({ type: 'numeric', title: 'How many users?', lowerBound: 1, upperBound: 1_000_000, scaleType: 'logarithmic' });
    for (const q of [choice, log, choice, log]) await finished((await client.forecasts.create({ questionId: q.id, runMode: 'light' })).id);
    const options = await page(`/questions/${choice.id}`);
    expect([svgOf(options, 'forecast-chart').match(/class="bar"/g)?.length, svgOf(options, 'forecast-chart').includes('class="track"')]).toEqual([4, false]);
    expect(svgOf(options, 'history-chart').match(/class="line series-\d"/g)).toHaveLength(4);
    const numeric = await page(`/questions/${log.id}`);
    expect(svgOf(numeric, 'forecast-chart')).toContain('>log scale</text>');
    const ticks = all(svgOf(numeric, 'history-chart'), /<text [^>]*>([\d.e+]+)<\/text>/g).map(Number);
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    for (const tick of ticks) expect(String(tick)).toMatch(/^[125]0*$|^0\.0*[125]$/);
  });
  it('Tasks: running ones with their progress and Cancel, refreshed every 4 s; then the recent ones, without Cancel', async () => {
    const started = await task('Listed while running?');
    const now = await clientOf(mock).forecasts.retrieve(started.id);
    const before = await page('/tasks');
    const [runningPart, recentPart] = before.split('<h2>Recent</h2>') as [string, string];
    const row = rowOf(runningPart, `/tasks/${started.id}`);
    expect(row).toContain(`<progress value="${now.completedSubforecastCount}" max="${now.plannedSubforecastCount}"></progress> <span class="muted">${now.completedSubforecastCount}/${now.plannedSubforecastCount}</span>`);
    expect(row).toMatch(new RegExp(`action="/tasks/${started.id}/cancel"[\\s\\S]*class="danger">Cancel<`));
    expect(rowOf(recentPart, `/tasks/${started.id}`)).toBe('');
    expect(/data-live="(\d+)"/.exec(before)?.[1]).toBe('4000');
    await finished(started.id);
    const [nowRunning, recent] = (await page('/tasks')).split('<h2>Recent</h2>') as [string, string];
    expect([rowOf(nowRunning, `/tasks/${started.id}`), rowOf(recent, `/tasks/${started.id}`).includes('Cancel')]).toEqual(['', false]);
    expect(rowOf(recent, `/tasks/${started.id}`)).toContain('status-completed');
    // A page reading the service once refreshes every 4 s, one reading it twice every 8 s (live.test.ts counts the reads).
    for (const [live, ms] of [[`/tasks/${(await task('Live while running?')).id}`, '4000'], ['/webhooks', '8000']]) expect(/data-live="(\d+)"/.exec(await page(live!))?.[1], live).toBe(ms);
  });
  it("Webhooks: each endpoint's test call; the receiver's status or its error; Replay for a failed or cancelled delivery only", async () => {
    const client = clientOf(mock);
    const list = await page('/webhooks');
    for (const id of Object.values(hooks)) expect(list).toMatch(new RegExp(`action="/webhooks/${id}/test">[^]*?>Send a test call</button>`));
    const sent: Record<string, string> = {};
    for (const [name, id] of Object.entries(hooks)) {
      const answer = await post(`/webhooks/${id}/test`, { back: '/webhooks' });
      sent[name] = /^\/deliveries\/(.+)$/.exec(String(answer.headers.location))?.[1] ?? `none: ${answer.status}`;
    }
    await mock.service.webhooks.idle();
    const rows = async (body: string) => Object.fromEntries(Object.entries(sent).map(([name, id]) => [name, rowOf(body, `/deliveries/${id}`)]));
    let seen = await rows(await page('/webhooks'));
    expect(seen['ok']).toMatch(/status-succeeded">succeeded<\/span><\/td><td>1<\/td><td>200<\/td>/);
    expect(seen['broken']).toMatch(/status-retrying">retrying<\/span><\/td><td>1<\/td><td>500 <span class="muted">receiver answered 500<\/span>/);
    expect(seen['unsent']).toMatch(/<td>— <span class="muted">not sent: /);
    for (const name of ['ok', 'broken', 'unsent']) expect(seen[name], name).not.toContain('Replay');
    // A new address cancels the waiting delivery; the broken receiver's retries run out, each at its due time exactly.
    await client.webhooks.update(hooks.unsent, { url: 'https://elsewhere.example.com/hook' });
    for (let d = await client.webhooks.deliveries.retrieve(sent['broken']!); d.status === 'retrying'; d = await client.webhooks.deliveries.retrieve(d.id)) {
      clock.advance(Date.parse(d.nextAttemptAt!) - clock.now());
      await mock.service.webhooks.idle();
    }
    seen = await rows(await page('/webhooks'));
    expect([seen['unsent']!.includes('status-cancelled'), seen['broken']!.includes('status-failed'), seen['ok']!.includes('Replay')]).toEqual([true, true, false]);
    for (const name of ['unsent', 'broken']) expect(seen[name], name).toMatch(new RegExp(`action="/deliveries/${sent[name]}/replay">[^]*>Replay</button>`));
    sentBroken = sent['broken']!;
  });
  it("A delivery's page: every attempt with the receiver's status, error and time taken, in mock time", async () => {
    const attempts = (await clientOf(mock).webhooks.deliveries.listAttempts(sentBroken)).data;
    expect(attempts).toHaveLength(6);
    const body = await page(`/deliveries/${sentBroken}`);
    for (const a of attempts) {
      // 1234 ms and a start in 2025: the mock's time (the receiver answered at once in real time).
      expect([a.durationMs, a.startedAt?.slice(0, 8)]).toEqual([1234, '2025-01-']);
      expect(body).toContain(`<tr><td>${a.attemptNumber}</td><td>500</td><td>receiver answered 500</td><td>1234</td><td class="muted">${when(a.startedAt)}</td></tr>`);
    }
  });
  it('Webhooks: the 50 newest deliveries', async () => {
    const made: string[] = [];
    // Test calls are limited to 20 a minute: 4 s of mock time between them.
    for (let i = 0; i < 51; i++, clock.advance(4000)) made.push((await clientOf(mock).webhooks.test(hooks.unsent)).id);
    await mock.service.webhooks.idle();
    expect(all(await page('/webhooks'), /<a class="id" href="\/deliveries\/([^"]+)">/g)).toEqual(made.slice(1).reverse());
  });
  it('Credits: the balance and plan, running forecasts of the 50, webhooks of the 5, and the prices', async () => {
    const client = clientOf(mock);
    await task('Counted as running?');
    const [credits, tasks, webhooks] = await Promise.all([client.credits.retrieve(), client.forecasts.list({ limit: 100 }), client.webhooks.list()]);
    const active = tasks.data.filter((t) => !FINAL_STATUSES.has(t.status)).length;
    const body = await page('/credits');
    expect(body).toContain(`<b>${credits.balance}</b><span class="muted">plan ${credits.plan.name} (${credits.plan.status})</span>`);
    expect([active > 0, body.includes(`<b>${active} of 50</b>`), body.includes(`<b>${webhooks.data.length} of 5</b>`), credits.prices.length > 3]).toEqual([true, true, true, true]);
    for (const p of credits.prices) expect(body).toContain(`<tr><td><code>${p.key}</code></td><td>${p.credits}</td></tr>`);
  });
  it("Mock clock: +1 minute, +10 minutes, +1 hour and +1 day move the mock's time by that much", async () => {
    const body = await page('/mock');
    for (const [label, ms] of [['+1 minute', 60_000], ['+10 minutes', 600_000], ['+1 hour', 3_600_000], ['+1 day', 86_400_000]] as const) {
      expect(body).toMatch(new RegExp(`<input type="hidden" name="ms" value="${ms}"><button type="submit">\\${label}</button>`));
      const before = clock.now();
      expect((await post('/mock/advance', { back: '/mock', ms: String(ms) })).headers.location).toBe('/mock');
      expect(clock.now() - before, label).toBe(ms);
      expect(await page('/mock')).toContain(`<strong id="mock-now">${new Date(clock.now()).toISOString()}</strong>`);
    }
  });
  it("Mock clock: a question's next forecasts end completed, failed with a message, cancelled, or with the report failed", async () => {
    const client = clientOf(mock);
    for (const outcome of ['completed', 'failed', 'cancelled', 'report-failed']) {
      const q = await client.questions.create({ type: 'binary', title: `Ends ${outcome}?` });
      expect((await post('/mock/outcome', { back: '/mock', questionId: q.id, outcome, message: 'No sources found' })).headers.location).toBe('/mock');
      const { id } = await client.forecasts.create({ questionId: q.id, runMode: 'light' });
      await finished(id);
      if (outcome === 'report-failed') await until(async () => !/pending|writing/.test(String((await client.forecasts.retrieve(id)).forecast?.report?.status)));
      const done = await client.forecasts.retrieve(id);
      expect(done.status, outcome).toBe(outcome === 'report-failed' ? 'completed' : outcome);
      expect([done.error?.message.includes('No sources found') ?? false, done.forecast?.report?.status === 'failed'], outcome).toEqual([outcome === 'failed', outcome === 'report-failed']);
    }
  });
});

describe('console.md, security', () => {
  it('sends the policy headers with every answer, refusals, redirects and failures too; nothing a request holds stops it', async () => {
    const big = `back=/mock&ms=0&pad=${'x'.repeat(20 * 1024)}`;
    const answers = [
      ...[await get('//'), await on(running.port, 'GET', '/assets/console.css', { host }), await get('/questions', { host: 'rebound.example' })],
      ...[await post('/mock/advance', { ms: '0' }, {}), await on(running.port, 'POST', '/mock/advance', { host, cookie, origin: `http://${host}`, ...FORM }, big)],
      ...[await get('/'), await get('/favicon.ico'), await get('/tasks/%E0%A4%A')],
    ];
    expect(answers.map((a) => a.status).slice(0, 7)).toEqual([400, 401, 421, 403, 413, 303, 204]);
    for (const a of answers) {
      expect([a.headers['content-security-policy'], a.headers['x-frame-options'], a.headers['referrer-policy'], a.headers['cache-control']], String(a.status)).toEqual([CSP, 'DENY', 'same-origin', 'no-store']);
    }
    expect((await get('/questions')).status).toBe(200);
  });

  it('sends the policy headers also with the 400 to a request Node cannot parse', async () => {
    const text = await new Promise<string>((resolve, reject) => {
      let got = '';
      const socket = connect(running.port, '127.0.0.1', () => socket.end(`GET /questions HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}\r\nNot a header\r\n\r\n`));
      socket.setEncoding('utf8').on('data', (d: string) => (got += d)).on('end', () => resolve(got)).on('error', reject);
    });
    served.push({ status: 400, headers: {}, body: text });
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    for (const header of [`content-security-policy: ${CSP}`, 'x-frame-options: DENY', 'cache-control: no-store']) expect(text.toLowerCase()).toContain(`\r\n${header.toLowerCase()}\r\n`);
    expect((await get('/questions')).status).toBe(200);
  });
  it('refuses every kind of change (403) without the same-origin Origin, and makes none by a GET', async () => {
    const client = clientOf(mock);
    const [time, deliveries] = [clock.now(), (await client.webhooks.deliveries.list({ limit: 100 })).data.length];
    const q = await client.questions.create({ type: 'binary', title: 'Outcome refused?' });
    const changes: Array<[string, Record<string, string>]> = [['/mock/advance', { ms: '60000' }], ['/mock/outcome', { questionId: q.id, outcome: 'failed' }], [`/webhooks/${hooks.ok}/test`, {}], [`/deliveries/${sentBroken}/replay`, {}]];
    for (const [path, fields] of changes) {
      for (const origin of [undefined, 'http://rebound.example', `http://localhost:${running.port}`]) expect((await post(path, fields, origin ? { origin } : {})).status, `${path} ${origin}`).toBe(403);
    }
    expect((await get('/mock/advance?ms=60000')).status).toBe(404);
    expect([clock.now(), (await client.webhooks.deliveries.list({ limit: 100 })).data.length, (await client.webhooks.deliveries.retrieve(sentBroken)).status]).toEqual([time, deliveries, 'failed']);
    // The outcome was not set either: the question's next forecast completes.
    const { id } = await client.forecasts.create({ questionId: q.id, runMode: 'light' });
    await finished(id);
    expect((await client.forecasts.retrieve(id)).status).toBe('completed');
  });
  it('leads to the same page without the token; two consoles keep their sessions apart', async () => {
    const at = new URL(plainConsole.url).host;
    const first = await on(plainConsole.port, 'GET', `/questions?q=rain&token=${new URL(plainConsole.url).searchParams.get('token')}`, { host: at });
    expect([first.status, refreshTarget(first)]).toEqual([200, `${baseOf(plainConsole)}/questions?q=rain`]);
    plainCookie = String((first.headers['set-cookie'] as string[])[0]).split(';')[0]!;
    const [theirs, ours] = [plainCookie.split('='), cookie.split('=')] as [[string, string], [string, string]];
    expect([theirs[0], ours[0]]).toEqual([`forecasting_console_${plainConsole.port}`, `forecasting_console_${running.port}`]);
    // A browser sends both consoles' cookies to each (cookies are not kept apart by port).
    expect((await on(running.port, 'GET', '/questions', { host, cookie: `${plainCookie}; ${cookie}` })).status).toBe(200);
    expect((await on(plainConsole.port, 'GET', '/questions', { host: at, cookie: `${cookie}; ${plainCookie}` })).status).toBe(200);
    // One console's session opens nothing in the other.
    expect((await on(plainConsole.port, 'GET', '/questions', { host: at, cookie: `${theirs[0]}=${ours[1]}` })).status).toBe(401);
  });
  it('shows no clock panel over a service without the mock’s control routes', async () => {
    const at = new URL(plainConsole.url).host;
    expect(await page('/questions')).toContain('<a href="/mock" class="">Mock clock</a>');
    const questions = await on(plainConsole.port, 'GET', '/questions', { host: at, cookie: plainCookie });
    expect([questions.status, questions.body.includes('Mock clock')]).toEqual([200, false]);
    expect((await on(plainConsole.port, 'GET', '/mock', { host: at, cookie: plainCookie })).status).toBe(404);
    expect((await on(plainConsole.port, 'POST', '/mock/advance', { host: at, cookie: plainCookie, origin: `http://${at}`, ...FORM }, 'ms=60000')).status).toBe(404);
    expect(plain.clock.now()).toBe(new ManualClock().now());
  });
  it("shows control, bidi and invisible characters of the service's text as escapes", async () => {
    const q = await clientOf(mock).questions.create({ type: 'binary', title: 'Rain\u202e? in\u200b Paris\u0007' });
    for (const body of [await page(`/questions/${q.id}`), await page('/questions')]) {
      expect(body).toContain('Rain\\u202e? in\\u200b Paris\\u0007');
      expect(body).not.toMatch(/[\u202e\u200b\u0007]/);
    }
  });
});

/** `forecasting console` started with `env`: the child, its printed address, and the session that address opens. */
async function cliConsole(env: Record<string, string>): Promise<{ cli: Running; url: string; session: string }> {
  const cli = start(['console'], { env });
  const url = (await cli.waitFor('stdout', /^http:\/\/\S+\n/)).trim();
  const session = (await fetch(url, { redirect: 'manual' })).headers.get('set-cookie')?.split(';')[0] ?? '';
  return { cli, url, session };
}
const stopAll = (clis: Running[]) => Promise.all(clis.map((cli) => (cli.child.kill('SIGTERM'), cli.done)));

describe('console.md, the command', () => {
  it('against `forecasting mock`: a free port for each console without --port, the clock panel, and Ctrl-C (SIGINT) stops it with exit 0', async () => {
    const server = start(['mock', '--json', '--manual-clock']);
    let opened: Array<Awaited<ReturnType<typeof cliConsole>>> = [];
    try {
      const info = JSON.parse(await server.waitFor('stdout', /^\{.*\}\n/)) as { apiKey: string; baseURL: string };
      opened = await Promise.all([cliConsole(envFor(info)), cliConsole(envFor(info))]);
      expect(new Set(opened.map(({ url }) => new URL(url).port)).size).toBe(2);
      for (const { url, session } of opened) {
        expect(await (await fetch(new URL('questions', url), { headers: { cookie: session } })).text()).toContain(`<a href="${new URL(url).pathname}mock" class="">Mock clock</a>`);
        expect((await fetch(new URL('mock', url), { headers: { cookie: session } })).status).toBe(200);
      }
      for (const { cli } of opened) cli.child.kill('SIGINT');
      for (const { cli } of opened) expect(await cli.done).toMatchObject({ code: 0, signal: null, stderr: SECOND_LINE });
      for (const { url } of opened) await expect(fetch(url)).rejects.toThrow();
    } finally {
      await stopAll([...opened.map((o) => o.cli), server]);
    }
  });
  it('honours a Retry-After of up to 5 s before its retry; a longer one shows as the page’s error at once', async () => {
    const { cli, url, session } = await cliConsole({ FORECASTING_API_KEY: mock.apiKey, FORECASTING_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/v1/external` });
    try {
      const timed = async (path: string) => {
        const began = performance.now();
        const answer = await fetch(new URL(path, url), { headers: { cookie: session } });
        return { status: answer.status, body: await answer.text(), ms: performance.now() - began };
      };
      const [questions, credits] = await Promise.all([timed('questions'), timed('credits')]);
      // Retried after the 5 s asked (questions); refused at once when 6 s are asked (credits).
      expect([questions.status, proxied.get('/api/v1/external/questions'), questions.ms >= 4900]).toEqual([200, 2, true]);
      expect([credits.status, proxied.get('/api/v1/external/credits'), credits.ms < 2500, credits.body.includes('busy for a moment')]).toEqual([502, 1, true, true]);
    } finally {
      await stopAll([cli]);
    }
  });
});

describe('console.md, in Chromium', () => {
  it("refreshes a live page's content in place at its interval, only while its tab is visible", async () => {
    const context = await browser.newContext();
    try {
      const base = baseOf(running);
      await context.addCookies([{ name: cookie.split('=')[0]!, value: cookie.split('=')[1]!, domain: '127.0.0.1', path: base }]);
      const tab = await context.newPage();
      // Counts the script's fragment requests (and those still out), and lets the test hide the tab.
      await tab.addInitScript(() => {
        const w = window as unknown as { fragments: number; out: number; hiddenTab: boolean };
        Object.assign(w, { fragments: 0, out: 0, hiddenTab: false });
        Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => w.hiddenTab });
        const real = window.fetch.bind(window);
        window.fetch = (input, init) => {
          if (new Headers(init?.headers).get('x-console-fragment') !== '1') return real(input, init);
          [w.fragments, w.out] = [w.fragments + 1, w.out + 1];
          return real(input, init).finally(() => w.out--);
        };
      });
      await tab.clock.install({ time: Date.UTC(2030, 0, 1) });
      await tab.goto(`http://${host}${base}/tasks`);
      await tab.clock.pauseAt(Date.UTC(2030, 0, 1, 1));
      const every = Number(await tab.locator('#main').getAttribute('data-live'));
      expect(every).toBe(4000);
      const state = () => tab.evaluate(() => (({ fragments, out }) => ({ fragments, out }))(window as unknown as { fragments: number; out: number }));
      const hide = (hidden: boolean) => tab.evaluate((h) => Object.assign(window, { hiddenTab: h, notReloaded: true }), hidden);
      /** Moves the page's clock `times` quarters of the interval, each refresh answered before the next; the refreshes so far. */
      const quarters = async (times: number) => {
        for (let i = 0; i < times; i++) {
          await tab.clock.runFor(every / 4);
          await vi.waitFor(async () => expect((await state()).out).toBe(0));
        }
        return (await state()).fragments;
      };
      const before = await quarters(0);
      await hide(false);
      const seen = await task('Seen live?');
      // Two intervals: two refreshes, not one (slower) nor four (faster).
      expect((await quarters(8)) - before).toBe(2);
      await tab.locator(`a[href="${base}/tasks/${seen.id}"]`).waitFor({ timeout: 5000 });
      expect(await tab.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
      await hide(true);
      expect((await quarters(12)) - before).toBe(2);
      await hide(false);
      expect((await quarters(4)) - before).toBe(3);
    } finally {
      await context.close();
    }
  });
});

describe('console.md, the key', () => {
  it('is in no byte of any answer this file got from a console', () => {
    expect(served.length).toBeGreaterThan(60);
    for (const key of [mock.apiKey, plain.apiKey]) expect(served.filter((answer) => JSON.stringify(answer).includes(key)).map((a) => a.body.slice(0, 200))).toEqual([]);
  });
});
