/**
 * Schedules (repeated forecasts) and watches (automatic reruns when the news moves the picture).
 * @module
 */
import * as z from 'zod/mini';
import { MIN_SCHEDULE_INTERVAL_HOURS } from '../core/limits.js';
import { CursorPageParams, Timestamp, openString, rule } from './common.js';

// Date.parse rather than z.iso.datetime: the ISO regexes would cost more bundle bytes than they buy.
const IsoTime = z.string().check(rule((s: string) => !Number.isNaN(Date.parse(s)), '', 'must be an ISO 8601 timestamp'));

/**
 * Body of `PUT /questions/{question_id}/schedule`: every `intervalCount` `intervalUnit`, no faster
 * than every 3 hours, from `startAt` (default now) to `endAt`, at most 50 forecasts.
 * @example
 * ```ts
 * await client.questions.schedule.update(questionId, { intervalCount: 1, intervalUnit: 'days' });
 * ```
 */
export const ScheduleParams = z
  .looseObject({
    intervalCount: z.int().check(z.minimum(1)),
    intervalUnit: z.enum(['hours', 'days', 'months']),
    startAt: z.optional(IsoTime),
    endAt: z.optional(z.nullable(IsoTime)),
    presetId: z.optional(z.nullable(z.string())),
  })
  .check(
    rule(
      (s: { intervalUnit: string; intervalCount: number }) => s.intervalUnit !== 'hours' || s.intervalCount >= MIN_SCHEDULE_INTERVAL_HOURS,
      'intervalCount',
      `must be at least ${MIN_SCHEDULE_INTERVAL_HOURS} hours: a schedule runs no faster than every ${MIN_SCHEDULE_INTERVAL_HOURS} hours`,
    ),
    rule((s: { startAt?: string; endAt?: string | null }) => !s.startAt || !s.endAt || Date.parse(s.endAt) > Date.parse(s.startAt), 'endAt', 'must be after startAt'),
  );
/** Body of `PUT /questions/{question_id}/schedule`. */
export type ScheduleParams = z.input<typeof ScheduleParams>;

/**
 * A schedule as read. Not shown in the spec beyond the request fields, `nextDueAt` (null once it has
 * ended) and `occurrenceCount`; `questionId` is read when present.
 */
export const Schedule = z.looseObject({
  questionId: z.optional(z.string()),
  intervalCount: z.int(),
  intervalUnit: openString<'hours' | 'days' | 'months'>(),
  startAt: z.optional(Timestamp),
  endAt: z.optional(z.nullable(Timestamp)),
  presetId: z.optional(z.nullable(z.string())),
  nextDueAt: z.nullable(Timestamp),
  occurrenceCount: z.int(),
});
/** A schedule. */
export type Schedule = z.output<typeof Schedule>;

/**
 * Body of `PUT /questions/{question_id}/watch`: a forecast starts when the news moves the picture by
 * more than `changeThreshold`, in the question's own units.
 * @example
 * ```ts
 * await client.questions.watch.update(questionId, { enabled: true, changeThreshold: 0.1 });
 * ```
 */
export const WatchParams = z.looseObject({
  enabled: z.boolean(),
  changeThreshold: z.optional(z.number().check(z.minimum(0))),
  presetId: z.optional(z.nullable(z.string())),
});
/** Body of `PUT /questions/{question_id}/watch`. */
export type WatchParams = z.input<typeof WatchParams>;

/** A watch as read. Not shown in the spec beyond the request fields; `questionId` is read when present. */
export const Watch = z.looseObject({
  questionId: z.optional(z.string()),
  enabled: z.boolean(),
  changeThreshold: z.optional(z.nullable(z.number())),
  presetId: z.optional(z.nullable(z.string())),
});
/** A watch. */
export type Watch = z.output<typeof Watch>;

/** Query of `GET /schedules` and `GET /watches`: filters beyond paging are not shown in the spec. */
export const AutomationListParams = z.looseObject({ ...CursorPageParams });
/** Query of `GET /schedules` and `GET /watches`. */
export type AutomationListParams = z.input<typeof AutomationListParams>;
