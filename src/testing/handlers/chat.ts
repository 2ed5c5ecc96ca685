/**
 * Forecast chat: conversations on a completed forecast, answered from its stored result, under the
 * spec's 30-messages-a-minute limit; an assistant message's suggestion can be saved as a context note.
 * @module
 */
import { CHAT_MESSAGES_PER_MINUTE } from '../../core/limits.js';
import { chatOperations as ops } from '../../resources/forecasts/index.js';
import type { ChatMessage, ChatThread } from '../../schemas/records/chat.js';
import type { ForecastData } from '../../schemas/records/forecasts.js';
import { badRequest, conflict, notFound } from '../http.js';
import { forecastDataOf } from '../models/forecasts/data.js';
import { cursorPage } from '../paging.js';
import { collectionKey, type Ownership } from '../store.js';
import { addNote } from '../models/context/files.js';
import type { Treatment } from '../../schemas/enums.js';
import { findVisibleTask } from './forecasts.js';
import { handlersFor, type HandlerContext } from './types.js';

interface ThreadRecord extends Ownership {
  id: string;
  taskId: string;
  questionId: string;
  messages: ChatMessage[];
  createdAt: string;
  updatedAt: string;
}
const THREADS = collectionKey<ThreadRecord>('chatThreads');

const threadView = ({ ownerId: _o, organizationId: _g, questionId: _q, ...thread }: ThreadRecord): ChatThread => thread;

/** A short, deterministic answer from the forecast's number. */
function answer(data: ForecastData, question: string): string {
  const p = data.payload as Record<string, unknown>;
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const headline =
    data.questionType === 'binary'
      ? `The forecast gives ${pct(data.payload.probability)} for YES`
      : data.questionType === 'multiple_choice'
        ? `The most likely option is "${Object.entries(data.payload.probabilities).sort((a, b) => b[1] - a[1])[0]?.[0]}"`
        : `The median estimate is ${String((p['percentiles'] as { p50: number }).p50)}`;
  return `${headline} on "${question}". The subforecasts weighed base rates first, then recent news; a surprise in official data would move it most.`;
}

function thread(ctx: HandlerContext, taskId: string, threadId: string): ThreadRecord {
  const found = ctx.store.collection(THREADS).get(threadId);
  if (!found || found.taskId !== taskId) throw notFound(`threadId: no conversation ${threadId} on forecast ${taskId}`);
  return found;
}

export const chatHandlers = [
  ...handlersFor(ops, {
    list: (ctx) => {
      const task = findVisibleTask(ctx, ctx.pathParams['task_id']!);
      const threads = ctx.store.collection(THREADS).list((t) => t.taskId === task.id && t.ownerId === ctx.principal.userId);
      return cursorPage(threads.map(threadView), ctx.input, (t) => t.id);
    },
    create: (ctx) => {
      const task = findVisibleTask(ctx, ctx.pathParams['task_id']!);
      if (task.status !== 'completed') throw conflict(`Chat works on a completed forecast; this one is ${task.status}`);
      ctx.limit('chat messages', CHAT_MESSAGES_PER_MINUTE);
      const now = ctx.timestamp();
      const threads = ctx.store.collection(THREADS);
      const record =
        ctx.input.threadId !== undefined
          ? thread(ctx, task.id, ctx.input.threadId)
          : threads.insert({
              id: crypto.randomUUID(),
              taskId: task.id,
              questionId: task.questionId,
              ownerId: ctx.principal.userId,
              organizationId: ctx.principal.organizationId,
              messages: [],
              createdAt: now,
              updatedAt: now,
            });
      const question = ctx.store.questions.get(task.questionId)!.question;
      record.messages.push(
        { id: crypto.randomUUID(), role: 'user', content: ctx.input.message, createdAt: now },
        {
          id: crypto.randomUUID(),
          role: 'assistant',
          content: answer(forecastDataOf(ctx.store, question, task.id), question.title),
          createdAt: now,
          suggestedContext: { text: `Look into the latest official figures on: ${question.title}`, treatment: 'look_into' },
        },
      );
      record.updatedAt = now;
      return threadView(record);
    },
    retrieve: (ctx) => {
      const task = findVisibleTask(ctx, ctx.pathParams['task_id']!);
      return threadView(thread(ctx, task.id, ctx.pathParams['thread_id']!));
    },
    acceptContext: (ctx) => {
      const id = ctx.pathParams['message_id']!;
      const owner = ctx.store.collection(THREADS).list((t) => t.ownerId === ctx.principal.userId && t.messages.some((m) => m.id === id))[0];
      const message = owner?.messages.find((m) => m.id === id);
      if (!owner || !message) throw notFound(`messageId: no chat message ${id}`);
      const suggestion = message.suggestedContext;
      if (message.role !== 'assistant' || !suggestion) throw badRequest('has no suggested context to save', 'messageId');
      return addNote(ctx, owner.questionId, suggestion.text, (ctx.input.treatment ?? suggestion.treatment ?? 'consider') as Treatment);
    },
  }),
];
