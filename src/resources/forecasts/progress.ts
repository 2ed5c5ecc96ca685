/**
 * Forecast progress: snapshots of a task while it is waited for, and the tracker that turns
 * successive snapshots into `progress`, `status`, `subforecast`, `done` and `report` events.
 * @module
 */
import type { EventEmitter } from 'eventemitter3';
import type { UnknownValue } from '../../schemas/common.js';
import type { ReportStatus, TaskStatus } from '../../schemas/enums.js';

/**
 * A snapshot of one task's progress, passed to `onProgress` and to the progress events.
 * @example
 * ```ts
 * await client.forecasts.wait(taskId, {
 *   onProgress: (p: ForecastProgress) => console.log(p.status, `${p.completedSubforecastCount}/${p.plannedSubforecastCount}`, p.reportStatus),
 * });
 * ```
 */
export interface ForecastProgress {
  taskId: string;
  /** `queued`, `running_subforecasts`, `synthesizing`, `completed`, `failed` or `cancelled` (a status the SDK does not know yet passes, typed apart). */
  status: TaskStatus | UnknownValue;
  /** The status before this read (`undefined` on the first read). */
  previousStatus: TaskStatus | UnknownValue | undefined;
  /** Whether the task is final. */
  final: boolean;
  progressMessage: string | undefined;
  completedSubforecastCount: number | undefined;
  plannedSubforecastCount: number | undefined;
  /** The report's status once known (`pending`, `writing`, `completed`, `failed`). */
  reportStatus: ReportStatus | UnknownValue | undefined;
}

/**
 * Progress events of waits, on `client.forecasts.progress` (a {@link TypedEmitter}).
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
    if (p.reportStatus && FINAL_REPORT.has(p.reportStatus) && p.reportStatus !== before?.reportStatus) e.emit('report', p);
    return p;
  }
}
