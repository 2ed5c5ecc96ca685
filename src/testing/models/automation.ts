/**
 * Schedules and watches of the mock: a schedule starts a forecast at each due time on the clock (with
 * its `presetId`), counting `occurrenceCount` up to 50 and moving `nextDueAt`; a watch starts one
 * when the news moves the picture by more than `changeThreshold` (news is simulated by a test hook).
 * @module
 */
import type { MockEnv } from '../env.js';
import { MAX_SCHEDULE_OCCURRENCES } from '../../api/limits.js';
import type { ScheduleParams } from '../../schemas/schedules.js';
import type { Schedule, Watch } from '../../schemas/records/schedules.js';
import type { ScheduledCallback } from '../clock.js';
import { MockHttpError } from '../http.js';
import { collectionKey, type ForecastRecord, type Ownership } from '../store.js';
import { chargeForecast } from './credits.js';
import { startForecast } from './forecasts/task.js';

/** A question's schedule (`id` is the question id). */
export interface ScheduleRecord extends Ownership {
  id: string;
  questionId: string;
  intervalCount: number;
  intervalUnit: string;
  startAt: string;
  endAt: string | null;
  presetId: string | null;
  nextDueAt: string | null;
  occurrenceCount: number;
  createdAt: string;
  updatedAt: string;
  timer: ScheduledCallback | null;
}
export const SCHEDULES = collectionKey<ScheduleRecord>('schedules');

/** A question's watch (`id` is the question id). */
export interface WatchRecord extends Ownership {
  id: string;
  questionId: string;
  enabled: boolean;
  changeThreshold: number | null;
  presetId: string | null;
  createdAt: string;
  updatedAt: string;
  /** The next month's fee, due on the clock while the watch is on. */
  billing: ScheduledCallback | null;
}
export const WATCHES = collectionKey<WatchRecord>('watches');

/** What a watch's update sets (the rest is kept). */
export interface WatchParams {
  enabled: boolean;
  changeThreshold?: number | null | undefined;
  presetId?: string | null | undefined;
}

/** The monthly fee of monitoring a question. */
const WATCH_FEE = 'monitoring.question_month';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** `ms` plus a month by the calendar, in UTC: when a watch's next monthly fee is due. */
function nextMonth(ms: number): number {
  const d = new Date(ms);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.getTime();
}

/**
 * The `n`th time of a cadence from `start`: months by the calendar in UTC, a day past a month's end
 * on its last (from Jan 31: Feb 28, Mar 31, Apr 30), each counted from `start`, not from the time before.
 */
function timeAt(start: number, n: number, count: number, unit: string): number {
  if (unit !== 'months') return start + n * count * (unit === 'hours' ? HOUR : 24 * HOUR);
  const d = new Date(start);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + n * count);
  // Day 0 of the month after is the last of this one.
  d.setUTCDate(Math.min(day, new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate()));
  return d.getTime();
}

/**
 * The time due after `after` (the time just due): the first of the cadence from `start` after both
 * it and `now`, so that the times missed (a `startAt` years back, a timer run late) are skipped, as
 * the service skips one it cannot start, rather than replayed at once, each in turn; `undefined`
 * past the dates a `Date` holds (a huge `intervalCount`), which ends the schedule.
 */
function nextDue(start: number, after: number, now: number, count: number, unit: string): number | undefined {
  const since = Math.max(after, now);
  // Steps counted at their longest (a month of 31 days), so that a guess never passes the time sought.
  const longest = (unit === 'hours' ? HOUR : 24 * HOUR) * (unit === 'months' ? 31 : 1) * count;
  let n = 1;
  for (let t = timeAt(start, n, count, unit); t <= since; t = timeAt(start, n, count, unit)) n += Math.max(1, Math.floor((since - t) / longest));
  const next = timeAt(start, n, count, unit);
  return Number.isNaN(new Date(next).getTime()) ? undefined : next;
}

/** Creates or replaces the schedule of a question; the first forecast is due at `startAt` (default now). */
export function putSchedule(env: MockEnv, owner: Ownership, questionId: string, p: ScheduleParams): ScheduleRecord {
  const schedules = env.store.collection(SCHEDULES);
  const old = schedules.get(questionId);
  old?.timer?.cancel();
  if (old) schedules.delete(questionId);
  const now = iso(env.clock.now());
  const startAt = p.startAt ? iso(Date.parse(p.startAt)) : now;
  const endAt = p.endAt ? iso(Date.parse(p.endAt)) : null;
  const record = schedules.insert({
    id: questionId,
    questionId,
    ...owner,
    intervalCount: p.intervalCount,
    intervalUnit: p.intervalUnit,
    startAt,
    endAt,
    presetId: p.presetId ?? null,
    // An `endAt` already past (`startAt` left to its default, now, or before it: the params check
    // compares the two only when both are given) leaves nothing due, rather than one charged forecast.
    nextDueAt: endAt !== null && Math.max(Date.parse(startAt), env.clock.now()) > Date.parse(endAt) ? null : startAt,
    occurrenceCount: 0,
    createdAt: old?.createdAt ?? now,
    updatedAt: now,
    timer: null,
  });
  arm(env, record);
  return record;
}

/** Deletes a schedule; a forecast it started keeps running. */
export function deleteSchedule(env: MockEnv, questionId: string): boolean {
  const schedules = env.store.collection(SCHEDULES);
  schedules.get(questionId)?.timer?.cancel();
  return schedules.delete(questionId);
}

function arm(env: MockEnv, s: ScheduleRecord): void {
  s.timer = s.nextDueAt === null ? null : env.clock.schedule(Date.parse(s.nextDueAt), () => due(env, s.id));
}

/** A due time: start a forecast (skipped when one is running or credits are short), then move on. */
function due(env: MockEnv, id: string): void {
  const s = env.store.collection(SCHEDULES).get(id);
  const question = env.store.questions.get(id);
  if (!s || s.nextDueAt === null) return;
  if (question) {
    const started = tryStart(env, s, question, 'schedule', s.presetId);
    if (started) s.occurrenceCount++;
  }
  const next = nextDue(Date.parse(s.startAt), Date.parse(s.nextDueAt), env.clock.now(), s.intervalCount, s.intervalUnit);
  const ended = next === undefined || s.occurrenceCount >= MAX_SCHEDULE_OCCURRENCES || (s.endAt != null && next > Date.parse(s.endAt));
  s.nextDueAt = ended ? null : iso(next);
  arm(env, s);
}

function tryStart(
  env: MockEnv,
  owner: Ownership,
  question: NonNullable<ReturnType<MockEnv['store']['questions']['get']>>,
  startedBy: 'schedule' | 'watch',
  presetId: string | null | undefined,
): ForecastRecord | null {
  try {
    return startForecast(env, { question, ownerId: owner.ownerId, organizationId: owner.organizationId, presetId, startedBy });
  } catch (err) {
    // The service skips the occurrence rather than failing: a forecast is running, or credits are short.
    if (err instanceof MockHttpError) return null;
    throw err;
  }
}

/**
 * News moved a watched question by `shift` (in its own units): starts a forecast when the watch is
 * enabled and `|shift|` exceeds its `changeThreshold`. Returns the started task, or `null`.
 */
export function newsMoved(env: MockEnv, questionId: string, shift: number): ForecastRecord | null {
  const w = env.store.collection(WATCHES).get(questionId);
  const question = env.store.questions.get(questionId);
  if (!w || !w.enabled || !question || Math.abs(shift) <= (w.changeThreshold ?? 0)) return null;
  return tryStart(env, w, question, 'watch', w.presetId);
}

/**
 * Creates or replaces a question's watch. Switching it on charges the month's fee at once (a 409, and
 * no change, when credits are short), then again each month by the calendar while it stays on.
 */
export function putWatch(env: MockEnv, owner: Ownership, questionId: string, p: WatchParams): WatchRecord {
  const watches = env.store.collection(WATCHES);
  const old = watches.get(questionId);
  const switchedOn = p.enabled && !old?.enabled;
  if (switchedOn) chargeForecast(env.store, owner.organizationId, WATCH_FEE);
  if (old) watches.delete(questionId);
  if (!p.enabled) old?.billing?.cancel();
  const now = env.clock.now();
  const record = watches.insert({
    id: questionId,
    questionId,
    ...owner,
    enabled: p.enabled,
    changeThreshold: p.changeThreshold ?? old?.changeThreshold ?? null,
    presetId: p.presetId === undefined ? (old?.presetId ?? null) : p.presetId,
    createdAt: old?.createdAt ?? iso(now),
    updatedAt: iso(now),
    billing: p.enabled ? (old?.billing ?? null) : null,
  });
  if (switchedOn) record.billing = billMonthly(env, questionId, nextMonth(now));
  return record;
}

/** Deletes a question's watch (and its coming fees). */
export function deleteWatch(env: MockEnv, questionId: string): boolean {
  const watches = env.store.collection(WATCHES);
  watches.get(questionId)?.billing?.cancel();
  return watches.delete(questionId);
}

/**
 * The fee of the watch of `questionId` falls due at `at`: charged, and the next month's armed, while
 * the question has a watch that is on (an update replaces the record, the fees go on); credits short
 * switch the watch off.
 */
function billMonthly(env: MockEnv, questionId: string, at: number): ScheduledCallback {
  return env.clock.schedule(at, () => {
    const w = env.store.collection(WATCHES).get(questionId);
    if (!w?.enabled) return;
    try {
      chargeForecast(env.store, w.organizationId, WATCH_FEE);
      w.billing = billMonthly(env, questionId, nextMonth(at));
    } catch (err) {
      if (!(err instanceof MockHttpError)) throw err;
      w.enabled = false;
      w.billing = null;
      w.updatedAt = iso(env.clock.now());
    }
  });
}

/** The schedule as a read shows it. */
export function scheduleView({ timer: _t, ownerId: _o, organizationId: _g, id: _i, ...rest }: ScheduleRecord): Schedule {
  return { ...rest, intervalUnit: rest.intervalUnit as Schedule['intervalUnit'] };
}

/** The watch as a read shows it. */
export function watchView({ billing: _b, ownerId: _o, organizationId: _g, id: _i, ...rest }: WatchRecord): Watch {
  return rest;
}
