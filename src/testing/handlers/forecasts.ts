/**
 * Forecasts: start (one, a batch, on a question), read with `Retry-After`, list with filters, cancel
 * (one or in bulk), run modes. The lifecycle itself is `models/forecast-task.ts`.
 * @module
 */
import { forecastOperations as ops, questionForecastOperations as qops, runModeOperations } from '../../api/forecasts.js';
import { QUEUED_RETRY_AFTER_MS, RUNNING_RETRY_AFTER_MS } from '../../api/limits.js';
import { ForecastCreateParams, type RunModeKey } from '../../schemas/forecasts.js';
import type { ForecastListItem } from '../../schemas/records/forecasts.js';
import { MockHttpError, Reply, type HeaderMap } from '../http.js';
import { MAX_JSON_BODY_BYTES, validate } from '../input.js';
import { priceOf } from '../models/credits.js';
import {
  DEFAULT_RUN_MODE,
  RUN_MODE_PLANS,
  cancelForecast,
  isFinalTask,
  startForecast,
} from '../models/forecasts/task.js';
import { findVisibleTask, listItemView, taskView, visibleTask } from '../models/forecasts/views.js';
import { findVisibleQuestion, insertQuestion, type QuestionDefinition } from '../models/question.js';
import { findTemplate, questionFromTemplate, type FillBudget } from '../models/templates.js';
import type { ConnectionSwitches } from '../models/connections.js';
import { cursorPage } from '../paging.js';
import type { ForecastRecord, QuestionRecord } from '../store.js';
import { handlersFor, type HandlerContext, type InputOf } from './types.js';

type CreateBody = InputOf<typeof ops.create>;

/** Context notes sent with a forecast need `questions:write` as well as `forecasts:write`. */
function requireContextScope(ctx: HandlerContext, context: readonly unknown[] | undefined): void {
  if (context?.length && !ctx.principal.scopes.has('questions:write')) {
    throw new MockHttpError(403, 'permission_denied', 'context: sending context notes needs the questions:write scope as well');
  }
}

/** Starts a forecast from a `POST /forecasts` body (also each batch item, whose templates share `fill`). */
function startFromBody(ctx: HandlerContext, body: CreateBody, fill?: FillBudget): ForecastRecord {
  requireContextScope(ctx, body.context);
  let question: QuestionRecord;
  let created = false;
  if (body.questionId !== undefined) question = findVisibleQuestion(ctx, body.questionId);
  else {
    const inline = body.question!;
    const built =
      'templateId' in inline && typeof inline.templateId === 'string'
        ? questionFromTemplate(findTemplate(ctx, inline.templateId, 'question.templateId'), inline, 'question.', fill)
        : { definition: inline as QuestionDefinition, sourceTemplate: undefined, presetId: null };
    question = ctx.store.questions.get(insertQuestion(ctx, built.definition, built.sourceTemplate, built.presetId).id)!;
    created = true;
  }
  try {
    return start(ctx, question, body);
  } catch (err) {
    // A refused forecast leaves nothing behind, not even its inline question.
    if (created) ctx.store.questions.delete(question.id);
    throw err;
  }
}

function start(
  ctx: HandlerContext,
  question: QuestionRecord,
  body: { runMode?: RunModeKey | undefined; presetId?: string | undefined; allowIncompleteContext?: boolean | undefined; connections?: ConnectionSwitches | undefined },
): ForecastRecord {
  return startForecast(ctx, {
    question,
    ownerId: ctx.principal.userId,
    organizationId: ctx.principal.organizationId,
    runMode: body.runMode,
    presetId: body.presetId,
    allowIncompleteContext: body.allowIncompleteContext,
    connections: body.connections,
    startedBy: 'api',
  });
}

/** A filter that may repeat and hold commas, as a list (or `undefined` when absent). */
function many(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

/**
 * `{type, message}` of a refused item. A message naming a field of the item's body (`questionId: …`,
 * `question.templateValues: …`) names it from the batch (`items.3.questionId: …`), as the body's own
 * checks do.
 */
const itemError = (err: unknown, at = '') => {
  if (!(err instanceof MockHttpError)) throw err;
  const named = at && !err.message.startsWith('items.') && (err.field !== undefined || /^[a-z][\w.]*: /.test(err.message));
  return { type: err.type, message: named ? at + err.message : err.message, ...err.extra };
};

/**
 * How long a reader of this task should wait before reading again, in mock ms, or `undefined` once
 * nothing will change: the spec's 15 s queued and 120 s running; and, the mock's own choice, 15 s
 * while a completed task's report is still being written (so a client waiting for the report on a
 * fast clock is told a real-time wait too).
 */
function readAgainIn(record: ForecastRecord): number | undefined {
  if (record.status === 'queued') return QUEUED_RETRY_AFTER_MS;
  if (!isFinalTask(record)) return RUNNING_RETRY_AFTER_MS;
  const writing = record.status === 'completed' && (record.reportStatus === 'pending' || record.reportStatus === 'writing');
  return writing ? QUEUED_RETRY_AFTER_MS : undefined;
}

/** `Retry-After` in real seconds for `wait` mock ms, or no header. */
const retryAfter = (ctx: HandlerContext, wait: number | undefined): HeaderMap =>
  wait === undefined ? {} : { 'retry-after': String(ctx.clock.realSeconds(wait)) };

/**
 * `Retry-After` of an answer that started forecasts: the queued wait, 15 s. The mock's own choice
 * (the spec states it on reads only), so that a client's first read after a start on a fast clock
 * is a real-time wait the mock states, not the client's own 15 s fallback. A client stays correct
 * without it: the SDK falls back to the spec's 15 s.
 */
const started = (ctx: HandlerContext): HeaderMap => retryAfter(ctx, QUEUED_RETRY_AFTER_MS);

/**
 * A page of list items. The mock's own choice: when a listed task is not settled, the page carries
 * `Retry-After` (the longest wait among them), so `waitMany` on a fast clock waits real seconds.
 */
const page = (ctx: HandlerContext, records: ForecastRecord[], query: { fields?: 'numeric' | undefined; limit?: number | undefined; cursor?: string | undefined }) => {
  const envelope = cursorPage<ForecastListItem>(records.map((r) => listItemView(ctx.store, r, query)), query, (t) => t.taskId);
  const shown = new Set(envelope.data.map((item) => item.taskId));
  const waits = records.filter((r) => shown.has(r.id)).map(readAgainIn).filter((w) => w !== undefined);
  return new Reply(envelope, { headers: retryAfter(ctx, waits.length > 0 ? Math.max(...waits) : undefined) });
};

export const forecastHandlers = [
  ...handlersFor(runModeOperations, {
    list: (ctx) =>
      cursorPage(
        Object.entries(RUN_MODE_PLANS).map(([key, plan]) => ({
          key,
          name: plan.name,
          credits: priceOf(ctx.store, `forecast.${key}`),
          approximateMinutes: plan.minutes,
          isDefault: key === DEFAULT_RUN_MODE,
        })),
        ctx.input,
        (m) => m.key,
      ),
  }),
  ...handlersFor(ops, {
    create: (ctx) => new Reply(taskView(ctx.store, startFromBody(ctx, ctx.input), { viewer: ctx.principal }), { headers: started(ctx) }),
    retrieve: (ctx) => {
      const record = findVisibleTask(ctx, ctx.pathParams['task_id']!);
      return new Reply(taskView(ctx.store, record, { ...ctx.input, viewer: ctx.principal }), { headers: retryAfter(ctx, readAgainIn(record)) });
    },
    cancel: (ctx) => {
      const record = findVisibleTask(ctx, ctx.pathParams['task_id']!);
      cancelForecast(ctx, record);
      return taskView(ctx.store, record, { viewer: ctx.principal });
    },
    createBatch: (ctx) => {
      // One request's worth of filled blanks for the whole batch, not for each of its 25 items.
      const fill: FillBudget = { left: MAX_JSON_BODY_BYTES };
      const items = ctx.input.items.map((raw, index) => {
        // A refused item gives back what its blanks took.
        const left = fill.left;
        try {
          const body = validate(ForecastCreateParams, raw, `items.${index}`);
          return { index, status: 'accepted', taskId: startFromBody(ctx, body, fill).id };
        } catch (err) {
          fill.left = left;
          return { index, status: 'rejected', error: itemError(err, `items.${index}.`) };
        }
      });
      const accepted = items.filter((i) => i.status === 'accepted').length;
      return new Reply({ counts: { total: items.length, accepted, rejected: items.length - accepted }, items }, { headers: accepted > 0 ? started(ctx) : {} });
    },
    cancelBatch: (ctx) => {
      const items = ctx.input.taskIds.map((taskId) => {
        try {
          const record = findVisibleTask(ctx, taskId);
          return { taskId, status: cancelForecast(ctx, record) ? 'cancelled' : 'already_finished' };
        } catch (err) {
          return { taskId, status: 'rejected', error: itemError(err) };
        }
      });
      const count = (status: string) => items.filter((i) => i.status === status).length;
      return {
        items,
        counts: { total: items.length, cancelled: count('cancelled'), alreadyFinished: count('already_finished'), rejected: count('rejected') },
      };
    },
    list: (ctx) => {
      const { status, questionId, taskId, autoforecast, scope } = ctx.input;
      const [statuses, questions, tasks] = [many(status), many(questionId), many(taskId)];
      const records = ctx.store.forecasts.list(
        (r) =>
          (scope === 'all_visible' ? visibleTask(ctx, r) : r.ownerId === ctx.principal.userId) &&
          (!statuses || statuses.includes(r.status)) &&
          (!questions || questions.includes(r.questionId)) &&
          (!tasks || tasks.includes(r.id)) &&
          (!autoforecast || (autoforecast === 'any' ? r.startedBy !== 'api' : r.startedBy === autoforecast)),
      );
      return page(ctx, records, ctx.input);
    },
  }),
  ...handlersFor(qops, {
    list: (ctx) => {
      const question = findVisibleQuestion(ctx, ctx.pathParams['question_id']!);
      const statuses = many(ctx.input.status);
      const records = ctx.store.forecasts.list((r) => r.questionId === question.id && visibleTask(ctx, r) && (!statuses || statuses.includes(r.status)));
      return page(ctx, records, ctx.input);
    },
    create: (ctx) => {
      const question = findVisibleQuestion(ctx, ctx.pathParams['question_id']!);
      requireContextScope(ctx, ctx.input.context);
      return new Reply(taskView(ctx.store, start(ctx, question, ctx.input), { viewer: ctx.principal }), { headers: started(ctx) });
    },
  }),
];
