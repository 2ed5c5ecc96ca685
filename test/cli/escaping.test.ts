// Service text on the terminal: every human-readable output path escapes control characters (C0,
// DEL, C1), bidi overrides and line separators, so a title cannot clear the screen, ring the bell,
// reorder a line or forge an extra one; JSON output parses to the service's exact text and carries
// none of them raw either.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { ManualClock } from '../../src/testing/index.js';
import { signWebhook } from '../../src/webhooks/index.js';
import { envFor, run, useMockAndFolder } from './_cli.js';

/** Text a hostile or broken service might send: clear screen, bell, CR, a forged line, tab, bidi override, C1 CSI, DEL, line separator. */
const HOSTILE = 'Rain?\u001b[2J\u0007\r\nDONE  all tasks completed\t\u202eevil\u009b31m\u007f\u2028end';
/** The same, as the CLI shows it. */
const SHOWN = 'Rain?\\u001b[2J\\u0007\\r\\nDONE  all tasks completed\\t\\u202eevil\\u009b31m\\u007f\\u2028end';
/** Any character that must not reach a terminal raw (line feeds aside, which end lines). */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const clock = new ManualClock();
const cli = useMockAndFolder({ clock });
const client = () => new ForecastingClient({ apiKey: cli.mock.apiKey, baseURL: cli.mock.baseURL, logLevel: 'off' });

describe('control characters in service text', () => {
  it('questions list, get and browse: one line per question, the title escaped', async () => {
    const q = await client().questions.create({ type: 'multiple_choice', title: HOSTILE, options: ['A\u001b[31m', 'B\nC'] });
    const env = envFor(cli.mock);
    const list = await run(['questions', 'list', '--limit', '1'], { env });
    expect(list.stdout).toBe(`${q.id}  multiple_choice  ${SHOWN}\n`);
    const get = await run(['questions', 'get', q.id], { env });
    expect(get.stdout).toBe(`${q.id}  multiple_choice  ${SHOWN}\noptions: A\\u001b[31m | B\\nC\n`);
    const browse = await run(['questions', 'browse', '--query', 'Rain?'], { env });
    expect(browse.stdout).toBe(`${q.id}  multiple_choice  ${SHOWN}\n`);
  });

  it('--json: the document parses to the exact title, with no control, C1 or bidi character raw', async () => {
    const q = await client().questions.create({ type: 'binary', title: HOSTILE });
    const r = await run(['questions', 'get', q.id, '--json'], { env: envFor(cli.mock) });
    expect(r.stdout).not.toMatch(RAW);
    expect((JSON.parse(r.stdout) as { title: string }).title).toBe(HOSTILE);
  });

  it('a failed task\'s message on its result line', async () => {
    const q = (await client().questions.create({ type: 'binary', title: 'Fails?' })).id;
    cli.mock.service.forecastControls.setOutcome(q, { task: 'failed', message: HOSTILE });
    const task = await client().forecasts.create({ questionId: q, runMode: 'light' });
    clock.advance(24 * 3600_000);
    const r = await run(['wait', task.id, '--progress', 'none'], { env: envFor(cli.mock) });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe(`${task.id}  failed  ${r.stdout.split('  ')[2]}  ${SHOWN}\n`);
  });

  it('an error message quoting the service: one line (its line breaks as spaces), the rest escaped', async () => {
    const fault = cli.mock.service.faults.add({ operation: 'questions.retrieve', status: 404, message: HOSTILE, times: 2 });
    const r = await run(['questions', 'get', 'some-question'], { env: envFor(cli.mock) });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^NotFoundError: 404 not_found: Rain\?\\u001b\[2J\\u0007 DONE {2}all tasks completed\\t\\u202eevil\\u009b31m\\u007f\\u2028end .*\n$/);
    // With --debug, the stack (which repeats the message) too.
    const debug = await run(['questions', 'get', 'some-question', '--debug'], { env: envFor(cli.mock) });
    fault.remove();
    expect(debug.stderr).toContain('at ');
    expect(debug.stderr).not.toMatch(RAW);
  });

  it('a line of --from-file the service refused, quoting the id', async () => {
    const file = join(cli.dir, 'refused.jsonl');
    writeFileSync(file, `${JSON.stringify({ questionId: 'no-such\u001b[31m\u202e' })}\n`);
    const r = await run(['forecast', '--from-file', file], { env: envFor(cli.mock) });
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/^rejected {2}line 1 {2}.*no-such\\u001b\[31m\\u202e\n$/);
  });

  it('a usage error quoting what was typed', async () => {
    const r = await run(['questions', 'list', '--limit', 'x\u001b[31m']);
    expect(r.stderr).toBe('UsageError: --limit must be a whole number of at least 0, got "x\\u001b[31m"\n');
  });

  it('webhooks verify prints the event JSON with no control character raw', async () => {
    const secret = 'whsec_escape_test_secret';
    const body = JSON.stringify({ id: 'evt_1', type: 'forecast.completed', createdAt: '2025-01-01T00:00:00.000Z', data: { taskId: 't_1', title: HOSTILE } });
    const header = await signWebhook(body, secret, { timestamp: Math.floor(Date.now() / 1000) });
    const r = await run(['webhooks', 'verify', '--secret', secret, '--header', header], { input: body });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect((JSON.parse(r.stdout) as { data: { title: string } }).data.title).toBe(HOSTILE);
  });
});

describe('control characters in task states (progress lines and bars)', () => {
  /** The mock behind a proxy that gives every queued task a hostile status. */
  let proxy: Server;
  let baseURL: string;
  beforeAll(async () => {
    proxy = createServer((req, res) => {
      void (async () => {
        const answer = await fetch(`${cli.mock.baseURL.replace(/\/api\/v1\/external$/, '')}${req.url}`, { method: req.method, headers: { authorization: req.headers.authorization ?? '' } });
        const text = (await answer.text()).replaceAll('"status":"queued"', `"status":${JSON.stringify(`queued${HOSTILE}`)}`);
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json', 'retry-after': '1' }).end(text);
      })();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/v1/external`;
  });
  afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

  it.each([['plain'], ['tty']])('--progress %s: the status shown escaped', async (mode) => {
    const task = await client().forecasts.create({ questionId: (await client().questions.create({ type: 'binary', title: 'Progress?' })).id });
    const r = await run(['wait', task.id, '--timeout', '0.5', '--progress', mode], { env: { FORECASTING_API_KEY: cli.mock.apiKey, FORECASTING_BASE_URL: baseURL } });
    expect(r.code).toBe(6);
    expect(r.stdout).toBe(`${task.id}  queued${SHOWN}  0/5\n`);
    // Only the display's own cursor moves (tty), never the service's.
    const withoutDisplay = r.stderr.replace(/\u001b\[(\?(25|2026)[hl]|\d*[AGK])/g, '');
    expect(withoutDisplay).not.toMatch(RAW);
    // (log-update wraps a bar longer than the terminal's 80 columns.)
    expect(mode === 'tty' ? r.stderr.replace(/\n/g, '') : r.stderr).toContain(`queued${SHOWN}`);
  });
});
