/**
 * A decision's map: its questions (nodes), the links between them, notes, comments and conditions.
 * @module
 */
import { APIResource } from '../../core/resource.js';
import {
  decisionCommentOperations,
  decisionConditionOperations,
  decisionLinkOperations,
  decisionNodeOperations,
  decisionNoteOperations,
} from '../../api/decisions.js';
import type { APIPromise } from '../../core/api-promise.js';
import type { PagePromise } from '../../core/pagination.js';
import type { RequestOptions } from '../../core/options.js';
import type { DecisionConditionCreateParams, DecisionConditionUpdateParams, DecisionLinkCreateParams, DecisionLinkUpdateParams, DecisionNodeCreateParams, DecisionPageParams, DecisionTextParams } from '../../schemas/decisions.js';
import type { DecisionComment, DecisionCondition, DecisionLink, DecisionNode, DecisionNote } from '../../schemas/records/decisions.js';

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
