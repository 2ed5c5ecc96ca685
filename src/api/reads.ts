/**
 * Readers of answers whose shape the spec does not show (an operation's `read`): plain code, so the
 * declarations that name them load no schema.
 * @module
 */
import type { DecisionForecastRun } from '../schemas/records/decisions.js';
import type { CancelItemResult, ForecastCancelBatchResult } from '../schemas/records/forecast-batches.js';
import { isRecord } from '../core/text.js';

const CANCEL_OUTCOMES = ['cancelled', 'already_finished', 'rejected'] as const;

/**
 * Reads a bulk cancel answer, whose shape the spec does not show, into `{items, counts}`. Accepted:
 * a list of `{taskId, status}` (also `id` or `task_id`) under `items`, `results`, `data` or `tasks`,
 * or bare; a map from task id to its status (or to `{status}`) under `items` or `results`; or the ids
 * grouped by outcome (`{cancelled: [...], already_finished: [...], rejected: [...]}`). `undefined`
 * when none of these fits.
 */
export function readCancelBatch(json: unknown): ForecastCancelBatchResult | undefined {
  const body = json as Record<string, unknown> | null;
  const counts = isRecord(body) && isRecord(body['counts']) ? body['counts'] : undefined;
  const listed = Array.isArray(json) ? json : isRecord(body) ? [body['items'], body['results'], body['data'], body['tasks']].find(Array.isArray) : undefined;
  const map = isRecord(body) ? [body['items'], body['results']].find(isRecord) : undefined;
  const grouped = isRecord(body) ? CANCEL_OUTCOMES.filter((status) => Array.isArray(body[status])) : [];
  let items: Array<CancelItemResult | undefined> | undefined;
  if (listed) {
    items = listed.map((entry: unknown) => {
      if (!isRecord(entry)) return undefined;
      const taskId = entry['taskId'] ?? entry['id'] ?? entry['task_id'];
      return typeof taskId === 'string' && typeof entry['status'] === 'string' ? ({ ...entry, taskId, status: entry['status'] } as CancelItemResult) : undefined;
    });
  } else if (map) {
    items = Object.entries(map).map(([taskId, value]) => {
      const status = isRecord(value) ? value['status'] : value;
      return typeof status === 'string' ? ({ ...(isRecord(value) ? value : {}), taskId, status } as CancelItemResult) : undefined;
    });
  } else if (grouped[0]) {
    items = grouped.flatMap((status) => (body![status] as unknown[]).map((taskId) => (typeof taskId === 'string' ? { taskId, status } : undefined)));
  }
  // One entry that is none of these, and the answer is not read.
  return items?.every(Boolean) ? { items: items as CancelItemResult[], counts } : undefined;
}

/**
 * Reads a decision's forecast run: a record whose `items` are records, each `taskId` a string, null
 * or left out (the flows read the task ids; a start that was answered otherwise has no run to
 * show). `undefined` when it is not one.
 */
export const readRun = (json: unknown): DecisionForecastRun | undefined =>
  isRecord(json) && Array.isArray(json['items']) && json['items'].every((i) => isRecord(i) && (i['taskId'] == null || typeof i['taskId'] === 'string'))
    ? (json as unknown as DecisionForecastRun)
    : undefined;
