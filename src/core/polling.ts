/**
 * The one wait loop: read, and if not done, sleep as long as the server asked (never less), until
 * done, aborted or out of time. Shared by `forecasts.wait`, `forecasts.waitMany` and later waits
 * (file readiness). Also the progress tracker that turns successive snapshots into events.
 * @module
 */
import type { EventEmitter } from 'eventemitter3';
import type { ClientClock } from './clock.js';

/** What one read gave: the value, whether waiting is over, and the ms the server asked to wait (if any). */
export type PollStep<T> = [value: T, done: boolean, waitMs?: number];

/**
 * Reads with `read` until it says done. Between reads it sleeps the wait the read asked for (else
 * `interval`): never faster than asked. An abort rejects at once with the signal's reason, mid-read
 * or mid-sleep. Once `timeout` ms have passed it rejects with `onTimeout()`; it sleeps to the
 * deadline rather than giving up early, and never reads past it.
 * @internal
 */
export async function poll<T>(
  read: (signal: AbortSignal | undefined) => Promise<PollStep<T>>,
  clock: ClientClock,
  signal: AbortSignal | undefined,
  timeout: number | undefined,
  interval: number,
  onTimeout: () => Error,
): Promise<T> {
  const deadline = timeout === undefined ? Infinity : clock.now() + timeout;
  for (;;) {
    signal?.throwIfAborted();
    const [value, done, asked] = await read(signal);
    if (done) return value;
    const wait = Math.max(0, asked ?? interval);
    const left = deadline - clock.now();
    await clock.sleep(Math.max(0, Math.min(wait, left)), signal);
    if (wait > left) throw onTimeout();
  }
}

/** A snapshot of one task's progress, passed to `onProgress` and to the progress events. */
export interface ForecastProgress {
  taskId: string;
  /** `queued`, `running_subforecasts`, `synthesizing`, `completed`, `failed` or `cancelled`. */
  status: string;
  /** The status before this read (`undefined` on the first read). */
  previousStatus: string | undefined;
  /** Whether the task is final. */
  final: boolean;
  progressMessage: string | undefined;
  completedSubforecastCount: number | undefined;
  plannedSubforecastCount: number | undefined;
  /** The report's status once known (`pending`, `writing`, `completed`, `failed`). */
  reportStatus: string | undefined;
}

/**
 * Progress events of waits, on `client.forecasts.progress` (an eventemitter3 emitter).
 * @example
 * ```ts
 * client.forecasts.progress.on('subforecast', (p) => console.log(`${p.completedSubforecastCount}/${p.plannedSubforecastCount}`));
 * client.forecasts.progress.on('done', (p) => console.log(p.taskId, p.status));
 * ```
 */
export interface ForecastProgressEvents {
  /** Every read of a task while waiting. */
  progress: (p: ForecastProgress) => void;
  /** The status changed (also on the first read). */
  status: (p: ForecastProgress) => void;
  /** More subforecasts finished. */
  subforecast: (p: ForecastProgress) => void;
  /** The task became final (`completed`, `failed` or `cancelled`). */
  done: (p: ForecastProgress) => void;
  /** The report became `completed` or `failed`. */
  report: (p: ForecastProgress) => void;
}

const FINAL_REPORT = new Set(['completed', 'failed']);

/**
 * Compares each snapshot of a task with the previous one and emits what changed.
 * @internal
 */
export class ProgressTracker {
  readonly #last = new Map<string, ForecastProgress>();

  constructor(
    private readonly emitter: EventEmitter<ForecastProgressEvents>,
    private readonly onProgress: ((p: ForecastProgress) => void) | undefined,
  ) {}

  observe(next: Omit<ForecastProgress, 'previousStatus'>): ForecastProgress {
    const before = this.#last.get(next.taskId);
    const p: ForecastProgress = { ...next, previousStatus: before?.status };
    this.#last.set(p.taskId, p);
    this.onProgress?.(p);
    const e = this.emitter;
    e.emit('progress', p);
    if (p.status !== before?.status) e.emit('status', p);
    if ((p.completedSubforecastCount ?? 0) > (before?.completedSubforecastCount ?? 0)) e.emit('subforecast', p);
    if (p.final && !before?.final) e.emit('done', p);
    // Stryker disable next-line ConditionalExpression: FINAL_REPORT has no undefined either
    if (p.reportStatus && FINAL_REPORT.has(p.reportStatus) && p.reportStatus !== before?.reportStatus) e.emit('report', p);
    return p;
  }
}
