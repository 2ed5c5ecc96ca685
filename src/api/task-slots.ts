/**
 * What the operations that start or show forecast tasks declare for a coordinator: how many
 * active-forecast slots a start needs and which tasks it started (`starts`), and which tasks an
 * answer shows final (`finalTasks`). Read from the answers as the service gives them (the spec's
 * field names), leniently: a shape that does not fit shows no task.
 * @module
 */
import type { TaskFinalNotice } from '../core/coordination.js';
import type { ForecastStart } from '../core/operation.js';
import { FINAL_TASK_STATUSES } from '../schemas/enums.js';
import { MAX_ACTIVE_FORECASTS } from './limits.js';

type Fields = Record<string, unknown>;
const fields = (value: unknown): Fields => (typeof value === 'object' && value !== null ? (value as Fields) : {});
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The task ids of a batch-like answer's items (`{items: [{taskId}]}`): refused items have none. */
const itemTaskIds = (answer: unknown): string[] => list(fields(answer)['items']).flatMap((item) => text(fields(item)['taskId']) ?? []);

/** `POST /forecasts`, `POST /questions/{question_id}/forecasts`: one slot; the answer is the task. */
export const singleStart: ForecastStart = {
  slots: () => 1,
  taskIds: (task) => [text(fields(task)['id'])].flatMap((id) => id ?? []),
};

/** `POST /forecasts/batch`: a slot per item; the accepted items name their tasks. */
export const batchStart: ForecastStart = {
  slots: (params) => list(fields(params)['items']).length,
  countedBy: 'items',
  taskIds: itemTaskIds,
};

/**
 * `POST /decisions/{decision_id}/forecasts`: a slot per question asked for. Without `questionIds`
 * it forecasts every question of the decision, a count the call does not tell: it then holds
 * {@link MAX_ACTIVE_FORECASTS} slots (it runs when no other start holds any), and gives back those
 * its answer does not use.
 */
export const decisionStart: ForecastStart = {
  slots: (params) => {
    const ids = fields(params)['questionIds'];
    return Array.isArray(ids) ? new Set(ids).size : MAX_ACTIVE_FORECASTS;
  },
  taskIds: itemTaskIds,
};

/** A task in its final status, as a notice; `undefined` for a task still running or a shape that does not fit. */
function finalNotice(taskId: unknown, status: unknown): TaskFinalNotice | undefined {
  const id = text(taskId);
  const s = text(status);
  return id !== undefined && s !== undefined && FINAL_TASK_STATUSES.has(s) ? { taskId: id, status: s } : undefined;
}

/** A task read (`GET /forecasts/{task_id}`, a cancel): final or not. */
export const finalTask = (task: unknown): TaskFinalNotice[] => [finalNotice(fields(task)['id'], fields(task)['status'])].flatMap((n) => n ?? []);

/**
 * A page of forecasts (`{data: [{taskId, status}]}`): its final tasks. A task the same page also
 * shows not final (a broken answer) is not one: its slot stays held.
 */
export function finalListed(page: unknown): TaskFinalNotice[] {
  const items = list(fields(page)['data']).map(fields);
  const notices = items.map((item) => finalNotice(item['taskId'], item['status']));
  const notFinal = new Set(items.flatMap((item, i) => (notices[i] === undefined ? [item['taskId']] : [])));
  return notices.flatMap((n) => (n === undefined || notFinal.has(n.taskId) ? [] : [n]));
}

/** Every task id a page of the forecasts list shows, final or not. @internal */
export const listedTaskIds = (page: unknown): string[] => list(fields(page)['data']).flatMap((item) => text(fields(item)['taskId']) ?? []);

/** A bulk cancel's results: `cancelled` and `already_finished` tasks are final (their status is not known: `cancelled` is). */
export const finalCancelled = (result: unknown): TaskFinalNotice[] =>
  list(fields(result)['items']).flatMap((item) => {
    const { taskId, status } = fields(item);
    const id = text(taskId);
    if (id === undefined) return [];
    if (status === 'cancelled') return [{ taskId: id, status: 'cancelled' }];
    return status === 'already_finished' ? [{ taskId: id }] : [];
  });

