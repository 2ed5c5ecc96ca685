/**
 * Share links and notification subscriptions of a question. The spec shows no bodies for these
 * operations: the fields here are the SDK's choice, and unknown keys pass through.
 * @module
 */
import * as z from 'zod/mini';
import { CursorPageParams, exact } from './common.js';
import { IsoTime } from './schedules.js';

const linkFields = {
  /** A name to tell links apart (`null` clears it). */
  label: z.optional(z.nullable(z.string())),
  /** When the link stops working (`null`: never). The service refuses a time already past. */
  expiresAt: z.optional(z.nullable(IsoTime)),
};

/**
 * Body of `POST /questions/{question_id}/share-links` (not shown in the spec: the SDK's choice).
 * @example
 * ```ts
 * const link = await client.questions.shareLinks.create(questionId, { label: 'board pack' });
 * ```
 */
export const ShareLinkCreateParams = exact(linkFields);
/**
 * Body of `POST /questions/{question_id}/share-links`: an optional `label` and `expiresAt` (the SDK's choice).
 * @example
 * ```ts
 * const params: ShareLinkCreateParams = { label: 'board pack', expiresAt: '2027-01-01T00:00:00Z' };
 * const { url } = await client.questions.shareLinks.create(questionId, params);
 * ```
 */
export interface ShareLinkCreateParams extends z.input<typeof ShareLinkCreateParams> {}

/** Body of `PATCH /questions/{question_id}/share-links/{link_id}`: only the fields sent change. */
export const ShareLinkUpdateParams = exact(linkFields);
/**
 * Body of `PATCH /questions/{question_id}/share-links/{link_id}`: `label`, `expiresAt` (the SDK's choice).
 * @example
 * ```ts
 * const change: ShareLinkUpdateParams = { expiresAt: null }; // never expires
 * await client.questions.shareLinks.update(questionId, linkId, change);
 * ```
 */
export interface ShareLinkUpdateParams extends z.input<typeof ShareLinkUpdateParams> {}

/** Query of `GET /questions/{question_id}/share-links`: paging. */
export const ShareLinkListParams = exact({ ...CursorPageParams });
/**
 * Query of `GET /questions/{question_id}/share-links`: paging.
 * @example
 * ```ts
 * const page = await client.questions.shareLinks.list(questionId, { limit: 50 });
 * ```
 */
export interface ShareLinkListParams extends z.input<typeof ShareLinkListParams> {}
