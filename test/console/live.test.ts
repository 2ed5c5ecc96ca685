// How often a live page asks the service, against the key's 60 requests a minute that the user's
// scripts share: the cadence each page emits, the service calls one refresh makes, a final state that
// stops the refreshes, and the script's schedule (run on a clock the test moves) backing off after a
// 429 or an error page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_JS } from '../../src/cli/console/assets.js';
import type { RunningConsole } from '../../src/cli/console/server.js';
import { ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';
import { baseOf, clientOf, consoleFor, cookieOf, raw } from './_console.js';

/** What one fetch of the script gets: an HTTP status and the `x-console-live` header, or no answer at all. */
type Reply = { status: number; live?: string } | 'no answer';

/** CONSOLE_JS run against a stub page: its timers wait on a clock the test moves, its fetches answer from `replies`. */
function scriptOn(live: string | undefined, replies: Reply[]) {
  const timers: Array<{ at: number; run: () => void }> = [];
  const fetches: number[] = [];
  const page = { now: 0, hidden: false, main: { dataset: (live === undefined ? {} : { live }) as Record<string, string>, innerHTML: '' } };
  let pending: ((reply: Reply) => void) | undefined;
  const fetch = async (href: string, init: { headers: Record<string, string> }) => {
    expect([href, init.headers['x-console-fragment']]).toEqual(['http://127.0.0.1:9/base/tasks', '1']);
    fetches.push(page.now);
    const reply = replies.length > 0 ? replies.shift()! : await new Promise<Reply>((resolve) => (pending = resolve));
    if (reply === 'no answer') throw new TypeError('Failed to fetch');
    const headers = { get: (name: string) => (name === 'x-console-live' ? (reply.live ?? null) : null) };
    return { ok: reply.status >= 200 && reply.status < 300, status: reply.status, headers, text: async () => `<p>${page.now}</p>` };
  };
  const document = { get hidden() { return page.hidden; }, getElementById: (id: string) => (id === 'main' ? page.main : null) };
  const setTimeout = (run: () => void, ms: number) => void timers.push({ at: page.now + ms, run });
  runInNewContext(CONSOLE_JS, { document, fetch, setTimeout, location: { href: 'http://127.0.0.1:9/base/tasks' } });
  /** Moves the clock to the next timer, runs it and lets its fetch settle: the wait it was set for, or `undefined` when none is set. */
  const next = async (): Promise<number | undefined> => {
    timers.sort((a, b) => a.at - b.at);
    const timer = timers.shift();
    if (!timer) return undefined;
    const waited = timer.at - page.now;
    page.now = timer.at;
    timer.run();
    await new Promise((resolve) => setImmediate(resolve));
    return waited;
  };
  const answer = async (reply: Reply) => (pending!(reply), await new Promise((resolve) => setImmediate(resolve)));
  return { page, fetches, timers, next, answer };
}

describe('the live script', () => {
  it('refreshes at the page’s interval, doubles the wait after a 429, an error page or no answer (up to a minute), and goes back to the interval after a good answer', async () => {
    const ok = { status: 200, live: '4000' };
    const script = scriptOn('4000', [ok, { status: 429 }, { status: 429 }, { status: 502 }, 'no answer', { status: 429 }, ok, ok]);
    const waits: Array<number | undefined> = [];
    for (let i = 0; i < 8; i++) waits.push(await script.next());
    expect(waits).toEqual([4000, 4000, 8000, 16000, 32000, 60000, 60000, 4000]);
    expect(script.fetches).toHaveLength(8);
    expect(script.page.main.innerHTML).toBe(`<p>${script.page.now}</p>`);
  });

  it('takes the next interval from each answer, and stops for good at a final state (0): no timer is left', async () => {
    const script = scriptOn('4000', [{ status: 200, live: '8000' }, { status: 200, live: '0' }]);
    expect(await script.next()).toBe(4000);
    expect(script.page.main.dataset['live']).toBe('8000');
    expect(await script.next()).toBe(8000);
    expect(script.page.main.dataset['live']).toBeUndefined();
    expect([script.timers.length, await script.next(), script.fetches.length]).toEqual([0, undefined, 2]);
  });

  it('asks nothing while the tab is hidden, nor twice at once, nor on a page that is not live', async () => {
    const script = scriptOn('4000', []);
    script.page.hidden = true;
    for (let i = 0; i < 5; i++) expect(await script.next()).toBe(4000);
    expect(script.fetches).toEqual([]);
    script.page.hidden = false;
    await script.next();
    // Out: no timer until it is answered, however slow the service.
    expect([script.fetches.length, script.timers.length]).toEqual([1, 0]);
    await script.answer({ status: 200, live: '4000' });
    expect(script.timers.map((t) => t.at - script.page.now)).toEqual([4000]);
    for (const live of [undefined, '0', 'soon']) expect(scriptOn(live, []).timers, String(live)).toEqual([]);
  });
});

let clock: ManualClock, mock: MockServer, running: RunningConsole, cookie: string, receiver: Server;
beforeAll(async () => {
  clock = new ManualClock();
  mock = await startMockServer({ clock, webhooks: { allowLoopbackReceivers: true } });
  receiver = createServer((req, res) => void req.resume().on('end', () => res.writeHead(req.url === '/ok' ? 200 : 500).end()));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  running = await consoleFor(mock);
  cookie = await cookieOf(running);
});
afterAll(async () => {
  await running?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await mock?.close();
});

/** A page of the console as its first load (`full`) or as the script's refresh gets it. */
const load = (path: string, fragment = false) =>
  raw(running.port, 'GET', `${baseOf(running)}${path}`, { host: new URL(running.url).host, cookie, ...(fragment ? { 'x-console-fragment': '1' } : {}) });

/** The interval a page's first load sets, and the service requests one refresh makes and its `x-console-live`. */
async function cadence(path: string): Promise<{ live: number | undefined; calls: number; next: string | undefined; status: number }> {
  const live = /<main id="main" data-live="(\d+)">/.exec((await load(path)).body)?.[1];
  mock.service.requests.clear();
  const refresh = await load(path, true);
  return { live: live === undefined ? undefined : Number(live), calls: mock.service.requests.list().length, next: refresh.headers['x-console-live'] as string | undefined, status: refresh.status };
}

/** A test call to a receiver answering `/ok` with 200 and anything else with 500, once it was made. */
async function delivery(path: '/ok' | '/broken'): Promise<string> {
  const client = clientOf(mock);
  const hook = await client.webhooks.create({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`, eventKinds: ['forecast.completed'] });
  const { id } = await client.webhooks.test(hook.id);
  await mock.service.webhooks.idle();
  return id;
}

describe('a live page of the console', () => {
  it('asks the service at most 15 times a minute (a quarter of the key’s 60) while what it shows can still move', async () => {
    const client = clientOf(mock);
    const task = await client.forecasts.create({ questionId: (await client.questions.create({ type: 'binary', title: 'Refreshed how often?' })).id });
    const retrying = await delivery('/broken');
    expect((await client.webhooks.deliveries.retrieve(retrying)).status).toBe('retrying');
    const seen = { '/tasks': await cadence('/tasks'), [`/tasks/${task.id}`]: await cadence(`/tasks/${task.id}`), '/webhooks': await cadence('/webhooks'), [`/deliveries/${retrying}`]: await cadence(`/deliveries/${retrying}`) };
    for (const [path, { live, calls, next, status }] of Object.entries(seen)) {
      expect([status, next, String(live)], path).toEqual([200, String(live), String(live)]);
      expect(calls, path).toBeGreaterThan(0);
      expect((calls * 60_000) / live!, path).toBeLessThanOrEqual(15);
    }
    expect(Object.values(seen).map((s) => s.live)).toEqual([4000, 4000, 8000, 8000]);
  });

  it('stops refreshing once it shows a final state: a task done, a delivery that succeeded or failed', async () => {
    const client = clientOf(mock);
    const task = await client.forecasts.create({ questionId: (await client.questions.create({ type: 'binary', title: 'Stops once final?' })).id });
    await client.forecasts.cancel(task.id);
    const succeeded = await delivery('/ok');
    expect((await client.webhooks.deliveries.retrieve(succeeded)).status).toBe('succeeded');
    for (const path of [`/tasks/${task.id}`, `/deliveries/${succeeded}`]) expect(await cadence(path), path).toMatchObject({ live: undefined, next: '0', status: 200 });
    // The refresh of a page that was live when it loaded says stop once its delivery moves no more.
    const failing = await delivery('/broken');
    const before = await cadence(`/deliveries/${failing}`);
    for (let d = await client.webhooks.deliveries.retrieve(failing); d.status === 'retrying'; d = await client.webhooks.deliveries.retrieve(failing)) {
      clock.advance(Date.parse(d.nextAttemptAt!) - clock.now());
      await mock.service.webhooks.idle();
    }
    expect((await client.webhooks.deliveries.retrieve(failing)).status).toBe('failed');
    expect([before.live, (await cadence(`/deliveries/${failing}`)).next]).toEqual([8000, '0']);
  });

  it('answers a refresh that met the service’s 429 with a 429, which the script backs off from', async () => {
    const fault = mock.service.faults.add({ operation: 'forecasts.list', status: 429, retryAfter: 0, times: Infinity });
    const refresh = await load('/tasks', true);
    fault.remove();
    expect([refresh.status, refresh.body]).toEqual([429, expect.stringContaining('RateLimitError')]);
    expect((await load('/tasks', true)).status).toBe(200);
  });
});
