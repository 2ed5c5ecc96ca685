/**
 * The forecast flows built on the core's pipeline and poll loop: waiting for one task or many (on the shared {@link poll}
 * loop), create-and-wait, and batches of any size split into the service's chunks of 25.
 * Resources call these in one line.
 * @module
 */
import { eitherSignal } from '../../core/abort.js';
import { parseRetryAfter, serviceMs, waited } from '../../core/clock.js';
import { told } from '../../core/channels.js';
import { ForecastingError, WaitTimeoutError } from '../../core/errors.js';
import { clip } from '../../core/text.js';
import { newIdempotencyKey, partKey } from '../../core/idempotency.js';
import { invalidAnswer } from '../../core/transport.js';
import { isUsableId } from '../../core/operation.js';
import { DEFAULT_POLL_INTERVAL_MS, MAX_BATCH_ITEMS, MAX_BULK_CANCEL_IDS } from '../../api/limits.js';
import type { RequestOptions } from '../../core/options.js';
import { poll, tracedWait, untilDeadline, waitScope, type PollStep, type WaitScope } from '../../core/polling.js';
import { ProgressTracker, type ForecastProgress } from './progress.js';
import { forecastTracker, listItemOf, readTask, type FlowContext } from './tracking.js';
import { FINAL_TASK_STATUSES } from '../../schemas/enums.js';
import type { ForecastCreateParams, ForecastRetrieveParams } from '../../schemas/forecasts.js';
import type { BatchItemResult, CancelItemResult, FinishedForecastTask, ForecastListItem, ForecastTask } from '../../schemas/records/forecasts.js';

/**
 * Options of `forecasts.wait`.
 * @example
 * ```ts
 * await client.forecasts.wait(taskId, { timeout: 2 * 3600_000, waitForReport: true, onProgress: (p) => console.log(p.status) });
 * ```
 */
export interface WaitOptions {
  /**
   * Stops waiting at once; the wait rejects with the signal's reason (not an SDK error: keep the
   * task id from `onProgress`, or `onCreated` with `createAndWait`, to wait again). The task keeps
   * running on the service.
   */
  signal?: AbortSignal | undefined;
  /**
   * Overall time allowed, in ms, on the client's clock; then the wait rejects with
   * `WaitTimeoutError`. It also bounds the retries of a read that keeps failing. Default: no limit.
   */
  timeout?: number | undefined;
  /** Called after every read with the task's progress (its `taskId` included). */
  onProgress?: ((progress: ForecastProgress) => void) | undefined;
  /** Also wait for the report of a completed task to be `completed` or `failed`. */
  waitForReport?: boolean | undefined;
  /** `numeric` leaves out the report and sources (ignored with `waitForReport`, which needs the report). */
  fields?: 'numeric' | undefined;
  /** Ask for finished subforecasts' data on each read (`wait` only; the answer can be large). */
  includeSubforecasts?: boolean | undefined;
  /**
   * Caps the retries of each read. Default: none: a read that fails (no connection, a timeout, a 5xx
   * or a 429) is retried, with a backoff growing to 30 s, until the wait's `timeout`; the client's
   * `maxRetries` does not apply to a wait.
   */
  maxRetries?: number | undefined;
  /** Options of each read (`headers`, per-attempt `timeout`, `maxRetries` as above). */
  requestOptions?: Omit<RequestOptions, 'signal' | 'idempotencyKey'> | undefined;
}

/**
 * Options of `forecasts.waitMany`.
 * @example
 * ```ts
 * const tasks = await client.forecasts.waitMany(ids, { onProgress: (p) => console.log(p.taskId, p.status) });
 * ```
 */
export interface WaitManyOptions extends Omit<WaitOptions, 'includeSubforecasts'> {
  /**
   * Resolve with full task records (default `true`: one read per task, once it is final, and again
   * while that read still shows it running), or, with `false`, with the list items the rounds
   * already read (no extra request).
   */
  full?: boolean | undefined;
}

/**
 * Options of `forecasts.createAndWait`: those of a wait, the start's `idempotencyKey`, and
 * `waitForContext`.
 * @example
 * ```ts
 * await client.forecasts.createAndWait({ questionId }, { waitForContext: true, timeout: 2 * 3600_000, onCreated: (t) => console.log('started', t.id) });
 * ```
 */
export interface CreateAndWaitOptions extends WaitOptions, Pick<RequestOptions, 'idempotencyKey'> {
  /**
   * With a `questionId`: first wait until the question's files are ready (as
   * `questions.files.waitUntilReady` does; a failed file rejects with `ContextFileFailedError`), then
   * start. `timeout` covers both waits.
   */
  waitForContext?: boolean | undefined;
  /**
   * Called once the task exists (the start answered), before the first read, with the `queued` task.
   * Keep `task.id`: if the wait is aborted or the process stops, `forecasts.wait(task.id)` (or
   * `forecasting wait <id>`) picks the forecast up again.
   */
  onCreated?: ((task: ForecastTask) => void) | undefined;
}

/** Whether waiting is over for a task in this state. */
const settled = (p: Pick<ForecastProgress, 'final' | 'status' | 'reportStatus'>, waitForReport: boolean | undefined) =>
  p.final && (!waitForReport || p.status !== 'completed' || p.reportStatus === 'completed' || p.reportStatus === 'failed');

/** The progress fields a task and a list item share, read from either. */
const progressOf = (
  taskId: string,
  t: Pick<ForecastProgress, 'status'> & { progressMessage?: string | undefined; completedSubforecastCount?: number | undefined; plannedSubforecastCount?: number | undefined },
  reportStatus: ForecastProgress['reportStatus'] | null,
): Omit<ForecastProgress, 'previousStatus'> => ({
  taskId,
  status: t.status,
  final: FINAL_TASK_STATUSES.has(t.status),
  progressMessage: t.progressMessage,
  completedSubforecastCount: t.completedSubforecastCount,
  plannedSubforecastCount: t.plannedSubforecastCount,
  reportStatus: reportStatus ?? undefined,
});

/**
 * Options of each request of a wait: the caller's, inside the wait's scope (its signal, retries
 * until its deadline); an explicit `maxRetries` caps those retries. @internal
 */
export const waitRequestOptions = (scope: WaitScope, o: Pick<WaitOptions, 'maxRetries' | 'requestOptions'>): RequestOptions =>
  scope.options(o.maxRetries === undefined ? o.requestOptions : { ...o.requestOptions, maxRetries: o.maxRetries });

/** Query and options of each read; `fields` is dropped when waiting for the report, which it would leave out. */
const readOptions = (o: WaitOptions, scope: WaitScope): [Pick<ForecastRetrieveParams, 'fields'>, RequestOptions] => [
  { fields: o.waitForReport ? undefined : o.fields },
  waitRequestOptions(scope, o),
];

/**
 * Says on an error that ends a wait which tasks it was waiting for (`taskId` too for a wait on one),
 * so the caller can wait again. An abort's reason is not the SDK's and stays as it is. @internal
 */
export function endsWaitFor(err: unknown, taskIds: readonly string[], one: boolean): unknown {
  if (err instanceof ForecastingError) {
    if (one) err.taskId ??= taskIds[0];
    err.taskIds ??= [...taskIds];
  }
  return err;
}

/** Waits for one task to be final (and its report, with `waitForReport`). @internal */
export async function waitForTask(ctx: FlowContext, taskId: string, o: WaitOptions = {}): Promise<FinishedForecastTask> {
  const scope = waitScope(ctx.clock, o);
  return tracedWait('wait', [taskId], scope, () => waitInScope(ctx, taskId, o, scope), (task) => ({ status: task.status }));
}

/** A read the wait already has: the start's answer (`createAndWait` with a coordinator). */
interface FirstRead {
  task: ForecastTask;
  asked: number | undefined;
}

/** The wait for one task, in a scope that may have begun earlier (`createAndWait`'s). */
async function waitInScope(ctx: FlowContext, taskId: string, o: WaitOptions, scope: WaitScope, first?: FirstRead): Promise<FinishedForecastTask> {
  const progress = new ProgressTracker(ctx.emitter, o.onProgress);
  const [query, options] = readOptions(o, scope);
  // Read alone (with subforecasts, when asked), but sleeping through the tracker, as every wait does.
  const tracker = await forecastTracker(ctx, query, options);
  tracker.follow([taskId]);
  let last: ForecastTask | undefined;
  let given = first;
  const read = async (): Promise<PollStep<ForecastTask>> => {
    let data: ForecastTask;
    let asked: number | undefined;
    if (given) [data, asked, given] = [given.task, given.asked, undefined];
    else [data, asked] = await readTask(ctx, taskId, { ...query, includeSubforecasts: o.includeSubforecasts }, options);
    last = data;
    const p = progress.observe(progressOf(taskId, data, data.forecast?.report?.status));
    return [data, settled(p, o.waitForReport), await tracker.seen(taskId, listItemOf(taskId, data), asked)];
  };
  try {
    // The loop gives back only a settled read: a final status.
    return (await poll(read, scope, serviceMs(ctx.clock, DEFAULT_POLL_INTERVAL_MS), () => new WaitTimeoutError(`Not final after ${waited(ctx.clock, o.timeout)}: ${clip(taskId, 300)}`, [taskId], [last]), tracker.sleep, () => tracker.links?.() ?? [])) as FinishedForecastTask;
  } catch (err) {
    throw endsWaitFor(err, [taskId], true);
  } finally {
    tracker.close();
  }
}

/**
 * Waits for many tasks: each round is one `GET /forecasts?taskId=a,b,…` per 100 tasks still
 * pending, spaced by the `Retry-After` of the list answers when they carry one, else by the longest
 * wait a pending task asks for (the spec's `Retry-After` for its state). @internal
 */
export async function waitForTasks(ctx: FlowContext, taskIds: readonly string[], o: WaitManyOptions = {}): Promise<Array<FinishedForecastTask | ForecastListItem>> {
  const scope = waitScope(ctx.clock, o);
  return tracedWait('waitMany', [...new Set(taskIds)], scope, () => waitManyInScope(ctx, taskIds, o, scope), (tasks) => ({ finalStatuses: tasks.map((t) => t.status) }));
}

async function waitManyInScope(ctx: FlowContext, taskIds: readonly string[], o: WaitManyOptions, scope: WaitScope): Promise<Array<FinishedForecastTask | ForecastListItem>> {
  const tracker = new ProgressTracker(ctx.emitter, o.onProgress);
  const latest = new Map<string, ForecastListItem>();
  const full = new Map<string, FinishedForecastTask>();
  let pending = [...new Set(taskIds)];
  // What the wait still waits for: the tasks not yet final, then those not yet read in full.
  const waiting = () => (pending.length > 0 ? pending : [...latest.keys()].filter((id) => !full.has(id)));
  const onTimeout = () => new WaitTimeoutError(`Not final after ${waited(ctx.clock, o.timeout)}: ${clip(waiting().join(', '), 300)}`, waiting(), pending.map((id) => latest.get(id)));
  const [query, options] = readOptions(o, scope);
  const tasks = await forecastTracker(ctx, query, options);
  const round = async (): Promise<PollStep<undefined>> => {
    // The next round waits as long as the longest wait a task still pending asks for.
    let wait = 0;
    const seen = await tasks.round(pending);
    for (const t of seen) latest.set(t.id, t.item);
    const still: string[] = [];
    for (const t of seen) {
      const p = tracker.observe(progressOf(t.id, t.item, t.item.report?.status));
      if (settled(p, o.waitForReport)) continue;
      still.push(t.id);
      wait = Math.max(wait, t.waitMs);
    }
    pending = still;
    return [undefined, pending.length === 0, wait];
  };
  try {
    const interval = serviceMs(ctx.clock, DEFAULT_POLL_INTERVAL_MS);
    await poll(round, scope, interval, onTimeout, tasks.sleep, () => tasks.links?.() ?? []);
    if (o.full === false) return taskIds.map((id) => latest.get(id)!);
    // One full read per task, now that each is final; again while a read says otherwise (it came from
    // behind the list): the wait resolves with final tasks only. Its trace counts the list's reads.
    // Once one of them fails, the others stop (the wait is over: nothing reads on behind its back).
    const stop = new AbortController();
    const either = scope.signal ? eitherSignal(scope.signal, stop.signal) : { signal: stop.signal, stop: () => undefined };
    const { trace: _, ...untraced } = { ...scope, signal: either.signal };
    const readFinal = (id: string) =>
      poll(async (): Promise<PollStep<FinishedForecastTask>> => {
        const [task, asked] = await readTask(ctx, id, query, options);
        return [task as FinishedForecastTask, settled(progressOf(id, task, task.forecast?.report?.status), o.waitForReport), asked];
      }, untraced, interval, onTimeout);
    try {
      await Promise.all([...latest.keys()].map(async (id) => full.set(id, await readFinal(id))));
    } finally {
      stop.abort();
      either.stop();
    }
    return taskIds.map((id) => full.get(id)!);
  } catch (err) {
    throw endsWaitFor(err, waiting(), false);
  } finally {
    tasks.close();
  }
}

/**
 * Starts a forecast with one idempotency key (so no retry starts a second), then waits: one scope,
 * so `timeout` covers the context wait, the start and the wait. @internal
 */
export async function createAndWait(ctx: FlowContext, params: ForecastCreateParams, o: CreateAndWaitOptions = {}): Promise<FinishedForecastTask> {
  const scope = waitScope(ctx.clock, o);
  return tracedWait('createAndWait', [], scope, () => startAndWait(ctx, params, o, scope), (task) => ({ status: task.status, taskIds: [task.id] }));
}

async function startAndWait(ctx: FlowContext, params: ForecastCreateParams, o: CreateAndWaitOptions, scope: WaitScope): Promise<FinishedForecastTask> {
  const { idempotencyKey = newIdempotencyKey() } = o;
  if (o.waitForContext && params.questionId) await ctx.waitForContext(params.questionId, o);
  // Keyed, so the start too rides out an outage until the deadline without starting twice.
  const { data: task, response } = await untilDeadline(
    () => ctx.create(params, { ...waitRequestOptions(scope, o), idempotencyKey }).withResponse(),
    () => new WaitTimeoutError(`Not started after ${waited(ctx.clock, o.timeout)}`, []),
  );
  // A task it cannot read back (no id, or megabytes of one) is not the service's answer: a forecast may run all the same.
  if (!isUsableId((task as Partial<ForecastTask> | null)?.id)) throw invalidAnswer({ response, request: 'POST /forecasts' }, 'expected the started task\'s `id`');
  const trace = scope.trace;
  if (trace) told(() => (trace.taskIds = [task.id]));
  o.onCreated?.(task);
  // With a coordinator, the start's answer is the first read: the task's final event wakes the wait.
  const first = ctx.coordination && { task, asked: parseRetryAfter(response.headers.get('retry-after')) };
  return waitInScope(ctx, task.id, o, scope, first);
}

/** Runs `send` on consecutive chunks of `items`, in order. */
async function inChunks<T, R>(items: readonly T[], size: number, send: (chunk: T[], n: number) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let start = 0, n = 0; start < items.length; start += size, n++) out.push(...(await send(items.slice(start, start + size), n)));
  return out;
}

/**
 * Starts any number of forecasts in batches of 25, one idempotency key per batch (the caller's key
 * with the batch number, so re-running the same call replays each batch); every item's outcome in
 * input order. @internal
 */
export function createMany(ctx: FlowContext, items: readonly ForecastCreateParams[], o: RequestOptions = {}): Promise<BatchItemResult[]> {
  return inChunks(items, MAX_BATCH_ITEMS, async (chunk, n) => {
    const key = o.idempotencyKey && partKey(o.idempotencyKey, n);
    const { data, response } = await ctx.createBatch({ items: chunk }, { ...o, idempotencyKey: key }).withResponse();
    const results: unknown = data.items;
    return chunk.map((_, i) => {
      // One result per item, and an accepted one names its task (a second result would hide a task it started).
      const found = Array.isArray(results) ? (results as BatchItemResult[]).filter((r) => r?.index === i) : [];
      const [only] = found;
      if (found.length !== 1 || (only!.status === 'accepted' && !isUsableId(only!.taskId))) {
        throw invalidAnswer({ response, request: 'POST /forecasts/batch' }, `expected a result for item ${i} in \`items\``);
      }
      return { ...only!, index: n * MAX_BATCH_ITEMS + i };
    });
  });
}

/** Cancels any number of tasks in chunks of 25; every task's outcome in input order. @internal */
export function cancelMany(ctx: FlowContext, taskIds: readonly string[], o: RequestOptions = {}): Promise<CancelItemResult[]> {
  return inChunks(taskIds, MAX_BULK_CANCEL_IDS, async (chunk) => {
    const { data, response } = await ctx.cancelBatch({ taskIds: chunk }, o).withResponse();
    return chunk.map((taskId) => {
      const found = data.items.find((r) => r.taskId === taskId);
      if (!found) throw invalidAnswer({ response, request: 'POST /forecasts/cancel' }, `expected a result for task ${taskId.slice(0, 64)}`);
      return found;
    });
  });
}
