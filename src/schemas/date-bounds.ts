/**
 * Date bounds: whole Unix seconds, a `Date` taken too (checked, then sent as seconds), and a number
 * that can only be milliseconds refused. Shared by the question schemas and the batch items.
 * @module
 */
import * as z from 'zod/mini';
import { isRecord } from '../core/text.js';

/**
 * The smallest size of a date bound that is refused as milliseconds: 1e11 seconds is the year 5138,
 * past any plausible date, while every date since March 1973 in milliseconds is above it. Date bounds
 * are whole Unix seconds; `Date.UTC()`, `Date.now()` and `getTime()` give milliseconds.
 */
export const DATE_BOUND_MILLISECONDS_FROM = 1e11;

/** Why a date bound of `DATE_BOUND_MILLISECONDS_FROM` or more is refused. */
export const MILLISECONDS_BOUND = 'looks like milliseconds; date bounds are Unix seconds (divide by 1000, or pass a Date)';

/** Whether a number given as a date bound can only be milliseconds (see {@link DATE_BOUND_MILLISECONDS_FROM}). */
export function looksLikeMilliseconds(value: unknown): boolean {
  return typeof value === 'number' && Math.abs(value) >= DATE_BOUND_MILLISECONDS_FROM;
}

/**
 * Why a `Date` given as a bound is refused: invalid (it would be sent as `null`), or further from 1970
 * than a date bound may be (1e11 seconds: the years -1199 to 5138), which as seconds would be taken
 * for milliseconds.
 */
function dateProblem(value: Date): string | undefined {
  const s = value.getTime() / 1000;
  if (Number.isNaN(s)) return 'is an invalid Date';
  return Math.abs(s) >= DATE_BOUND_MILLISECONDS_FROM ? 'must be a Date between the years -1199 and 5138' : undefined;
}
const dateIssue = (ctx: z.core.$RefinementCtx<unknown>, value: unknown, path: string[] = []) => {
  const problem = value instanceof Date ? dateProblem(value) : undefined;
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path, input: value });
};
/** A `Date` as whole Unix seconds (rounded down); anything else as it is. */
const toSeconds = (value: unknown) => (value instanceof Date ? Math.floor(value.getTime() / 1000) : value);
/**
 * A `Date` given as a bound, invalid ones included (`dateProblem` names those). No JSON value is one:
 * the OpenAPI document leaves it out, and shows the seconds sent. @internal
 */
export const DateGiven = z.custom<Date>((value) => value instanceof Date);
/** A bound that may be given as a `Date` (checked, then sent as seconds), checked as `schema` otherwise. */
export const orDate = <S extends z.ZodMiniType<number>>(schema: S) =>
  z.union([schema, DateGiven]).check(z.superRefine((value, ctx) => dateIssue(ctx, value)), z.overwrite(toSeconds)) as unknown as z.ZodMiniType<number, number | Date>;

const BOUNDS = ['lowerBound', 'upperBound'] as const;

/**
 * An inline question of a batch item, which the service checks item by item: its `Date` bounds are
 * checked and converted as everywhere; anything else (a question that is no object, too) is sent as
 * it is, for the service to reject that item alone. @internal
 */
export const BatchQuestionBounds = z.unknown().check(
  z.superRefine((question, ctx) => {
    if (isRecord(question)) for (const bound of BOUNDS) dateIssue(ctx, question[bound], [bound]);
  }),
  z.overwrite((question) => {
    if (!isRecord(question)) return question;
    const out = { ...question };
    for (const bound of BOUNDS) if (bound in question) out[bound] = toSeconds(question[bound]);
    return out;
  }),
);
