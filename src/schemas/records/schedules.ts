/**
 * Schedules and watches as the service shows them. The schemas load only with `validateResponses`.
 * @module
 */
import * as z from 'zod/mini';
import { Timestamp, exact, openString } from '../common.js';

export const Schedule = exact({
  /** Read when present. */
  questionId: z.optional(z.string()),
  intervalCount: z.int(),
  intervalUnit: openString<'hours' | 'days' | 'months'>(),
  startAt: z.optional(Timestamp),
  endAt: z.optional(z.nullable(Timestamp)),
  presetId: z.optional(z.nullable(z.string())),
  /** When the next forecast is due; null once the schedule has ended. */
  nextDueAt: z.nullable(Timestamp),
  /** How many forecasts it has started. */
  occurrenceCount: z.int(),
  /** Not shown in the spec; read when present (the mock sends it). */
  createdAt: z.optional(Timestamp),
  /** Not shown in the spec; read when present (the mock sends it). */
  updatedAt: z.optional(Timestamp),
});
/**
 * A schedule as read. Not shown in the spec beyond the request fields, `nextDueAt` and
 * `occurrenceCount`; `questionId`, `createdAt` and `updatedAt` are read when present.
 * @example
 * ```ts
 * const schedule: Schedule = await client.questions.schedule.retrieve(questionId);
 * console.log(schedule.nextDueAt, schedule.occurrenceCount);
 * ```
 */
export interface Schedule extends z.output<typeof Schedule> {}

export const Watch = exact({
  /** Read when present. */
  questionId: z.optional(z.string()),
  enabled: z.boolean(),
  /** In the question's own units. */
  changeThreshold: z.optional(z.nullable(z.number())),
  presetId: z.optional(z.nullable(z.string())),
  /** Not shown in the spec; read when present (the mock sends it). */
  createdAt: z.optional(Timestamp),
  /** Not shown in the spec; read when present (the mock sends it). */
  updatedAt: z.optional(Timestamp),
});
/**
 * A watch as read. Not shown in the spec beyond the request fields; `questionId`, `createdAt` and
 * `updatedAt` are read when present.
 * @example
 * ```ts
 * const watch: Watch = await client.questions.watch.retrieve(questionId);
 * console.log(watch.enabled, watch.changeThreshold);
 * ```
 */
export interface Watch extends z.output<typeof Watch> {}
