/**
 * The sharing model's records: a question's share links and who follows which question.
 * @module
 */
import type { QuestionSubscription, ShareLink } from '../../schemas/records/sharing.js';
import { collectionKey } from '../store.js';

/**
 * Share links, as reads show them (`id` is the link id).
 * @example
 * ```ts
 * const revoked = service.store.collection(SHARE_LINKS).list((l) => l.questionId === questionId && l.revoked);
 * ```
 */
export const SHARE_LINKS = collectionKey<ShareLink>('shareLinks');

/**
 * A subscription: who follows which question (`id` is `userId:questionId`).
 * @example
 * ```ts
 * const record: SubscriptionRecord | undefined = service.store.collection(SUBSCRIPTIONS).get(`${userId}:${questionId}`);
 * console.log(record?.subscription.follows.title);
 * ```
 */
export interface SubscriptionRecord {
  id: string;
  userId: string;
  subscription: QuestionSubscription;
}
/**
 * The subscriptions of every user, one {@link SubscriptionRecord} per user and question followed.
 * @example
 * ```ts
 * await client.questions.subscription.follow(questionId);
 * const followers = service.store.collection(SUBSCRIPTIONS).list((s) => s.subscription.follows.id === questionId).map((s) => s.userId);
 * ```
 */
export const SUBSCRIPTIONS = collectionKey<SubscriptionRecord>('subscriptions');
