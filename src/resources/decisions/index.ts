import { APIResource } from '../../core/resource.js';
import { decisionCommentOperations, decisionConditionOperations, decisionDraftOperations, decisionForecastOperations, decisionLinkOperations, decisionNodeOperations, decisionNoteOperations, decisionOperations, decisionSummaryOperations } from '../../api/decisions.js';
import type { APIPromise } from '../../core/api-promise.js';
import type { PagePromise } from '../../core/pagination.js';
import type { RequestOptions } from '../../core/options.js';
import {
  DecisionConditionCreateParams,
  DecisionConditionUpdateParams,
  DecisionCreateParams,
  DecisionDraftSelectParams,
  DecisionDraftUpdateParams,
  DecisionFollowParams,
  DecisionForecastCreateParams,
  DecisionForecastEstimateParams,
  DecisionGenerateParams,
  DecisionLinkCreateParams,
  DecisionLinkUpdateParams,
  DecisionListParams,
  DecisionLiveParams,
  DecisionNodeCreateParams,
  DecisionPageParams,
  DecisionTextParams,
  DecisionUpdateParams,
} from '../../schemas/decisions.js';
import type {
  Decision,
  DecisionComment,
  DecisionCondition,
  DecisionDraft,
  DecisionForecastEstimate,
  DecisionForecastRun,
  DecisionLink,
  DecisionNode,
  DecisionNote,
  DecisionSummary,
} from '../../schemas/records/decisions.js';
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
 * The questions on a decision (`client.decisions.nodes`).
 * @example
 * ```ts
 * const node = await client.decisions.nodes.create(decisionId, { questionId, option: 'Lisbon' });
 * ```
 */
export class DecisionNodes extends APIResource {
  /**
   * Puts a question on the decision, optionally on one of its options.
   * @example
   * ```ts
   * await client.decisions.nodes.create(decisionId, { questionId });
   * ```
   */
  create(decisionId: string, params: DecisionNodeCreateParams, options?: RequestOptions): APIPromise<DecisionNode> {
    return this._call(decisionNodeOperations.create, [decisionId], params, options);
  }

  /**
   * Takes a question off the decision, with its links and conditions.
   * @example
   * ```ts
   * await client.decisions.nodes.delete(decisionId, nodeId);
   * ```
   */
  delete(decisionId: string, nodeId: string, options?: RequestOptions): APIPromise<void> {
    return this._call(decisionNodeOperations.delete, [decisionId, nodeId], undefined, options);
  }
}

/**
 * Links between the questions of a decision (`client.decisions.links`).
 * @example
 * ```ts
 * const link = await client.decisions.links.create(decisionId, { fromNodeId: a, toNodeId: b, kind: 'conditional' });
 * ```
 */
export class DecisionLinks extends APIResource {
  /**
   * Links two nodes. A `conditional` link is written by a model (10 model calls a minute per key):
   * it is `drafting`, then `ready` or `failed`.
   * @example
   * ```ts
   * await client.decisions.links.create(decisionId, { fromNodeId: a, toNodeId: b, label: 'drives' });
   * ```
   */
  create(decisionId: string, params: DecisionLinkCreateParams, options?: RequestOptions): APIPromise<DecisionLink> {
    return this._call(decisionLinkOperations.create, [decisionId], params, options);
  }

  /**
   * Edits a failed conditional link, which is then written again.
   * @example
   * ```ts
   * await client.decisions.links.update(decisionId, linkId, { fromNodeId: otherNodeId });
   * ```
   */
  update(decisionId: string, linkId: string, params: DecisionLinkUpdateParams, options?: RequestOptions): APIPromise<DecisionLink> {
    return this._call(decisionLinkOperations.update, [decisionId, linkId], params, options);
  }

  /**
   * Removes a link.
   * @example
   * ```ts
   * await client.decisions.links.delete(decisionId, linkId);
   * ```
   */
  delete(decisionId: string, linkId: string, options?: RequestOptions): APIPromise<void> {
    return this._call(decisionLinkOperations.delete, [decisionId, linkId], undefined, options);
  }
}

/**
 * Notes on a decision (`client.decisions.notes`); they show in `decision.notes`.
 * @example
 * ```ts
 * const note = await client.decisions.notes.create(decisionId, { text: 'Budget is capped at 2 M€.' });
 * ```
 */
export class DecisionNotes extends APIResource {
  /**
   * Adds a note.
   * @example
   * ```ts
   * await client.decisions.notes.create(decisionId, { text: 'Board meets on 3 March.' });
   * ```
   */
  create(decisionId: string, params: DecisionTextParams, options?: RequestOptions): APIPromise<DecisionNote> {
    return this._call(decisionNoteOperations.create, [decisionId], params, options);
  }

  /**
   * Edits a note.
   * @example
   * ```ts
   * await client.decisions.notes.update(decisionId, noteId, { text: 'Board meets on 10 March.' });
   * ```
   */
  update(decisionId: string, noteId: string, params: DecisionTextParams, options?: RequestOptions): APIPromise<DecisionNote> {
    return this._call(decisionNoteOperations.update, [decisionId, noteId], params, options);
  }

  /**
   * Removes a note.
   * @example
   * ```ts
   * await client.decisions.notes.delete(decisionId, noteId);
   * ```
   */
  delete(decisionId: string, noteId: string, options?: RequestOptions): APIPromise<void> {
    return this._call(decisionNoteOperations.delete, [decisionId, noteId], undefined, options);
  }
}

/**
 * Comments on a decision (`client.decisions.comments`), oldest first; only their author may edit or
 * delete them.
 * @example
 * ```ts
 * for await (const c of client.decisions.comments.list(decisionId)) console.log(c.authorId, c.text);
 * ```
 */
export class DecisionComments extends APIResource {
  /**
   * Lists the comments, oldest first (cursor paging).
   * @example
   * ```ts
   * const page = await client.decisions.comments.list(decisionId, { limit: 50 });
   * ```
   */
  list(decisionId: string, params?: DecisionPageParams, options?: RequestOptions): PagePromise<DecisionComment> {
    return this._list(decisionCommentOperations.list, [decisionId], params, options);
  }

  /**
   * Adds a comment.
   * @example
   * ```ts
   * await client.decisions.comments.create(decisionId, { text: 'Lisbon looks cheaper.' });
   * ```
   */
  create(decisionId: string, params: DecisionTextParams, options?: RequestOptions): APIPromise<DecisionComment> {
    return this._call(decisionCommentOperations.create, [decisionId], params, options);
  }

  /**
   * Edits one of your comments.
   * @example
   * ```ts
   * await client.decisions.comments.update(decisionId, commentId, { text: 'Lisbon looks cheaper, see the note.' });
   * ```
   */
  update(decisionId: string, commentId: string, params: DecisionTextParams, options?: RequestOptions): APIPromise<DecisionComment> {
    return this._call(decisionCommentOperations.update, [decisionId, commentId], params, options);
  }

  /**
   * Deletes one of your comments.
   * @example
   * ```ts
   * await client.decisions.comments.delete(decisionId, commentId);
   * ```
   */
  delete(decisionId: string, commentId: string, options?: RequestOptions): APIPromise<void> {
    return this._call(decisionCommentOperations.delete, [decisionId, commentId], undefined, options);
  }
}

/**
 * Conditions on a decision (`client.decisions.conditions`): each watches a node's forecasts and
 * triggers when a completed forecast crosses its `threshold`; arm it again with `armed: true`.
 * @example
 * ```ts
 * await client.decisions.conditions.create(decisionId, { nodeId, operator: 'above', threshold: 0.7 });
 * ```
 */
export class DecisionConditions extends APIResource {
  /**
   * Lists the conditions (cursor paging).
   * @example
   * ```ts
   * const triggered = (await client.decisions.conditions.list(decisionId).toArray()).filter((c) => c.status === 'triggered');
   * ```
   */
  list(decisionId: string, params?: DecisionPageParams, options?: RequestOptions): PagePromise<DecisionCondition> {
    return this._list(decisionConditionOperations.list, [decisionId], params, options);
  }

  /**
   * Adds an armed condition.
   * @example
   * ```ts
   * await client.decisions.conditions.create(decisionId, { nodeId, operator: 'below', threshold: 0.2, label: 'Plan B' });
   * ```
   */
  create(decisionId: string, params: DecisionConditionCreateParams, options?: RequestOptions): APIPromise<DecisionCondition> {
    return this._call(decisionConditionOperations.create, [decisionId], params, options);
  }

  /**
   * Changes a condition, or arms it again (`armed: true`) after it triggered.
   * @example
   * ```ts
   * await client.decisions.conditions.update(decisionId, conditionId, { threshold: 0.8, armed: true });
   * ```
   */
  update(decisionId: string, conditionId: string, params: DecisionConditionUpdateParams, options?: RequestOptions): APIPromise<DecisionCondition> {
    return this._call(decisionConditionOperations.update, [decisionId, conditionId], params, options);
  }

  /**
   * Deletes a condition.
   * @example
   * ```ts
   * await client.decisions.conditions.delete(decisionId, conditionId);
   * ```
   */
  delete(decisionId: string, conditionId: string, options?: RequestOptions): APIPromise<void> {
    return this._call(decisionConditionOperations.delete, [decisionId, conditionId], undefined, options);
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
