import { APIResource } from '../core/resource.js';
import { questionScheduleOperations, questionWatchOperations, scheduleOperations, watchOperations } from '../api/schedules.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/options.js';
import type { AutomationListParams, ScheduleParams, WatchParams } from '../schemas/schedules.js';
import type { Schedule, Watch } from '../schemas/records/schedules.js';

/**
 * A question's schedule of repeated forecasts (`client.questions.schedule`): no faster than every
 * 3 hours, at most 50 forecasts, each one paid.
 * @example
 * ```ts
 * const s = await client.questions.schedule.update(questionId, { intervalCount: 12, intervalUnit: 'hours' });
 * console.log(s.nextDueAt, s.occurrenceCount);
 * ```
 */
export class QuestionSchedule extends APIResource {
  /**
   * Reads the schedule (404 when there is none).
   * @example
   * ```ts
   * const schedule = await client.questions.schedule.retrieve(questionId);
   * ```
   */
  retrieve(questionId: string, options?: RequestOptions): APIPromise<Schedule> {
    return this._call(questionScheduleOperations.retrieve, [questionId], undefined, options);
  }

  /**
   * Creates or replaces the schedule.
   * @example
   * ```ts
   * await client.questions.schedule.update(questionId, { intervalCount: 1, intervalUnit: 'days', presetId });
   * ```
   */
  update(questionId: string, params: ScheduleParams, options?: RequestOptions): APIPromise<Schedule> {
    return this._call(questionScheduleOperations.update, [questionId], params, options);
  }

  /**
   * Deletes the schedule; a running forecast is left alone.
   * @example
   * ```ts
   * await client.questions.schedule.delete(questionId);
   * ```
   */
  delete(questionId: string, options?: RequestOptions): APIPromise<void> {
    return this._call(questionScheduleOperations.delete, [questionId], undefined, options);
  }
}

/**
 * A question's watch (`client.questions.watch`): a new forecast starts when the news moves the picture
 * by more than `changeThreshold`, in the question's own units. Costs a monthly fee plus each forecast.
 * @example
 * ```ts
 * await client.questions.watch.update(questionId, { enabled: true, changeThreshold: 0.05 });
 * ```
 */
export class QuestionWatch extends APIResource {
  /**
   * Reads the watch (404 when there is none).
   * @example
   * ```ts
   * const watch = await client.questions.watch.retrieve(questionId);
   * ```
   */
  retrieve(questionId: string, options?: RequestOptions): APIPromise<Watch> {
    return this._call(questionWatchOperations.retrieve, [questionId], undefined, options);
  }

  /**
   * Sets the watch.
   * @example
   * ```ts
   * await client.questions.watch.update(questionId, { enabled: false });
   * ```
   */
  update(questionId: string, params: WatchParams, options?: RequestOptions): APIPromise<Watch> {
    return this._call(questionWatchOperations.update, [questionId], params, options);
  }

  /**
   * Stops the watch.
   * @example
   * ```ts
   * await client.questions.watch.delete(questionId);
   * ```
   */
  delete(questionId: string, options?: RequestOptions): APIPromise<void> {
    return this._call(questionWatchOperations.delete, [questionId], undefined, options);
  }
}

/**
 * Every schedule you set.
 * @example
 * ```ts
 * for await (const s of client.schedules.list()) console.log(s.questionId, s.nextDueAt);
 * ```
 */
export class Schedules extends APIResource {
  /**
   * Lists schedules. Filters beyond paging are not shown in the spec.
   * @example
   * ```ts
   * const { data } = await client.schedules.list({ limit: 50 });
   * ```
   */
  list(params?: AutomationListParams, options?: RequestOptions): PagePromise<Schedule> {
    return this._list(scheduleOperations.list, [], params, options);
  }
}

/**
 * Every watch you set.
 * @example
 * ```ts
 * for await (const w of client.watches.list()) console.log(w.questionId, w.enabled);
 * ```
 */
export class Watches extends APIResource {
  /**
   * Lists watches. Filters beyond paging are not shown in the spec.
   * @example
   * ```ts
   * const { data } = await client.watches.list();
   * ```
   */
  list(params?: AutomationListParams, options?: RequestOptions): PagePromise<Watch> {
    return this._list(watchOperations.list, [], params, options);
  }
}
