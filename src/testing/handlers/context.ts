/**
 * Question context: notes (used up by the next forecast), files (uploads that finish processing on
 * the clock) and readiness. Who may see a question may read and manage its context.
 * @module
 */
import { contextOperations as nops, fileOperations as fops } from '../../api/context.js';
import { conflict, MockHttpError, notFound, Reply } from '../http.js';
import { addNote, CONTEXT_NOTES, deleteFile, editFile, fileView, filesOf, findFile, replaceFile, storeFile, type UploadInput } from '../models/context/files.js';
import { findVisibleQuestion } from '../models/question.js';
import { cursorPage } from '../paging.js';
import { handlersFor, type HandlerContext } from './types.js';

const questionOf = (ctx: HandlerContext) => findVisibleQuestion(ctx, ctx.pathParams['question_id']!).id;

/** 403 `uploads_disabled` when the caller's organization turned uploads off. */
export function requireUploads(ctx: HandlerContext): void {
  if (ctx.uploadsDisabled) throw new MockHttpError(403, 'uploads_disabled', 'file: your organization turned file uploads off');
}

function note(ctx: HandlerContext) {
  const questionId = questionOf(ctx);
  const found = ctx.store.collection(CONTEXT_NOTES).get(ctx.pathParams['note_id']!);
  if (!found || found.questionId !== questionId) throw notFound(`noteId: no note ${ctx.pathParams['note_id']} on question ${questionId}`);
  return found;
}

const file = (ctx: HandlerContext) => findFile(ctx.store, { questionId: questionOf(ctx) }, ctx.pathParams['file_id']!);

export const contextHandlers = [
  ...handlersFor(nops, {
    list: (ctx) => {
      const questionId = questionOf(ctx);
      return cursorPage(ctx.store.collection(CONTEXT_NOTES).list((n) => n.questionId === questionId), ctx.input, (n) => n.id);
    },
    create: (ctx) => addNote(ctx, questionOf(ctx), ctx.input.text, ctx.input.treatment ?? 'consider'),
    update: (ctx) => {
      const found = note(ctx);
      if (found.usedByTaskId) throw conflict(`noteId: forecast ${found.usedByTaskId} already used this note; add a new one`);
      const { text = found.text, treatment = found.treatment } = ctx.input;
      return Object.assign(found, { text, treatment, updatedAt: ctx.timestamp() });
    },
    delete: (ctx) => {
      ctx.store.collection(CONTEXT_NOTES).delete(note(ctx).id);
    },
    ready: (ctx) => {
      const files = filesOf(ctx.store, { questionId: questionOf(ctx) });
      // The mock's choice: while a file is processing, Retry-After says when the next one is done.
      const next = Math.min(...files.map((f) => f.timer?.at ?? Infinity));
      const headers: Record<string, string> = next < Infinity ? { 'retry-after': String(ctx.clock.realSeconds(next - ctx.clock.now())) } : {};
      return new Reply({ ready: files.every((f) => f.status === 'ready') }, { headers });
    },
  }),
  ...handlersFor(fops, {
    list: (ctx) => cursorPage(filesOf(ctx.store, { questionId: questionOf(ctx) }).map(fileView), ctx.input, (f) => f.id),
    upload: async (ctx) => {
      const questionId = questionOf(ctx);
      requireUploads(ctx);
      return fileView(await storeFile(ctx, { questionId }, ctx.input as UploadInput));
    },
    retrieve: (ctx) => fileView(file(ctx)),
    update: (ctx) => fileView(editFile(ctx, ctx.input, file(ctx))),
    delete: (ctx) => deleteFile(ctx.store, file(ctx)),
    replace: async (ctx) => {
      const found = file(ctx);
      requireUploads(ctx);
      return fileView(await replaceFile(ctx, found, ctx.input as UploadInput));
    },
  }),
];
