/**
 * The task tracker: how every flow that waits for many tasks reads them (`waitMany`, `runMany`). A
 * round lists the tasks by id filter, `maxIds` a request, reads alone each one a list leaves out, and
 * says when each may be read again: the list answer's `Retry-After`, else the flow's fallback for the
 * task's state, within {@link boundedWait}'s bounds. It knows no operation: the flow hands in
 * `listByIds` and `read`.
 *
 * It is an interface on purpose: the seam where coordination across processes plugs in. A tracker
 * told of task changes from elsewhere (a webhook event fanned out between processes) can end a
 * {@link TaskTracker.sleep} early, or answer a round from what it was told.
 * @module
 */
import type { ClientClock } from './clock.js';
import { boundedWait } from './polling.js';

/** Where a tracker reads tasks. */
export interface TaskSource<T> {
  /** Lists the tasks of `ids` (at most {@link maxIds}): the items found, and the wait in ms the answer asked for, if any. */
  listByIds(ids: readonly string[]): Promise<{ items: readonly T[]; retryAfter: number | undefined }>;
  /** Reads one task the list left out (an unknown id rejects: no wait on it can end): the task, and the wait in ms its answer asked for, if any. */
  read(id: string): Promise<{ item: T; retryAfter: number | undefined }>;
  /** The most ids one list request takes. */
  readonly maxIds: number;
  idOf(item: T): string;
  /** The wait before reading a task in this state again when the service names none, in ms. */
  fallbackWait(item: T): number;
  /** The task's final status, or `undefined` while it is not final. */
  finalStatus(item: T): string | undefined;
}

/** One task as a round saw it, and the ms to wait before reading it again. */
export interface TrackedTask<T> {
  id: string;
  item: T;
  waitMs: number;
}

/**
 * Tracks tasks for a wait.
 * @internal
 */
export interface TaskTracker<T> {
  /** Reads every task of `ids` once (in `ids` order); rejects as the first request that fails for good. */
  round(ids: readonly string[]): Promise<Array<TrackedTask<T>>>;
  /**
   * Sleeps until the next round is due (`ms`), or less: when told a tracked task changed it resolves
   * `'woken'`; when the tasks are due sooner than `ms` said (a sleep on the safety cadence whose
   * events stopped coming), `'due'`. Rejects with the signal's reason on abort.
   */
  sleep(ms: number, signal: AbortSignal | undefined): Promise<TrackerWake>;
  /** Follows these tasks from now, before their first read (so no event between the two is missed). */
  follow(ids: readonly string[]): void;
  /**
   * A read of one task the flow made itself (a wait on one task): the tracker watches it, and says
   * how long to wait before reading it again (`asked`: the wait the answer named, if any).
   */
  seen(id: string, item: T, asked: number | undefined): Promise<number | undefined>;
  /**
   * The traceparents of the webhook receipts whose events woke it since the last call (see
   * `TaskFinalNotice.traceparent`), for the wait's trace. Optional: a tracker told of nothing has none.
   */
  links?(): string[];
  /** Stops following the tasks (the wait is over). */
  close(): void;
}

/** How a tracker's sleep ended early: told of a change (`'woken'`), or its tasks due sooner (`'due'`). @internal */
export type TrackerWake = void | 'woken' | 'due';

/** A task as a round read it, and the wait in ms its answer asked for, if any. */
export interface ReadTask<T> {
  item: T;
  asked: number | undefined;
}

/**
 * Reads every task of `ids`: lists them `maxIds` a request, reads alone each one a list leaves out.
 * A listed task waits the longest any list answer of the round asked for; a task read alone, what
 * its own answer asked for. @internal
 */
export async function readTasks<T>(source: TaskSource<T>, ids: readonly string[]): Promise<Map<string, ReadTask<T>>> {
  const listed = new Map<string, T>();
  const alone = new Map<string, ReadTask<T>>();
  let told: number | undefined;
  for (let i = 0; i < ids.length; i += source.maxIds) {
    const chunk = ids.slice(i, i + source.maxIds);
    const { items, retryAfter } = await source.listByIds(chunk);
    if (retryAfter !== undefined) told = Math.max(told ?? 0, retryAfter);
    // Only the tasks asked for are kept: a hostile list may add any number of others, every request.
    const asked = new Set(chunk);
    for (const item of items) if (asked.has(source.idOf(item))) listed.set(source.idOf(item), item);
    // A task this round's list does not show is read alone, every round.
    for (const id of chunk) {
      if (listed.has(id) || alone.has(id)) continue;
      const { item, retryAfter: asked } = await source.read(id);
      alone.set(id, { item, asked });
    }
  }
  return new Map(ids.map((id) => [id, alone.get(id) ?? { item: listed.get(id)!, asked: told }]));
}

/** The in-process tracker: list, read what the list leaves out, sleep on the client's clock. @internal */
export function taskTracker<T>(source: TaskSource<T>, clock: Pick<ClientClock, 'sleep'>): TaskTracker<T> {
  return {
    async round(ids) {
      const found = await readTasks(source, ids);
      return ids.map((id) => {
        const { item, asked } = found.get(id)!;
        return { id, item, waitMs: boundedWait(asked, source.fallbackWait(item)) };
      });
    },
    sleep: (ms, signal) => clock.sleep(ms, signal),
    follow: () => undefined,
    seen: (_id, _item, asked) => Promise.resolve(asked),
    close: () => undefined,
  };
}
