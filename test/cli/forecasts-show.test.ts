// `forecasting forecasts show TASK_ID` against the mock over HTTP: the result line with the forecast
// drawn under it, in Unicode blocks on a real terminal (tmux, read back with capture-pane) and in
// ASCII when piped; JSON unchanged; the exit code of each state.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient, type QuestionCreateParams } from '../../src/index.js';
import { ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';
import { BIN, childEnv, envFor, hasTools, run } from './_cli.js';

const exec = promisify(execFile);
let fast: MockServer;
let still: MockServer;
let dir: string;
beforeAll(async () => {
  [fast, still] = await Promise.all([startMockServer({ timeScale: 3600 }), startMockServer({ clock: new ManualClock() })]);
  dir = mkdtempSync(join(tmpdir(), 'forecasting-show-'));
});
afterAll(async () => {
  await Promise.all([fast.close(), still.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const clientOf = (mock: MockServer) => new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });
const completed = async (question: QuestionCreateParams) => (await clientOf(fast).forecasts.createAndWait({ question, runMode: 'light' })).id;
const NUMERIC: QuestionCreateParams = { type: 'numeric', title: 'Brent on 1 June?', lowerBound: 40, upperBound: 140, scaleType: 'linear', openUpperBound: true };

describe('forecasting forecasts show TASK_ID, piped', () => {
  it('prints the result line and the histogram in ASCII, as wide as COLUMNS, with p10, p50 and p90 and the range', async () => {
    const id = await completed(NUMERIC);
    const r = await run(['forecasts', 'show', id], { env: { ...envFor(fast), COLUMNS: '100' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${id} {2}completed {2}3/3 {2}median=`));
    for (const line of lines) expect(line).toMatch(/^[\x20-\x7e]*$/);
    const base = lines.find((l) => /^ {2}-[-+]+$/.test(l));
    expect(base).toHaveLength(100);
    expect([...base!].filter((c) => c === '+')).toHaveLength(3);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}40 +140$/));
    const task = await clientOf(fast).forecasts.retrieve(id);
    const data = task.forecast?.forecastData;
    if (data?.questionType !== 'numeric') throw new Error('expected a numeric forecast');
    const { p10, p50, p90 } = data.payload.percentiles;
    expect(lines).toContainEqual(`  p10 ${Number(p10.toPrecision(5))}   p50 ${Number(p50.toPrecision(5))}   p90 ${Number(p90.toPrecision(5))}`);
  });

  it('prints the task as JSON with --json (no drawing), and the line alone with --no-draw', async () => {
    const id = await completed({ type: 'multiple_choice', title: 'Who wins?', options: ['A', 'B', 'C'] });
    const j = await run(['forecasts', 'show', id, '--json'], { env: envFor(fast) });
    expect(JSON.parse(j.stdout)).toMatchObject({ id, status: 'completed', forecast: { forecastData: { questionType: 'multiple_choice' } } });
    const plain = await run(['forecasts', 'show', id, '--no-draw'], { env: envFor(fast) });
    expect(plain.stdout.trimEnd().split('\n')).toHaveLength(1);
    const drawn = await run(['forecasts', 'show', id], { env: envFor(fast) });
    const bars = drawn.stdout.trimEnd().split('\n').slice(1);
    // A bar per option, largest first.
    expect(bars.map((b) => b.trim()[0]).sort()).toEqual(['A', 'B', 'C']);
    const shares = bars.map((b) => Number(b.trim().split(/\s+/).at(-1)!.slice(0, -1)));
    expect(shares).toEqual([...shares].sort((a, b) => b - a));
  });

  it('says a task still running has no forecast yet and how to wait for it (exit 0); a failed one exits 4; an unknown one 3', async () => {
    const q = await clientOf(still).questions.create({ type: 'binary', title: 'Still running?' });
    const task = await clientOf(still).forecasts.create({ questionId: q.id });
    const r = await run(['forecasts', 'show', task.id], { env: envFor(still) });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${task.id} {2}queued {2}0/\\d+\n$`));
    expect(r.stderr).toBe(`no forecast yet: the task is queued\n1 task(s) still running; resume with: forecasting wait ${task.id}\n`);

    const failing = await clientOf(fast).questions.create({ type: 'binary', title: 'Failing?' });
    fast.service.forecastControls.setOutcome(failing.id, { task: 'failed', message: 'No sources' });
    const failed = await clientOf(fast).forecasts.createAndWait({ questionId: failing.id, runMode: 'light' });
    const f = await run(['forecasts', 'show', failed.id], { env: envFor(fast) });
    expect(f.code).toBe(4);
    expect(f.stdout).toMatch(/ {2}failed {2}.*No sources\n$/);

    const missing = await run(['forecasts', 'show', 'no-such-task'], { env: envFor(fast) });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/^NotFoundError: /);
  });
});

describe.runIf(hasTools('tmux'))('forecasting forecasts show TASK_ID, on a terminal (tmux)', () => {
  /** Runs the command in a detached tmux pane of `width` columns and returns the pane's text once it has ended. */
  async function onTerminal(args: string[], width: number, extraEnv: Record<string, string> = {}): Promise<string[]> {
    const socket = join(dir, `tmux-${width}-${Object.keys(extraEnv).join('')}`);
    const env = childEnv({ ...envFor(fast), LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' });
    const tmux = (...rest: string[]) => exec('tmux', ['-u', '-S', socket, '-f', '/dev/null', ...rest], { env });
    // Set in the pane's command: tmux gives the pane its own TERM.
    const vars = Object.entries(extraEnv).map(([k, v]) => `${k}='${v}'`);
    const command = [...vars, ...[process.execPath, BIN, ...args].map((a) => `'${a}'`)].join(' ');
    await tmux('new-session', '-d', '-x', String(width), '-y', '60', `${command}; echo "[exit $?]"; sleep 60`);
    try {
      for (let i = 0; i < 200; i++) {
        const { stdout } = await tmux('capture-pane', '-p', '-J');
        if (stdout.includes('[exit ')) return stdout.trimEnd().split('\n');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the command did not end in its pane');
    } finally {
      await tmux('kill-server').catch(() => undefined);
    }
  }

  it('draws in Unicode blocks, as wide as the pane', async () => {
    const id = await completed(NUMERIC);
    const lines = await onTerminal(['forecasts', 'show', id], 72);
    expect(lines.at(-1)).toBe('[exit 0]');
    expect(lines[0]).toContain(`${id}  completed`);
    const drawing = lines.slice(1, -1);
    expect(drawing.join('\n')).toMatch(/█/);
    expect(drawing.join('\n')).not.toMatch(/#/);
    const base = drawing.find((l) => l.includes('┬'))!;
    expect(base).toMatch(/^ {2}[─┬]+$/);
    expect(base).toHaveLength(72);
    for (const line of drawing) expect(line.length).toBeLessThanOrEqual(72);
  });

  it('draws 120 columns at most, in a 300-column pane', async () => {
    const id = await completed(NUMERIC);
    const lines = await onTerminal(['forecasts', 'show', id], 300);
    expect(lines.at(-1)).toBe('[exit 0]');
    const drawing = lines.slice(1, -1);
    const axis = drawing.find((l) => l.includes('┬'));
    expect(axis).toMatch(/^ {2}[─┬]+$/);
    expect(axis).toHaveLength(120);
    for (const line of drawing) expect(line.length).toBeLessThanOrEqual(120);
  });

  it('draws in ASCII on a terminal with NO_COLOR or TERM=dumb', async () => {
    const id = await completed({ type: 'binary', title: 'Plain on a terminal?' });
    for (const env of [{ NO_COLOR: '1' }, { TERM: 'dumb' }] as Array<Record<string, string>>) {
      const lines = await onTerminal(['forecasts', 'show', id], 50, env);
      expect(lines[1]).toMatch(/^ {2}YES {2}#*\.+ +\d+\.\d%$/);
      expect(lines[1]).toHaveLength(50);
    }
  });
});
