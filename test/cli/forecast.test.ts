// `forecasting forecast` and `forecasting wait` against the mock over HTTP: output in lines, JSON
// and progress, the exit code of each ending, Ctrl-C, and many tasks from a JSONL file.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { ManualClock, startMockServer, type MockServer } from '../../src/testing/index.js';
import { BIN, childEnv, envFor, run, start } from './_cli.js';

/** A fast mock (an hour of mock time per real second): a light forecast takes about 0.1 s, Retry-After says 1 s. */
let fast: MockServer;
/** A mock whose time stands still: tasks stay queued for as long as a test needs. */
let still: MockServer;
let dir: string;
beforeAll(async () => {
  [fast, still] = await Promise.all([startMockServer({ timeScale: 3600 }), startMockServer({ clock: new ManualClock() })]);
  dir = mkdtempSync(join(tmpdir(), 'forecasting-cli-'));
});
afterAll(async () => {
  await Promise.all([fast.close(), still.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const clientOf = (mock: MockServer) => new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });
const question = async (mock: MockServer, title = 'Will the CLI wait well?') => (await clientOf(mock).questions.create({ type: 'binary', title })).id;
const RESULT = /^[0-9a-f-]{36} {2}completed {2}3\/3 {2}probability=0(\.\d+)?$/;

describe('forecasting forecast QUESTION_ID', () => {
  it('prints the task id alone (for TASK=$(…)), or the task with --json', async () => {
    const q = await question(fast);
    const r = await run(['forecast', q, '--run-mode', 'light'], { env: envFor(fast) });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(fast.service.store.forecasts.get(r.stdout.trim())?.runMode).toBe('light');

    const other = await question(fast);
    const j = await run(['forecast', other, '--json'], { env: envFor(fast) });
    expect(JSON.parse(j.stdout)).toMatchObject({ type: 'forecast_task', status: 'queued', runMode: 'standard' });
  });

  it('with --wait and no terminal: plain progress lines on stderr, the result line and its forecast drawn in ASCII on stdout, exit 0', async () => {
    const q = await question(fast);
    const r = await run(['forecast', q, '--run-mode', 'light', '--wait'], { env: envFor(fast) });
    expect(r.code).toBe(0);
    const [line, bar, ...rest] = r.stdout.trimEnd().split('\n');
    expect(line).toMatch(RESULT);
    // 80 columns when piped: the bar of YES over its track, and the percentage the line's number gives.
    expect(bar).toMatch(/^ {2}YES {2}#*\.* +\d+\.\d%$/);
    expect(bar).toHaveLength(80);
    expect(Number(bar!.split(/\s+/).at(-1)!.slice(0, -1))).toBeCloseTo(Number(line!.split('probability=')[1]) * 100, 1);
    expect(rest).toEqual([]);
    const plain = await run(['forecast', q, '--run-mode', 'light', '--wait', '--no-draw', '--progress', 'none'], { env: envFor(fast) });
    expect(plain.stdout).toMatch(new RegExp(`^${RESULT.source.slice(1, -1)}\n$`));
    const lines = r.stderr.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^[0-9a-f-]{36} {2}completed {2}3\/3 subforecasts {2}\d+:\d\d$/);
    // Plain text only: no escape sequences, no bar.
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/\u001b|█/);
  });

  it('with --wait --json prints the final task (report included with --wait-for-report)', async () => {
    const q = await question(fast);
    const r = await run(['forecast', q, '--run-mode', 'light', '--wait', '--wait-for-report', '--json', '--progress', 'none'], { env: envFor(fast) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const task = JSON.parse(r.stdout) as { status: string; forecast: { report: { status: string } } };
    expect(task.status).toBe('completed');
    expect(task.forecast.report.status).toBe('completed');
  });

  it('exits 4 when the task fails, with its message on the result line', async () => {
    const q = await question(fast);
    fast.service.forecastControls.setOutcome(q, { task: 'failed', message: 'The sources disagreed' });
    const r = await run(['forecast', q, '--run-mode', 'light', '--wait', '--progress', 'none'], { env: envFor(fast) });
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/^[0-9a-f-]{36} {2}failed {2}\d\/3 {2}The sources disagreed\n$/);
  });

  it('refuses a bad run mode with the SDK\'s message (exit 2), and an unknown question with the API\'s (exit 3)', async () => {
    const q = await question(fast);
    const bad = await run(['forecast', q, '--run-mode', 'turbo'], { env: envFor(fast) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^ValidationError: runMode: must be one of "light", /);
    const unknown = await run(['forecast', 'no-such-question'], { env: envFor(fast) });
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/^NotFoundError: 404 /);
  });

  it('on a question with a forecast running, names that task and how to wait for it (exit 3)', async () => {
    const q = await question(still);
    const first = (await run(['forecast', q], { env: envFor(still) })).stdout.trim();
    const again = await run(['forecast', q], { env: envFor(still) });
    expect(again.code).toBe(3);
    const [line, hint, ...rest] = again.stderr.trimEnd().split('\n');
    expect(line).toMatch(/^ForecastAlreadyRunningError: 409 forecast_already_running: /);
    expect(hint).toBe(`The forecast running: ${first}. Wait for it: forecasting wait ${first}`);
    expect(rest).toEqual([]);
  });
});

describe('forecasting wait TASK_ID…', () => {
  it('waits for several tasks: one line each, or a JSON array with --json; exit 0', async () => {
    const client = clientOf(fast);
    const ids = await Promise.all([1, 2].map(async (n) => (await client.forecasts.create({ questionId: await question(fast, `Many ${n}?`), runMode: 'light' })).id));
    const r = await run(['wait', ...ids], { env: envFor(fast) });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').map((l) => l.slice(0, 36))).toEqual(ids);
    expect(r.stdout.trim().split('\n').every((l) => RESULT.test(l))).toBe(true);

    const j = await run(['wait', ...ids, '--json'], { env: envFor(fast) });
    expect((JSON.parse(j.stdout) as Array<{ id: string; status: string }>).map((t) => [t.id, t.status])).toEqual(ids.map((id) => [id, 'completed']));
    const one = await run(['wait', ids[0]!, '--json', '--progress', 'none'], { env: envFor(fast) });
    expect(JSON.parse(one.stdout)).toMatchObject({ id: ids[0], status: 'completed' });
  });

  it('exits 5 for a cancelled task', async () => {
    const client = clientOf(fast);
    const task = await client.forecasts.create({ questionId: await question(fast), runMode: 'deep' });
    await client.forecasts.cancel(task.id);
    const r = await run(['wait', task.id], { env: envFor(fast) });
    expect(r.code).toBe(5);
    expect(r.stdout).toMatch(/ {2}cancelled {2}/);
  });

  it('exits 6 when --timeout runs out, printing where each task stood', async () => {
    const task = await clientOf(still).forecasts.create({ questionId: await question(still) });
    const r = await run(['wait', task.id, '--timeout', '0.3'], { env: envFor(still) });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^WaitTimeoutError: Not final after 300 ms/m);
    expect(r.stdout).toBe(`${task.id}  queued  0/5\n`);
  });

  it('stops on Ctrl-C (SIGINT): exit 130, the task left running and named', async () => {
    const task = await clientOf(still).forecasts.create({ questionId: await question(still) });
    const child = start(['wait', task.id], { env: envFor(still) });
    await child.waitFor('stderr', /queued/);
    child.child.kill('SIGINT');
    const r = await child.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(new RegExp(`\\nInterrupted: stopped waiting\\n1 task\\(s\\) still running; resume with: forecasting wait ${task.id}\\n$`));
    expect(r.stdout).toBe(`${task.id}  queued  0/5\n`);
    expect(still.service.store.forecasts.get(task.id)?.status).toBe('queued');
  });

  it('with --cancel-on-interrupt, Ctrl-C also cancels the tasks still running', async () => {
    const client = clientOf(still);
    const ids = await Promise.all([1, 2].map(async (n) => (await client.forecasts.create({ questionId: await question(still, `Interrupted ${n}?`) })).id));
    const child = start(['wait', ...ids, '--cancel-on-interrupt', '--json'], { env: envFor(still) });
    await child.waitFor('stderr', new RegExp(`${ids[1]}.*queued`));
    child.child.kill('SIGINT');
    const r = await child.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('Interrupted: cancelled 2 of 2 running task(s)');
    expect((JSON.parse(r.stdout) as Array<{ status: string }>).map((t) => t.status)).toEqual(['cancelled', 'cancelled']);
    expect(ids.map((id) => still.service.store.forecasts.get(id)?.status)).toEqual(['cancelled', 'cancelled']);
  });
});

describe('the progress display', () => {
  it('draws a live bar per task with --progress tty: status, subforecasts done of planned, elapsed', async () => {
    const client = clientOf(fast);
    const ids = await Promise.all([1, 2].map(async (n) => (await client.forecasts.create({ questionId: await question(fast, `Bar ${n}?`), runMode: 'light' })).id));
    const r = await run(['wait', ...ids, '--progress', 'tty'], { env: envFor(fast) });
    expect(r.code).toBe(0);
    // Redrawn in place: cursor movement and line erasing, one bar line per task.
    expect(r.stderr).toMatch(/\u001b\[\d*[AK]|\u001b\[2K/);
    const frame = r.stderr.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '\n').split('\n').filter((l) => l.includes('subforecasts'));
    for (const id of ids) {
      // 80 columns (the size assumed for a pipe): the id's first 8 characters, so a line fits.
      expect(frame).toContainEqual(expect.stringMatching(new RegExp(`^${id.slice(0, 8)} {2}\\[█{20}\\] {2}completed {13}3/3 subforecasts {2}\\d+:\\d\\d$`)));
    }
    expect(frame.some((l) => /░/.test(l))).toBe(true); // an unfinished bar was drawn on the way
    // Results stay plain on stdout.
    expect(r.stdout.trim().split('\n').every((l) => RESULT.test(l))).toBe(true);
  });

  const hasScript = (() => {
    try {
      execFileSync('script', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!hasScript)('draws the bar on its own under a pseudo-terminal (util-linux script)', async () => {
    const task = await clientOf(fast).forecasts.create({ questionId: await question(fast), runMode: 'light' });
    const out = await new Promise<string>((resolve, reject) => {
      const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} wait ${task.id}`;
      const child = execFileAsync('script', ['-qefc', command, '/dev/null'], childEnv(envFor(fast)));
      child.then(resolve, reject);
    });
    expect(out).toMatch(/\u001b\[/);
    expect(out).toMatch(new RegExp(`${task.id.slice(0, 8)} {2}\\[█{20}\\] {2}completed`));
    expect(out).toMatch(new RegExp(`${task.id} {2}completed {2}3/3 {2}probability=`));
  });
});

/** Runs a command, resolving with its stdout (a pseudo-terminal mixes stderr in). */
function execFileAsync(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return import('node:child_process').then(
    ({ execFile }) =>
      new Promise((resolve, reject) => {
        execFile(file, args, { env, timeout: 30_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
      }),
  );
}

describe('forecasting forecast --from-file', () => {
  it('starts one forecast per line (createMany), waits for all (waitMany), one line per task; a refused line exits 4', async () => {
    const q = await question(fast, 'From a file?');
    const file = join(dir, 'questions.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ questionId: q }),
        '',
        JSON.stringify({ type: 'binary', title: 'A question defined in the file?' }),
        JSON.stringify({ questionId: 'no-such-question' }),
      ].join('\n'),
    );
    const r = await run(['forecast', '--from-file', file, '--run-mode', 'light', '--wait'], { env: envFor(fast) });
    expect(r.code).toBe(4);
    // Each completed task's line with its forecast drawn under it, then the refused line.
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(5);
    expect([lines[0], lines[2]].every((l) => RESULT.test(l!))).toBe(true);
    expect([lines[1], lines[3]].every((l) => / {2}YES {2}/.test(l!))).toBe(true);
    // Its line in the file (the blank line counts), not its place in the batch.
    expect(lines[4]).toMatch(/^rejected {2}line 4 {2}\S/);

    const j = await run(['forecast', '--from-file', file, '--run-mode', 'light', '--wait', '--json', '--progress', 'none'], { env: envFor(fast) });
    const items = JSON.parse(j.stdout) as Array<{ status: string; task?: { status: string } }>;
    expect(items.map((i) => [i.status, i.task?.status])).toEqual([['accepted', 'completed'], ['accepted', 'completed'], ['rejected', undefined]]);
    expect(items.map((i) => (i as { line?: number }).line)).toEqual([1, 3, 4]);
  });

  it('names a refused field the same way with --json as without: below the line, not the batch', async () => {
    const file = join(dir, 'fields.jsonl');
    writeFileSync(file, `${JSON.stringify({ type: 'binary', title: 'Fine?' })}\n\n${JSON.stringify({ type: 'numeric', title: 'No scale?', lowerBound: 0, upperBound: 10 })}\n`);
    const r = await run(['forecast', '--from-file', file], { env: envFor(fast) });
    const plain = /^rejected {2}line 3 {2}(.+)$/m.exec(r.stdout)?.[1];
    expect(plain).toMatch(/^question\.scaleType: /);
    const j = await run(['forecast', '--from-file', file, '--json'], { env: envFor(fast) });
    const rejected = (JSON.parse(j.stdout) as Array<{ status: string; line: number; index: number; error?: { message: string } }>).find((i) => i.status === 'rejected');
    expect(rejected).toMatchObject({ line: 3, index: 1, error: { message: plain } });
  });

  it('prints the started task ids without --wait', async () => {
    const file = join(dir, 'two.jsonl');
    writeFileSync(file, `${JSON.stringify({ type: 'binary', title: 'One?' })}\n${JSON.stringify({ type: 'binary', title: 'Two?' })}\n`);
    const r = await run(['forecast', '--from-file', file], { env: envFor(fast) });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f-]{36} {2}started\n[0-9a-f-]{36} {2}started\n$/);
  });

  it('reads a file saved with a UTF-8 byte-order mark (Notepad, Excel), and refuses UTF-16 by name', async () => {
    const file = join(dir, 'bom.jsonl');
    const lines = `${JSON.stringify({ type: 'binary', title: 'Saved on Windows?' })}\r\n${JSON.stringify({ type: 'binary', title: 'Second?' })}\r\n`;
    writeFileSync(file, `\uFEFF${lines}`);
    const r = await run(['forecast', '--from-file', file], { env: envFor(fast) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f-]{36} {2}started\n[0-9a-f-]{36} {2}started\n$/);

    const utf16 = join(dir, 'utf16.jsonl');
    writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(lines, 'utf16le')]));
    const before = fast.service.requests.count();
    const refused = await run(['forecast', '--from-file', utf16], { env: envFor(fast) });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^UsageError: .*utf16\.jsonl is UTF-16 text: save it as UTF-8\n$/);
    expect(fast.service.requests.count()).toBe(before);
  });

  it('refuses a line that is not JSON (exit 2, the line named), nothing started', async () => {
    const file = join(dir, 'bad.jsonl');
    writeFileSync(file, `${JSON.stringify({ questionId: 'x' })}\n{not json\n`);
    const before = fast.service.requests.count();
    const r = await run(['forecast', '--from-file', file], { env: envFor(fast) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^UsageError: .*bad\.jsonl line 2: not JSON/);
    expect(fast.service.requests.count()).toBe(before);
  });

  it('quotes nothing of a line that is not JSON: a secret pasted there shows no fragment', async () => {
    const file = join(dir, 'pasted.jsonl');
    const secret = 'xq7TrKmW2vLp9ZsN4bHc8YdF';
    writeFileSync(file, `${secret}\n`);
    const r = await run(['forecast', '--from-file', file], { env: envFor(fast) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^UsageError: .*pasted\.jsonl line 1: not JSON \(/);
    for (let at = 0; at + 4 <= secret.length; at++) expect(r.stderr).not.toContain(secret.slice(at, at + 4));
  });
});
