import { APIResource } from '../core/resource.js';
import { shareLinkOperations, subscriptionOperations } from '../api/sharing.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/options.js';
import type { ShareLinkCreateParams, ShareLinkListParams, ShareLinkUpdateParams } from '../schemas/sharing.js';
import type { QuestionSubscription as Subscription, ShareLink } from '../schemas/records/sharing.js';

const ops = shareLinkOperations;

/**
 * A question's share links (`client.questions.shareLinks`): addresses that let whoever opens them read
 * the question. A revoked link stops working and stays readable, as revoked.
 * @example
 * ```ts
 * const link = await client.questions.shareLinks.create(questionId, { label: 'board pack' });
 * console.log(link.url);
 * ```
 */
export class QuestionShareLinks extends APIResource {
  /**
   * Lists the question's share links, revoked ones included.
   * @example
   * ```ts
   * const active = (await client.questions.shareLinks.list(questionId).toArray()).filter((l) => !l.revoked);
   * ```
   */
  list(questionId: string, params?: ShareLinkListParams, options?: RequestOptions): PagePromise<ShareLink> {
    return this._list(ops.list, [questionId], params, options);
  }

  /**
   * Creates a share link, optionally with a `label` and an `expiresAt`.
   * @example
   * ```ts
   * const link = await client.questions.shareLinks.create(questionId, { expiresAt: '2027-07-01T00:00:00.000Z' });
   * ```
   */
  create(questionId: string, params?: ShareLinkCreateParams, options?: RequestOptions): APIPromise<ShareLink> {
    return this._call(ops.create, [questionId], params, options);
  }

  /**
   * Reads a share link (a revoked one too).
   * @example
   * ```ts
   * const { revoked } = await client.questions.shareLinks.retrieve(questionId, linkId);
   * ```
   */
  retrieve(questionId: string, linkId: string, options?: RequestOptions): APIPromise<ShareLink> {
    return this._call(ops.retrieve, [questionId, linkId], undefined, options);
  }

  /**
   * Changes a link's `label` or `expiresAt` (a revoked link cannot change: 409).
   * @example
   * ```ts
   * await client.questions.shareLinks.update(questionId, linkId, { label: 'Q3 review' });
   * ```
   */
  update(questionId: string, linkId: string, params: ShareLinkUpdateParams, options?: RequestOptions): APIPromise<ShareLink> {
    return this._call(ops.update, [questionId, linkId], params, options);
  }

  /**
   * Deletes a share link: it stops working and is no longer listed.
   * @example
   * ```ts
   * await client.questions.shareLinks.delete(questionId, linkId);
   * ```
   */
  delete(questionId: string, linkId: string, options?: RequestOptions): APIPromise<void> {
    return this._call(ops.delete, [questionId, linkId], undefined, options);
  }

  /**
   * Revokes a share link: it stops working, stays listed and readable with `revoked: true`.
   * Revoking it again changes nothing.
   * @example
   * ```ts
   * const link = await client.questions.shareLinks.revoke(questionId, linkId);
   * console.log(link.revokedAt);
   * ```
   */
  revoke(questionId: string, linkId: string, options?: RequestOptions): APIPromise<ShareLink> {
    return this._call(ops.revoke, [questionId, linkId], undefined, options);
  }
}

/**
 * Your notification subscription to a question (`client.questions.subscription`): follow a question
 * to be notified of it.
 * @example
 * ```ts
 * await client.questions.subscription.follow(questionId);
 * await client.questions.subscription.unfollow(questionId);
 * ```
 */
export class QuestionSubscriptions extends APIResource {
  /**
   * Reads your subscription to a question (404 when you do not follow it).
   * @example
   * ```ts
   * const sub = await client.questions.subscription.retrieve(questionId);
   * ```
   */
  retrieve(questionId: string, options?: RequestOptions): APIPromise<Subscription> {
    return this._call(subscriptionOperations.retrieve, [questionId], undefined, options);
  }

  /**
   * Follows a question; following it again changes nothing.
   * @example
   * ```ts
   * const { follows } = await client.questions.subscription.follow(questionId);
   * ```
   */
  follow(questionId: string, options?: RequestOptions): APIPromise<Subscription> {
    return this._call(subscriptionOperations.follow, [questionId], undefined, options);
  }

  /**
   * Stops following a question (404 when you did not follow it).
   * @example
   * ```ts
   * await client.questions.subscription.unfollow(questionId);
   * ```
   */
  unfollow(questionId: string, options?: RequestOptions): APIPromise<void> {
    return this._call(subscriptionOperations.unfollow, [questionId], undefined, options);
  }
}
