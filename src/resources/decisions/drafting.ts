/**
 * A decision's drafts, priced forecasts and summary: the parts a model writes or prices.
 * @module
 */
import { APIResource } from '../../core/resource.js';
import { decisionDraftOperations, decisionForecastOperations, decisionSummaryOperations } from '../../api/decisions.js';
import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/options.js';
import type { DecisionDraftSelectParams, DecisionDraftUpdateParams, DecisionForecastCreateParams, DecisionForecastEstimateParams } from '../../schemas/decisions.js';
import type { Decision, DecisionDraft, DecisionForecastEstimate, DecisionForecastRun, DecisionSummary } from '../../schemas/records/decisions.js';
import { estimateAndStart, type EstimateAndStartOptions, type EstimateAndStartResult } from './priced-start.js';

/**
 * Question drafts of a decision (`client.decisions.drafts`): the model proposes them (`generate`),
 * you edit, keep or discard them.
 * @example
 * ```ts
 * const decision = await client.decisions.drafts.keep(decisionId, { draftIds: [draftId] });
 * ```
 */
export class DecisionDrafts extends APIResource {
  /**
   * Edits one draft's question fields (the question type rules hold on the result).
   * @example
   * ```ts
   * await client.decisions.drafts.update(decisionId, draftId, { title: 'Will Lisbon rents fall in 2027?' });
   * ```
   */
  update(decisionId: string, draftId: string, params: DecisionDraftUpdateParams, options?: RequestOptions): APIPromise<DecisionDraft> {
    return this._call(decisionDraftOperations.update, [decisionId, draftId], params, options);
  }

  /**
   * Discards drafts (default: every draft).
   * @example
   * ```ts
   * await client.decisions.drafts.discard(decisionId, { draftIds: [draftId] });
   * ```
   */
  discard(decisionId: string, params?: DecisionDraftSelectParams, options?: RequestOptions): APIPromise<Decision> {
    return this._call(decisionDraftOperations.discard, [decisionId], params, options);
  }

  /**
   * Keeps drafts (default: every draft): each becomes a question, put on the decision. Uses a model
   * (10 such calls a minute per key).
   * @example
   * ```ts
   * const { nodes } = await client.decisions.drafts.keep(decisionId);
   * ```
   */
  keep(decisionId: string, params?: DecisionDraftSelectParams, options?: RequestOptions): APIPromise<Decision> {
    return this._call(decisionDraftOperations.keep, [decisionId], params, options);
  }
}

/**
 * Priced forecasts on a decision's questions (`client.decisions.forecasts`): price the batch, then
 * start it with the approved total as `maxTotalCredits`.
 * @example
 * ```ts
 * const result = await client.decisions.forecasts.estimateAndStart(decisionId, { runMode: 'light' }, { approve: (e) => e.totalCredits <= 20 });
 * ```
 */
export class DecisionForecasts extends APIResource {
  /**
   * Prices a batch of forecasts on the decision's questions (default: all of them).
   * @example
   * ```ts
   * const { totalCredits, balance } = await client.decisions.forecasts.estimate(decisionId, { runMode: 'standard' });
   * ```
   */
  estimate(decisionId: string, params?: DecisionForecastEstimateParams, options?: RequestOptions): APIPromise<DecisionForecastEstimate> {
    return this._call(decisionForecastOperations.estimate, [decisionId], params, options);
  }

  /**
   * Starts the batch. Refused with nothing charged when its price is now above `maxTotalCredits`
   * (409 `DecisionConflictError`, `type` `max_total_credits_exceeded` on the mock) or the credits are
   * short (409 `ConflictError`, `invalid_request_error`). An `Idempotency-Key` is sent (generated
   * unless given) and reused on every retry.
   * @example
   * ```ts
   * const run = await client.decisions.forecasts.create(decisionId, { runMode: 'light', maxTotalCredits: 4 });
   * ```
   */
  create(decisionId: string, params: DecisionForecastCreateParams, options?: RequestOptions): APIPromise<DecisionForecastRun> {
    return this._call(decisionForecastOperations.create, [decisionId], params, options);
  }

  /**
   * Prices the batch, asks `approve`, and starts it only on `true`, capped at the price approved.
   * Declining resolves `{ approved: false, estimate }` (nothing started); starting resolves with the
   * run and its `taskIds`, ready for `forecasts.waitMany`. A price that rose between the two calls
   * rejects with `DecisionConflictError` and charges nothing.
   * @example
   * ```ts
   * const result = await client.decisions.forecasts.estimateAndStart(decisionId, { runMode: 'light' }, {
   *   approve: (estimate) => estimate.totalCredits <= 25,
   * });
   * if (result.approved) await client.forecasts.waitMany(result.taskIds);
   * ```
   */
  estimateAndStart(decisionId: string, params: DecisionForecastEstimateParams | undefined, options: EstimateAndStartOptions): Promise<EstimateAndStartResult> {
    return estimateAndStart(this, decisionId, params, options);
  }
}

/**
 * A decision's summary (`client.decisions.summary`), written from the latest forecasts on its
 * questions.
 * @example
 * ```ts
 * const { text, recommendation, stale } = await client.decisions.summary.retrieve(decisionId);
 * ```
 */
export class DecisionSummaryResource extends APIResource {
  /**
   * Reads the summary; `stale` says a forecast completed since it was written.
   * @example
   * ```ts
   * const summary = await client.decisions.summary.retrieve(decisionId);
   * ```
   */
  retrieve(decisionId: string, options?: RequestOptions): APIPromise<DecisionSummary> {
    return this._call(decisionSummaryOperations.retrieve, [decisionId], undefined, options);
  }

  /**
   * Writes a new summary from the latest forecasts (a model call: 10 a minute per key).
   * @example
   * ```ts
   * const summary = await client.decisions.summary.refresh(decisionId);
   * ```
   */
  refresh(decisionId: string, options?: RequestOptions): APIPromise<DecisionSummary> {
    return this._call(decisionSummaryOperations.refresh, [decisionId], undefined, options);
  }
}
