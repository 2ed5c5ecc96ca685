/**
 * The Account group: the organization's credits record. The schema loads only with `validateResponses`.
 * @module
 */
import * as z from 'zod/mini';
import { Timestamp, exact, openString } from '../common.js';

/**
 * A price key of the credits record.
 * @example
 * ```ts
 * const key: PriceKey = 'forecast.deep';
 * ```
 */
export type PriceKey =
  | 'forecast.light'
  | 'forecast.moderate'
  | 'forecast.standard'
  | 'forecast.deep'
  | 'forecast.max'
  | 'forecast.custom_plan'
  | 'monitoring.question_month';

export const Price = exact({ key: openString<PriceKey>(), credits: z.number() });
/**
 * The price of one thing, in credits.
 * @example
 * ```ts
 * const credits = await client.credits.retrieve();
 * const standard: Price | undefined = credits.prices.find((p) => p.key === 'forecast.standard'); // { key, credits: 5 }
 * ```
 */
export interface Price extends z.output<typeof Price> {}

export const Plan = exact({
  /** `payg`, `pro`, `team` or `enterprise`. */
  key: openString<'payg' | 'pro' | 'team' | 'enterprise'>(),
  name: z.string(),
  /** `active`, or `past_due` when the last renewal payment failed (no new credits; the plan ends after seven days). */
  status: openString<'active' | 'past_due'>(),
  /** End of the paid period (the renewal date unless `cancelAtPeriodEnd`); null on `payg`. */
  currentPeriodEnd: z.nullable(Timestamp),
  cancelAtPeriodEnd: z.boolean(),
  /** Credits added each period; 0 on `payg`. */
  creditsPerPeriod: z.number(),
});
/**
 * The organization's plan.
 * @example
 * ```ts
 * const { plan } = await client.credits.retrieve();
 * if (plan.status === 'past_due') console.warn(`plan ${plan.name} is past due`);
 * ```
 */
export interface Plan extends z.output<typeof Plan> {}

export const Credits = exact({
  balance: z.number(),
  unlimited: z.boolean(),
  /** Items not shown in the spec: kept as they come, whatever their shape (`unknown`: narrow before use). */
  topUps: z.array(z.unknown()),
  /** Per run mode (`forecast.<mode>`), custom plans and monitoring. */
  prices: z.array(Price),
  plan: Plan,
});
/**
 * The credits record of `GET /credits`: balance, prices and the plan.
 * @example
 * ```ts
 * const { balance, prices } = await client.credits.retrieve();
 * const standard = prices.find((p) => p.key === 'forecast.standard')?.credits;
 * ```
 */
export interface Credits extends z.output<typeof Credits> {}
