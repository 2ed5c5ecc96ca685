/**
 * `forecasts.runMany`: thousands of forecasts inside the service's limits. A scheduler that pulls
 * items lazily from any (async) iterable, starts them in batches on fixed index ranges (one
 * `Idempotency-Key` each, derived from the run id, so a rerun replays instead of starting twice),
 * keeps at most `maxActive` running, polls every running task with one list request a round, and
 * yields each item's outcome as it becomes known.
 * @module
 */
import type { ClientClock } from '../../core/clock.js';
import { APIError, InvalidResponseError, ValidationError, parseRetryAfter } from '../../core/errors.js';
import { checkIdempotencyKey } from '../../core/idempotency.js';
import { MAX_ACTIVE_FORECASTS, MAX_BATCH_ITEMS, MAX_BULK_CANCEL_IDS, MAX_PAGE_SIZE, QUEUED_RETRY_AFTER_MS, RUNNING_RETRY_AFTER_MS } from '../../api/limits.js';
import type { RequestOptions } from '../../core/options.js';
import { boundedWait } from '../../core/polling.js';
import { WAIT_MODE, type WaitRequestOptions } from '../../core/retry.js';
import { FINAL_TASK_STATUSES, type ForecastCreateParams } from '../../schemas/forecasts.js';
import type { ForecastListItem, ForecastTask } from '../../schemas/records/forecasts.js';
import { endsWaitFor, type FlowContext } from './waits.js';

/** Characters a `runId` may have: the longest key derived from it must fit the service's 128. @internal */
export const MAX_RUN_ID_LENGTH = 100;

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
  runId?: string;
  /**
   * Most forecasts running at once, 1 to 50 (default and maximum: the service's limit of 50
   * API-started forecasts per user). It also sets the batch size: the largest even split of
   * `maxActive` into batches of at most 25 (25 for 50, 20 for 40, 15 for 30).
   */
  maxActive?: number;
  /**
   * Stops starting forecasts at once, a start held back by a 429 or retried through an outage
   * included. Running ones are still waited for and yielded, unless `cancelOnAbort`. Items not
   * started are not reported. To stop at once instead, leaving running forecasts running, leave the
   * `for await` loop (`break`).
   */
  signal?: AbortSignal;
  /** With `signal`: once it aborts, cancel the running forecasts too (bulk cancel, 25 a request); they are yielded as `cancelled`. */
  cancelOnAbort?: boolean;
  /** Called after every batch start and every polling round with the run's counts. */
  onProgress?: (progress: RunManyProgress) => void;
  /** How many items the input holds, for the ETA (an array's length is used when not given). */
  total?: number;
  /**
   * Yield full task records: one `GET /forecasts/{task_id}` per finished task (default `false`:
   * the list item the polling round already read, with `forecastData` and the report's `short`
   * text, at no extra request).
   */
  full?: boolean;
  /**
   * Options of every request (`headers`, per-attempt `timeout`, `maxRetries`). Starts and reads that
   * fail are retried until they succeed, as in every wait; a `maxRetries` here caps those retries.
   */
  requestOptions?: Omit<RequestOptions, 'signal' | 'idempotencyKey'>;
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

/** What the scheduler needs beyond the wait flows: the clock and the run modes' prices. @internal */
export interface RunManyContext extends FlowContext {
  readonly clock: ClientClock;
  /** Price in credits by run mode key, and the key of the default mode. */
  runModePrices(options: RequestOptions): Promise<{ prices: Map<string, number>; defaultMode: string | undefined }>;
}

/**
 * Input items of a run: any iterable or async iterable of `POST /forecasts` bodies (an array, a
 * generator, lines read from a file, …), read only as fast as the run starts them.
 * @example
 * ```ts
 * async function* fromDatabase(): AsyncGenerator<ForecastCreateParams> {
 *   for await (const row of db.stream('SELECT question_id FROM questions')) yield { questionId: row.question_id, runMode: 'light' };
 * }
 * const input: RunManyInput = fromDatabase();
 * ```
 */
export type RunManyInput = Iterable<ForecastCreateParams> | AsyncIterable<ForecastCreateParams>;

interface Batch {
  key: string;
  items: ForecastCreateParams[];
  /** Indexes of the items (consecutive for a first send; any for a retry). */
  indexes: number[];
  /**
   * The first send of these items: its key, and how many retries of any of its items were sent
   * (keyed `<key>:r<k>`, so a key never grows however often the service is full).
   */
  origin: { key: string; retries: number };
}

interface Active {
  index: number;
  item: ForecastCreateParams;
  status: string;
  resumed: boolean;
  /** Client-clock time before which it should not be read again (its `Retry-After`). */
  due: number;
}

/** Batch size for `maxActive`: the largest even split into batches of at most 25. @internal */
export const batchSizeFor = (maxActive: number): number => Math.ceil(maxActive / Math.ceil(maxActive / MAX_BATCH_ITEMS));

/** Whether a refusal is the service's "too few credits" (a 409 `invalid_request_error` naming credits). */
const isCreditRefusal = (e: RunManyItemError) => e.type === 'invalid_request_error' && /credit/i.test(e.message);

function checkOptions(o: RunManyOptions): { runId: string; maxActive: number } {
  const maxActive = o.maxActive ?? MAX_ACTIVE_FORECASTS;
  if (!Number.isInteger(maxActive) || maxActive < 1 || maxActive > MAX_ACTIVE_FORECASTS) {
    throw new ValidationError(`must be a whole number from 1 to ${MAX_ACTIVE_FORECASTS} (the service's limit), got ${String(maxActive)}`, 'maxActive');
  }
  if (o.runId === undefined) return { runId: `run-${crypto.randomUUID()}`, maxActive };
  if (typeof o.runId === 'string' && o.runId.length > MAX_RUN_ID_LENGTH) {
    throw new ValidationError(`must be at most ${MAX_RUN_ID_LENGTH} characters, got ${o.runId.length}`, 'runId');
  }
  try {
    return { runId: checkIdempotencyKey(o.runId), maxActive };
  } catch (err) {
    throw err instanceof ValidationError ? new ValidationError(err.message.replace(/^idempotencyKey: /, ''), 'runId') : err;
  }
}

/**
 * Runs every item's forecast inside the service's limits and yields each outcome as it is known. @internal
 */
export async function* runMany(ctx: RunManyContext, input: RunManyInput, o: RunManyOptions = {}): AsyncGenerator<RunManyResult<ForecastListItem | ForecastTask>, void, undefined> {
  const { runId, maxActive } = checkOptions(o);
  const size = batchSizeFor(maxActive);
  // Reads and starts ride out an outage as every wait does (no deadline: the run has none). A start
  // is never cut off mid-way, as its answer names the tasks it started: `signal` ends only its
  // sleeps between attempts. Cancels are plain requests.
  const options: WaitRequestOptions = { ...o.requestOptions, [WAIT_MODE]: { deadline: undefined } };
  const startOptions: WaitRequestOptions = { ...o.requestOptions, [WAIT_MODE]: { deadline: undefined, sleepSignal: o.signal } };
  const cancelOptions: RequestOptions = { ...o.requestOptions };
  const clock = ctx.clock;
  const iterator = Symbol.asyncIterator in input ? input[Symbol.asyncIterator]() : input[Symbol.iterator]();
  const began = clock.now();

  const active = new Map<string, Active>();
  const retries: Batch[] = [];
  const ready: Array<RunManyResult<ForecastListItem | ForecastTask>> = [];
  const counts: RunManyCounts = { queued: 0, running_subforecasts: 0, synthesizing: 0, completed: 0, failed: 0, cancelled: 0, rejected: 0, not_started: 0 };
  let read = 0;
  let batchNo = 0;
  let exhausted = false;
  let held: Batch | undefined;
  let stopped: RunManyProgress['stopped'];
  let cancelled = false;
  let started = 0;
  let resumed = 0;
  let done = 0;
  let creditsSpent = 0;
  let pricing: Awaited<ReturnType<RunManyContext['runModePrices']>> | undefined;
  let total = o.total ?? (Array.isArray(input) ? input.length : undefined);

  const progress = () => {
    if (!o.onProgress) return;
    const c = { ...counts, queued: 0, running_subforecasts: 0, synthesizing: 0 };
    for (const a of active.values()) {
      if (a.status === 'running_subforecasts' || a.status === 'synthesizing') c[a.status]++;
      else c.queued++;
    }
    const elapsedMs = clock.now() - began;
    const etaMs = total !== undefined && done > 0 ? Math.round(((total - done) * elapsedMs) / done) : undefined;
    o.onProgress({ runId, read, total, started, resumed, active: active.size, done, counts: c, creditsSpent, elapsedMs, etaMs, stopped });
  };
  const result = (r: RunManyResult<ForecastListItem | ForecastTask>) => {
    done++;
    counts[r.status]++;
    ready.push(r);
  };

  /** The next batch of the input: the fixed range `[n * size, (n + 1) * size)`. */
  const pull = async (): Promise<Batch | undefined> => {
    if (exhausted) return undefined;
    const items: ForecastCreateParams[] = [];
    const first = read;
    while (items.length < size) {
      const next = await iterator.next();
      if (next.done) {
        exhausted = true;
        total ??= read;
        break;
      }
      items.push(next.value);
      read++;
    }
    if (items.length === 0) return undefined;
    const key = `${runId}:${batchNo++}`;
    return { key, items, indexes: items.map((_, i) => first + i), origin: { key, retries: 0 } };
  };

  /**
   * Starts a batch; its items become running tasks or results. Returns the ms to hold further starts
   * for when the service could not take the batch now (it is kept to be sent again), else 0.
   */
  const start = async (batch: Batch): Promise<number> => {
    let answer: { items: unknown; replayed: boolean; firstRead: number };
    try {
      const { data, response } = await ctx.createBatch({ items: batch.items }, { ...startOptions, idempotencyKey: batch.key }).withResponse();
      // The spec states no Retry-After on a start; when one is stated (the mock does), it is the first read's wait.
      answer = { items: data.items, replayed: response.headers.get('idempotent-replayed') === 'true', firstRead: boundedWait(parseRetryAfter(response.headers.get('retry-after')), QUEUED_RETRY_AFTER_MS) };
    } catch (err) {
      // Aborted while waiting to send it again: not started as far as the run knows, and no more starts.
      if (o.signal?.aborted && err === o.signal.reason) return 0;
      if (!(err instanceof APIError) || err instanceof InvalidResponseError) throw err;
      // Full (too many running, started elsewhere), over the request rate past the retries, or the same
      // key still being handled: nothing started under this key, so the same batch goes again later.
      if (err.status === 429 || err.type === 'idempotency_in_progress') {
        retries.unshift(batch);
        return boundedWait(parseRetryAfter(err.headers.get('retry-after')), QUEUED_RETRY_AFTER_MS);
      }
      // A refusal of the whole batch (such as a key already used with other items): each item is refused.
      if (![400, 404, 409, 422].includes(err.status)) throw err;
      const error = { type: err.type ?? 'invalid_request_error', message: err.message };
      batch.items.forEach((item, i) => refused(batch.indexes[i]!, item, error));
      return 0;
    }
    const listed = Array.isArray(answer.items) ? (answer.items as Array<{ index?: unknown; status?: unknown; taskId?: unknown; error?: { type?: unknown; message?: unknown } }>) : [];
    const full: number[] = [];
    const now = clock.now();
    batch.items.forEach((item, i) => {
      const index = batch.indexes[i]!;
      const found = listed.find((r) => r?.index === i);
      if (found?.status === 'accepted' && typeof found.taskId === 'string') {
        started++;
        if (answer.replayed) resumed++;
        else creditsSpent += priceOf(item);
        // A replayed task was never read by this run: read it at once; a new one after the queued wait.
        active.set(found.taskId, { index, item, status: 'queued', resumed: answer.replayed, due: answer.replayed ? now : now + answer.firstRead });
        return;
      }
      const error = { type: String(found?.error?.type ?? 'api_error'), message: String(found?.error?.message ?? `no result for item ${i} of the batch`) };
      if (error.type === 'too_many_active_forecasts') full.push(i);
      else refused(index, item, error);
    });
    // Refused only because the service was full (forecasts started elsewhere): sent again under a key of their own.
    if (full.length > 0) {
      const { origin } = batch;
      origin.retries++;
      retries.push({ key: `${origin.key}:r${origin.retries}`, items: full.map((i) => batch.items[i]!), indexes: full.map((i) => batch.indexes[i]!), origin });
    }
    return full.length > 0 ? answer.firstRead : 0;
  };

  const refused = (index: number, item: ForecastCreateParams, error: RunManyItemError) => {
    if (isCreditRefusal(error)) {
      stopped = 'insufficient_credits';
      result({ status: 'not_started', index, item, reason: 'insufficient_credits', error });
    } else result({ status: 'rejected', index, item, error });
  };

  const priceOf = (item: ForecastCreateParams) => {
    const mode = item.runMode ?? pricing?.defaultMode;
    return (mode && pricing?.prices.get(mode)) || 0;
  };

  /** One polling round: every running task in one list request per 100; finished ones become results. */
  const poll = async () => {
    const ids = [...active.keys()];
    for (let i = 0; i < ids.length; i += MAX_PAGE_SIZE) {
      const chunk = ids.slice(i, i + MAX_PAGE_SIZE);
      const { data: page, response } = await ctx.list({ taskId: chunk.join(','), limit: MAX_PAGE_SIZE }, options).withResponse();
      const told = parseRetryAfter(response.headers.get('retry-after'));
      const seen = new Map(page.data.map((item) => [item.taskId, item]));
      for (const id of chunk) {
        // A task the list does not show is read alone (an unknown id raises NotFoundError).
        const item = seen.get(id) ?? listItemOf(id, await ctx.retrieve(id, {}, options));
        await settle(id, item, told);
      }
    }
  };

  const settle = async (id: string, item: ForecastListItem, told: number | undefined) => {
    const a = active.get(id)!;
    a.status = item.status;
    if (!FINAL_TASK_STATUSES.has(item.status)) {
      a.due = clock.now() + boundedWait(told, item.status === 'queued' ? QUEUED_RETRY_AFTER_MS : RUNNING_RETRY_AFTER_MS);
      return;
    }
    active.delete(id);
    const task = o.full ? await ctx.retrieve(id, {}, options) : item;
    result({ status: item.status as RunManyFinished['status'], index: a.index, item: a.item, taskId: id, task, resumed: a.resumed });
  };

  /** Sleeps `ms`, ending early when `signal` aborts (once it has, sleeps it out: running tasks are still waited for). */
  const pause = async (ms: number) => {
    const signal = o.signal?.aborted ? undefined : o.signal;
    try {
      await clock.sleep(ms, signal);
    } catch (err) {
      if (!signal?.aborted) throw err;
    }
  };

  /** Once credits run short: every item not started is a result. */
  const notStarted = (batch: Batch) => batch.items.forEach((item, i) => result({ status: 'not_started', index: batch.indexes[i]!, item, reason: 'insufficient_credits' }));

  try {
    for (;;) {
      // Start batches while there is room, in input order (retries of refused items first).
      let hold = 0;
      while (!stopped && hold === 0) {
        if (o.signal?.aborted) {
          stopped = 'aborted';
          break;
        }
        const next = retries[0] ?? (held ??= await pull());
        if (!next || active.size + next.items.length > maxActive) break;
        if (next === retries[0]) retries.shift();
        else held = undefined;
        pricing ??= await ctx.runModePrices(options);
        hold = await start(next);
        progress();
        yield* flush(ready);
      }
      if (stopped === 'insufficient_credits') {
        for (const batch of retries.splice(0)) notStarted(batch);
        for (let batch = held ?? (await pull()); batch; batch = await pull()) {
          held = undefined;
          notStarted(batch);
          yield* flush(ready);
        }
        held = undefined;
      }
      yield* flush(ready);
      if (active.size === 0) {
        if (stopped || (exhausted && !held && retries.length === 0)) break;
        // Nothing running and the service could not take a batch: wait as it asked (or a round).
        if (hold > 0) await pause(hold);
        continue;
      }
      // Wait until every running task may be read again (the longest Retry-After), unless an abort
      // asks to cancel them first.
      const due = Math.max(...[...active.values()].map((a) => a.due));
      const cancelNow = o.cancelOnAbort && !cancelled && o.signal?.aborted;
      await pause(cancelNow ? 0 : Math.max(0, due - clock.now()));
      if (o.signal?.aborted) {
        stopped ??= 'aborted';
        if (o.cancelOnAbort && !cancelled) {
          cancelled = true;
          await cancelAll(ctx, [...active.keys()], cancelOptions);
        }
      }
      await poll();
      progress();
      yield* flush(ready);
    }
    progress();
  } catch (err) {
    // The run ends with forecasts still running on the service: say which.
    throw active.size > 0 ? endsWaitFor(err, [...active.keys()], false) : err;
  } finally {
    await iterator.return?.();
  }
}

/** Cancels `ids` in bulk, 25 a request. */
async function cancelAll(ctx: FlowContext, ids: string[], options: RequestOptions): Promise<void> {
  for (let i = 0; i < ids.length; i += MAX_BULK_CANCEL_IDS) await ctx.cancelBatch({ taskIds: ids.slice(i, i + MAX_BULK_CANCEL_IDS) }, options);
}

/** A full task as a list item. */
const listItemOf = (id: string, t: ForecastTask): ForecastListItem => ({ ...t, taskId: id, forecastData: t.forecast?.forecastData ?? null, report: t.forecast?.report ?? undefined });

/** Yields and removes every result waiting. */
function* flush<T>(ready: T[]): Generator<T, void, undefined> {
  while (ready.length > 0) yield ready.shift()!;
}
