/**
 * The one wait loop and what every long wait shares. A wait (`forecasts.wait`, `waitMany`,
 * `createAndWait`, `runMany`, file readiness) runs in a {@link WaitScope}: its signal, its deadline,
 * and request options whose retries ride out an outage until that deadline (see `retry.ts`). The
 * loop reads, and if not done, sleeps as long as the server asked (never less, within bounds), until
 * done, aborted or out of time. It knows no operation's shape: each wait passes its own `read`.
 * @module
 */
import { MAX_WAIT_LINKS, told, waitChannel, type WaitMessage } from './channels.js';
import type { ClientClock } from './clock.js';
import { ValidationError } from './errors.js';
import type { RequestOptions } from './options.js';
import { MAX_STATED_WAIT_MS, WAIT_MODE, WaitDeadlineReached, type WaitRequestOptions } from './retry.js';
import type { TrackerWake } from './task-tracker.js';

/**
 * Checks a wait's `timeout` option: `undefined` (no limit) or a number of ms >= 0; anything else
 * throws a {@link ValidationError} naming `timeout`. @internal
 */
export function checkTimeout(timeout: unknown): void {
  if (timeout !== undefined && !(typeof timeout === 'number' && timeout >= 0)) {
    throw new ValidationError(`must be a number of milliseconds >= 0, got ${String(timeout)}`, 'timeout');
  }
}

/** What one read gave: the value, whether waiting is over, and the ms the server asked to wait (if any). */
export type PollStep<T> = [value: T, done: boolean, waitMs?: number];

/**
 * The shortest wait between two reads of a wait, in ms, whatever the service says: a
 * `Retry-After: 0` on every answer must not turn a wait into a busy loop.
 */
export const MIN_READ_INTERVAL_MS = 1000;

/**
 * The wait before the next read: the one the service asked for (else `fallback`), at least
 * {@link MIN_READ_INTERVAL_MS} and at most {@link MAX_STATED_WAIT_MS}. @internal
 */
export function boundedWait(asked: number | undefined, fallback: number): number {
  return Math.min(MAX_STATED_WAIT_MS, Math.max(MIN_READ_INTERVAL_MS, asked ?? fallback));
}

/** What the requests of one wait share. @internal */
export interface WaitScope {
  readonly clock: ClientClock;
  readonly signal: AbortSignal | undefined;
  /** Client-clock time at which the wait times out; `undefined` without a `timeout`. */
  readonly deadline: number | undefined;
  /** Request options of a request of this wait: `base`, the wait's signal, retries until the deadline. */
  options(base?: RequestOptions): RequestOptions;
  /** The wait's message on the `wait` channel, while someone subscribes: {@link poll} counts its reads and wakes on it. */
  trace?: WaitMessage;
}

/**
 * The scope of a wait that starts now and may last `timeout` ms (no limit when `undefined`; anything
 * but a number of ms >= 0 is refused, see {@link checkTimeout}). @internal
 */
export function waitScope(clock: ClientClock, { signal, timeout }: { signal?: AbortSignal | undefined; timeout?: number | undefined }): WaitScope {
  checkTimeout(timeout);
  const deadline = timeout === undefined ? undefined : clock.now() + timeout;
  const scope: WaitScope = {
    clock,
    signal,
    deadline,
    // The wait's trace (set once it starts, while someone subscribes) travels with its reads.
    options: (base): WaitRequestOptions => ({ ...base, signal, [WAIT_MODE]: scope.trace ? { deadline, trace: scope.trace } : { deadline } }),
  };
  return scope;
}

/**
 * Runs `body`, part of a wait: when a request of it reaches the wait's deadline while failing, the
 * wait rejects with `onTimeout()`, whose `cause` is the last failure. @internal
 */
export async function untilDeadline<T>(body: () => Promise<T>, onTimeout: () => Error): Promise<T> {
  try {
    return await body();
  } catch (err) {
    if (!(err instanceof WaitDeadlineReached)) throw err;
    const timeout = onTimeout();
    Object.defineProperty(timeout, 'cause', { value: err.cause, writable: true, configurable: true });
    throw timeout;
  }
}

/**
 * Reads with `read` until it says done. Between reads it sleeps the wait the read asked for (else
 * `interval`; see {@link boundedWait}): never faster than asked. An abort rejects at once with the
 * signal's reason, mid-read or mid-sleep. Once the scope's deadline passes it rejects with
 * `onTimeout()`; it sleeps to the deadline rather than giving up early, and never reads past it.
 * `sleep` (default: the scope's clock) may end a sleep early, as a tracker may: told of a change, it
 * resolves `'woken'` (the read counts as woken by an event); its tasks due sooner, `'due'` (a poll).
 * Either way the loop reads at once.
 * @internal
 */
export function poll<T>(
  read: (scope: WaitScope) => Promise<PollStep<T>>,
  scope: WaitScope,
  interval: number,
  onTimeout: () => Error,
  sleep: (ms: number, signal: AbortSignal | undefined) => Promise<TrackerWake> = (ms, signal) => scope.clock.sleep(ms, signal),
  links?: () => readonly string[],
): Promise<T> {
  const { clock, signal, trace } = scope;
  let last: 'read' | 'poll' | 'event' = 'read';
  return untilDeadline(async () => {
    for (;;) {
      signal?.throwIfAborted();
      const [value, done, asked] = await read(scope);
      if (trace) told(() => trace.reads++);
      if (done) {
        if (trace) told(() => (trace.endedBy = last));
        return value;
      }
      const wait = boundedWait(asked, interval);
      const left = (scope.deadline ?? Infinity) - clock.now();
      // Woken early (a task told final, or due sooner): read again, whatever the deadline.
      const early = await sleep(Math.max(0, Math.min(wait, left)), signal);
      const wake = early === 'woken' ? 'event' : 'poll';
      last = wake;
      if (trace) {
        told(() => {
          trace.wakes[wake]++;
          if (wake === 'event' && links) addLinks(trace, links());
        });
      }
      if (!early && wait > left) throw onTimeout();
    }
  }, onTimeout);
}

/**
 * Adds the traceparents of receipts that woke a wait to its message: a bounded few (a waitMany of
 * thousands woken at once names the first {@link MAX_WAIT_LINKS}). @internal
 */
export function addLinks(trace: WaitMessage, links: readonly string[]): void {
  for (const link of links) if (trace.links.length < MAX_WAIT_LINKS && !trace.links.includes(link)) trace.links.push(link);
}

/** What a wait ended with, for its trace: a task's status, the tasks' final statuses, its task ids once known. @internal */
export interface WaitOutcome {
  status?: string;
  finalStatuses?: readonly string[];
  taskIds?: string[];
}

/**
 * Runs `body`, a wait, inside the `forecasting-sdk:wait` trace while someone subscribes (else just
 * runs it: nothing is built, and the tracing code, `traced.ts`, is not loaded): {@link poll}
 * counts the reads and wakes of `scope` on the message, and `outcome` says what the wait ended with.
 * @internal
 */
export function tracedWait<T>(kind: WaitMessage['kind'], taskIds: readonly string[], scope: WaitScope, body: () => Promise<T>, outcome: (value: T) => WaitOutcome, questionId?: string): Promise<T> {
  const channel = waitChannel;
  if (!channel?.hasSubscribers) return body();
  return import('./traced.js').then((t) => t.traceWait(channel, { kind, taskIds, scope, body, outcome, questionId }));
}
