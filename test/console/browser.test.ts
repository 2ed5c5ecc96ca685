// `forecasting console` in a real browser (Debian's chromium, driven by playwright-core), against the
// mock on a manual clock: the printed address, the questions, a numeric question's histogram, a
// task's progress reaching completed, a failed delivery replayed once its receiver is fixed, and the
// clock moved from the console. With UPDATE_SCREENSHOTS=1 (`npm run screenshots`) it also writes the
// screenshots of docs/console.md.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';
import { envFor, start, type Running } from '../cli/_cli.js';
import { launchChromium } from '../_setup/chromium.js';
import { clientOf } from './_console.js';

const SHOTS = fileURLToPath(new URL('../../docs/console/', import.meta.url));
const shoot = async (page: Page, name: string) => {
  if (!process.env['UPDATE_SCREENSHOTS']) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });
};

let mock: MockServer;
let clock: ManualClock;
let cli: Running;
let url: string;
let browser: Browser;
let page: Page;
let receiver: Server;
let broken = true;
const received: number[] = [];

beforeAll(async () => {
  clock = new ManualClock();
  mock = await startMockServer({ clock, seed: 'console', httpControls: true, webhooks: { allowLoopbackReceivers: true } });
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const status = broken ? 500 : 200;
      received.push(status);
      res.writeHead(status).end(broken ? 'receiver broken' : 'ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  cli = start(['console'], { env: envFor(mock) });
  url = (await cli.waitFor('stdout', /^http:\/\/\S+\n/)).split('\n')[0]!;
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1200, height: 900 } })).newPage();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  cli?.child.kill('SIGTERM');
  await cli?.done;
  await new Promise((resolve) => receiver?.close(resolve));
  await mock?.close();
});

/** Clicks a button that posts a form, and waits for the page it leads to. */
async function press(on: Page, name: string): Promise<void> {
  await Promise.all([on.waitForEvent('load'), on.getByRole('button', { name }).click()]);
}

/** Runs a forecast to completion on the manual clock (a light forecast is done within an hour of mock time). */
async function completedTask(questionId: string): Promise<string> {
  const client = clientOf(mock);
  const task = await client.forecasts.create({ questionId, runMode: 'light' });
  for (let i = 0; i < 12 && (await client.forecasts.retrieve(task.id)).status !== 'completed'; i++) clock.advance(10 * 60_000);
  expect((await client.forecasts.retrieve(task.id)).status).toBe('completed');
  return task.id;
}

describe('forecasting console in Chromium', () => {
  it('prints its address first, opens on the questions, and draws a numeric question’s latest forecast and history', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]{22}\/\?token=/);
    const client = clientOf(mock);
    await client.questions.create({ type: 'binary', title: 'Will it rain in Paris tomorrow?' });
    const numeric = await client.questions.create({ type: 'numeric', title: 'Brent crude on 1 June (USD)?', lowerBound: 40, upperBound: 140, scaleType: 'linear', openUpperBound: true });
    await completedTask(numeric.id);
    clock.advance(86_400_000);
    await completedTask(numeric.id);

    await page.goto(url);
    // The address's page moves on, without the token, to the questions.
    await page.waitForURL(/\/questions$/);
    expect(new URL(page.url()).pathname).toBe(`${new URL(url).pathname}questions`);
    expect(new URL(page.url()).search).toBe('');
    await expect(page.getByRole('link', { name: 'Will it rain in Paris tomorrow?' }).isVisible()).resolves.toBe(true);

    await page.getByRole('link', { name: 'Brent crude on 1 June (USD)?' }).click();
    const histogram = page.locator('svg.forecast-chart');
    await histogram.waitFor();
    const marks = await histogram.locator('text').allTextContents();
    for (const name of ['p10', 'p50', 'p90']) expect(marks.some((t) => t.includes(name))).toBe(true);
    expect(await page.locator('svg .median').count()).toBeGreaterThan(0);
    await shoot(page, 'question');
  });

  it('shows a task’s progress live until it completes, the clock moved from the console’s clock panel', async () => {
    const client = clientOf(mock);
    const q = await client.questions.create({ type: 'multiple_choice', title: 'Which city hosts the final?', options: ['Lyon', 'Porto', 'Turin'] });
    const task = await client.forecasts.create({ questionId: q.id, runMode: 'light' });
    await page.goto(new URL(`tasks/${task.id}`, url).href);
    await expect(page.locator('.status').first().textContent()).resolves.toBe('queued');
    // A mark on the page: it must still be there when the status changes (updated in place, not reloaded).
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));
    const panel = await page.context().newPage();
    await panel.goto(new URL('mock', url).href);
    for (let i = 0; i < 12 && (await client.forecasts.retrieve(task.id)).status !== 'completed'; i++) {
      await press(panel, '+10 minutes');
    }
    // Refreshed every 4 s.
    await page.locator('.status', { hasText: 'completed' }).first().waitFor({ timeout: 15_000 });
    await page.locator('svg.forecast-chart').waitFor();
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await shoot(page, 'task');
    await panel.close();
  }, 40_000);

  it('replays a failed delivery once its receiver is fixed, and shows it succeeded', async () => {
    const client = clientOf(mock);
    await client.webhooks.create({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, eventKinds: ['forecast.completed'] });
    const q = await client.questions.create({ type: 'binary', title: 'Will the receiver recover?' });
    await completedTask(q.id);
    // Broken receiver: every retry fails; the clock panel moves a day a click until the delivery is given up.
    await page.goto(new URL('mock', url).href);
    let failed: string | undefined;
    for (let i = 0; i < 10 && !failed; i++) {
      await vi.waitFor(async () => expect((await client.webhooks.deliveries.list()).data[0]?.status).not.toMatch(/^(pending|in_progress)$/), { timeout: 5_000 });
      failed = (await client.webhooks.deliveries.list()).data.find((d) => d.status === 'failed')?.id;
      if (!failed) await press(page, '+1 day');
    }
    expect(failed).toBeDefined();
    expect(received.every((s) => s === 500)).toBe(true);

    broken = false;
    await page.goto(new URL('webhooks', url).href);
    const row = page.locator('tr', { has: page.locator(`a[href="${new URL(url).pathname}deliveries/${failed}"]`) });
    await expect(row.locator('.status').textContent()).resolves.toBe('failed');
    await shoot(page, 'webhooks');
    await row.getByRole('button', { name: 'Replay' }).click();
    // The list refreshes every 8 s.
    await row.locator('.status', { hasText: 'succeeded' }).waitFor({ timeout: 20_000 });
    expect(received.at(-1)).toBe(200);
  }, 40_000);

  it('advances the mock’s clock from its panel', async () => {
    await page.goto(new URL('mock', url).href);
    const before = Date.parse((await page.locator('#mock-now').textContent())!);
    await press(page, '+1 hour');
    const after = Date.parse((await page.locator('#mock-now').textContent())!);
    expect(after - before).toBe(3_600_000);
    expect(clock.now()).toBe(after);
    await shoot(page, 'mock');
  });

  it('opens signed in through `--open`: the file it hands the system’s opener leads the browser to the questions', async () => {
    // The system's opener (xdg-open here) stood in for by a script that writes down what it was given.
    const bin = mkdtempSync(join(tmpdir(), 'opener-'));
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > "${bin}/opened"\n`, { mode: 0o755 });
    const opened = start(['console', '--open'], { env: { ...envFor(mock), PATH: `${bin}:${process.env['PATH']}` } });
    try {
      await opened.waitFor('stdout', /^http:\/\/\S+\n/);
      const file = await vi.waitFor(() => readFileSync(join(bin, 'opened'), 'utf8'), { timeout: 10_000 });
      expect(file).toMatch(/^file:\/\/\/.+\.html$/);
      // A new browser, as the system's: the address comes from a file, a start from elsewhere (a 303
      // set the Strict cookie, then Chromium sent it on none of the chain: 401, the one-time token spent).
      const context = await browser.newContext();
      const statuses: number[] = [];
      const fresh = await context.newPage();
      fresh.on('response', (r) => void statuses.push(r.status()));
      await fresh.goto(file);
      await fresh.waitForURL(/\/questions$/, { timeout: 10_000 });
      await expect(fresh.getByRole('heading', { name: 'Questions' }).isVisible()).resolves.toBe(true);
      expect(statuses).not.toContain(401);
      await context.close();
    } finally {
      opened.child.kill('SIGTERM');
      await opened.done;
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('keeps its session cookie from every other server on 127.0.0.1, and serves through a jar full of their cookies', async () => {
    // Another local server (another port, so the same cookie jar): what its page's requests carry, and cookies it sets.
    const cookiesSeen: Array<[string | undefined, string]> = [];
    const other = createServer({ maxHeaderSize: 1024 * 1024 }, (req, res) => {
      cookiesSeen.push([req.url, req.headers.cookie ?? '']);
      if (req.url === '/collect') return void res.end('ok');
      // A hundred cookies of 4 KB for the whole host (path=/): the console gets them too.
      const bomb = `for (let i = 0; i < 100; i++) document.cookie = 'pad' + i + '=' + 'x'.repeat(4000) + '; path=/; max-age=600';`;
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><p>another local page</p><script>${bomb} fetch('/collect')</script>`);
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      await page.goto(new URL('questions', url).href);
      const jar = await page.context().cookies();
      const session = jar.find((c) => c.name.startsWith('forecasting_console_'));
      expect(session?.path).toBe(new URL(url).pathname.replace(/\/$/, ''));
      await page.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
      await vi.waitFor(() => expect(cookiesSeen.map(([path]) => path)).toContain('/collect'));
      expect(cookiesSeen.map(([, cookies]) => cookies).join('\n')).not.toContain('forecasting_console_');
      // The page's cookies (about 400 KB, past Node's 16 KB default) reach the console: it still serves.
      expect((await page.context().cookies()).filter((c) => c.name.startsWith('pad'))).toHaveLength(100);
      const answer = await page.goto(new URL('questions', url).href);
      expect(answer?.status()).toBe(200);
      await expect(page.getByRole('heading', { name: 'Questions' }).isVisible()).resolves.toBe(true);
    } finally {
      await page.context().clearCookies({ name: /^pad\d+$/ });
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
