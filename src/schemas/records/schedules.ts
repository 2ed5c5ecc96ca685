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
});
/**
 * A schedule as read. Not shown in the spec beyond the request fields, `nextDueAt` and
 * `occurrenceCount`; `questionId` is read when present.
 */
export interface Schedule extends z.output<typeof Schedule> {}

export const Watch = exact({
  /** Read when present. */
  questionId: z.optional(z.string()),
  enabled: z.boolean(),
  /** In the question's own units. */
  changeThreshold: z.optional(z.nullable(z.number())),
  presetId: z.optional(z.nullable(z.string())),
});
/** A watch as read. Not shown in the spec beyond the request fields; `questionId` is read when present. */
export interface Watch extends z.output<typeof Watch> {}
