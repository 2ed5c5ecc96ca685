/**
 * The Sharing and notifications group: share links and a question's subscription. Declarations only:
 * the client's resources and the mock's handlers both read them.
 * @module
 */
import { defineOperations } from '../core/operation.js';
import { accepts, returns } from '../schemas/returns.js';
import { QUESTIONS } from './scopes.js';

const group = { scopes: QUESTIONS };

/** A question's share links, of the Sharing and notifications group. */
export const shareLinkOperations = defineOperations('questions.shareLinks', {
  list: { method: 'GET', path: '/questions/{question_id}/share-links', scope: 'questions:write', params: accepts('ShareLinkListParams'), response: returns('ShareLink'), paging: 'cursor' },
  create: { method: 'POST', path: '/questions/{question_id}/share-links', params: accepts('ShareLinkCreateParams'), response: returns('ShareLink'), status: 201 },
  retrieve: { method: 'GET', path: '/questions/{question_id}/share-links/{link_id}', scope: 'questions:write', response: returns('ShareLink') },
  update: { method: 'PATCH', path: '/questions/{question_id}/share-links/{link_id}', params: accepts('ShareLinkUpdateParams'), response: returns('ShareLink') },
  delete: { method: 'DELETE', path: '/questions/{question_id}/share-links/{link_id}', status: 204 },
  revoke: { method: 'POST', path: '/questions/{question_id}/share-links/{link_id}/revoke', response: returns('ShareLink') },
}, group);

/** Your notification subscription to a question, of the Sharing and notifications group. */
export const subscriptionOperations = defineOperations('questions.subscription', {
  retrieve: { method: 'GET', path: '/questions/{question_id}/subscription', response: returns('QuestionSubscription') },
  follow: { method: 'PUT', path: '/questions/{question_id}/subscription', response: returns('QuestionSubscription') },
  unfollow: { method: 'DELETE', path: '/questions/{question_id}/subscription', status: 204 },
}, group);
