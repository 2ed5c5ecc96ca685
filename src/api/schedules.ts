/**
 * The Schedules and automatic reruns group: a question's schedule and watch, and every schedule and
 * watch. Declarations only: the client's resources and the mock's handlers both read them.
 * @module
 */
import { defineOperations } from '../core/operation.js';
import { accepts, returns } from '../schemas/returns.js';
import { FORECASTS } from './scopes.js';

const group = { scopes: FORECASTS };

/** A question's schedule, of the Schedules and automatic reruns group. */
export const questionScheduleOperations = defineOperations('questions.schedule', {
  retrieve: { method: 'GET', path: '/questions/{question_id}/schedule', response: returns('Schedule') },
  update: { method: 'PUT', path: '/questions/{question_id}/schedule', params: accepts('ScheduleParams'), response: returns('Schedule') },
  delete: { method: 'DELETE', path: '/questions/{question_id}/schedule', status: 204 },
}, group);

/** A question's watch, of the Schedules and automatic reruns group. */
export const questionWatchOperations = defineOperations('questions.watch', {
  retrieve: { method: 'GET', path: '/questions/{question_id}/watch', response: returns('Watch') },
  update: { method: 'PUT', path: '/questions/{question_id}/watch', params: accepts('WatchParams'), response: returns('Watch') },
  delete: { method: 'DELETE', path: '/questions/{question_id}/watch', status: 204 },
}, group);

/** `GET /schedules`. */
export const scheduleOperations = defineOperations('schedules', {
  list: { method: 'GET', path: '/schedules', params: accepts('AutomationListParams'), response: returns('Schedule'), paging: 'cursor' },
}, group);

/** `GET /watches`. */
export const watchOperations = defineOperations('watches', {
  list: { method: 'GET', path: '/watches', params: accepts('AutomationListParams'), response: returns('Watch'), paging: 'cursor' },
}, group);
