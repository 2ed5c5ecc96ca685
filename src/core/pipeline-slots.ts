/**
 * The pipeline's steps for a client with a coordinator (`coordination.ts`): the shared request budget
 * (and model-call window) on every attempt, active-forecast slots around a start's attempts, and the
 * slots freed when an answer shows tasks final. They read what an operation declares (`windows`,
 * `starts`, `finalTasks`) and name none.
 * @module
 */
import { queueChannel, type QueueMessage } from './channels.js';
import { callTolerantly, type Coordinator, type HoldOptions, type SlotHold, type TaskFinalNotice, type WindowEnd } from './coordination.js';
import { APIError, ValidationError } from './errors.js';
import type { AttemptStep, Call, CallStep } from './pipeline.js';
import { decodeBody, type Received } from './transport.js';
import { endUpload } from './uploads.js';

/**
 * The task tracker of a client with a coordinator, and what tells it the key's webhooks cover every
 * final kind, loaded with these steps (a client with a coordinator loads them as it is built): one
 * chunk of what a coordinator needs, not three.
 */
export { coordinatedTracker } from './coordinated-tracker.js';
export { WebhookCoverage } from './webhook-coverage.js';

/** Most task ids a client remembers as settled, so a list polled again settles its final tasks once. */
const MAX_REMEMBERED = 10_000;

/** Told when a coordinator's `take` or `hold` failed: the client warns once per kind (not per call). @internal */
export type CoordinatorFailed = (what: 'take' | 'hold') => void;

/** A client's coordination steps, built once their code has loaded (`base-client.ts`). @internal */
export interface CoordinationSteps {
  budget: AttemptStep;
  slots: CallStep;
  decode: (call: Call, received: Received) => unknown;
}

/**
 * The steps of a client with `coordinator`: the shared budget on each attempt, the slots around a
 * start, and `decode` settling the tasks its answers show final. One warning per kind of failure.
 * @internal
 */
export function coordinationSteps(coordinator: Coordinator, reconcile: HoldOptions['reconcile'], decode: (call: Call, received: Received) => unknown, warn: (message: string) => void): CoordinationSteps {
  const failed = warnOnceFailed(warn);
  return { budget: sharedBudgetStep(coordinator, failed), slots: slotsStep(coordinator, reconcile, failed), decode: settlingDecode(decode, coordinator) };
}

/**
 * Makes the client's {@link CoordinatorFailed}: one warning for each of `take` and `hold`, naming
 * neither the error's text (a custom coordinator's, it may carry a URL) nor anything of the key.
 * @internal
 */
export function warnOnceFailed(warn: (message: string) => void): CoordinatorFailed {
  const warned = new Set<string>();
  return (what) => {
    if (warned.has(what)) return;
    warned.add(what);
    const left = what === 'take' ? 'the shared request budget' : 'the shared active-forecast slots';
    warn(`the coordinator's ${what}() failed; calls go on without ${left} while it fails (this warning is shown once).`);
  };
}

/**
 * Runs a coordinator's call for a step. A coordinator that throws or rejects (a custom one; the Redis
 * one falls back by itself) leaves the call uncoordinated rather than failed, and says so once; an
 * abort still ends it.
 */
async function tolerant<T>(signal: AbortSignal | undefined, work: () => Promise<T>, fallback: T, failed: () => void): Promise<T> {
  // Aborted already: nothing to ask (a custom coordinator may not look at a signal aborted before it got it).
  signal?.throwIfAborted();
  try {
    return await work();
  } catch (err) {
    if (signal?.aborted) throw err;
    failed();
    return fallback;
  }
}

/** Runs `wait`, a wait of the coordinator, inside the `forecasting-sdk:queue` trace while someone subscribes. */
function queued<T>(kind: QueueMessage['kind'], call: Call, count: number, wait: () => Promise<T>): Promise<T> {
  const channel = queueChannel;
  if (!channel?.hasSubscribers) return wait();
  const message: QueueMessage = { kind, operation: call.name, ...(kind === 'slot' ? { count } : {}), ...(call.trace ? { parent: call.trace } : {}) };
  // The tracing code loads once someone subscribes, as for a call (`pipeline.ts`).
  return import('./traced.js').then((t) => t.inTrace(channel, message, wait));
}

/** Whether a start that failed for good surely started nothing: never sent, or refused with a 4xx answer. */
const startedNothing = (call: Call, err: unknown): boolean => !call.sent || (err instanceof APIError && err.status >= 400 && err.status < 500);

/** What a call sends as its params: the body of a write, the query of a read. */
const paramsOf = (call: Call): unknown => call.body ?? call.query;

/**
 * The budget step with a coordinator: every attempt takes `requests` of the shared window, and first
 * any other window the operation declares (decisions' model calls). Aborted while waiting, the call
 * ends with the abort reason and nothing is sent. @internal
 */
export function sharedBudgetStep(coordinator: Coordinator, failed: CoordinatorFailed): AttemptStep {
  return async (call, next) => {
    const signal = call.options.signal;
    const ends: (WindowEnd | void)[] = [];
    try {
      const declared = call.op?.windows;
      const windows = typeof declared === 'function' ? declared(paramsOf(call)) : declared;
      for (const window of windows ?? []) if (window !== 'requests') ends.push(await queued('budget', call, 1, () => tolerant(signal, () => coordinator.take(window, signal), undefined, () => failed('take'))));
      ends.push(await queued('budget', call, 1, () => tolerant(signal, () => coordinator.take('requests', signal), undefined, () => failed('take'))));
    } catch (err) {
      // Nothing was sent, but an upload's source is still let go.
      endUpload(call.request.body, () => err);
      throw err;
    }
    try {
      return await next(call);
    } finally {
      // The service counted the attempt by now: each window's entry may move to this time.
      for (const end of ends) if (typeof end === 'function') callTolerantly(end);
    }
  };
}


/**
 * The slots step, around a start's attempts: takes the slots its params need (waiting its turn,
 * abortable), keeps them across the call's retries, binds them to the started tasks once the service
 * answers (a refused item's slot is given back), or gives them all back when the call fails for good
 * having surely started nothing. A start that may have reached the service (a timeout, a broken
 * connection, a 5xx, an abort after sending) keeps its slots pending: the coordinator frees them after
 * its `pendingHoldTtlMs`, by which time a task it did start shows in the service's count.
 * @internal
 */
export function slotsStep(coordinator: Coordinator, reconcile: HoldOptions['reconcile'], failed: CoordinatorFailed): CallStep {
  return async (call, attempts) => {
    const starts = call.op?.starts;
    const count = starts ? starts.slots(paramsOf(call)) : 0;
    if (!starts || count <= 0) return attempts(call);
    const field = starts.countedBy;
    // A start larger than the fleet's cap would run past it: refused, before the wait for slots when the cap is known.
    const tooMany = (cap: number) => new ValidationError(`${count} forecasts in one start, over the coordinator's maxActive (${cap})`, field);
    // A custom coordinator's getter that throws names no cap.
    const cap = callTolerantly(() => coordinator.maxActive);
    if (field && count > (cap ?? count)) throw tooMany(cap!);
    const hold: SlotHold | undefined = await queued('slot', call, count, () => tolerant(call.options.signal, () => coordinator.hold(count, { signal: call.options.signal, reconcile }), undefined, () => failed('hold')));
    if (!hold) return attempts(call);
    if (field && hold.count < count) {
      await Promise.resolve().then(() => hold.release()).catch(() => undefined);
      throw tooMany(hold.count);
    }
    let received: Received;
    try {
      received = await attempts(call);
    } catch (err) {
      if (startedNothing(call, err)) await Promise.resolve().then(() => hold.release()).catch(() => undefined);
      else await Promise.resolve().then(() => hold.abandon?.()).catch(() => undefined);
      throw err;
    }
    let taskIds: readonly string[] = [];
    try {
      // A task named twice (a hostile answer) is one task: one slot.
      taskIds = [...new Set(starts.taskIds(decodeBody(received, 'json')))];
    } catch {
      // An answer without the tasks it started: the call's decode says so; the slots go back.
    }
    // The start succeeded: a coordinator that fails to record it does not fail the call.
    await Promise.resolve().then(() => hold.bind(taskIds)).catch(() => undefined);
    return received;
  };
}

/**
 * Wraps the decode step: when a decoded answer shows tasks final (the operation's `finalTasks`), the
 * coordinator frees their slots and tells every process, before the caller sees the answer. A task
 * already settled by this client is not settled again. @internal
 */
export function settlingDecode(decode: (call: Call, received: Received) => unknown, coordinator: Coordinator): (call: Call, received: Received) => unknown {
  const settled = new Set<string>();
  const settle = (call: Call, data: unknown): unknown => {
    const finalTasks = call.op?.finalTasks;
    if (!finalTasks) return data;
    const fresh: TaskFinalNotice[] = finalTasks(data).filter((n) => !settled.has(n.taskId));
    if (fresh.length === 0) return data;
    for (const { taskId } of fresh) {
      // Bounded: the oldest ids are forgotten first (settling one again is harmless, only a command).
      if (settled.size >= MAX_REMEMBERED) settled.delete(settled.values().next().value as string);
      settled.add(taskId);
    }
    // A coordinator that fails to record it does not fail the call: the answer stands.
    return Promise.resolve()
      .then(() => coordinator.settle(fresh))
      .then(
        () => data,
        () => data,
      );
  };
  return (call, received) => {
    const data = decode(call, received);
    return data instanceof Promise ? data.then((d) => settle(call, d)) : settle(call, data);
  };
}
