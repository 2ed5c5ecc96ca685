/**
 * The Account group: the organization's credits record.
 * @module
 */
import * as z from 'zod/mini';
import { Timestamp, openString } from './common.js';

/** A price key of the credits record. */
export type PriceKey =
  | 'forecast.light'
  | 'forecast.moderate'
  | 'forecast.standard'
  | 'forecast.deep'
  | 'forecast.max'
  | 'forecast.custom_plan'
  | 'monitoring.question_month';

/**
 * The credits record of `GET /credits`: balance, prices per run mode and the plan.
 * Items of `topUps` are not shown in the spec (kept as loose objects).
 * @example
 * ```ts
 * const { balance, prices } = await client.credits.retrieve();
 * const standard = prices.find((p) => p.key === 'forecast.standard')?.credits;
 * ```
 */
export const Credits = z.looseObject({
  balance: z.number(),
  unlimited: z.boolean(),
  topUps: z.array(z.looseObject({})),
  prices: z.array(z.looseObject({ key: openString<PriceKey>(), credits: z.number() })),
  plan: z.looseObject({
    key: openString<'payg' | 'pro' | 'team' | 'enterprise'>(),
    name: z.string(),
    status: openString<'active' | 'past_due'>(),
    /** End of the paid period; null on `payg`. */
    currentPeriodEnd: z.nullable(Timestamp),
    cancelAtPeriodEnd: z.boolean(),
    creditsPerPeriod: z.number(),
  }),
});
/** The credits record. */
export type Credits = z.output<typeof Credits>;
