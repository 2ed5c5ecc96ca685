/**
 * Forecast chat records: conversations and their messages, and the context note a suggestion
 * becomes. The spec shows only the thread `id`, its `messages` and the role value `assistant`; the
 * other fields are this SDK's lenient reading. The schemas load only with `validateResponses`.
 * @module
 */
import * as z from 'zod/mini';
import { Timestamp, exact, openString } from '../common.js';

export const SuggestedContext = exact({ text: z.string(), treatment: z.optional(z.string()) });
/**
 * A note the assistant proposes, to save with `forecasts.chat.acceptContext`.
 * Not shown in the spec: the SDK's choice.
 * @example
 * ```ts
 * const suggestion: SuggestedContext | undefined = thread.messages.at(-1)?.suggestedContext; // { text, treatment }
 * ```
 */
export interface SuggestedContext extends z.output<typeof SuggestedContext> {}

export const ChatMessage = exact({
  id: z.string(),
  /** `assistant` for answers, `user` for questions. */
  role: openString<'user' | 'assistant'>(),
  content: z.string(),
  createdAt: z.optional(Timestamp),
  /** A note the assistant proposes (`forecasts.chat.acceptContext` saves it). */
  suggestedContext: z.optional(z.nullable(SuggestedContext)),
});
/**
 * A chat message. Not shown in the spec beyond `role` (`assistant` for answers): this SDK reads
 * `id`, `content`, `createdAt` and `suggestedContext`.
 * @example
 * ```ts
 * const thread = await client.forecasts.chat.create(taskId, { message: 'Why so low?' });
 * const answer: ChatMessage | undefined = thread.messages.at(-1); // role 'assistant'
 * ```
 */
export interface ChatMessage extends z.output<typeof ChatMessage> {}

export const ChatThread = exact({
  /** Pass it as `threadId` to continue the conversation. */
  id: z.string(),
  /** Oldest first; the last `assistant` message is the answer. */
  messages: z.array(ChatMessage),
  taskId: z.optional(z.string()),
  createdAt: z.optional(Timestamp),
  updatedAt: z.optional(Timestamp),
});
/**
 * A conversation about a forecast: its `id` and `messages`. Not shown in the spec beyond those:
 * `taskId`, `createdAt` and `updatedAt` are read when present.
 * @example
 * ```ts
 * const thread = await client.forecasts.chat.create(taskId, { message: 'What would change your mind?' });
 * console.log(thread.messages.at(-1)?.content);
 * ```
 */
export interface ChatThread extends z.output<typeof ChatThread> {}

// The note a suggestion becomes is a context note: one record, owned by the context group.
export { ContextNote } from './context.js';
