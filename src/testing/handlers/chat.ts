/**
 * Forecast chat: conversations on a completed forecast, answered from its stored result, under the
 * spec's 30-messages-a-minute limit; an assistant message's suggestion can be saved as a context note.
 * @module
 */
import { CHAT_MESSAGES_PER_MINUTE } from '../../api/limits.js';
import { chatOperations as ops } from '../../api/chat.js';
import { badRequest, conflict, notFound } from '../http.js';
import { forecastDataOf } from '../models/forecasts/data.js';
import { cursorPage } from '../paging.js';
import { answer, THREADS, threadView, type ThreadRecord } from '../models/chat.js';
import { addNote } from '../models/context/files.js';
import type { Treatment } from '../../schemas/enums.js';
import { findVisibleTask } from '../models/forecasts/views.js';
import { handlersFor, type HandlerContext } from './types.js';

function thread(ctx: HandlerContext, taskId: string, threadId: string): ThreadRecord {
  const found = ctx.store.collection(THREADS).get(threadId);
  if (!found || found.taskId !== taskId) throw notFound(`threadId: no conversation ${threadId} on forecast ${taskId}`);
  return found;
}

export const chatHandlers = handlersFor(ops, {
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
});
