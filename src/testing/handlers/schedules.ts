/**
 * Schedules and automatic reruns: a question's schedule and watch, and the lists of both.
 * @module
 */
import { questionScheduleOperations as sops, questionWatchOperations as wops, scheduleOperations, watchOperations } from '../../api/schedules.js';
import { notFound } from '../http.js';
import { deleteSchedule, putSchedule, scheduleView, SCHEDULES, WATCHES, watchView } from '../models/automation.js';
import { chargeForecast } from '../models/credits.js';
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
      const watches = ctx.store.collection(WATCHES);
      const old = watches.get(questionId);
      // Monitoring costs a monthly fee, charged when a watch is switched on (409 and no change when short).
      if (ctx.input.enabled && !old?.enabled) chargeForecast(ctx.store, ctx.principal.organizationId, 'monitoring.question_month');
      if (old) watches.delete(questionId);
      const now = ctx.timestamp();
      const record = watches.insert({
        id: questionId,
        questionId,
        ...owner(ctx),
        enabled: ctx.input.enabled,
        changeThreshold: ctx.input.changeThreshold ?? old?.changeThreshold ?? null,
        presetId: ctx.input.presetId === undefined ? (old?.presetId ?? null) : ctx.input.presetId,
        createdAt: old?.createdAt ?? now,
        updatedAt: now,
      });
      return watchView(record);
    },
    delete: (ctx) => {
      if (!ctx.store.collection(WATCHES).delete(questionOf(ctx).id)) throw notFound('The question has no watch');
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
