/**
 * Share links and notification subscriptions as the service shows them. The spec shows no fields for
 * either: these shapes are the SDK's choice, read leniently. The schemas load only with
 * `validateResponses`.
 * @module
 */
import * as z from 'zod/mini';
import { Timestamp, exact, openString } from '../common.js';

const when = z.nullable(Timestamp);

export const ShareLink = exact({
  id: z.string(),
  questionId: z.string(),
  /** The address to give out: whoever opens it can read the question and its forecasts. */
  url: z.string(),
  /** A name to tell links apart; null when none. */
  label: z.nullable(z.string()),
  /** True once revoked: the link stops working, and stays readable as revoked. */
  revoked: z.boolean(),
  /** When it was revoked; null while it works. */
  revokedAt: when,
  /** When it stops working; null for never. */
  expiresAt: when,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
/**
 * A share link of a question: its `url`, when it was made, and whether it was revoked. The spec shows
 * no fields: this shape is the SDK's choice.
 * @example
 * ```ts
 * const link = await client.questions.shareLinks.create(questionId);
 * await client.questions.shareLinks.revoke(questionId, link.id); // link.revoked is now true
 * ```
 */
export interface ShareLink extends z.output<typeof ShareLink> {}

export const QuestionSubscription = exact({
  id: z.string(),
  /** What it follows: the question, by `id` and `title`. */
  follows: exact({ type: openString<'question'>(), id: z.string(), title: z.optional(z.string()) }),
  createdAt: Timestamp,
});
/**
 * Your notification subscription to a question: what it `follows`. The spec shows no fields: this
 * shape is the SDK's choice.
 * @example
 * ```ts
 * const sub = await client.questions.subscription.follow(questionId);
 * console.log(sub.follows.title);
 * ```
 */
export interface QuestionSubscription extends z.output<typeof QuestionSubscription> {}
