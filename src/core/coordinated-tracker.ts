/**
 * The task tracker of a client with a coordinator: the in-process tracker's reads, woken by the final
 * events a webhook receiver in any process publishes. It watches the tracked tasks; a sleep ends when
 * one is told final, and the next round reads only the tasks told final (once each), not every task.
 * While a receiver is seen ({@link Coordinator.receiving}) and every outcome sends an event it gets
 * (the key's webhooks subscribe to every final kind: `webhook-coverage.ts`), a task nothing was told
 * of is read again only at the safety cadence, so a lost event never loses a result; otherwise the
 * waits are the service's `Retry-After`, as without a coordinator. Each task seen final is settled on the
 * coordinator, which frees its slot for every process.
 * @module
 */
import { whenAborted } from './abort.js';
import type { ClientClock } from './clock.js';
import { callTolerantly, type Coordinator, type TaskFinalNotice } from './coordination.js';
import { boundedWait } from './polling.js';
import { readTasks, type TaskSource, type TaskTracker, type TrackerWake } from './task-tracker.js';

/** What a coordinated tracker uses: the client's coordinator and its safety cadence. @internal */
export interface TrackerCoordination {
  readonly coordinator: Pick<Coordinator, 'watch' | 'receiving' | 'settle' | 'maxActive'>;
  /** The wait between reads of a task while a receiver is seen, in ms of the client's clock (`coordinatedPollInterval`, counted in the service's time). */
  readonly interval: number;
  /**
   * Whether the receivers get an event for every outcome (the key's webhooks subscribe to every
   * final kind). Without, a task nothing was told of is read at the service's pace, receiver or not.
   */
  readonly covered?: (() => Promise<boolean>) | undefined;
}

/** A task as last read: when, the waits it asked for, whether it was final. */
interface Known<T> {
  item: T;
  at: number;
  /** The wait the service asked for (or the state's fallback), as without a coordinator. */
  waitMs: number;
  /** The wait while a receiver is seen. */
  safeMs: number;
  final: boolean;
  /**
   * Told final, and read not final since (a replica behind, or a forged notice): read at the
   * service's pace, and a notice makes a read only `waitMs` after the last (a flood reads nothing more).
   */
  doubted: boolean;
}

/**
 * The safety wait after a read: the cadence, shortened in the ratio of the wait the service stated
 * to the spec's wait for the state (a service that runs its time faster, as the mock's fast clock,
 * states shorter waits), never shorter than the stated wait. @internal
 */
export function safetyWait(interval: number, asked: number | undefined, fallback: number): number {
  const pace = asked === undefined || fallback <= 0 ? 1 : Math.min(1, asked / fallback);
  return boundedWait(Math.max(asked ?? 0, interval * pace), fallback);
}

/** The most receipts one wait names between two reads (a `waitMany` of thousands woken at once names the first). */
const MAX_LINKS = 32;

/** Ends a coordinated sleep early: not an error, never seen outside the tracker. */
const WOKEN: unique symbol = Symbol('woken');

/**
 * Sleeps `ms` on `clock`; resolves `'woken'` as soon as the function handed to `setWake` is called
 * (it is cleared with `undefined` once the sleep ends), whether or not the clock's sleep heeds its
 * signal; rejects with the signal's reason on abort.
 */
async function wakeableSleep(clock: Pick<ClientClock, 'sleep'>, ms: number, signal: AbortSignal | undefined, setWake: (wake: (() => void) | undefined) => void): Promise<TrackerWake> {
  if (signal?.aborted) throw signal.reason;
  const inner = new AbortController();
  const stop = signal && whenAborted(signal, () => inner.abort(signal.reason));
  try {
    return await new Promise<TrackerWake>((resolve, reject) => {
      setWake(() => resolve('woken'));
      clock.sleep(ms, inner.signal).then(() => resolve(), reject);
    });
  } finally {
    setWake(undefined);
    stop?.();
    // Ends the clock's sleep when woken (its rejection then changes nothing: the promise resolved).
    inner.abort(WOKEN);
  }
}

/** The ms until `k` is due again. */
const left = <T>(k: Known<T>, now: number, receiving: boolean) => Math.max(0, k.at + (receiving && !k.final ? k.safeMs : k.waitMs) - now);

/** Frees the slots of the tasks seen final (settling twice is harmless); a coordinator's failure is its own to report. */
async function settleSeen(coordinator: TrackerCoordination['coordinator'], notices: ReadonlyArray<TaskFinalNotice | undefined>): Promise<void> {
  const final = notices.filter((n): n is TaskFinalNotice => n !== undefined);
  if (final.length > 0) await Promise.resolve().then(() => coordinator.settle(final)).catch(() => undefined);
}

/**
 * Watches through a custom coordinator that may throw, or return no function: the tasks are then
 * left to polling (the safety cadence or, while no receiver is seen, the service's pace). The stop
 * it returns never throws.
 */
function tolerantWatch(coordinator: TrackerCoordination['coordinator'], ids: readonly string[], onFinal: (notice: TaskFinalNotice) => void): () => void {
  const stop: unknown = callTolerantly(() => coordinator.watch(ids, onFinal));
  return () => {
    if (typeof stop === 'function') callTolerantly(stop as () => unknown);
  };
}

/**
 * Whether waits may trust events: a receiver is seen (a coordinator that throws, or answers anything
 * but `true`, is not receiving) and every outcome sends an event it gets.
 */
async function isReceiving({ coordinator, covered }: TrackerCoordination): Promise<boolean> {
  return callTolerantly(() => coordinator.receiving()) === true && (covered === undefined || (await covered().catch(() => false)));
}

/** A tracker for a client with a coordinator (see the module's description). @internal */
export function coordinatedTracker<T>(source: TaskSource<T>, clock: Pick<ClientClock, 'now' | 'sleep'>, coordination: TrackerCoordination): TaskTracker<T> {
  const { coordinator, interval } = coordination;
  const known = new Map<string, Known<T>>();
  /** Tasks told final since their last read. */
  const announced = new Set<string>();
  const watched = new Set<string>();
  const stops: Array<() => void> = [];
  /** Traceparents of the receipts that told tracked tasks final, until {@link TaskTracker.links} takes them. */
  let links: string[] = [];
  let wake: (() => void) | undefined;

  const watch = (ids: readonly string[]) => {
    const fresh = ids.filter((id) => !watched.has(id));
    if (fresh.length === 0) return;
    for (const id of fresh) watched.add(id);
    const onFinal = (notice: TaskFinalNotice) => {
      // Its own settle comes back too: a task already read final needs no read; a doubted one (see Known), none before its pace.
      const k = known.get(notice.taskId);
      if (k?.final || (k?.doubted && clock.now() < k.at + k.waitMs)) return;
      announced.add(notice.taskId);
      if (notice.traceparent !== undefined && links.length < MAX_LINKS) links.push(notice.traceparent);
      wake?.();
    };
    stops.push(tolerantWatch(coordinator, fresh, onFinal));
  };
  const receiving = () => isReceiving(coordination);

  /** Records a read; the notice to settle when newly seen final. `told`: told final before the read began (a notice during it stays). */
  const record = (id: string, item: T, asked: number | undefined, told: boolean): TaskFinalNotice | undefined => {
    const fallback = source.fallbackWait(item);
    const status = source.finalStatus(item);
    const before = known.get(id);
    const waitMs = boundedWait(asked, fallback);
    // Told final but not seen so (a replica behind, a forged notice): doubted, and read at the
    // service's pace until a read shows it final (the notices it ignores meanwhile may hold the true one).
    const doubted = status === undefined && (told || before?.doubted === true);
    const safeMs = doubted ? waitMs : safetyWait(interval, asked, fallback);
    known.set(id, { item, at: clock.now(), waitMs, safeMs, final: status !== undefined, doubted });
    if (told || status !== undefined) announced.delete(id);
    return status !== undefined && !before?.final ? { taskId: id, status } : undefined;
  };

  return {
    async round(ids) {
      watch(ids);
      const receivingNow = await receiving();
      const now = clock.now();
      const due = ids.filter((id) => !known.has(id) || announced.has(id) || left(known.get(id)!, now, receivingNow) === 0);
      // With nothing due, this reads nothing and settles nothing.
      const told = new Set(due.filter((id) => announced.has(id)));
      const read = await readTasks(source, due);
      await settleSeen(coordinator, due.map((id) => record(id, read.get(id)!.item, read.get(id)!.asked, told.has(id))));
      const after = clock.now();
      const stillReceiving = await receiving();
      return ids.map((id) => ({ id, item: known.get(id)!.item, waitMs: left(known.get(id)!, after, stillReceiving) }));
    },
    follow: watch,
    async seen(id, item, asked) {
      watch([id]);
      await settleSeen(coordinator, [record(id, item, asked, announced.has(id))]);
      const k = known.get(id)!;
      return (await receiving()) && !k.final ? k.safeMs : asked;
    },
    links() {
      const taken = links;
      links = [];
      return taken;
    },
    async sleep(ms, signal) {
      // In steps of the tasks' own pace (the shortest wait one asks for; the longest while no
      // receiver is seen, as waitMany polls); between two, whether events can still come.
      let fast = Infinity;
      let slow = 0;
      for (const k of known.values()) if (!k.final) (fast = Math.min(fast, k.waitMs)), (slow = Math.max(slow, k.waitMs));
      // Counted down, not read off the clock: a clock set back never stretches a sleep.
      for (let rest = ms; ; ) {
        const receivingNow = await receiving();
        if ([...announced].some((id) => watched.has(id))) return 'woken';
        if (rest < ms && !receivingNow) return 'due';
        const step = Math.min(rest, receivingNow ? fast : slow || rest);
        const woke = await wakeableSleep(clock, step, signal, (w) => (wake = w));
        // `!(rest > step)`, not `rest <= step`: a NaN ends it too.
        if (woke || !(rest > step)) return woke;
        rest -= step;
      }
    },
    close() {
      for (const stop of stops.splice(0)) stop();
      watched.clear();
      wake = undefined;
    },
  };
}
