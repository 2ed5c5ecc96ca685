/**
 * What the forecast flows run with: the {@link FlowContext} the `Forecasts` resource builds for them
 * (closures over its private members, so the resource hands them no `this`), and the forecast task
 * tracker `waitMany` and `runMany` share.
 * @module
 */
import type { EventEmitter } from 'eventemitter3';
import type { APIPromise } from '../../core/api-promise.js';
import { parseRetryAfter, serviceMs, type ClientClock } from '../../core/clock.js';
import { clip } from '../../core/text.js';
import { MAX_PAGE_SIZE, QUEUED_RETRY_AFTER_MS, RUNNING_RETRY_AFTER_MS } from '../../api/limits.js';
import type { RequestOptions } from '../../core/options.js';
import type { PagePromise } from '../../core/pagination.js';
import { invalidAnswer } from '../../core/transport.js';
import { taskTracker, type TaskSource, type TaskTracker } from '../../core/task-tracker.js';
import type { TrackerCoordination } from '../../core/coordinated-tracker.js';
import type { BaseClient } from '../../core/base-client.js';
import type { ContextWaitOptions } from '../context/readiness.js';
import type { ForecastProgressEvents } from './progress.js';
import { FINAL_TASK_STATUSES } from '../../schemas/enums.js';
import type { ForecastBatchParams, ForecastCancelBatchParams, ForecastCreateParams, ForecastListParams, ForecastRetrieveParams } from '../../schemas/forecasts.js';
import type { ForecastBatchResult, ForecastCancelBatchResult, ForecastListItem, ForecastTask, RunMode } from '../../schemas/records/forecasts.js';

/** What the flows run with: the `Forecasts` resource's calls, its progress emitter, its client's clock. @internal */
export interface FlowContext {
  readonly clock: ClientClock;
  /** The client's coordinator and safety cadence, when it has one: waits then wake on webhook events. */
  readonly coordination: TrackerCoordination | undefined;
  retrieve(taskId: string, params?: ForecastRetrieveParams, options?: RequestOptions): APIPromise<ForecastTask>;
  list(params?: ForecastListParams, options?: RequestOptions): PagePromise<ForecastListItem>;
  create(params: ForecastCreateParams, options?: RequestOptions): APIPromise<ForecastTask>;
  createBatch(params: ForecastBatchParams, options?: RequestOptions): APIPromise<ForecastBatchResult>;
  cancelBatch(params: ForecastCancelBatchParams, options?: RequestOptions): APIPromise<ForecastCancelBatchResult>;
  readonly emitter: EventEmitter<ForecastProgressEvents>;
  waitForContext(questionId: string, options: ContextWaitOptions): Promise<unknown>;
  /** The run modes, for the prices of `runMany`'s credits. */
  runModes(options: RequestOptions): PagePromise<RunMode>;
}

/** The key's webhooks, read through the client (the webhooks resource is the caller's: an app's bundler then makes no chunk of it apart). @internal */
export type WebhookReader = () => AsyncIterable<{ enabled: boolean; eventKinds: readonly string[] }>;

/** The event kinds of a task's final statuses: waits trust webhook events only when the webhooks subscribe to all of them. */
const FINAL_EVENT_KINDS = ['forecast.completed', 'forecast.failed', 'forecast.cancelled'];

/**
 * Whether the key's enabled webhooks subscribe to every final kind: one read of them per client
 * (refreshed every 10 minutes), made only once a wait with a coordinator asks; its code loads with
 * the coordination steps, so a client without a coordinator never loads it. @internal
 */
export function finalEventCoverage(client: BaseClient, webhooks: WebhookReader): () => Promise<boolean> {
  const read = async () => {
    const kinds: (readonly string[])[] = [];
    for await (const hook of webhooks()) if (hook.enabled) kinds.push(hook.eventKinds);
    return kinds;
  };
  let coverage: Promise<{ covers(): Promise<boolean> }> | undefined;
  return async () => (await (coverage ??= import('../../core/pipeline-slots.js').then((m) => new m.WebhookCoverage(read, FINAL_EVENT_KINDS, () => client._clock)))).covers();
}

/**
 * One read of a task: the task, and the wait its answer asks for. An answer that is another task's
 * (its `id` not the one asked for) is an `InvalidResponseError`: no flow puts one task's record in
 * another's place. @internal
 */
export async function readTask(ctx: FlowContext, id: string, query: ForecastRetrieveParams, options: RequestOptions): Promise<[ForecastTask, number | undefined]> {
  const { data: task, response } = await ctx.retrieve(id, query, options).withResponse();
  if (task.id !== id) throw invalidAnswer({ response, request: 'GET /forecasts/{task_id}' }, `expected the task ${clip(id, 64)}`);
  return [task, parseRetryAfter(response.headers.get('retry-after'))];
}

/** A full task as a list item. @internal */
export const listItemOf = (id: string, t: ForecastTask): ForecastListItem => ({ ...t, taskId: id, forecastData: t.forecast?.forecastData ?? null, report: t.forecast?.report ?? undefined });

/**
 * The spec's wait before reading a task again when the answer names none: 15 s queued (and for a
 * final task still waited for, such as its report), 120 s running. @internal
 */
export const taskStateWait = (status: string): number => (status === 'queued' || FINAL_TASK_STATUSES.has(status) ? QUEUED_RETRY_AFTER_MS : RUNNING_RETRY_AFTER_MS);

/**
 * The tracker of forecast tasks: `GET /forecasts?taskId=a,b,…` 100 ids a request, `GET
 * /forecasts/{task_id}` for each the list leaves out, both with `query` and `options`. With a
 * coordinator, it wakes on the tasks' final events (see `coordinated-tracker.ts`, whose code loads
 * with the coordination steps, `pipeline-slots.ts`: a client without a coordinator never loads it). @internal
 */
export async function forecastTracker(ctx: FlowContext, query: Pick<ForecastRetrieveParams, 'fields'>, options: RequestOptions): Promise<TaskTracker<ForecastListItem>> {
  const source: TaskSource<ForecastListItem> = {
    maxIds: MAX_PAGE_SIZE,
    async listByIds(ids) {
      const { data: page, response } = await ctx.list({ ...query, taskId: ids.join(','), limit: MAX_PAGE_SIZE }, options).withResponse();
      return { items: page.data, retryAfter: parseRetryAfter(response.headers.get('retry-after')) };
    },
    async read(id) {
      const [task, retryAfter] = await readTask(ctx, id, query, options);
      return { item: listItemOf(id, task), retryAfter };
    },
    idOf: (item) => item.taskId,
    // The spec's waits are the service's time: 600 times shorter against the mock's fast clock.
    fallbackWait: (item) => serviceMs(ctx.clock, taskStateWait(item.status)),
    finalStatus: (item) => (FINAL_TASK_STATUSES.has(item.status) ? item.status : undefined),
  };
  const { coordination } = ctx;
  if (!coordination) return taskTracker(source, ctx.clock);
  const { coordinatedTracker } = await import('../../core/pipeline-slots.js');
  return coordinatedTracker(source, ctx.clock, coordination);
}
