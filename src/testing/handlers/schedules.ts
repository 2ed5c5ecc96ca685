/**
 * Schedules and automatic reruns: a question's schedule and watch, and the lists of both.
 * @module
 */
import { questionScheduleOperations as sops, questionWatchOperations as wops, scheduleOperations, watchOperations } from '../../api/schedules.js';
import { notFound } from '../http.js';
import { deleteSchedule, deleteWatch, putSchedule, putWatch, scheduleView, SCHEDULES, WATCHES, watchView } from '../models/automation.js';
import { findVisibleQuestion } from '../models/question.js';
import { findPreset } from '../models/presets.js';
import { cursorPage } from '../paging.js';
import { handlersFor, type HandlerContext } from './types.js';

const questionOf = (ctx: HandlerContext) => findVisibleQuestion(ctx, ctx.pathParams['question_id']!);
const owner = (ctx: HandlerContext) => ({ ownerId: ctx.principal.userId, organizationId: ctx.principal.organizationId });
/** A schedule's or watch's `presetId` must name a preset the caller sees (or be `none`/null): 404 otherwise. */
const checkPreset = (ctx: HandlerContext, presetId: string | null | undefined) => presetId && presetId !== 'none' && findPreset(ctx.store, ctx.principal, presetId);

export const scheduleHandlers = [
  ...handlersFor(sops, {
    retrieve: (ctx) => {
      const found = ctx.store.collection(SCHEDULES).get(questionOf(ctx).id);
      if (!found) throw notFound('The question has no schedule');
      return scheduleView(found);
    },
    update: (ctx) => {
      const questionId = questionOf(ctx).id;
      checkPreset(ctx, ctx.input.presetId);
      return scheduleView(putSchedule(ctx, owner(ctx), questionId, ctx.input));
    },
    delete: (ctx) => {
      if (!deleteSchedule(ctx, questionOf(ctx).id)) throw notFound('The question has no schedule');
    },
  }),
  ...handlersFor(wops, {
    retrieve: (ctx) => {
      const found = ctx.store.collection(WATCHES).get(questionOf(ctx).id);
      if (!found) throw notFound('The question has no watch');
      return watchView(found);
    },
    update: (ctx) => {
      const questionId = questionOf(ctx).id;
      checkPreset(ctx, ctx.input.presetId);
      // Monitoring costs a monthly fee: charged when a watch is switched on, then each month it stays on.
      return watchView(putWatch(ctx, owner(ctx), questionId, ctx.input));
    },
    delete: (ctx) => {
      if (!deleteWatch(ctx, questionOf(ctx).id)) throw notFound('The question has no watch');
    },
  }),
  ...handlersFor(scheduleOperations, {
    list: (ctx) =>
      cursorPage(ctx.store.collection(SCHEDULES).list((s) => s.ownerId === ctx.principal.userId).map(scheduleView), ctx.input, (s) => s.questionId!),
  }),
  ...handlersFor(watchOperations, {
    list: (ctx) =>
      cursorPage(ctx.store.collection(WATCHES).list((w) => w.ownerId === ctx.principal.userId).map(watchView), ctx.input, (w) => w.questionId!),
  }),
];
