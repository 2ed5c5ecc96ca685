/**
 * Active-forecast slots on Redis: a hold's wait in the shared queue (first come, first served across
 * processes), and the hold it gives once granted.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { eitherSignal } from '../core/abort.js';
import { serviceMs, type ClientClock } from '../core/clock.js';
import type { HoldOptions, SlotHold, TaskFinalNotice } from '../core/coordination.js';
import { every } from './every.js';
import type { EventHub, HubMessage } from './hub.js';
import { arrayReply, integerReply, stringsReply, type RedisLink } from './link.js';
import { holdCount, type LocalLimits, type LocalPending } from './local.js';
import type { ResolvedOptions } from './options.js';
import { BIND, HOLD, LEAVE, RECONCILE_TURN, RECONCILED, RENEW } from './scripts.js';
import { fleetNowArg } from './time.js';
import type { CoordinatorKeys } from './keys.js';
import type { WaitingLine } from './line.js';

/**
 * A waiting hold tries again at least this often (its heartbeat), and sooner when freed slots could
 * reach its place: the timer is the safety net for a lost message, so it can be slow.
 */
export const RETRY_MS = 30_000;
/** A waiter whose heartbeat is older than this has died: it leaves the queue. */
export const WAITER_TTL_MS = 3 * RETRY_MS;
/**
 * Real time a process with holds in the queue counts as alive after its last try: past it, its
 * holds at the head of the queue are dropped by the next try of any process. A process's first
 * waiting hold tries at least every {@link ALIVE_REFRESH_MS}, so a live process never lapses, and a
 * start behind a dead process's holds goes within about `ALIVE_TTL_MS + ALIVE_REFRESH_MS` (13 s).
 * Real time, not the client's clock: a process dies in real time, whatever clock the mock keeps.
 */
export const ALIVE_TTL_MS = 10_000;
/** Real-time interval of a waiting process's tries: its heartbeat, and its look for dead holds ahead. */
export const ALIVE_REFRESH_MS = 3_000;
/**
 * Most heartbeats one try renews for the holds behind it (a bound on the script's arguments): a
 * process with more waiting starts than this lets the last ones re-queue when their turn comes.
 */
const MAX_RENEWED = 1_000;

/** What a hold needs of its coordinator. @internal */
export interface SlotContext {
  link: RedisLink;
  hub: EventHub;
  local: LocalLimits;
  options: ResolvedOptions;
  clock(): ClientClock;
  keys(): CoordinatorKeys;
  settle(notices: readonly TaskFinalNotice[]): Promise<void>;
  /**
   * The process's one check of held tasks against the service: at most one at a time, and one per
   * `reconcileIntervalMs`, however many holds wait (each would otherwise send its own list request).
   */
  reconciling: { last: number; running: boolean };
  /** This process's holds waiting in the shared queue: only the first tries again. */
  line: WaitingLine;
  /** Records the tasks a hold was bound to, for the write-back after an outage. */
  own(taskIds: readonly string[], onLocalLimits: boolean): void;
  /** Told the epoch each try saw: a new one means Redis lost its data, and the slots are written back. */
  sawEpoch(epoch: string): void;
  /**
   * A hold that went on local limits after a try was sent: that try may still run in Redis (a command
   * that timed out is not a command undone), so its queue entry and pending slots are removed once
   * Redis answers again.
   */
  abandon(holdId: string, count: number): void;
  /** This coordinator's id in the queue's record of live processes. */
  processId: string;
  /** Stops of the renewals of granted holds not yet bound: `close()` stops them all. */
  renewals: Set<() => void>;
  /** Aborted by `close()`: a check of held tasks still asking the service stops, and none starts. */
  closed: AbortSignal;
}

/** Ms (the client's clock, as their expiry) between two renewals of a granted hold's pending slots: a third of their time to live, 1 s to 1 min. */
const renewEveryMs = (ttl: number): number => Math.min(60_000, Math.max(1_000, ttl / 3));

/**
 * `reconcileIntervalMs` in the service's time on the client's clock (50 ms for a client of the mock's 600x fast clock), whole ms: the scripts set it as an expiry.
 */
const reconcileEveryMs = (ctx: SlotContext): number => Math.max(1, Math.round(serviceMs(ctx.clock(), ctx.options.reconcileIntervalMs)));

/**
 * Least time between a waiting hold's own tries when they follow the check of held slots: a fast
 * mock clock (or a tiny `reconcileIntervalMs`) does not send a try to Redis every millisecond.
 */
export const MIN_LOOK_MS = 50;

/**
 * How long a waiting hold that may run the check of held slots sleeps between its tries, on the
 * client's clock: {@link RETRY_MS}, or sooner when the check comes due sooner (50 ms against the
 * mock's 600x clock), so a slot only the check frees is found in the service's time, not in seconds.
 */
const lookEveryMs = (ctx: SlotContext): number => Math.min(RETRY_MS, Math.max(MIN_LOOK_MS, reconcileEveryMs(ctx)));

/** Most held tasks one reconcile asks the service about (a sample when more are held): a bounded number of list requests. */
const MAX_RECONCILED = 1_000;
/**
 * The most times `reconcileIntervalMs` the fleet's gap between two checks grows to while checks find
 * nothing ended (4 minutes by default): with the events and reads that settle slots working, a check
 * is a list request spent on the rare lost one.
 */
export const RECONCILE_BACKOFF = 8;

/** Tells every process that `slots` slots may be free: the waiting holds they could reach try again. */
async function publishFreed(ctx: SlotContext, slots: number): Promise<void> {
  const message: HubMessage = { notices: [], freed: slots, receiver: false };
  await ctx.link.either(async () => void integerReply(await ctx.link.send([ctx.link.publishCommand, ctx.keys().channel, JSON.stringify(message)]), 'PUBLISH'), () => undefined);
}

/**
 * Removes `head`, the queue's head as hold `id`'s try saw it, when it is a stale entry of this
 * process (see {@link WaitingLine.stale}), and wakes the holds it kept waiting: the one behind it
 * may be another process's. Whether it did.
 */
async function dropStale(ctx: SlotContext, id: string, head: string): Promise<boolean> {
  if (head === id || !ctx.line.stale(head, ctx.processId)) return false;
  const keys = ctx.keys();
  await ctx.link.either(async () => void integerReply(await ctx.link.eval(LEAVE, [keys.queue, keys.beats, keys.slots], [head, 0]), 'LEAVE'), () => undefined);
  await publishFreed(ctx, 1);
  return true;
}

/**
 * Takes `count` slots: in the shared queue while Redis answers, in the process's own limits once it
 * does not. A `count` that is not a whole number of 1 or more is refused before any command; one
 * above `maxActive` holds `maxActive`.
 */
export async function holdSlots(ctx: SlotContext, asked: number, options: HoldOptions = {}): Promise<SlotHold> {
  const count = holdCount(asked, ctx.options.maxActive);
  const { signal, reconcile } = options;
  signal?.throwIfAborted();
  // The process's id first: a try of any process drops this hold once the process stops trying.
  const id = `${ctx.processId}.${randomUUID()}`;
  const keys = ctx.keys();
  const gate = ctx.reconciling;
  const line = ctx.line;
  let queued = false;
  let tried = false;
  let dropped: string | undefined;
  line.begin(id);
  try {
    for (;;) {
      if (ctx.link.mode === 'local') break;
      // Behind another hold of this process: no try of this one could be granted before it is.
      if (queued && !line.isFirst(id)) {
        await line.turn(id, signal);
        continue;
      }
      const now = ctx.clock().now();
      const freedBefore = ctx.hub.freedCount;
      let granted: boolean, held: number, waiting: number, place: number, head: string;
      try {
        tried = true;
        ({ granted, held, waiting, place, head } = await tryHold(ctx, id, count, signal));
      } catch (error) {
        // Aborted while Redis had not answered: the try may still run there (cleaned up below).
        if (signal?.aborted) throw signal.reason;
        ctx.link.failed(error);
        break;
      }
      queued = !granted;
      if (granted) {
        line.end(id);
        // Holds behind tried while this one stood ahead of them: each moved up a place, and any room
        // left is theirs. Told as that many "freed" (a place gained counts as a slot freed), so the
        // next in line is woken by its message, not by its timer.
        const room = Math.max(0, ctx.options.maxActive - held);
        if (waiting > 0) void publishFreed(ctx, room + 1);
        return sharedHold(ctx, id, count);
      }
      line.join(id);
      // Once per entry: a stale head that outlives its removal waits for its heartbeat as before, not in a loop of tries.
      if (head !== dropped && (await dropStale(ctx, id, head))) {
        dropped = head;
        continue;
      }
      // Redis's queue may hold this process's holds in another order than its line (Redis lost its
      // data and they queued again in another order): the one Redis serves first must be the one that tries.
      if (head !== id) line.promote(head);
      signal?.throwIfAborted();
      if (!line.isFirst(id)) continue;
      ctx.hub.start(keys.channel);
      // A clock stepped back (a wall clock set by hand) restarts the interval rather than stop the checks for that long.
      if (now < gate.last) gate.last = -Infinity;
      if (reconcile && !gate.running && !ctx.closed.aborted && now - gate.last >= reconcileEveryMs(ctx) && (await reconcileTurn(ctx, signal))) {
        // In the background: the hold keeps its turn, its heartbeats and its abort while the service
        // answers; the slots it frees wake the holds they could reach, this one included.
        gate.last = now;
        gate.running = true;
        void reconcileHeld(ctx, reconcile).finally(() => (gate.running = false));
      }
      // Woken by freed slots only when they could reach this far down the queue: the rest wait for
      // the retry time, so a slot freed does not send every waiting hold of the fleet to Redis.
      const room = Math.max(0, ctx.options.maxActive - held);
      const reaches = () => ctx.hub.freedCount - freedBefore + room > place;
      if (!(ctx.hub.freedCount !== freedBefore && reaches())) await waitForFreed(ctx, signal, reaches, reconcile ? lookEveryMs(ctx) : RETRY_MS);
    }
  } catch (error) {
    line.end(id);
    // Not awaited: an abort ends the hold at once, however stalled Redis is. A try that ran after
    // all leaves no queue entry and no pending slot behind.
    if (tried) void ctx.link.eval(LEAVE, [keys.queue, keys.beats, keys.slots], [id, count]).catch(() => undefined);
    throw error;
  }
  // Redis is down: the queued entry goes once it answers again; the next in line finds the link local too.
  line.end(id);
  if (tried) ctx.abandon(id, count);
  // On local limits until Redis answers again; a hold still waiting then queues in Redis again.
  const back = ctx.link.back;
  const either = signal && eitherSignal(signal, back);
  let pending: LocalPending;
  try {
    pending = await ctx.local.hold(count, either?.signal ?? back);
  } catch (error) {
    if (back.aborted && !signal?.aborted) return holdSlots(ctx, asked, options);
    throw error;
  } finally {
    either?.stop();
  }
  return localHold(ctx, pending);
}

/** One try of hold `id` in Redis's queue: granted, or its place; the queue's head; the epoch told to the coordinator. */
async function tryHold(ctx: SlotContext, id: string, count: number, signal: AbortSignal | undefined): Promise<{ granted: boolean; held: number; waiting: number; place: number; head: string }> {
  const keys = ctx.keys();
  const args = [fleetNowArg(ctx.clock()), id, count, ctx.options.maxActive, WAITER_TTL_MS, ctx.options.pendingHoldTtlMs, randomUUID(), keys.channel, ctx.link.publishCommand, ctx.processId, ALIVE_TTL_MS, ...renewed(ctx.line, id)];
  const reply = arrayReply(await ctx.link.eval(HOLD, [keys.slots, keys.queue, keys.beats, keys.seq, keys.epoch, keys.alive], args, signal), 'HOLD', 5);
  const [epoch, head = ''] = stringsReply(reply.slice(4), 'HOLD');
  ctx.sawEpoch(epoch!);
  return { granted: integerReply(reply[0], 'HOLD', 0, 1) === 1, held: integerReply(reply[1], 'HOLD'), waiting: integerReply(reply[2], 'HOLD'), place: integerReply(reply[3], 'HOLD'), head };
}

/** The holds behind `id` whose heartbeats its try renews: only the first's tries do. */
const renewed = (line: WaitingLine, id: string): string[] => line.behind(id).slice(0, MAX_RENEWED);

/**
 * Sleeps on the client's clock until slots are freed (a message on the channel), `retryMs` passes
 * (the retry time, or sooner for a hold that follows the check of held slots), or `signal` aborts;
 * and at most {@link ALIVE_REFRESH_MS} of real time: the next try keeps this process alive in the
 * queue and drops a dead process's holds ahead of it.
 */
async function waitForFreed(ctx: SlotContext, signal: AbortSignal | undefined, reaches: () => boolean, retryMs: number): Promise<void> {
  const woken = new AbortController();
  const stop = ctx.hub.onFreed((interrupted) => {
    if (interrupted || reaches()) woken.abort();
  });
  const heartbeat = setTimeout(() => woken.abort(), ALIVE_REFRESH_MS);
  heartbeat.unref?.();
  const either = signal && eitherSignal(signal, woken.signal);
  try {
    await ctx.clock().sleep(retryMs, either?.signal ?? woken.signal);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (!woken.signal.aborted) throw error;
  } finally {
    either?.stop();
    clearTimeout(heartbeat);
    stop();
  }
}

/** Whether this process checks held tasks this interval: one process of the fleet does (a key set NX). */
async function reconcileTurn(ctx: SlotContext, signal: AbortSignal | undefined): Promise<boolean> {
  return ctx.link.either(
    async () => integerReply(await ctx.link.eval(RECONCILE_TURN, [ctx.keys().reconciled, ctx.keys().reconcileGap], [fleetNowArg(ctx.clock()), reconcileEveryMs(ctx), RECONCILE_BACKOFF], signal), 'RECONCILE_TURN', 0, 1) === 1,
    () => false,
    signal,
  );
}

/**
 * Asks the client which held tasks are final (at most {@link MAX_RECONCILED}, a random sample when
 * more are held, so every held task is checked in time) and settles those; tells the fleet what it
 * found, which sets the gap to the next check (see {@link RECONCILE_BACKOFF}). Never rejects: a
 * service that does not answer leaves the slots for the next turn.
 */
async function reconcileHeld(ctx: SlotContext, reconcile: NonNullable<HoldOptions['reconcile']>): Promise<void> {
  let held: string[];
  try {
    const members = stringsReply(await ctx.link.send(['ZRANGEBYSCORE', ctx.keys().slots, '+inf', '+inf']), 'ZRANGEBYSCORE');
    held = sample(members.filter((m) => m.startsWith('t:')).map((m) => m.slice(2)), MAX_RECONCILED);
  } catch (error) {
    ctx.link.failed(error);
    return;
  }
  let found = false;
  if (held.length > 0) {
    try {
      const final = await reconcile(held, ctx.closed);
      found = final.length > 0;
      if (found) await ctx.settle(final.map((taskId) => ({ taskId })));
    } catch {
      // The service did not answer (or the coordinator closed): the next turn asks again, as soon.
      return;
    }
  }
  if (ctx.closed.aborted) return;
  const gapKey = ctx.keys().reconcileGap;
  await ctx.link.either(async () => void (await ctx.link.eval(RECONCILED, [gapKey], [found ? 1 : 0, reconcileEveryMs(ctx), RECONCILE_BACKOFF])), () => undefined);
}

/** `n` items of `items` picked at random (all of them, in order, when there are no more). */
function sample<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(Math.random() * (items.length - i));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items.slice(0, n);
}

function sharedHold(ctx: SlotContext, id: string, count: number): SlotHold {
  let done = false;
  const keys = ctx.keys();
  const renewOnce = () =>
    ctx.link.either(async () => void (await ctx.link.eval(RENEW, [keys.slots], [fleetNowArg(ctx.clock()), ctx.options.pendingHoldTtlMs, id, count])), () => undefined);
  // While the start waits for its turn in the request budget and retries, its slots stay taken: a
  // pending slot expires only `pendingHoldTtlMs` after its process stopped renewing it (it died), or
  // after the start ended without an answer (abandon).
  const stopTimer = every(ctx.clock(), renewEveryMs(ctx.options.pendingHoldTtlMs), () => void renewOnce());
  const stopRenewing = () => {
    stopTimer();
    ctx.renewals.delete(stopRenewing);
  };
  ctx.renewals.add(stopRenewing);
  const finish = async (given: readonly string[]): Promise<void> => {
    stopRenewing();
    if (done) return;
    done = true;
    // A task named twice (a hostile answer) holds one slot: the other goes back.
    const taskIds = [...new Set(given)].slice(0, count);
    ctx.own(taskIds, false);
    await ctx.link.either(async () => {
      const givenBack = integerReply(await ctx.link.eval(BIND, [keys.slots], [id, count, ...taskIds]), 'BIND', 0, count);
      if (givenBack > 0) await publishFreed(ctx, givenBack);
    }, () => undefined);
  };
  const abandon = async (): Promise<void> => {
    stopRenewing();
    if (done) return;
    done = true;
    // Its time to live counts from now: the service may yet show the task it started.
    await renewOnce();
  };
  return { count, bind: finish, release: () => finish([]), abandon };
}

function localHold(ctx: SlotContext, pending: LocalPending): SlotHold {
  const count = pending.count;
  let done = false;
  const finish = (given: readonly string[]): Promise<void> => {
    if (!done) {
      const taskIds = [...new Set(given)].slice(0, count);
      ctx.local.bind(pending, taskIds);
      ctx.own(taskIds, true);
    }
    done = true;
    return Promise.resolve();
  };
  const abandon = (): Promise<void> => {
    if (!done) ctx.local.abandon(pending);
    done = true;
    return Promise.resolve();
  };
  return { count, bind: finish, release: () => finish([]), abandon };
}
