/**
 * Waiting for tasks, shared by `forecast --wait` and `wait`: the SDK's `wait` (one task) or
 * `waitMany` (several), the progress display, Ctrl-C (stop, and with `--cancel-on-interrupt` cancel
 * the tasks still running), `--timeout`, and the exit code the final states make.
 * @module
 */
import type { ForecastingClient, ForecastProgress, ForecastTask } from '../index.js';
import { secondsAsMs } from './args.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { note, type TaskLike } from './output.js';
import { ProgressBoard, progressMode } from './progress.js';
import { errorLine } from './report.js';

/** The wait flags (see `waitOptions` in the command table). */
export interface WaitFlags {
  timeout?: string;
  waitForReport?: boolean;
  progress?: string;
  cancelOnInterrupt?: boolean;
  json?: boolean;
}

/** The outcome of a wait: each task's last state (final unless interrupted or out of time) and the exit code. */
export interface WaitOutcome {
  tasks: TaskLike[];
  code: ExitCode;
}

const FINAL = new Set(['completed', 'failed', 'cancelled']);

/** The exit code of final tasks: a failure first, then a cancellation, else success. */
export function codeOfTasks(tasks: readonly { status: string }[]): ExitCode {
  if (tasks.some((t) => t.status === 'failed')) return EXIT.failed;
  if (tasks.some((t) => t.status === 'cancelled')) return EXIT.cancelled;
  return EXIT.ok;
}

/** Waits for `ids`, showing progress; never throws for an interrupt or a timeout (they are exit codes). */
export async function waitFor(client: ForecastingClient, ids: readonly string[], flags: WaitFlags): Promise<WaitOutcome> {
  const timeout = secondsAsMs(flags.timeout, '--timeout');
  const board = await ProgressBoard.create(progressMode(flags.progress), ids);
  const controller = new AbortController();
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    // A second Ctrl-C while cancelling: stop now.
    if (interrupted) process.exit(EXIT.interrupted);
    interrupted = signal;
    controller.abort(new Error(`Interrupted by ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const options = {
    signal: controller.signal,
    timeout,
    waitForReport: flags.waitForReport,
    onProgress: (p: ForecastProgress) => board.update(p),
  };
  try {
    const tasks: ForecastTask[] = ids.length === 1 ? [await client.forecasts.wait(ids[0]!, options)] : await client.forecasts.waitMany(ids, options);
    board.finish();
    return { tasks, code: codeOfTasks(tasks) };
  } catch (err) {
    board.finish();
    if (interrupted) {
      const running = ids.filter((id) => !FINAL.has(board.states.get(id)?.status ?? ''));
      if (flags.cancelOnInterrupt && running.length > 0) {
        const results = await client.forecasts.cancelMany(running, { maxRetries: 1, timeout: 10_000 });
        const cancelled = results.filter((r) => r.status === 'cancelled').length;
        note(`Interrupted: cancelled ${cancelled} of ${running.length} running task(s)`);
      } else if (running.length > 0) {
        note(`Interrupted: stopped waiting; ${running.length} task(s) still running (forecasting wait ${running.join(' ')})`);
      } else {
        note('Interrupted');
      }
      return { tasks: await latest(client, ids), code: EXIT.interrupted };
    }
    if (err instanceof Error && err.name === 'WaitTimeoutError') {
      note(errorLine(err));
      return { tasks: await latest(client, ids), code: EXIT.timeout };
    }
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Each task as it is now (one read each, quick and without long retries: the user is leaving). */
async function latest(client: ForecastingClient, ids: readonly string[]): Promise<TaskLike[]> {
  return Promise.all(ids.map((id) => client.forecasts.retrieve(id, {}, { maxRetries: 1, timeout: 10_000 })));
}
