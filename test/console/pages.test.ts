// What the console's pages say, read over HTTP against the mock: a question's schedule and watch,
// and text from the service shown as text, never as markup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/testing/index.js';
import type { RunningConsole } from '../../src/cli/console/server.js';
import { clientOf, closeConsole, openConsole, raw, unmounted } from './_console.js';

let mock: MockServer;
let running: RunningConsole;
let cookie: string;
let base: string;
beforeAll(async () => void ({ mock, running, cookie, base } = await openConsole()));
afterAll(() => closeConsole({ mock, running }));

/** A page's markup, its links read from the console's root. */
const page = async (path: string) => unmounted(await raw(running.port, 'GET', `${base}${path}`, { host: new URL(running.url).host, cookie }), base).body;

describe('forecasting console pages', () => {
  it("show a question's schedule and watch, or that it has none", async () => {
    const client = clientOf(mock);
    const q = await client.questions.create({ type: 'binary', title: 'Scheduled and watched?' });
    expect(await page(`/questions/${q.id}`)).toContain('No schedule · No watch');
    await client.questions.schedule.update(q.id, { intervalCount: 1, intervalUnit: 'days' });
    await client.questions.watch.update(q.id, { enabled: true, changeThreshold: 0.1 });
    const body = await page(`/questions/${q.id}`);
    expect(body).toMatch(/Schedule: every 1 days, \d+ run so far, next \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC · Watch: on, change threshold 0\.1/);
  });

  it('show every text from the service as text: a hostile title and options, in the list, the page and its SVG', async () => {
    const client = clientOf(mock);
    const hostile = `<img src=x onerror=alert(1)>"'&`;
    const q = await client.questions.create({ type: 'multiple_choice', title: hostile, options: [`<script>alert(2)</script>`, `"><svg onload=alert(3)>`] });
    await client.forecasts.createAndWait({ questionId: q.id, runMode: 'light' });
    for (const body of [await page('/questions'), await page(`/questions/${q.id}`), await page(`/questions?q=${encodeURIComponent('<img')}`)]) {
      expect(body).not.toMatch(/<img|<script>|<svg onload/i);
    }
    const detail = await page(`/questions/${q.id}`);
    expect(detail).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;');
    expect(detail).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
  });

  it('page the questions, yours by cursor and a search by offset, past the first 50', async () => {
    const client = clientOf(mock);
    for (let i = 0; i < 55; i++) await client.questions.create({ type: 'binary', title: `Paged question ${i}` });
    const first = await page('/questions');
    expect(first.match(/<tr><td><a href="\/questions\//g)).toHaveLength(50);
    const next = /<a href="([^"]+)" rel="next">Older questions<\/a>/.exec(first)?.[1]?.replaceAll('&amp;', '&');
    expect(next).toMatch(/^\/questions\?cursor=/);
    const second = await page(next!);
    expect(second).toContain('Paged question 0<');
    const found = await page('/questions?q=Paged');
    expect(found.match(/<tr><td><a href="\/questions\//g)).toHaveLength(50);
    const more = /<a href="([^"]+)" rel="next">/.exec(found)?.[1]?.replaceAll('&amp;', '&');
    expect(more).toBe('/questions?q=Paged&offset=50');
    expect((await page(more!)).match(/<tr><td><a href="\/questions\//g)).toHaveLength(5);
  });

  it("show where a task's report stands, and a failure's message once", async () => {
    const client = clientOf(mock);
    const q = await client.questions.create({ type: 'binary', title: 'Report failing?' });
    mock.service.forecastControls.setOutcome(q.id, { report: 'failed' });
    const task = await client.forecasts.createAndWait({ questionId: q.id, runMode: 'light' }, { waitForReport: true });
    expect(task.forecast?.report?.status).toBe('failed');
    expect(await page(`/tasks/${task.id}`)).toContain('The report failed: the forecast stands without it.');

    const failing = await client.questions.create({ type: 'binary', title: 'Task failing?' });
    mock.service.forecastControls.setOutcome(failing.id, { task: 'failed', message: 'No sources found' });
    const failed = await client.forecasts.createAndWait({ questionId: failing.id, runMode: 'light' });
    expect((await page(`/tasks/${failed.id}`)).match(/No sources found/g)).toHaveLength(1);
    // No icon: an empty answer, not a 404.
    expect((await raw(running.port, 'GET', `${base}/favicon.ico`, { host: new URL(running.url).host, cookie })).status).toBe(204);
  });
});
