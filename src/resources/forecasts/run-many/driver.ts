/**
 * `runMany`'s I/O: reads the input, sends the requests and sleeps as the scheduler (`scheduler.ts`,
 * pure) decides, and yields the results it reports. Loaded on a run's first step, so a client that
 * never calls `runMany` never loads it.
 * @module
 */
import { APIError, InvalidResponseError, ValidationError } from '../../../core/errors.js';
import { parseRetryAfter, serviceMs } from '../../../core/clock.js';
import { checkIdempotencyKey, newIdempotencyKey } from '../../../core/idempotency.js';
import { MAX_ACTIVE_FORECASTS, MAX_BULK_CANCEL_IDS, QUEUED_RETRY_AFTER_MS } from '../../../api/limits.js';
import { addLinks } from '../../../core/polling.js';
import { checkCount } from '../../../core/options.js';
import type { TaskTracker } from '../../../core/task-tracker.js';
import type { WaitTrace } from '../../../core/traced.js';
import { told, waitChannel } from '../../../core/channels.js';
import { WAIT_MODE, type WaitMode, type WaitRequestOptions } from '../../../core/retry.js';
import { FINAL_TASK_STATUSES } from '../../../schemas/enums.js';
import type { ForecastCreateParams } from '../../../schemas/forecasts.js';
import type { ForecastListItem, ForecastTask } from '../../../schemas/records/forecasts.js';
import type { RunManyInput, RunManyOptions, RunManyResult } from '../run-many.js';
import { forecastTracker, readTask, type FlowContext } from '../tracking.js';
import { endsWaitFor } from '../waits.js';
import { drain, initialRun, nextStep, priced, pricingOf, progressOf, pulled, startFailure, startSettled, tasksSeen, type Batch, type RunState, type RunStep, type SeenTask, type StartOutcome } from './scheduler.js';

/** Characters a `runId` may have: the longest key derived from it must fit the service's 128. @internal */
export const MAX_RUN_ID_LENGTH = 100;

/** The run's id and its `maxActive`, lowered to the fleet's cap (the coordinator's `maxActive`): a batch larger than it could never be held whole. */
function checkOptions(o: RunManyOptions, coordinator: { readonly maxActive?: number | undefined } | undefined): { runId: string; maxActive: number } {
  let fleet: number | undefined;
  try {
    fleet = coordinator?.maxActive;
  } catch {
    // A custom coordinator's getter that throws names no cap (as for a single start: `pipeline-slots.ts`).
  }
  const asked = o.maxActive ?? MAX_ACTIVE_FORECASTS;
  if (!Number.isInteger(asked) || asked < 1 || asked > MAX_ACTIVE_FORECASTS) {
    throw new ValidationError(`must be a whole number from 1 to ${MAX_ACTIVE_FORECASTS} (the service's limit), got ${String(asked)}`, 'maxActive');
  }
  const maxActive = fleet! >= 1 ? Math.min(asked, Math.floor(fleet!)) : asked;
  // Checked before anything starts: a bad one threw only after the first batch had spent credits.
  if (o.onProgress != null && typeof o.onProgress != 'function') throw new ValidationError('must be a function', 'onProgress');
  if (o.total != null) checkCount('total', o.total);
  if (o.runId === undefined) return { runId: newIdempotencyKey('run'), maxActive };
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
export async function* runMany(ctx: FlowContext, input: RunManyInput, o: RunManyOptions = {}): AsyncGenerator<RunManyResult<ForecastListItem | ForecastTask>, void, undefined> {
  const { runId, maxActive } = checkOptions(o, ctx.coordination?.coordinator);
  // Reads and starts ride out an outage as every wait does (no deadline: the run has none). A start is
  // never cut off mid-way, as its answer names the tasks it started: `signal` ends only its sleeps
  // between attempts. Reads likewise: once aborted, a read that fails ends the run with the signal's
  // reason rather than retry until the service answers (the running tasks are waited for while it
  // answers; `runId` takes them up again). Cancels are plain requests.
  const options: WaitRequestOptions & { [WAIT_MODE]: WaitMode } = { ...o.requestOptions, [WAIT_MODE]: { deadline: undefined, sleepSignal: o.signal } };
  const { clock } = ctx;
  const tracker = await forecastTracker(ctx, {}, options);
  const ended: string[] = [];
  // The tasks the run has given results for: a later batch naming one again starts no item (one task is not two items' forecast).
  const finished = new Set<string>();
  const noted = (ready: RunState['ready']) => {
    for (const r of ready) if (r.status !== 'rejected' && r.status !== 'not_started') finished.add(r.taskId);
    return ready;
  };
  const iterator = Symbol.asyncIterator in input ? input[Symbol.asyncIterator]() : input[Symbol.iterator]();
  // Closed only when the run leaves it before its end, as `for…of` does: an iterator that said
  // `done`, or whose `next()` threw, is not asked to `return()` (its clean-up may run twice).
  let open = true;
  let failed = false;
  let s: RunState = initialRun({ runId, maxActive, cancelOnAbort: o.cancelOnAbort, total: o.total ?? (Array.isArray(input) ? input.length : undefined), began: clock.now(), queuedWaitMs: serviceMs(clock, QUEUED_RETRY_AFTER_MS) });

  /** Does `step`'s I/O and hands the outcome to the scheduler. */
  const perform = async (step: Exclude<RunStep, { kind: 'done' }>): Promise<RunState> => {
    switch (step.kind) {
      case 'pull': {
        const items: ForecastCreateParams[] = [];
        while (items.length < step.size) {
          open = false; // until it answers
          const next = await iterator.next();
          if (next.done) return pulled(s, items, true);
          open = true;
          items.push(await next.value); // as `for await` does: a sync iterable's promises are awaited
        }
        return pulled(s, items, false);
      }
      case 'price':
        return priced(s, pricingOf((await ctx.runModes(options)).data));
      case 'start':
        return startSettled(s, step.batch, await sendBatch(ctx, step.batch, options, o.signal), clock.now(), (id) => finished.has(id));
      case 'sleep':
        await pause(tracker, step.ms, o.signal, trace);
        return s;
      case 'cancel':
        for (let i = 0; i < step.taskIds.length; i += MAX_BULK_CANCEL_IDS) await ctx.cancelBatch({ taskIds: step.taskIds.slice(i, i + MAX_BULK_CANCEL_IDS) }, { ...o.requestOptions });
        return s;
      case 'poll': {
        if (trace) told(() => trace.message.reads++);
        const seen: SeenTask[] = [];
        for (const t of await tracker.round(step.taskIds)) {
          const final = FINAL_TASK_STATUSES.has(t.item.status);
          const task = final && o.full ? (await readTask(ctx, t.id, {}, options))[0] : t.item;
          seen.push({ id: t.id, status: t.item.status, task, due: clock.now() + t.waitMs });
          if (trace && final) ended.push(t.item.status);
        }
        return tasksSeen(s, seen);
      }
    }
  };

  // On the `wait` channel while someone subscribes, once only the run can fail: its counts, not its task ids.
  const trace = waitChannel?.hasSubscribers ? await import('../../../core/traced.js').then((t) => t.openWaitTrace('runMany'), () => undefined) : undefined;
  if (trace) options[WAIT_MODE].trace = trace.message;
  try {
    for (;;) {
      const [decided, step] = nextStep(s, clock.now(), o.signal?.aborted === true);
      let ready;
      [s, ready] = drain(decided);
      yield* noted(ready);
      if (step.kind === 'done') break;
      s = await perform(step);
      if (step.kind === 'start' || step.kind === 'poll') o.onProgress?.(progressOf(s, clock.now()));
      [s, ready] = drain(s);
      yield* noted(ready);
    }
    o.onProgress?.(progressOf(s, clock.now()));
    trace?.end({ finalStatuses: ended });
  } catch (err) {
    failed = true;
    trace?.fail(err);
    // The run ends with forecasts still running on the service: say which.
    throw s.active.size > 0 ? endsWaitFor(err, [...s.active.keys()], false) : err;
  } finally {
    tracker.close();
    // As `for…of`: an error of the input's `return()` never hides the run's; after a `break` it is the run's (and its trace's).
    try {
      if (open) await iterator.return?.();
    } catch (err) {
      if (!failed) {
        trace?.fail(err);
        throw err;
      }
    } finally {
      // Left early (a `break` in the caller's loop): the run is over all the same.
      trace?.end({ finalStatuses: ended });
    }
  }
}

/** Sleeps `ms`, ending early when `signal` aborts (once it has, sleeps it out: running tasks are still waited for). */
async function pause(tracker: TaskTracker<ForecastListItem>, ms: number, signal: AbortSignal | undefined, trace: WaitTrace | undefined): Promise<void> {
  if (signal?.aborted) signal = undefined;
  try {
    const woken = (await tracker.sleep(ms, signal)) === 'woken';
    if (trace) {
      told(() => {
        trace.message.wakes[woken ? 'event' : 'poll']++;
        if (woken) addLinks(trace.message, tracker.links?.() ?? []);
      });
    }
  } catch (err) {
    if (!signal?.aborted) throw err;
  }
}

/**
 * Sends a batch under its key; what came back, as the scheduler reads it. An error no outcome
 * covers (authentication, an answer that is not the service's, …) ends the run.
 */
async function sendBatch(ctx: FlowContext, batch: Batch, options: WaitRequestOptions, signal: AbortSignal | undefined): Promise<StartOutcome> {
  try {
    const { data, response } = await ctx.createBatch({ items: [...batch.items] }, { ...options, idempotencyKey: batch.key }).withResponse();
    return { kind: 'answered', items: data.items, replayed: response.headers.get('idempotent-replayed') === 'true', retryAfter: parseRetryAfter(response.headers.get('retry-after')) };
  } catch (err) {
    // Aborted while waiting to send it again: not started as far as the run knows.
    if (signal?.aborted && err === signal.reason) return { kind: 'aborted' };
    if (!(err instanceof APIError) || err instanceof InvalidResponseError) throw err;
    const failure = startFailure(err.status, err.type);
    if (failure === 'fatal') throw err;
    if (failure === 'hold') return { kind: 'held', retryAfter: parseRetryAfter(err.headers.get('retry-after')) };
    return { kind: 'refused', error: { type: err.type ?? 'invalid_request_error', message: err.message } };
  }
}
