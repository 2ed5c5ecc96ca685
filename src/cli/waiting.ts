/**
 * Waiting for tasks, shared by `forecast --wait` and `wait`: the SDK's `wait` (one task) or
 * `waitMany` (several), the progress display, Ctrl-C and SIGTERM (stop, and with
 * `--cancel-on-interrupt` cancel the tasks still running), `--timeout`, and the exit code the final
 * states make.
 *
 * Every ending that leaves tasks running (a timeout, a signal, an API or connection error, a cancel
 * that failed) closes with the resume hint, the last line on stderr:
 * `2 task(s) still running; resume with: forecasting wait <id> <id>`. It comes from the ids the CLI
 * itself started or was given, checked against a last read where the service still answers.
 * @module
 */
import type { ForecastingClient, ForecastProgress, ForecastTask, RetryEvent } from '../index.js';
import { secondsAsMs } from './args.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { FINAL_STATUSES, note, waitCommand, type TaskLike } from './output.js';
import { ProgressBoard, progressMode } from './progress.js';
import { errorLine, report } from './report.js';

/** The wait flags (see `waitOptions` in the command table). */
export interface WaitFlags {
  timeout?: string;
  waitForReport?: boolean;
  progress?: string;
  cancelOnInterrupt?: boolean;
  json?: boolean;
}

/**
 * The outcome of a wait: the exit code, and each task's last state (final unless interrupted or out
 * of time) to print, or `undefined` when there is nothing to print (the wait ended on an error, or
 * the tasks could not be read).
 */
export interface WaitOutcome {
  tasks: TaskLike[] | undefined;
  code: ExitCode;
}

/** A read on the way out: quick and without long retries, the user is leaving. */
const PARTING = { maxRetries: 1, timeout: 10_000 } as const;

/** The exit code of final tasks: a failure first, then a cancellation, else success. */
export function codeOfTasks(tasks: readonly { status: string }[]): ExitCode {
  if (tasks.some((t) => t.status === 'failed')) return EXIT.failed;
  if (tasks.some((t) => t.status === 'cancelled')) return EXIT.cancelled;
  return EXIT.ok;
}


/** The resume hint for `running`, or `undefined` when no task is left running. */
export function resumeHint(running: readonly string[], flags: Pick<WaitFlags, 'waitForReport'>): string | undefined {
  if (running.length === 0) return undefined;
  return `${running.length} task(s) still running; resume with: ${waitCommand(running, flags.waitForReport ? ['--wait-for-report'] : [])}`;
}

/**
 * Ctrl-C and SIGTERM, caught from before a command starts its tasks (so a signal during the start
 * lets the start finish, and the ids it gave are named), until the process ends. The first signal
 * aborts the wait; a second one leaves at once, naming the tasks not known to be final.
 */
export class Interrupts {
  /** The first signal received. */
  received: NodeJS.Signals | undefined;
  private readonly controller = new AbortController();
  /** Runs just before a second signal ends the process. */
  private lastWords: () => void = () => undefined;

  constructor() {
    const onSignal = (signal: NodeJS.Signals) => {
      if (this.received) {
        this.lastWords();
        process.exit(EXIT.interrupted);
      }
      this.received = signal;
      this.controller.abort(new Error(`Interrupted by ${signal}`));
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }

  /** Aborted on the first signal. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Sets what a second signal prints before leaving. */
  beforeLeaving(fn: () => void): void {
    this.lastWords = fn;
  }
}

/**
 * Waits for `ids`, showing progress. Never throws for what ends a wait (an interrupt, a timeout, an
 * API or connection error): each prints its line(s) on stderr, then the resume hint, and returns its
 * exit code.
 */
export async function waitFor(client: ForecastingClient, ids: readonly string[], flags: WaitFlags, interrupts = new Interrupts()): Promise<WaitOutcome> {
  const timeout = secondsAsMs(flags.timeout, '--timeout');
  const board = await ProgressBoard.create(progressMode(flags.progress), ids);
  /** The last status known of each task (`waiting` until one is read). */
  const known = (id: string) => board.states.get(id)?.status ?? 'waiting';
  const notFinal = () => ids.filter((id) => !FINAL_STATUSES.has(known(id)));
  const hint = (running: readonly string[]) => {
    const line = resumeHint(running, flags);
    if (line) note(line);
  };
  interrupts.beforeLeaving(() => hint(notFinal()));
  const options = {
    signal: interrupts.signal,
    timeout,
    waitForReport: flags.waitForReport,
    onProgress: (p: ForecastProgress) => board.update(p),
  };
  // The SDK rides out an outage until --timeout; say so rather than sit silent.
  const onRetry = (e: RetryEvent) => board.retrying(e);
  client.on('retry', onRetry);
  try {
    const tasks: ForecastTask[] = ids.length === 1 ? [await client.forecasts.wait(ids[0]!, options)] : await client.forecasts.waitMany(ids, options);
    client.off('retry', onRetry);
    board.finish();
    return { tasks, code: codeOfTasks(tasks) };
  } catch (err) {
    // The parting reads below are not part of the wait.
    client.off('retry', onRetry);
    board.finish();
    let code: ExitCode;
    /** Tasks this ending made final (cancelled, or found finished by the cancel). */
    let ended = new Set<string>();
    if (interrupts.received) {
      code = EXIT.interrupted;
      const running = notFinal();
      if (flags.cancelOnInterrupt && running.length > 0) ended = await cancelRunning(client, running);
      else note(running.length > 0 ? 'Interrupted: stopped waiting' : 'Interrupted');
    } else if (err instanceof Error && err.name === 'WaitTimeoutError') {
      code = EXIT.timeout;
      note(errorLine(err));
    } else {
      code = report(err);
    }
    // Where each task stands now, for the result lines and the hint; after a connection error the
    // service is out of reach, so the last states seen stand.
    const unreachable = err instanceof Error && /^API(Connection|Timeout)Error$/.test(err.name);
    const reads = unreachable ? undefined : await Promise.allSettled(ids.map((id) => client.forecasts.retrieve(id, {}, PARTING)));
    const running = ids.filter((id, i) => {
      const r = reads?.[i];
      if (ended.has(id) || (r?.status === 'rejected' && neverReadable(r.reason))) return false;
      return !FINAL_STATUSES.has(r?.status === 'fulfilled' ? r.value.status : known(id));
    });
    // The result lines after a timeout or an interrupt, as before; none after an error.
    let tasks: ForecastTask[] | undefined;
    if (reads && (code === EXIT.interrupted || code === EXIT.timeout)) {
      const failure = reads.find((r) => r.status === 'rejected');
      if (failure) note(`Could not read where the tasks stand: ${errorLine(failure.reason)}`);
      else tasks = reads.map((r) => (r as PromiseFulfilledResult<ForecastTask>).value);
    }
    hint(running);
    return { tasks, code };
  }
}

/** A read that no resume can make: the task does not exist (404), or the SDK refuses its id (a `ValidationError`, nothing sent). */
const neverReadable = (reason: unknown): boolean =>
  reason instanceof Error && (reason.name === 'ValidationError' || (reason as { status?: unknown }).status === 404);

/** `--cancel-on-interrupt`: cancels `running`, says how it went, and returns the ids now final. */
async function cancelRunning(client: ForecastingClient, running: readonly string[]): Promise<Set<string>> {
  try {
    const results = await client.forecasts.cancelMany(running, PARTING);
    note(`Interrupted: cancelled ${results.filter((r) => r.status === 'cancelled').length} of ${running.length} running task(s)`);
    return new Set(results.filter((r) => r.status === 'cancelled' || r.status === 'already_finished').map((r) => r.taskId));
  } catch (err) {
    note(`Interrupted: stopped waiting; cancelling the ${running.length} running task(s) failed:`);
    report(err);
    return new Set();
  }
}
