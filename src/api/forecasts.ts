/**
 * The Forecasts group: forecast tasks, run modes and a question's forecasts. Declarations only: the
 * client's resources and the mock's handlers both read them.
 * @module
 */
import { defineOperations } from '../core/operation.js';
import { accepts, returns } from '../schemas/returns.js';
import { readCancelBatch } from './reads.js';
import { FORECASTS } from './scopes.js';
import { batchStart, finalCancelled, finalListed, finalTask, singleStart } from './task-slots.js';

const group = { scopes: FORECASTS };

/** The Forecasts group (7 of its 9 operations; the other two are `questions.forecasts.*`). */
export const forecastOperations = defineOperations('forecasts', {
  list: { method: 'GET', path: '/forecasts', params: accepts('ForecastListParams'), response: returns('ForecastListItem'), paging: 'cursor', finalTasks: finalListed },
  create: { method: 'POST', path: '/forecasts', params: accepts('ForecastCreateParams'), response: returns('ForecastTask'), status: 202, idempotent: true, starts: singleStart },
  retrieve: { method: 'GET', path: '/forecasts/{task_id}', params: accepts('ForecastRetrieveParams'), response: returns('ForecastTask'), finalTasks: finalTask },
  // "Repeating the cancel is safe" (the spec's task states): retried like a GET.
  cancel: { method: 'POST', path: '/forecasts/{task_id}/cancel', response: returns('ForecastTask'), finalTasks: finalTask, repeatable: true },
  createBatch: { method: 'POST', path: '/forecasts/batch', params: accepts('ForecastBatchParams'), response: returns('ForecastBatchResult'), status: 202, idempotent: true, starts: batchStart },
  cancelBatch: {
    method: 'POST',
    path: '/forecasts/cancel',
    params: accepts('ForecastCancelBatchParams'),
    response: returns('ForecastCancelBatchResult'),
    read: { expects: 'a result per task, such as {items: [{taskId, status}]}', from: readCancelBatch },
    finalTasks: finalCancelled,
    repeatable: true,
  },
}, group);

/** `GET /run-modes`, of the Forecasts group. */
export const runModeOperations = defineOperations('runModes', {
  list: { method: 'GET', path: '/run-modes', params: accepts('RunModeListParams'), response: returns('RunMode'), paging: 'cursor' },
}, group);

/** A question's forecasts, of the Forecasts group. */
export const questionForecastOperations = defineOperations('questions.forecasts', {
  list: { method: 'GET', path: '/questions/{question_id}/forecasts', params: accepts('QuestionForecastListParams'), response: returns('ForecastListItem'), paging: 'cursor', finalTasks: finalListed },
  create: { method: 'POST', path: '/questions/{question_id}/forecasts', params: accepts('QuestionForecastCreateParams'), response: returns('ForecastTask'), status: 202, starts: singleStart },
}, group);
