// The resume hint: every way `forecast --wait` and `wait` can end with tasks still running names
// them as a `forecasting wait …` command on stderr (stdout stays the results, valid JSON with
// --json); an ending where every task is final prints none.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { ManualClock, startMockServer } from '../../src/testing/index.js';
import { envFor, run, start, useMockAndFolder } from './_cli.js';

/** Time stands still (tasks stay where they are), but the mock asks for polls a second apart, as a fast mock does. */
class StillClock extends ManualClock {
  override realSeconds(mockMs: number): number {
    return super.realSeconds(mockMs / 3600);
  }
}

const clock = new StillClock();
const cli = useMockAndFolder({ clock });

const client = () => new ForecastingClient({ apiKey: cli.mock.apiKey, baseURL: cli.mock.baseURL, logLevel: 'off' });
const question = async (title = 'Will the hint show?') => (await client().questions.create({ type: 'binary', title })).id;
/** A task left queued (time stands still). */
const queuedTask = async () => (await client().forecasts.create({ questionId: await question() })).id;
/** The last line of stderr is the hint naming exactly `ids`. */
const endsWithHint = (stderr: string, ids: string[], extra = '') => {
  expect(stderr.endsWith('\n')).toBe(true);
  expect(stderr.trimEnd().split('\n').at(-1)).toBe(`${ids.length} task(s) still running; resume with: forecasting wait ${ids.join(' ')}${extra}`);
};

describe('the resume hint', () => {
  it('on --timeout: after the timeout line, naming only the tasks not final', async () => {
    const running = await queuedTask();
    const cancelled = await queuedTask();
    await client().forecasts.cancel(cancelled);
    const r = await run(['wait', running, cancelled, '--timeout', '0.3', '--progress', 'none'], { env: envFor(cli.mock) });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^WaitTimeoutError: /);
    endsWithHint(r.stderr, [running]);
    expect(r.stdout).toBe(`${running}  queued  0/5\n${cancelled}  cancelled  0/5\n`);
  });

  it('with --json: stdout stays the JSON of the tasks, the hint is the last line of stderr', async () => {
    const id = await queuedTask();
    const r = await run(['forecast', await question(), '--wait', '--timeout', '0.3', '--json', '--progress', 'none'], { env: envFor(cli.mock) });
    expect(r.code).toBe(6);
    const task = JSON.parse(r.stdout) as { id: string; status: string };
    expect(task.status).toBe('queued');
    endsWithHint(r.stderr, [task.id]);
    const waited = await run(['wait', id, '--timeout', '0.3', '--json', '--progress', 'none'], { env: envFor(cli.mock) });
    expect(JSON.parse(waited.stdout)).toMatchObject({ id, status: 'queued' });
    endsWithHint(waited.stderr, [id]);
  });

  it('on an API error mid-wait (the key revoked): the error line, then the hint; exit 3', async () => {
    const id = await queuedTask();
    const child = start(['wait', id], { env: envFor(cli.mock) });
    await child.waitFor('stderr', /queued/);
    const fault = cli.mock.service.faults.add({ operation: 'forecasts.retrieve', status: 401, message: 'The API key was revoked', times: Infinity });
    const r = await child.done;
    fault.remove();
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^AuthenticationError: 401 .*The API key was revoked.*\n.*still running; resume with/m);
    endsWithHint(r.stderr, [id]);
    expect(r.stdout).toBe('');
  });

  it('when forecast --wait cannot read the task it just started: the hint names it', async () => {
    const q = await question();
    const fault = cli.mock.service.faults.add({ operation: 'forecasts.retrieve', status: 403, times: Infinity });
    const r = await run(['forecast', q, '--wait', '--progress', 'none'], { env: envFor(cli.mock) });
    fault.remove();
    expect(r.code).toBe(3);
    const started = cli.mock.service.store.forecasts.list((t) => t.questionId === q).map((t) => t.id);
    expect(started).toHaveLength(1);
    endsWithHint(r.stderr, started);
  });

  it('on a connection error mid-wait: the hint from the ids the CLI knows (no answer needed)', async () => {
    const ids = [await queuedTask(), await queuedTask()];
    const child = start(['wait', ...ids, '--timeout', '8'], { env: envFor(cli.mock) });
    await child.waitFor('stderr', new RegExp(`${ids[1]}.*queued`));
    const fault = cli.mock.service.faults.add({ method: 'GET', path: '/forecasts', drop: true, times: Infinity });
    const faultOne = cli.mock.service.faults.add({ operation: 'forecasts.retrieve', drop: true, times: Infinity });
    const r = await child.done;
    fault.remove();
    faultOne.remove();
    // The SDK rides the outage out to --timeout (exit 6), saying once that it retries.
    expect(r.code).toBe(6);
    expect(r.stderr.match(/the service did not answer; retrying in \d+ s/g)).toHaveLength(1);
    endsWithHint(r.stderr, ids);
  });

  it('on 503 answers mid-wait: says the service answered 503 (it is there), not that it did not answer', async () => {
    const id = await queuedTask();
    const child = start(['wait', id, '--timeout', '4'], { env: envFor(cli.mock) });
    await child.waitFor('stderr', new RegExp(`${id}.*queued`));
    const fault = cli.mock.service.faults.add({ operation: 'forecasts.retrieve', status: 503, times: Infinity });
    const r = await child.done;
    fault.remove();
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/the service answered 503 \(OverloadedError\); retrying in \d+ s/);
    expect(r.stderr).not.toMatch(/did not answer/);
  });

  it('when one of several tasks fails to be read (an unknown id): the others still running are named', async () => {
    const id = await queuedTask();
    const r = await run(['wait', id, 'no-such-task', '--progress', 'none'], { env: envFor(cli.mock) });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^NotFoundError: 404 /m);
    endsWithHint(r.stderr, [id]);
  });

  it('when the SDK refuses one of the ids (nothing sent): the hint leaves it out, so the resume cannot fail the same way', async () => {
    const id = await queuedTask();
    const r = await run(['wait', id, '../../etc', '--progress', 'none'], { env: envFor(cli.mock) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^ValidationError: /m);
    endsWithHint(r.stderr, [id]);
  });

  it('when one of several tasks failed and the others were still running at the timeout', async () => {
    const failing = await question('Will this one fail?');
    cli.mock.service.forecastControls.setOutcome(failing, { task: 'failed', message: 'No sources' });
    const failed = (await client().forecasts.create({ questionId: failing, runMode: 'light' })).id;
    clock.advance(24 * 3600_000);
    expect(cli.mock.service.store.forecasts.get(failed)?.status).toBe('failed');
    const running = await queuedTask();
    const r = await run(['wait', failed, running, '--timeout', '0.5', '--progress', 'none'], { env: envFor(cli.mock) });
    expect(r.code).toBe(6);
    endsWithHint(r.stderr, [running]);
  });

  it('on SIGTERM, in lines and in --json: exit 130, the hint last on stderr', async () => {
    for (const json of [false, true]) {
      const id = await queuedTask();
      const child = start(['wait', id, ...(json ? ['--json'] : [])], { env: envFor(cli.mock) });
      await child.waitFor('stderr', /queued/);
      child.child.kill('SIGTERM');
      const r = await child.done;
      expect(r.code).toBe(130);
      endsWithHint(r.stderr, [id]);
      if (json) expect(JSON.parse(r.stdout)).toMatchObject({ id, status: 'queued' });
      else expect(r.stdout).toBe(`${id}  queued  0/5\n`);
    }
  });

  it('on Ctrl-C with --cancel-on-interrupt when the cancel fails: the tasks not cancelled are named', async () => {
    const ids = [await queuedTask(), await queuedTask()];
    const child = start(['wait', ...ids, '--cancel-on-interrupt'], { env: envFor(cli.mock) });
    await child.waitFor('stderr', new RegExp(`${ids[1]}.*queued`));
    const fault = cli.mock.service.faults.add({ operation: 'forecasts.cancelBatch', status: 403, times: Infinity });
    child.child.kill('SIGINT');
    const r = await child.done;
    fault.remove();
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/^PermissionDeniedError: 403 /m);
    endsWithHint(r.stderr, ids);
  });

  it('on a second Ctrl-C while cancelling: leaves at once, naming the tasks', async () => {
    const ids = [await queuedTask(), await queuedTask()];
    const child = start(['wait', ...ids, '--cancel-on-interrupt'], { env: envFor(cli.mock) });
    await child.waitFor('stderr', new RegExp(`${ids[1]}.*queued`));
    const slow = cli.mock.service.faults.add({ operation: 'forecasts.cancelBatch', delayMs: 20_000 });
    child.child.kill('SIGINT');
    await vi.waitFor(() => expect(slow.hits).toBe(1), { timeout: 10_000 });
    child.child.kill('SIGINT');
    const r = await child.done;
    slow.remove();
    expect(r.code).toBe(130);
    endsWithHint(r.stderr, ids);
  });

  it('on SIGTERM while forecast --wait is starting the task: the start finishes, and the task is named', async () => {
    const q = await question();
    const slow = cli.mock.service.faults.add({ operation: 'forecasts.create', delayMs: 1500 });
    const child = start(['forecast', q, '--wait', '--progress', 'none'], { env: envFor(cli.mock) });
    await vi.waitFor(() => expect(slow.hits).toBe(1), { timeout: 10_000 });
    child.child.kill('SIGTERM');
    const r = await child.done;
    const started = cli.mock.service.store.forecasts.list((t) => t.questionId === q).map((t) => t.id);
    expect(started).toHaveLength(1);
    expect(r.code).toBe(130);
    expect(r.stdout).toBe(`${started[0]}  queued  0/5\n`);
    endsWithHint(r.stderr, started);
  });

  it('forecast --from-file --wait ending on an error: the started and refused lines on stdout, the started tasks named', async () => {
    const file = join(cli.dir, 'lines.jsonl');
    writeFileSync(file, [{ type: 'binary', title: 'One?' }, { questionId: 'no-such-question' }, { type: 'binary', title: 'Two?' }].map((l) => JSON.stringify(l)).join('\n'));
    const faults = [cli.mock.service.faults.add({ operation: 'forecasts.list', status: 401, times: Infinity }), cli.mock.service.faults.add({ operation: 'forecasts.retrieve', status: 401, times: Infinity })];
    const r = await run(['forecast', '--from-file', file, '--wait', '--progress', 'none'], { env: envFor(cli.mock) });
    for (const f of faults) f.remove();
    expect(r.code).toBe(3);
    const lines = r.stdout.trim().split('\n');
    expect(lines[1]).toMatch(/^rejected {2}line 2 {2}\S/);
    const started = [lines[0], lines[2]].map((l) => /^([0-9a-f-]{36}) {2}started$/.exec(l!)?.[1]);
    expect(started.every((id) => id !== undefined)).toBe(true);
    endsWithHint(r.stderr, started as string[]);
  });

  it('keeps --wait-for-report in the command, so the resumed wait waits for the same thing', async () => {
    const id = await queuedTask();
    const r = await run(['wait', id, '--wait-for-report', '--timeout', '0.3', '--progress', 'none'], { env: envFor(cli.mock) });
    expect(r.code).toBe(6);
    endsWithHint(r.stderr, [id], ' --wait-for-report');
  });

  it('is not printed when every task is final', async () => {
    const fast = await startMockServer({ timeScale: 3600 });
    try {
      const fastClient = new ForecastingClient({ apiKey: fast.apiKey, baseURL: fast.baseURL, logLevel: 'off' });
      const q = (await fastClient.questions.create({ type: 'binary', title: 'Final?' })).id;
      fast.service.forecastControls.setOutcome(q, { task: 'failed', message: 'No sources' });
      const failed = await run(['forecast', q, '--run-mode', 'light', '--wait', '--progress', 'none'], { env: envFor(fast) });
      expect(failed.code).toBe(4);
      const cancelled = (await fastClient.forecasts.create({ questionId: (await fastClient.questions.create({ type: 'binary', title: 'Cancelled?' })).id })).id;
      await fastClient.forecasts.cancel(cancelled);
      const waited = await run(['wait', cancelled, '--json', '--progress', 'none'], { env: envFor(fast) });
      expect(waited.code).toBe(5);
      for (const r of [failed, waited]) expect(r.stderr).not.toMatch(/resume with/);
    } finally {
      await fast.close();
    }
  });
});
