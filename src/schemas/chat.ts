/**
 * Forecast chat requests: asking about a completed forecast, and saving a suggestion as context.
 * @module
 */
import * as z from 'zod/mini';
import { CursorPageParams, exact } from './common.js';
import { TREATMENTS } from './enums.js';

/** Body of `POST /forecasts/{task_id}/chat`: the `message`, and `threadId` to continue a conversation. */
export const ChatCreateParams = exact({
  /** Your question about the forecast. */
  message: z.string().check(z.minLength(1, { error: 'must not be empty' })),
  /** The `id` of a conversation to continue. */
  threadId: z.optional(z.string().check(z.minLength(1))),
});
/** Body of `POST /forecasts/{task_id}/chat`. Each message costs a model call. */
export interface ChatCreateParams extends z.input<typeof ChatCreateParams> {}

/** Query of `GET /forecasts/{task_id}/chat`. */
export const ChatListParams = exact({ ...CursorPageParams });
/** Query of `GET /forecasts/{task_id}/chat`: paging. */
export interface ChatListParams extends z.input<typeof ChatListParams> {}

/**
 * Body of `POST /forecasts/chat/messages/{message_id}/accept-context`. Not shown in the spec: this
 * SDK may send `treatment` to override the suggested one; other keys pass through.
 */
export const AcceptContextParams = exact({
  /** Overrides the treatment the assistant suggested. */
  treatment: z.optional(z.enum(TREATMENTS)),
});
/** Body of `POST /forecasts/chat/messages/{message_id}/accept-context` (not shown in the spec: the SDK's choice). */
export interface AcceptContextParams extends z.input<typeof AcceptContextParams> {}
