/**
 * The shared sliding windows (requests, model calls, drafting, chat messages, webhook tests) on Redis: a take, its place reserved for later
 * when the window is full, and the in-flight requests kept counted until their attempt ends.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { eitherSignal, whenAborted } from '../core/abort.js';
import { serviceMinuteMs, type ClientClock } from '../core/clock.js';
import type { CoordinatedWindow, WindowEnd } from '../core/coordination.js';
import { every } from './every.js';
import type { CoordinatorKeys } from './keys.js';
import { integerReply, type RedisLink } from './link.js';
import type { LocalLimits } from './local.js';
import { WINDOW_LIMITS, type ResolvedOptions } from './options.js';
import { TAKE, TOUCH } from './scripts.js';
import { fleetNowArg } from './time.js';

/** Most in-flight entries one take moves (a bound on the script's arguments). */
const MAX_BUMPED = 500;
/** Most times a take checks a reserved place again (each check waits out a new one); then it goes. */
const MAX_TAKE_CHECKS = 10;
/** The longest an attempt counts as in flight without its end told. */
const MAX_FLIGHT_MS = 10 * 60_000;
/**
 * The longest wait a take can be given: a day of reservations ahead (at the service's pace: 1,440
 * windows, when a minute of the service is longer on the clock) is no answer but a broken window.
 */
const MAX_TAKE_WAIT_MS = 24 * 60 * 60_000;
const MAX_TAKE_WINDOWS = 1_440;
/** This process's requests sent and not yet ended (member → its window's key and when it was last counted). @internal */
export type InFlight = Map<string, { key: string; counted: number; since: number }>;

/** What a take needs of its coordinator. @internal */
export interface WindowContext {
  link: RedisLink;
  local: LocalLimits;
  options: ResolvedOptions;
  clock(): ClientClock;
  keys(): CoordinatorKeys;
  inFlight: InFlight;
  /** This process's moves of ended requests still on their way: its next take waits for them, so it counts them where they moved. */
  touches: Set<Promise<void>>;
  /** Stops the timer that keeps this process's requests in flight counted while it takes nothing else. */
  refresh: { stop: (() => void) | undefined };
}


/**
 * How often an entry in flight moves to now: a third of the time it stays counted (a minute of the
 * service's time on the client's clock, and the margin). A third of the minute alone was under a
 * millisecond on a clock whose service runs a billion times faster: every request in flight was
 * moved on each 1 ms tick, hundreds of scripts a second each.
 */
const refreshMs = (ctx: WindowContext): number => (serviceMinuteMs(ctx.clock()) + ctx.options.windowMarginMs) / 3;

/**
 * Keeps this process's requests in flight counted however long they take, even when it takes no
 * other place meanwhile (a take moves them too): every {@link refreshMs}, those counted that long
 * ago move to now. Stops once none is in flight.
 */
function keepCounted(ctx: WindowContext): void {
  if (ctx.refresh.stop !== undefined) return;
  const stop = (ctx.refresh.stop = every(ctx.clock(), refreshMs(ctx), () => {
    if (ctx.inFlight.size === 0) {
      stop();
      ctx.refresh.stop = undefined;
      return;
    }
    for (const key of new Set([...ctx.inFlight.values()].map((flight) => flight.key))) {
      for (const member of stillInFlight(ctx, key, ctx.clock().now())) {
        void ctx.link.either(async () => void (await ctx.link.eval(TOUCH, [key], [fleetNowArg(ctx.clock()), member])), () => undefined);
      }
    }
  }));
}

/** Takes a place in `window`: shared while Redis answers, the process's own while it does not. @internal */
export async function takeWindow(ctx: WindowContext, window: CoordinatedWindow, signal?: AbortSignal): Promise<WindowEnd | void> {
  const limit = ctx.options[WINDOW_LIMITS[window]];
  const key = ctx.keys()[window];
  const margin = ctx.options.windowMarginMs;
  signal?.throwIfAborted();
  const member = randomUUID();
  // A place reserved for later is taken again when it comes due: the entries it waited for may
  // have moved later meanwhile (answers that came late). Each waiter wakes at its own time: no herd.
  let at = ctx.clock().now();
  // Waited for, but never past an abort: a stalled Redis holds the touches up to commandTimeoutMs.
  if (ctx.touches.size > 0) await abortable(Promise.all(ctx.touches), signal);
  for (let check = 0; check < MAX_TAKE_CHECKS; check++) {
    const late = stillInFlight(ctx, key, at);
    // A wait is at most the window's length in entries ahead (each a minute and a margin later): any other reply is no wait.
    let wait: number | undefined;
    const windowMs = serviceMinuteMs(ctx.clock());
    const maxWait = Math.max(MAX_TAKE_WAIT_MS, MAX_TAKE_WINDOWS * (windowMs + margin));
    const sent = fleetNowArg(ctx.clock());
    try {
      wait = await ctx.link.either(
        async () => integerReply(await ctx.link.eval(TAKE, [key], [sent, limit, windowMs, margin, member, ...late], signal), 'TAKE', 0, maxWait),
        () => undefined,
        signal,
      );
    } catch (err) {
      // Aborted while Redis had not answered (stalled, or slow): the take may still run there.
      void giveBack(ctx, key, member);
      throw err;
    }
    if (wait === undefined) return takeLocally(ctx, window, signal);
    if (wait === 0) break;
    // A simulated clock's wait counts from the `now` sent: time it moved while Redis held the script
    // is part of the wait (and a step back adds to it, up to the longest wait). On Redis's own time
    // the script ran somewhere in the round trip: the whole wait. Either way a take never asks again
    // before its place comes due: it would lose it to the back of the line.
    const left = sent === '' ? wait : Math.min(maxWait, wait - (ctx.clock().now() - sent));
    try {
      if (left > 0) await ctx.clock().sleep(left, signal);
    } catch (err) {
      // Aborted: the reserved place goes back to the others, without waiting for a stalled Redis.
      void giveBack(ctx, key, member);
      throw err;
    }
    at = ctx.clock().now();
  }
  // Counted at its place, but the request leaves now, and the service counts it when it arrives, by
  // the end of the attempt at the latest: when either is late (a busy Redis or event loop, a burst
  // of takers), the entry moves there, so it stays in the window as long as the service's count does.
  const flight = { key, counted: at, since: at };
  const moveLate = async (): Promise<void> => {
    const now = ctx.clock().now();
    // A clock stepped back moves the entry too: it would otherwise stay where it was counted that long.
    if (now >= flight.counted && now - flight.counted <= margin / 2) return;
    flight.counted = now;
    await ctx.link.either(async () => void (await ctx.link.eval(TOUCH, [key], [fleetNowArg(ctx.clock()), member])), () => undefined);
  };
  await moveLate();
  // Until it ends, this process keeps the entry counted (an attempt may outlast a minute).
  ctx.inFlight.set(member, flight);
  keepCounted(ctx);
  return () => {
    ctx.inFlight.delete(member);
    const touch = moveLate().finally(() => ctx.touches.delete(touch));
    ctx.touches.add(touch);
  };
}

/** `promise`, or the signal's reason as soon as it aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const stop = whenAborted(signal, () => reject(signal.reason));
    promise.then(resolve, reject).finally(stop);
  });
}

/** Removes a take's entry (an aborted take): its place goes back to the others. */
const giveBack = (ctx: WindowContext, key: string, member: string): Promise<void> => ctx.link.either(async () => void (await ctx.link.send(['ZREM', key, member], { route: key })), () => undefined);

/** This process's requests on `key` still in flight and counted over {@link refreshMs} ago: moved to `now` by the next take. */
function stillInFlight(ctx: WindowContext, key: string, now: number): string[] {
  const late: string[] = [];
  const refresh = refreshMs(ctx);
  for (const [member, flight] of ctx.inFlight) {
    // An end never told (a take used without its hook, an attempt lost): kept counted ten minutes at most.
    // A clock stepped back counts from now (the entry would otherwise not move for that long).
    if (now < flight.since) flight.since = now;
    if (now < flight.counted) flight.counted = -Infinity;
    if (now - flight.since > MAX_FLIGHT_MS) {
      ctx.inFlight.delete(member);
      continue;
    }
    if (flight.key !== key || now - flight.counted < refresh) continue;
    flight.counted = now;
    late.push(member);
    if (late.length >= MAX_BUMPED) break;
  }
  return late;
}

/**
 * A take on the process's own window while Redis is out; when Redis answers again before its turn
 * comes, it takes from the shared window instead (the local one may have filled in a burst).
 */
async function takeLocally(ctx: WindowContext, window: CoordinatedWindow, signal: AbortSignal | undefined): Promise<WindowEnd | void> {
  const back = ctx.link.back;
  const either = signal && eitherSignal(signal, back);
  try {
    await ctx.local.take(window, either?.signal ?? back);
  } catch (err) {
    if (back.aborted && !signal?.aborted) return takeWindow(ctx, window, signal);
    throw err;
  } finally {
    either?.stop();
  }
}
