/**
 * `runMany`'s policy as a state machine, shaped like the retry policy: pure transitions over a
 * {@link RunState}, no clock (the time is an input) and no I/O. The driver (`driver.ts`) asks
 * {@link nextStep} what to do (read the input, price, start a batch, sleep, cancel, poll, stop), does
 * it, and hands what came back to the matching transition ({@link pulled}, {@link priced},
 * {@link startSettled}, {@link tasksSeen}). Results to yield collect in `ready`, which the driver drains.
 * @module
 */
import { isUsableId } from '../../../core/operation.js';
import { MAX_BATCH_ITEMS, QUEUED_RETRY_AFTER_MS } from '../../../api/limits.js';
import { partKey, resendKey } from '../../../core/idempotency.js';
import { boundedWait } from '../../../core/polling.js';
import { FINAL_TASK_STATUSES } from '../../../schemas/enums.js';
import type { ForecastCreateParams } from '../../../schemas/forecasts.js';
import type { ForecastListItem, ForecastTask, RunMode } from '../../../schemas/records/forecasts.js';
import type { RunManyCounts, RunManyFinished, RunManyItemError, RunManyProgress, RunManyResult } from '../run-many.js';

/** A batch to start: the items of one key. */
export interface Batch {
  readonly key: string;
  readonly items: readonly ForecastCreateParams[];
  /** Indexes of the items (consecutive for a first send; any for a resend). */
  readonly indexes: readonly number[];
  /** The key of the first send of these items, and how many resends of it this is (`<origin>:r<k>`). */
  readonly origin: string;
  readonly resends: number;
}

/** A forecast the run started and has not seen final. */
export interface Active {
  readonly index: number;
  readonly item: ForecastCreateParams;
  readonly status: string;
  readonly resumed: boolean;
  /** Time before which it should not be read again (its `Retry-After`). */
  readonly due: number;
}

/** Price in credits by run mode key, and the key of the default mode. */
export interface Pricing {
  prices: Map<string, number>;
  defaultMode: string | undefined;
}

/** Where the run is in its round: starting, after the starts, after the wait, polling. */
type Phase = 'start' | 'after-start' | 'wake' | 'poll';

/** Everything the run knows. Transitions return a new state; none is changed in place. */
export interface RunState {
  readonly runId: string;
  readonly maxActive: number;
  /** Items a batch from the input holds. */
  readonly size: number;
  readonly cancelOnAbort: boolean;
  readonly began: number;
  readonly phase: Phase;
  /** Items read from the input, and whether it has ended. */
  readonly read: number;
  readonly total: number | undefined;
  readonly exhausted: boolean;
  readonly batchNo: number;
  /** Read from the input, not yet started (no room). */
  readonly held: Batch | undefined;
  /** Batches to send again before the input's next (a 429, or items refused because the service was full). */
  readonly retries: readonly Batch[];
  readonly active: ReadonlyMap<string, Active>;
  /** Items with an outcome, by outcome (the three running states stay 0: see {@link progressOf}). */
  readonly counts: RunManyCounts;
  readonly started: number;
  readonly resumed: number;
  readonly done: number;
  readonly creditsSpent: number;
  readonly pricing: Pricing | undefined;
  /** The ms the service asked to hold further starts for (after a start it could not take). */
  readonly hold: number;
  /**
   * The spec's wait for a queued task (15 s of the service's time) in ms of the run's clock: what a
   * start's answer that states no `Retry-After` holds further starts for, and waits before the first read.
   */
  readonly queuedWaitMs: number;
  readonly stopped: RunManyProgress['stopped'];
  readonly cancelled: boolean;
  /** Results not yet yielded. */
  readonly ready: ReadonlyArray<RunManyResult<ForecastListItem | ForecastTask>>;
}

/** What the driver does next. */
export type RunStep =
  /** Read up to `size` items from the input, then {@link pulled}. */
  | { kind: 'pull'; size: number }
  /** Read the run modes' prices, then {@link priced}. */
  | { kind: 'price' }
  /** Send `batch` under its key, then {@link startSettled}. */
  | { kind: 'start'; batch: Batch }
  /** Sleep `ms` (ended early by the signal's abort, unless it had aborted already). */
  | { kind: 'sleep'; ms: number }
  /** Cancel these tasks in bulk. */
  | { kind: 'cancel'; taskIds: string[] }
  /** Read these tasks (one tracker round), then {@link tasksSeen}. */
  | { kind: 'poll'; taskIds: string[] }
  | { kind: 'done' };

/** How a start ended, as the scheduler needs it. */
export type StartOutcome =
  /** The service answered: `items` as sent back (not trusted), whether it replayed the key, its `Retry-After`. */
  | { kind: 'answered'; items: unknown; replayed: boolean; retryAfter: number | undefined }
  /** Not taken now (see {@link startFailure}): sent again later, after `retryAfter`. */
  | { kind: 'held'; retryAfter: number | undefined }
  /** The whole batch refused: each item is. */
  | { kind: 'refused'; error: RunManyItemError }
  /** Aborted while waiting to send it again: not started as far as the run knows. */
  | { kind: 'aborted' };

/** A task a round read: its status, the task to yield if final, the time before which not to read it again. */
export interface SeenTask {
  id: string;
  status: string;
  task: ForecastListItem | ForecastTask;
  due: number;
}

const NO_COUNTS: RunManyCounts = { queued: 0, running_subforecasts: 0, synthesizing: 0, completed: 0, failed: 0, cancelled: 0, rejected: 0, not_started: 0 };

/** Batch size for `maxActive`: the largest even split into batches of at most 25. */
export const batchSizeFor = (maxActive: number): number => Math.ceil(maxActive / Math.ceil(maxActive / MAX_BATCH_ITEMS));

/** The state of a run that begins at `began`. */
export function initialRun(o: { runId: string; maxActive: number; cancelOnAbort?: boolean | undefined; total: number | undefined; began: number; queuedWaitMs?: number }): RunState {
  return {
    runId: o.runId,
    maxActive: o.maxActive,
    size: batchSizeFor(o.maxActive),
    cancelOnAbort: o.cancelOnAbort === true,
    began: o.began,
    phase: 'start',
    read: 0,
    total: o.total,
    exhausted: false,
    batchNo: 0,
    held: undefined,
    retries: [],
    active: new Map(),
    counts: NO_COUNTS,
    started: 0,
    resumed: 0,
    done: 0,
    creditsSpent: 0,
    pricing: undefined,
    hold: 0,
    queuedWaitMs: o.queuedWaitMs ?? QUEUED_RETRY_AFTER_MS,
    stopped: undefined,
    cancelled: false,
    ready: [],
  };
}

/**
 * What to do next, at `now`, with the signal `aborted` or not. A round: start batches in input order
 * (resends first) while there is room and the service takes them; once credits run short, report
 * every item not started; sleep until every running task may be read again (at once to cancel them
 * after an abort, with `cancelOnAbort`); read them; again. Done when nothing runs and nothing is left
 * to start, or nothing runs once stopped.
 */
export function nextStep(state: RunState, now: number, aborted: boolean): [RunState, RunStep] {
  let s = state;
  for (;;) {
    switch (s.phase) {
      case 'start': {
        if (s.stopped || s.hold > 0) s = { ...s, phase: 'after-start' };
        else if (aborted) s = { ...s, stopped: 'aborted', phase: 'after-start' };
        else {
          const next = s.retries[0] ?? s.held;
          if (!next && !s.exhausted) return [s, { kind: 'pull', size: s.size }];
          if (!next || s.active.size + next.items.length > s.maxActive) s = { ...s, phase: 'after-start' };
          else return [s, s.pricing ? { kind: 'start', batch: next } : { kind: 'price' }];
        }
        break;
      }
      case 'after-start': {
        if (s.stopped === 'insufficient_credits') {
          const left = [...s.retries, ...(s.held ? [s.held] : [])];
          if (left.length > 0) s = left.reduce(notStarted, { ...s, retries: [], held: undefined });
          if (!s.exhausted) return [s, { kind: 'pull', size: s.size }];
        }
        if (s.active.size === 0) {
          if (s.stopped || (s.exhausted && !s.held && s.retries.length === 0)) return [s, { kind: 'done' }];
          // Nothing running and the service could not take a batch: wait as it asked, then start again.
          return [{ ...s, phase: 'start', hold: 0 }, { kind: 'sleep', ms: s.hold }];
        }
        // Wait until every running task may be read again (the longest Retry-After), unless an abort asks to cancel them first.
        const due = Math.max(...[...s.active.values()].map((a) => a.due));
        const cancelNow = s.cancelOnAbort && !s.cancelled && aborted;
        return [{ ...s, phase: 'wake' }, { kind: 'sleep', ms: cancelNow ? 0 : Math.max(0, due - now) }];
      }
      case 'wake': {
        if (aborted) {
          s = { ...s, stopped: s.stopped ?? 'aborted', phase: 'poll' };
          if (s.cancelOnAbort && !s.cancelled) return [{ ...s, cancelled: true }, { kind: 'cancel', taskIds: [...s.active.keys()] }];
        }
        s = { ...s, phase: 'poll' };
        break;
      }
      case 'poll':
        return [{ ...s, phase: 'start', hold: 0 }, { kind: 'poll', taskIds: [...s.active.keys()] }];
    }
  }
}

/**
 * The input gave `items` (fewer than asked when it `ended`): the next batch, on the fixed index range
 * after the items read so far and keyed `<runId>:<n>`; once credits ran short, items not started.
 */
export function pulled(s: RunState, items: readonly ForecastCreateParams[], ended: boolean): RunState {
  const read = s.read + items.length;
  let next: RunState = { ...s, read, exhausted: s.exhausted || ended, total: ended ? (s.total ?? read) : s.total };
  if (items.length === 0) return next;
  const key = partKey(s.runId, s.batchNo);
  const batch: Batch = { key, items, indexes: items.map((_, i) => s.read + i), origin: key, resends: 0 };
  next = { ...next, batchNo: s.batchNo + 1 };
  return s.stopped === 'insufficient_credits' ? notStarted(next, batch) : { ...next, held: batch };
}

/** The prices of run modes as `GET /run-modes` lists them (a mode without `credits` costs nothing). */
export function pricingOf(modes: ReadonlyArray<Pick<RunMode, 'key' | 'credits' | 'isDefault'>>): Pricing {
  const prices = new Map(modes.flatMap((m) => (m.credits === undefined ? [] : [[m.key, m.credits] as const])));
  return { prices, defaultMode: modes.find((m) => m.isDefault)?.key };
}

/** The run modes' prices are known. */
export const priced = (s: RunState, pricing: Pricing): RunState => ({ ...s, pricing });

/**
 * What a start's failure means: `hold` (the service is full or over its rate, or the same key is
 * still being handled: nothing started under the key, so the batch goes again), `refuse` (a refusal
 * of the whole batch, such as a key already used with other items) or `fatal` (the run ends).
 */
export function startFailure(status: number, type: string | undefined): 'hold' | 'refuse' | 'fatal' {
  if (status === 429 || type === 'idempotency_in_progress') return 'hold';
  return [400, 404, 409, 422].includes(status) ? 'refuse' : 'fatal';
}

/** Whether a refusal is the service's "too few credits" (a 409 `invalid_request_error` naming credits). */
const isCreditRefusal = (e: RunManyItemError) => e.type === 'invalid_request_error' && /credit/i.test(e.message);

/** `batch`, sent at `now`, ended as `outcome`; `finishedBefore` tells a task the run already gave a result for (the driver keeps them). */
export function startSettled(state: RunState, batch: Batch, outcome: StartOutcome, now: number, finishedBefore: (taskId: string) => boolean = () => false): RunState {
  // The batch leaves its queue whatever happened; a held one goes back to the front.
  let s: RunState = state.retries[0] === batch ? { ...state, retries: state.retries.slice(1) } : { ...state, held: undefined };
  switch (outcome.kind) {
    case 'aborted':
      return s;
    case 'held':
      return { ...s, retries: [batch, ...s.retries], hold: boundedWait(outcome.retryAfter, s.queuedWaitMs) };
    case 'refused':
      return batch.items.reduce((acc, item, i) => refused(acc, batch.indexes[i]!, item, outcome.error), s);
  }
  // The spec states no Retry-After on a start; when one is stated (the mock does), it is the first read's wait.
  const firstRead = boundedWait(outcome.retryAfter, s.queuedWaitMs);
  const listed = Array.isArray(outcome.items) ? (outcome.items as Array<{ index?: unknown; status?: unknown; taskId?: unknown; error?: { type?: unknown; message?: unknown } }>) : [];
  const active = new Map(s.active);
  const full: number[] = [];
  batch.items.forEach((item, i) => {
    const index = batch.indexes[i]!;
    // Two results for one item, or an item accepted without a task, is no usable result: the item ends in an error rather than one being picked.
    const results = listed.filter((r) => r?.index === i);
    const found = results.length === 1 ? results[0] : undefined;
    // An id it could not read back (megabytes of one) is no task either.
    const taskId = found?.status === 'accepted' && isUsableId(found.taskId) ? found.taskId : undefined;
    if (taskId !== undefined && (active.has(taskId) || finishedBefore(taskId))) {
      // One task cannot be two items' forecast (running, or finished for an earlier item): the answer is wrong, and the item ends in an error rather than vanish.
      s = refused(s, index, item, { type: 'invalid_response', message: `the service gave item ${i} the task ${taskId.slice(0, 64)}, already another item's` });
      return;
    }
    if (taskId !== undefined) {
      s = outcome.replayed ? { ...s, started: s.started + 1, resumed: s.resumed + 1 } : { ...s, started: s.started + 1, creditsSpent: s.creditsSpent + priceOf(s.pricing, item) };
      // A replayed task was never read by this run: read it at once; a new one after the queued wait.
      active.set(taskId, { index, item, status: 'queued', resumed: outcome.replayed, due: outcome.replayed ? now : now + firstRead });
      return;
    }
    const error = { type: String(found?.error?.type ?? 'api_error'), message: String(found?.error?.message ?? `no usable result for item ${i} of the batch`) };
    if (error.type === 'too_many_active_forecasts') full.push(i);
    else s = refused(s, index, item, error);
  });
  s = { ...s, active, hold: 0 };
  if (full.length === 0) return s;
  // Refused only because the service was full (forecasts started elsewhere): sent again under a key of their own.
  const resends = batch.resends + 1;
  const resend: Batch = { key: resendKey(batch.origin, resends), items: full.map((i) => batch.items[i]!), indexes: full.map((i) => batch.indexes[i]!), origin: batch.origin, resends };
  return { ...s, retries: [...s.retries, resend], hold: firstRead };
}

/** A round read the running tasks: a final one becomes a result, the others wait until their `due`. */
export function tasksSeen(state: RunState, seen: readonly SeenTask[]): RunState {
  const active = new Map(state.active);
  let s: RunState = { ...state, active };
  for (const t of seen) {
    const a = active.get(t.id);
    if (!a) continue;
    if (!FINAL_TASK_STATUSES.has(t.status)) {
      active.set(t.id, { ...a, status: t.status, due: t.due });
      continue;
    }
    active.delete(t.id);
    s = result(s, { status: t.status as RunManyFinished['status'], index: a.index, item: a.item, taskId: t.id, task: t.task, resumed: a.resumed });
  }
  return s;
}

/** The results to yield now, and the state without them. */
export const drain = (s: RunState): [RunState, RunState['ready']] => [s.ready.length === 0 ? s : { ...s, ready: [] }, s.ready];

/** Where the run stands at `now`: the running items counted by the status the last round saw. */
export function progressOf(s: RunState, now: number): RunManyProgress {
  const counts = { ...s.counts };
  for (const a of s.active.values()) {
    if (a.status === 'running_subforecasts' || a.status === 'synthesizing') counts[a.status]++;
    else counts.queued++;
  }
  const elapsedMs = now - s.began;
  const etaMs = s.total !== undefined && s.done > 0 ? Math.round(((s.total - s.done) * elapsedMs) / s.done) : undefined;
  const { runId, read, total, started, resumed, done, creditsSpent, stopped } = s;
  return { runId, read, total, started, resumed, active: s.active.size, done, counts, creditsSpent, elapsedMs, etaMs, stopped };
}

function result(s: RunState, r: RunManyResult<ForecastListItem | ForecastTask>): RunState {
  return { ...s, done: s.done + 1, counts: { ...s.counts, [r.status]: s.counts[r.status] + 1 }, ready: [...s.ready, r] };
}

function refused(s: RunState, index: number, item: ForecastCreateParams, error: RunManyItemError): RunState {
  if (!isCreditRefusal(error)) return result(s, { status: 'rejected', index, item, error });
  return result({ ...s, stopped: 'insufficient_credits' }, { status: 'not_started', index, item, reason: 'insufficient_credits', error });
}

/** Once credits run short: every item of the batch is a result. */
function notStarted(s: RunState, batch: Batch): RunState {
  return batch.items.reduce((acc, item, i) => result(acc, { status: 'not_started', index: batch.indexes[i]!, item, reason: 'insufficient_credits' }), s);
}

function priceOf(pricing: Pricing | undefined, item: ForecastCreateParams): number {
  const mode = item.runMode ?? pricing?.defaultMode;
  return (mode && pricing?.prices.get(mode)) || 0;
}
