/**
 * The priced start of a decision's forecasts: price the batch, ask the caller, start it capped at the
 * price the caller approved. The rule (what counts as an approval, what the cap is) is a pure
 * function apart from the I/O, like the retry policy.
 * @module
 */
import type { APIPromise } from '../../core/api-promise.js';
import { ValidationError } from '../../core/errors.js';
import type { RequestOptions } from '../../core/options.js';
import type { DecisionForecastCreateParams, DecisionForecastEstimateParams } from '../../schemas/decisions.js';
import type { DecisionForecastEstimate, DecisionForecastRun } from '../../schemas/records/decisions.js';

/**
 * Options of `decisions.forecasts.estimateAndStart`: the approval callback, and the request options
 * of both calls (an `idempotencyKey` goes to the start).
 * @example
 * ```ts
 * const options: EstimateAndStartOptions = { approve: (e) => e.totalCredits <= 50 };
 * ```
 */
export interface EstimateAndStartOptions extends RequestOptions {
  /** Sees the estimate; only `true` (or a promise of `true`) starts the batch. */
  approve: (estimate: DecisionForecastEstimate) => boolean | Promise<boolean>;
}

/**
 * What `estimateAndStart` resolves with: declined (nothing started, nothing charged), or started
 * with the run and its task ids, ready for `forecasts.waitMany`.
 * @example
 * ```ts
 * const result = await client.decisions.forecasts.estimateAndStart(decisionId, {}, { approve: () => true });
 * if (result.approved) await client.forecasts.waitMany(result.taskIds);
 * ```
 */
export type EstimateAndStartResult =
  | { approved: false; estimate: DecisionForecastEstimate }
  | { approved: true; estimate: DecisionForecastEstimate; run: DecisionForecastRun; taskIds: string[] };

/** What the flow calls: the two operations of `decisions.forecasts`. @internal */
export interface PricedStartContext {
  estimate(decisionId: string, params?: DecisionForecastEstimateParams, options?: RequestOptions): APIPromise<DecisionForecastEstimate>;
  create(decisionId: string, params: DecisionForecastCreateParams, options?: RequestOptions): APIPromise<DecisionForecastRun>;
}

/** The cap to start with, or `undefined` to decline: only a literal `true` approves, capped at the total the caller saw. @internal */
export const approvedCap = (estimate: DecisionForecastEstimate, answer: unknown): number | undefined =>
  answer === true ? estimate.totalCredits : undefined;

/** Estimate, ask, start (capped at the approved total). @internal */
export async function estimateAndStart(
  ctx: PricedStartContext,
  decisionId: string,
  params: DecisionForecastEstimateParams = {},
  o: EstimateAndStartOptions,
): Promise<EstimateAndStartResult> {
  const { approve, ...options } = o ?? ({} as Partial<EstimateAndStartOptions>);
  if (typeof approve !== 'function') throw new ValidationError('must be a function of the estimate', 'approve');
  const estimate = await ctx.estimate(decisionId, params, options);
  const maxTotalCredits = approvedCap(estimate, await approve(estimate));
  if (maxTotalCredits === undefined) return { approved: false, estimate };
  const run = await ctx.create(decisionId, { ...params, maxTotalCredits }, options);
  return { approved: true, estimate, run, taskIds: run.items.flatMap((i) => (i.taskId ? [i.taskId] : [])) };
}
