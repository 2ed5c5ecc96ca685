/**
 * `forecasts.runMany`'s options and results: thousands of forecasts inside the service's limits. The
 * run pulls items lazily from any (async) iterable, starts them in batches on fixed index ranges (one
 * `Idempotency-Key` each, derived from the run id, so a rerun replays instead of starting twice),
 * keeps at most `maxActive` running, polls every running task with one list request a round, and
 * yields each item's outcome as it becomes known. The policy is `run-many/scheduler.ts` (pure), the
 * I/O `run-many/driver.ts`, loaded on a run's first step.
 * @module
 */
import type { RequestOptions } from '../../core/options.js';
import type { ForecastCreateParams } from '../../schemas/forecasts.js';
import type { ForecastListItem, ForecastTask } from '../../schemas/records/forecasts.js';

/**
 * Options of `forecasts.runMany`.
 * @example
 * ```ts
 * const controller = new AbortController();
 * const options: RunManyOptions = {
 *   runId: 'nightly-2027-06-01',  // rerun with the same id (within 24 hours) to resume
 *   maxActive: 50,
 *   signal: controller.signal,
 *   cancelOnAbort: true,
 *   onProgress: (p) => console.log(p.counts.completed, p.etaMs),
 * };
 * ```
 */
export interface RunManyOptions {
  /**
   * Names the run, to resume it. Each batch's `Idempotency-Key` is `<runId>:<n>`, where batch `n`
   * always holds the same items (fixed index ranges), so running the same items again with the same
   * `runId` and `maxActive` replays every batch already started (the service keeps keys 24 hours)
   * and starts only the rest. 1 to 100 printable ASCII characters. Default: a new random id (see
   * `runId` in the progress).
   */
  runId?: string | undefined;
  /**
   * Most forecasts running at once, 1 to 50 (default and maximum: the service's limit of 50
   * API-started forecasts per user). It also sets the batch size: the largest even split of
   * `maxActive` into batches of at most 25 (25 for 50, 20 for 40, 15 for 30). A client's coordinator
   * with a lower `maxActive` (the fleet's cap) lowers it to that, batches included: a run resumed
   * by `runId` keeps its batches when the cap is the same.
   */
  maxActive?: number | undefined;
  /**
   * Stops starting forecasts at once, a start held back by a 429 or retried through an outage
   * included. Running ones are still waited for and yielded, unless `cancelOnAbort`. Items not
   * started are not reported. To stop at once instead, leaving running forecasts running, leave the
   * `for await` loop (`break`).
   */
  signal?: AbortSignal | undefined;
  /** With `signal`: once it aborts, cancel the running forecasts too (bulk cancel, 25 a request); they are yielded as `cancelled`. */
  cancelOnAbort?: boolean | undefined;
  /** Called after every batch start and every polling round with the run's counts. */
  onProgress?: ((progress: RunManyProgress) => void) | undefined;
  /** How many items the input holds, for the ETA (an array's length is used when not given). */
  total?: number | undefined;
  /**
   * Yield full task records: one `GET /forecasts/{task_id}` per finished task (default `false`:
   * the list item the polling round already read, with `forecastData` and the report's `short`
   * text, at no extra request).
   */
  full?: boolean | undefined;
  /**
   * Options of every request (`headers`, per-attempt `timeout`, `maxRetries`). Starts and reads that
   * fail are retried until they succeed, as in every wait; a `maxRetries` here caps those retries.
   */
  requestOptions?: Omit<RequestOptions, 'signal' | 'idempotencyKey'> | undefined;
}

/**
 * Why the service refused an item: its `error.type` and message (which names the field).
 * @example
 * ```ts
 * if (result.status === 'rejected') console.log(result.error.type, result.error.message);
 * ```
 */
export interface RunManyItemError {
  type: string;
  message: string;
}

/**
 * An item whose forecast ran to a final state: `completed`, `failed` (a result, not an exception:
 * see `task.progressMessage`, or `task.error` with `full`) or `cancelled`.
 * @example
 * ```ts
 * if (result.status === 'completed') console.log(result.index, result.task.forecastData);
 * ```
 */
export interface RunManyFinished<T extends ForecastListItem | ForecastTask = ForecastListItem> {
  status: 'completed' | 'failed' | 'cancelled';
  /** The item's place in the input, from 0. */
  index: number;
  item: ForecastCreateParams;
  taskId: string;
  /** The final task: the list item the polling round read, or the full record with `full: true`. */
  task: T;
  /** True when an earlier run with the same `runId` started it (its batch was replayed). */
  resumed: boolean;
}

/**
 * An item the service refused (an unknown question, a question with a forecast already running, a
 * bad field, …). Nothing was started for it.
 * @example
 * ```ts
 * if (result.status === 'rejected') retryLater.push(result.item);
 * ```
 */
export interface RunManyRejected {
  status: 'rejected';
  index: number;
  item: ForecastCreateParams;
  error: RunManyItemError;
}

/**
 * An item not started because the credits ran out: the one the service refused for a low balance
 * (with its `error`), and every item after it, which the run no longer sends.
 * @example
 * ```ts
 * if (result.status === 'not_started') unstarted.push(result.index);
 * ```
 */
export interface RunManyNotStarted {
  status: 'not_started';
  index: number;
  item: ForecastCreateParams;
  reason: 'insufficient_credits';
  /** The service's refusal, for the item it refused; absent for items never sent. */
  error?: RunManyItemError;
}

/**
 * One item's outcome, yielded by `forecasts.runMany` as soon as it is known: discriminated on `status`.
 * @example
 * ```ts
 * for await (const r of client.forecasts.runMany(items)) {
 *   if (r.status === 'completed') save(r.index, r.task.forecastData);
 *   else if (r.status === 'rejected' || r.status === 'not_started') console.warn(r.index, r.status);
 * }
 * ```
 */
export type RunManyResult<T extends ForecastListItem | ForecastTask = ForecastListItem> = RunManyFinished<T> | RunManyRejected | RunManyNotStarted;

/**
 * The run's items by state: the running ones by the status the last round saw, the others by outcome.
 * @example
 * ```ts
 * const running = p.counts.queued + p.counts.running_subforecasts + p.counts.synthesizing;
 * ```
 */
export interface RunManyCounts {
  queued: number;
  running_subforecasts: number;
  synthesizing: number;
  completed: number;
  failed: number;
  cancelled: number;
  rejected: number;
  not_started: number;
}

/**
 * Where a run stands, passed to `onProgress`.
 * @example
 * ```ts
 * onProgress: (p) => console.log(`${p.done}/${p.total ?? '?'} done, ${p.active} running, ${p.creditsSpent} credits, ETA ${p.etaMs} ms`)
 * ```
 */
export interface RunManyProgress {
  /** The run's id (pass it as `runId` to resume). */
  runId: string;
  /** Items read from the input so far. */
  read: number;
  /** All items, when known (`total`, an array's length, or once the input is read to its end). */
  total: number | undefined;
  /** Forecasts started, resumed ones included. */
  started: number;
  /** Forecasts an earlier run with this `runId` had started (their batches were replayed). */
  resumed: number;
  /** Forecasts running now. */
  active: number;
  /** Items with an outcome (yielded). */
  done: number;
  counts: RunManyCounts;
  /** Credits the forecasts this run started cost, at the prices of `GET /run-modes` (resumed ones not counted). */
  creditsSpent: number;
  /** Time since the run began, in ms (on the client's clock). */
  elapsedMs: number;
  /** Time left at the pace so far, in ms; `undefined` until an item is done or while `total` is unknown. */
  etaMs: number | undefined;
  /** Why the run stopped starting forecasts, once it has. */
  stopped: 'aborted' | 'insufficient_credits' | undefined;
}

/**
 * Input items of a run: any iterable or async iterable of `POST /forecasts` bodies (an array, a
 * generator, lines read from a file, …), read only as fast as the run starts them, and closed
 * (`return()`) only when the run leaves it early, as `for await` does; as there, a promise a sync
 * iterable yields is awaited, and one that rejects ends the run with its error.
 * @example
 * ```ts
 * async function* fromDatabase(): AsyncGenerator<ForecastCreateParams> {
 *   for await (const row of db.stream('SELECT question_id FROM questions')) yield { questionId: row.question_id, runMode: 'light' };
 * }
 * const input: RunManyInput = fromDatabase();
 * ```
 */
export type RunManyInput = Iterable<ForecastCreateParams> | AsyncIterable<ForecastCreateParams>;
