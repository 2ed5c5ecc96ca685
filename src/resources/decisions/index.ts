import { APIResource } from '../../core/resource.js';
import { decisionOperations } from '../../api/decisions.js';
import type { APIPromise } from '../../core/api-promise.js';
import type { PagePromise } from '../../core/pagination.js';
import type { RequestOptions } from '../../core/options.js';
import type { DecisionCreateParams, DecisionFollowParams, DecisionGenerateParams, DecisionListParams, DecisionLiveParams, DecisionUpdateParams } from '../../schemas/decisions.js';
import type { Decision } from '../../schemas/records/decisions.js';
import { DecisionForecasts, DecisionDrafts, DecisionSummaryResource } from './drafting.js';
import { DecisionComments, DecisionConditions, DecisionLinks, DecisionNodes, DecisionNotes } from './map.js';

export { DecisionComments, DecisionConditions, DecisionDrafts, DecisionForecasts, DecisionLinks, DecisionNodes, DecisionNotes, DecisionSummaryResource };

/**
 * Decisions: a choice among 2 to 4 options with a map of questions (nodes and links), notes,
 * comments, conditions, drafts written by a model, a summary, and priced forecasts.
 * @example
 * ```ts
 * const decision = await client.decisions.create({ title: 'Where do we open the next office?', options: ['Lisbon', 'Berlin'] });
 * await client.decisions.nodes.create(decision.id, { questionId, option: 'Lisbon' });
 * ```
 */
export class Decisions extends APIResource {
  /** Question drafts: edit, keep, discard. */
  readonly drafts: DecisionDrafts = new DecisionDrafts(this._client);
  /** Priced forecasts: estimate, start, or both with an approval. */
  readonly forecasts: DecisionForecasts = new DecisionForecasts(this._client);
  /** Questions on the decision. */
  readonly nodes: DecisionNodes = new DecisionNodes(this._client);
  /** Links between its questions. */
  readonly links: DecisionLinks = new DecisionLinks(this._client);
  /** Notes. */
  readonly notes: DecisionNotes = new DecisionNotes(this._client);
  /** Comments. */
  readonly comments: DecisionComments = new DecisionComments(this._client);
  /** Conditions on its forecasts. */
  readonly conditions: DecisionConditions = new DecisionConditions(this._client);
  /** The summary. */
  readonly summary: DecisionSummaryResource = new DecisionSummaryResource(this._client);

  /**
   * Lists decisions, newest first, paging by `limit` (up to 200, default 50) and `offset`; `for await`
   * walks every one.
   * @example
   * ```ts
   * for await (const d of client.decisions.list({ status: 'active' })) console.log(d.title);
   * ```
   */
  list(params?: DecisionListParams, options?: RequestOptions): PagePromise<Decision> {
    return this._list(decisionOperations.list, [], params, options);
  }

  /**
   * Creates a decision among 2 to 4 distinct options (checked before sending) and starts drafting
   * questions for it. An `Idempotency-Key` is sent (generated unless given) and reused on every retry.
   * Uses a model (10 such calls a minute per key).
   * @example
   * ```ts
   * const d = await client.decisions.create({ title: 'Which supplier?', options: ['Acme', 'Globex', 'Initech'] });
   * ```
   */
  create(params: DecisionCreateParams, options?: RequestOptions): APIPromise<Decision> {
    return this._call(decisionOperations.create, [], params, options);
  }

  /**
   * Reads a decision.
   * @example
   * ```ts
   * const d = await client.decisions.retrieve(decisionId);
   * ```
   */
  retrieve(decisionId: string, options?: RequestOptions): APIPromise<Decision> {
    return this._call(decisionOperations.retrieve, [decisionId], undefined, options);
  }

  /**
   * Edits a decision: only the fields sent change.
   * @example
   * ```ts
   * await client.decisions.update(decisionId, { options: ['Lisbon', 'Berlin', 'Stay put'] });
   * ```
   */
  update(decisionId: string, params: DecisionUpdateParams, options?: RequestOptions): APIPromise<Decision> {
    return this._call(decisionOperations.update, [decisionId], params, options);
  }

  /**
   * Archives a decision: every write answers 409 `decision_archived` until it is unarchived.
   * @example
   * ```ts
   * await client.decisions.archive(decisionId);
   * ```
   */
  archive(decisionId: string, options?: RequestOptions): APIPromise<Decision> {
    return this._call(decisionOperations.archive, [decisionId], undefined, options);
  }

  /**
   * Unarchives a decision.
   * @example
   * ```ts
   * await client.decisions.unarchive(decisionId);
   * ```
   */
  unarchive(decisionId: string, options?: RequestOptions): APIPromise<Decision> {
    return this._call(decisionOperations.unarchive, [decisionId], undefined, options);
  }

  /**
   * Drafts more questions with a model; they appear in `drafts` once `generation.status` is
   * `completed`. Meanwhile a second call answers 409 `generation_in_progress`.
   * @example
   * ```ts
   * await client.decisions.generate(decisionId, { guidance: 'Costs over five years' });
   * ```
   */
  generate(decisionId: string, params?: DecisionGenerateParams, options?: RequestOptions): APIPromise<Decision> {
    return this._call(decisionOperations.generate, [decisionId], params, options);
  }

  /**
   * Turns live mode on or off: when on, each forecast completed on the decision's questions rewrites
   * its summary.
   * @example
   * ```ts
   * await client.decisions.setLive(decisionId, { enabled: true });
   * ```
   */
  setLive(decisionId: string, params: DecisionLiveParams, options?: RequestOptions): APIPromise<Decision> {
    return this._call(decisionOperations.setLive, [decisionId], params, options);
  }

  /**
   * Follows or unfollows a decision.
   * @example
   * ```ts
   * await client.decisions.setFollowing(decisionId, { following: true });
   * ```
   */
  setFollowing(decisionId: string, params: DecisionFollowParams, options?: RequestOptions): APIPromise<Decision> {
    return this._call(decisionOperations.setFollowing, [decisionId], params, options);
  }
}
