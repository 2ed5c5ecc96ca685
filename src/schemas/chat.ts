/**
 * Forecast chat: conversations about a completed forecast. The spec shows only the thread `id`, its
 * `messages` and the role value `assistant`; the other fields here are this SDK's lenient reading.
 * @module
 */
import * as z from 'zod/mini';
import { CursorPageParams, Timestamp, openEnum, openString } from './common.js';
import { TREATMENTS } from './forecasts.js';

/**
 * A message. Not shown in the spec beyond `role` (`assistant` for answers): this SDK reads `id`,
 * `content`, `createdAt`, and `suggestedContext` (a note the assistant proposes, to save with
 * `forecasts.chat.acceptContext`).
 */
export const ChatMessage = z.looseObject({
  id: z.string(),
  role: openString<'user' | 'assistant'>(),
  content: z.string(),
  createdAt: z.optional(Timestamp),
  suggestedContext: z.optional(z.nullable(z.looseObject({ text: z.string(), treatment: z.optional(z.string()) }))),
});
/** A chat message. */
export type ChatMessage = z.output<typeof ChatMessage>;

/**
 * A conversation about a forecast: its `id` and `messages` (the last `assistant` message is the answer).
 * @example
 * ```ts
 * const thread = await client.forecasts.chat.create(taskId, { message: 'What would change your mind?' });
 * console.log(thread.messages.at(-1)?.content);
 * ```
 */
export const ChatThread = z.looseObject({
  id: z.string(),
  messages: z.array(ChatMessage),
  taskId: z.optional(z.string()),
  createdAt: z.optional(Timestamp),
  updatedAt: z.optional(Timestamp),
});
/** A conversation about a forecast. */
export type ChatThread = z.output<typeof ChatThread>;

/** Body of `POST /forecasts/{task_id}/chat`: the `message`, and `threadId` to continue a conversation. */
export const ChatCreateParams = z.looseObject({
  message: z.string().check(z.minLength(1, { error: 'must not be empty' })),
  threadId: z.optional(z.string().check(z.minLength(1))),
});
/** Body of `POST /forecasts/{task_id}/chat`. */
export type ChatCreateParams = z.input<typeof ChatCreateParams>;

/** Query of `GET /forecasts/{task_id}/chat`. */
export const ChatListParams = z.looseObject({ ...CursorPageParams });
/** Query of `GET /forecasts/{task_id}/chat`. */
export type ChatListParams = z.input<typeof ChatListParams>;

/**
 * Body of `POST /forecasts/chat/messages/{message_id}/accept-context`. Not shown in the spec: this
 * SDK may send `treatment` to override the suggested one; other keys pass through.
 */
export const AcceptContextParams = z.looseObject({ treatment: z.optional(z.enum(TREATMENTS)) });
/** Body of `POST /forecasts/chat/messages/{message_id}/accept-context`. */
export type AcceptContextParams = z.input<typeof AcceptContextParams>;

/**
 * The context note saved from a chat suggestion. Not shown in the spec beyond `text` and `treatment`.
 */
export const ContextNote = z.looseObject({
  id: z.string(),
  text: z.string(),
  treatment: openEnum(TREATMENTS),
  questionId: z.optional(z.string()),
  createdAt: z.optional(Timestamp),
});
/** A context note. */
export type ContextNote = z.output<typeof ContextNote>;
