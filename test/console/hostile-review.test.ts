// The console against requests security.test.ts leaves out (HEAD, encoded dots and slashes) and
// against a hostile service: numbers at the edge of a double in the history chart, counts the
// progress bar cannot hold, text that must stay text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { startConsole, type RunningConsole } from '../../src/cli/console/server.js';
import { hostileService, type HostileService } from '../cli/_hostile.js';
import { baseOf, clientOf, closeConsole, cookieOf, openConsole, raw, type OpenConsole } from './_console.js';

let open: OpenConsole;
let hostile: HostileService;
let overHostile: RunningConsole;
let hostileCookie: string;
beforeAll(async () => {
  open = await openConsole();
  hostile = await hostileService(open.mock);
  const client = new ForecastingClient({ apiKey: open.mock.apiKey, baseURL: hostile.baseURL, logLevel: 'off' });
  overHostile = await startConsole({ client, baseURL: hostile.baseURL, apiKey: open.mock.apiKey });
  hostileCookie = await cookieOf(overHostile);
});
afterAll(async () => {
  await overHostile.close();
  await hostile.close();
  await closeConsole(open);
});

const get = (path: string, method = 'GET') => raw(open.running.port, method, `${open.base}${path}`, { host: open.host, cookie: open.cookie });
const getHostile = (path: string) => raw(overHostile.port, 'GET', `${baseOf(overHostile)}${path}`, { host: new URL(overHostile.url).host, cookie: hostileCookie });
const rewriting = (path: RegExp, change: (body: Record<string, unknown>) => unknown) => {
  hostile.rewrite = (p, _m, b) => (path.test(p) && typeof b === 'object' && b !== null ? change(b as Record<string, unknown>) : b);
};

describe('requests the console gets', () => {
  it('answers HEAD as GET without a body (the gate lets HEAD through; it answered 404 for every page)', async () => {
    for (const path of ['/questions', '/tasks', '/assets/console.css', '/assets/console.js']) {
      const [head, body] = [await get(path, 'HEAD'), await get(path)];
      expect([head.status, head.body], path).toEqual([200, '']);
      expect(head.headers['content-type'], path).toBe(body.headers['content-type']);
      expect(head.headers['content-security-policy'], path).toBe(body.headers['content-security-policy']);
    }
  });

  it('serves an asset at its own path only, and keeps an encoded slash inside an id: no other route of the service is read', async () => {
    expect((await get('/assets/..%2fconsole.js')).status).toBe(404);
    expect((await get('/assets/console.js%00')).status).toBe(404);
    open.mock.service.requests.clear();
    const traversal = await get('/questions/..%2Fcredits');
    // The SDK refuses the id before sending: a bad address of the page (400), not a service that failed (502).
    expect(traversal.status).toBe(400);
    expect(traversal.body).toMatch(/<strong>ValidationError<\/strong>: questionId: must not be/);
    expect(traversal.body).not.toContain('Balance');
    expect(open.mock.service.requests.list().map((r) => r.path)).not.toContain('/credits');
  });

  it('refuses a clock advance that is not a whole number of ms, 0 or more, as a bad form (400), not a failed service (502)', async () => {
    for (const ms of ['-5', 'soon', '1.5', '1e400']) {
      const r = await raw(open.running.port, 'POST', `${open.base}/mock/advance`, { host: open.host, cookie: open.cookie, origin: `http://${open.host}`, 'content-type': 'application/x-www-form-urlencoded' }, `ms=${encodeURIComponent(ms)}`);
      expect(r.status, ms).toBe(400);
      expect(r.body, ms).toMatch(/<strong>FormValueError<\/strong>: ms: must be a whole number/);
    }
  });
});

describe('a hostile service under the console', () => {
  it('draws a numeric history from -1e308 to 1e308 with real tick labels, no NaN', async () => {
    const client = clientOf(open.mock);
    const q = await client.questions.create({ type: 'numeric', title: 'Edges of a double?', lowerBound: 0, upperBound: 10, scaleType: 'linear' });
    for (let i = 0; i < 2; i++) await client.forecasts.createAndWait({ questionId: q.id, runMode: 'light' });
    rewriting(/^\/questions\/[^/]+\/forecasts/, (b) =>
      JSON.parse(JSON.stringify(b).replace(/"percentiles":\{[^}]*\}/g, '"percentiles":{"p10":-1e308,"p50":0,"p90":1e308}')),
    );
    try {
      const page = await getHostile(`/questions/${q.id}`);
      expect(page.status).toBe(200);
      const history = page.body.slice(page.body.indexOf('class="history-chart"'));
      expect(history).toContain('<polygon class="band"');
      expect(history).not.toMatch(/NaN|Infinity|undefined/);
      // The value axis ticks at round values across the range.
      const ticks = [...history.matchAll(/text-anchor="end" dy="0\.35em">([^<]+)<\/text>/g)].map((m) => m[1]);
      expect(ticks).toEqual(['-1e+308', '-5e+307', '0', '5e+307', '1e+308']);
    } finally {
      hostile.rewrite = (_p, _m, b) => b;
    }
  });

  it('shows counts the progress bar cannot hold and a hostile progress message as text', async () => {
    const client = clientOf(open.mock);
    const task = await client.forecasts.create({ questionId: (await client.questions.create({ type: 'binary', title: 'Counted?' })).id });
    rewriting(/^\/forecasts\//, (b) => ({ ...b, completedSubforecastCount: 1e15, plannedSubforecastCount: -1, progressMessage: '<img src=x onerror=alert(1)>\u001b]8;;https://evil.example\u0007' }));
    try {
      const page = await getHostile(`/tasks/${task.id}`);
      expect(page.status).toBe(200);
      expect(page.body).not.toMatch(/<img|\u001b|\u0007/);
      expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;\\u001b]8;;https://evil.example\\u0007');
    } finally {
      hostile.rewrite = (_p, _m, b) => b;
    }
  });
});
