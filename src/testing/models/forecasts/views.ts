/**
 * The forecast task as reads show it: `GET /forecasts/{task_id}` and an item of `GET /forecasts`,
 * from the record the state machines (`task.ts`) move.
 * @module
 */
import type { TaskStatus } from '../../../schemas/forecasts.js';
import type { ForecastListItem, ForecastTask } from '../../../schemas/records/forecasts.js';
import type { CallEnv } from '../../env.js';
import { notFound } from '../../http.js';
import { API_PREFIX } from '../../router.js';
import type { ForecastRecord, MockStore, QuestionRecord } from '../../store.js';
import { connectionWarnings, taskConnections } from '../connections.js';
import { canSeePreset, PRESETS, type Viewer } from '../presets.js';
import { canSee } from '../question.js';
import { forecastDataOf } from './data.js';

const PROGRESS: Record<TaskStatus, (r: ForecastRecord) => string> = {
  queued: () => 'Queued: waiting for a forecaster',
  running_subforecasts: (r) => `Researching: ${done(r)} of ${r.subforecasts.length} subforecasts finished`,
  synthesizing: () => 'Combining the subforecasts',
  completed: () => 'Forecast complete',
  failed: (r) => r.failureMessage ?? 'The forecast failed',
  cancelled: () => 'Cancelled',
};
const done = (r: ForecastRecord) => r.subforecasts.filter((s) => s.status === 'completed').length;

/** Report texts: null until the report is `completed`. */
function reportOf(r: ForecastRecord, question: QuestionRecord['question']) {
  const ready = r.reportStatus === 'completed';
  const short = `Our forecast for "${question.title}" weighs the base rate against recent news; ${r.subforecasts.length} independent subforecasts broadly agreed.`;
  return {
    status: r.reportStatus,
    short: ready ? short : null,
    medium: ready ? `## Summary\n\n${short}\n\n## Key drivers\n\n- Base rates\n- Recent developments` : null,
    detailed: ready ? `## Summary\n\n${short}\n\n## Method\n\nEach subforecast researched the question on its own.` : null,
  };
}

const SOURCES = [{ kind: 'web', display_name: 'Example News', url: 'https://news.example/article' }];

/** Query options of a read. */
export interface ViewOptions {
  fields?: 'numeric' | undefined;
  includeSubforecasts?: boolean | undefined;
  /** Who reads it: the preset's `id` and `name` show only to a reader who may see the preset (default: shown). */
  viewer?: Viewer | undefined;
}

/** `preset` of a task: null when none was used; its id and name only for a reader who may see it. */
function presetOf(store: MockStore, r: ForecastRecord, viewer: Viewer | undefined): ForecastTask['preset'] {
  if (!r.presetId) return null;
  const p = store.collection(PRESETS).get(r.presetId);
  return p && (!viewer || canSeePreset(p, viewer)) ? { used: true, id: p.id, name: p.name } : { used: true };
}

/** The task as `GET /forecasts/{task_id}` shows it. */
export function taskView(store: MockStore, r: ForecastRecord, o: ViewOptions = {}): ForecastTask {
  const question = store.questions.get(r.questionId)!.question;
  const completed = r.status === 'completed';
  const numeric = o.fields === 'numeric';
  // One object for every status; the record's status decides which branch of the union it is.
  return <ForecastTask>{
    id: r.id,
    type: 'forecast_task',
    status: r.status,
    createdAt: r.createdAt,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    question,
    pollingUrl: `${API_PREFIX}/forecasts/${r.id}`,
    progressMessage: PROGRESS[r.status](r),
    partial: !completed,
    completedSubforecastCount: done(r),
    plannedSubforecastCount: r.subforecasts.length,
    subforecasts: r.subforecasts.map((s) => ({
      ...s,
      ...(o.includeSubforecasts && s.status === 'completed'
        ? {
            forecastData: forecastDataOf(store, question, r.id, `:sub:${s.sequenceIndex}`),
            writeUp: `Subforecast ${s.sequenceIndex + 1} looked at the question from its own angle.`,
            sources: SOURCES,
          }
        : {}),
    })),
    creditsCharged: r.creditsCharged,
    creditsRefunded: 0,
    runMode: r.runMode,
    forecast: completed
      ? {
          id: r.forecastId!,
          generatedAt: r.generatedAt!,
          forecastData: forecastDataOf(store, question, r.id),
          ...(numeric ? {} : { report: reportOf(r, question), sources: SOURCES }),
        }
      : null,
    error: r.status === 'failed' ? { message: r.failureMessage ?? 'The forecast failed' } : null,
    preset: presetOf(store, r, o.viewer),
    connections: taskConnections(store, r, done(r)),
    warnings: [...(r.warnings ?? []).map((code) => ({ code })), ...connectionWarnings(store, r, question.visibility)],
  };
}

/** The task as an item of `GET /forecasts` shows it. */
export function listItemView(store: MockStore, r: ForecastRecord, o: ViewOptions = {}): ForecastListItem {
  const question = store.questions.get(r.questionId)!.question;
  const completed = r.status === 'completed';
  const report = reportOf(r, question);
  return {
    taskId: r.id,
    status: r.status,
    forecastData: completed ? forecastDataOf(store, question, r.id) : null,
    // The spec's item always carries the report's status and short text; `pending` until writing starts.
    ...(o.fields === 'numeric' ? {} : { report: { status: report.status, short: report.short } }),
    questionId: r.questionId,
    runMode: r.runMode,
    createdAt: r.createdAt,
    progressMessage: PROGRESS[r.status](r),
    completedSubforecastCount: done(r),
    plannedSubforecastCount: r.subforecasts.length,
    autoforecast: r.startedBy === 'api' ? null : r.startedBy,
  };
}

/** A task the caller may see: its own, or one on a question its organization shares. Else 404. */
export function findVisibleTask(ctx: CallEnv, id: string): ForecastRecord {
  const record = ctx.store.forecasts.get(id);
  if (!record || !visibleTask(ctx, record)) throw notFound(`taskId: no forecast task ${id}`);
  return record;
}

/** Whether the caller may see a task: its own, or one on a question it sees. */
export function visibleTask(ctx: CallEnv, r: ForecastRecord): boolean {
  const question = ctx.store.questions.get(r.questionId);
  return r.ownerId === ctx.principal.userId || (question !== undefined && canSee(question, ctx.principal));
}
