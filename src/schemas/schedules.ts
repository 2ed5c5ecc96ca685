/**
 * Schedules (repeated forecasts) and watches (automatic reruns when the news moves the picture).
 * @module
 */
import * as z from 'zod/mini';
import { MIN_SCHEDULE_INTERVAL_HOURS } from '../api/limits.js';
import { CursorPageParams, exact, rule } from './common.js';

// Date.parse rather than z.iso.datetime: the ISO regexes would cost more bundle bytes than they buy.
/** An ISO 8601 timestamp (checked with `Date.parse`). */
export const IsoTime = z.string().check(rule((s: string) => !Number.isNaN(Date.parse(s)), '', 'must be an ISO 8601 timestamp'));

/**
 * Body of `PUT /questions/{question_id}/schedule`: every `intervalCount` `intervalUnit`, no faster
 * than every 3 hours, from `startAt` (default now) to `endAt`, at most 50 forecasts.
 * @example
 * ```ts
 * await client.questions.schedule.update(questionId, { intervalCount: 1, intervalUnit: 'days' });
 * ```
 */
export const ScheduleParams = exact({
  /** How many `intervalUnit`s between forecasts. */
  intervalCount: z.int().check(z.minimum(1)),
  /** `hours` (at least 3), `days` or `months`. */
  intervalUnit: z.enum(['hours', 'days', 'months']),
  /** When the first forecast is due (default now). */
  startAt: z.optional(IsoTime),
  /** When the schedule ends. */
  endAt: z.optional(z.nullable(IsoTime)),
  /** The preset every forecast it starts uses (`none` for none). */
  presetId: z.optional(z.nullable(z.string())),
}).check(
  rule(
    (s: { intervalUnit: string; intervalCount: number }) => s.intervalUnit !== 'hours' || s.intervalCount >= MIN_SCHEDULE_INTERVAL_HOURS,
    'intervalCount',
    `must be at least ${MIN_SCHEDULE_INTERVAL_HOURS} hours: a schedule runs no faster than every ${MIN_SCHEDULE_INTERVAL_HOURS} hours`,
  ),
  rule((s: { startAt?: string; endAt?: string | null }) => !s.startAt || !s.endAt || Date.parse(s.endAt) > Date.parse(s.startAt), 'endAt', 'must be after startAt'),
);
/**
 * Body of `PUT /questions/{question_id}/schedule`: sending it again replaces the schedule.
 * @example
 * ```ts
 * await client.questions.schedule.update(questionId, { intervalCount: 1, intervalUnit: 'days', endAt: '2027-06-01T00:00:00.000Z' });
 * ```
 */
export interface ScheduleParams extends z.input<typeof ScheduleParams> {}

/**
 * Body of `PUT /questions/{question_id}/watch`: a forecast starts when the news moves the picture by
 * more than `changeThreshold`, in the question's own units.
 * @example
 * ```ts
 * await client.questions.watch.update(questionId, { enabled: true, changeThreshold: 0.1 });
 * ```
 */
export const WatchParams = exact({
  /** Whether the watch is on. */
  enabled: z.boolean(),
  /** How far the news must move the picture, in the question's own units. */
  changeThreshold: z.optional(z.number().check(z.minimum(0))),
  /** The preset every forecast it starts uses (`none` for none). */
  presetId: z.optional(z.nullable(z.string())),
});
/**
 * Body of `PUT /questions/{question_id}/watch`.
 * @example
 * ```ts
 * await client.questions.watch.update(questionId, { enabled: true, changeThreshold: 0.1 });
 * ```
 */
export interface WatchParams extends z.input<typeof WatchParams> {}

/** Query of `GET /schedules` and `GET /watches`: filters beyond paging are not shown in the spec. */
export const AutomationListParams = exact({ ...CursorPageParams });
/**
 * Query of `GET /schedules` and `GET /watches`: paging.
 * @example
 * ```ts
 * for await (const schedule of client.schedules.list({ limit: 50 })) console.log(schedule.questionId, schedule.nextDueAt);
 * ```
 */
export interface AutomationListParams extends z.input<typeof AutomationListParams> {}
