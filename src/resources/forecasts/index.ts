import { EventEmitter } from 'eventemitter3';
import { APIResource } from '../../core/resource.js';
import { forecastOperations, questionForecastOperations, runModeOperations } from '../../api/forecasts.js';
import { chatOperations } from '../../api/chat.js';
import type { APIPromise } from '../../core/api-promise.js';
import type { PagePromise } from '../../core/pagination.js';
import type { RequestOptions } from '../../core/options.js';
import type { TypedEmitter } from '../../core/emitter.js';
import type { ForecastProgressEvents } from './progress.js';
import { cancelMany, createAndWait, createMany, waitForTask, waitForTasks, type CreateAndWaitOptions, type WaitManyOptions, type WaitOptions } from './waits.js';
import type { ForecastBatchParams, ForecastCancelBatchParams, ForecastCreateParams, ForecastListParams, ForecastRetrieveParams, QuestionForecastCreateParams, QuestionForecastListParams, RunModeListParams } from '../../schemas/forecasts.js';
import type { BatchItemResult, CancelItemResult, ForecastBatchResult, ForecastCancelBatchResult, FinishedForecastTask, ForecastListItem, ForecastTask, RunMode } from '../../schemas/records/forecasts.js';
import type { AcceptContextParams, ChatCreateParams, ChatListParams } from '../../schemas/chat.js';
import type { ChatThread, ContextNote } from '../../schemas/records/chat.js';
import { QuestionFiles } from '../context/index.js';
import type { RunManyInput, RunManyOptions, RunManyResult } from './run-many.js';
import { runManyOnDemand } from './run-many/load.js';
import { finalEventCoverage, type FlowContext } from './tracking.js';
import { Webhooks } from '../webhooks.js';
import { MAX_PAGE_SIZE } from '../../api/limits.js';

const ops = forecastOperations;

/**
 * Conversations about a completed forecast, answered from its stored reasoning (30 messages a minute).
 * @example
 * ```ts
 * const thread = await client.forecasts.chat.create(taskId, { message: 'What is the main risk?' });
 * const next = await client.forecasts.chat.create(taskId, { message: 'And the upside?', threadId: thread.id });
 * ```
 */
export class ForecastChat extends APIResource {
  /**
   * Lists the conversations on a forecast.
   * @example
   * ```ts
   * for await (const thread of client.forecasts.chat.list(taskId)) console.log(thread.id);
   * ```
   */
  list(taskId: string, params?: ChatListParams, options?: RequestOptions): PagePromise<ChatThread> {
    return this._list(chatOperations.list, [taskId], params, options);
  }

  /**
   * Asks about a completed forecast; pass `threadId` to continue a conversation. The last `assistant`
   * message of `messages` is the answer.
   * @example
   * ```ts
   * const { messages } = await client.forecasts.chat.create(taskId, { message: 'Why so low?' });
   * ```
   */
  create(taskId: string, params: ChatCreateParams, options?: RequestOptions): APIPromise<ChatThread> {
    return this._call(chatOperations.create, [taskId], params, options);
  }

  /**
   * Reads one conversation.
   * @example
   * ```ts
   * const thread = await client.forecasts.chat.retrieve(taskId, threadId);
   * ```
   */
  retrieve(taskId: string, threadId: string, options?: RequestOptions): APIPromise<ChatThread> {
    return this._call(chatOperations.retrieve, [taskId, threadId], undefined, options);
  }

  /**
   * Saves an assistant message's suggestion as a context note on the question (used by its next forecast).
   * @example
   * ```ts
   * const note = await client.forecasts.chat.acceptContext(messageId);
   * ```
   */
  acceptContext(messageId: string, params?: AcceptContextParams, options?: RequestOptions): APIPromise<ContextNote> {
    return this._call(chatOperations.acceptContext, [messageId], params, options);
  }
}

/**
 * Forecasts: start them, read them, wait for them, cancel them, one or many at a time.
 *
 * @example
 * ```ts
 * const task = await client.forecasts.createAndWait({ questionId, runMode: 'light' });
 * if (task.status === 'completed' && task.forecast?.forecastData.questionType === 'binary') {
 *   console.log(task.forecast.forecastData.payload.probability);
 * }
 * ```
 */
export class Forecasts extends APIResource {
  /** Conversations about a completed forecast. */
  readonly chat: ForecastChat = new ForecastChat(this._client);
  readonly #emitter = new EventEmitter<ForecastProgressEvents>();
  #flowContext: FlowContext | undefined;
  /**
   * Progress events of every wait of this client: `progress`, `status`, `subforecast`, `done`, `report`.
   * @example
   * ```ts
   * client.forecasts.progress.on('status', (p) => console.log(p.taskId, p.previousStatus, '→', p.status));
   * ```
   */
  readonly progress: TypedEmitter<ForecastProgressEvents> = this.#emitter;

  /**
   * What the flows run with, built once: closures over this resource (each call looks the method up
   * when made), so the flows are handed no `this` and the members only they use stay private.
   */
  #flows(): FlowContext {
    if (this.#flowContext) return this.#flowContext;
    const client = this._client;
    const coverage = finalEventCoverage(client, () => new Webhooks(client).list({ limit: MAX_PAGE_SIZE }));
    return (this.#flowContext = {
      get clock() {
        return client._clock;
      },
      get coordination() {
        const coordination = client._coordination;
        return coordination && { ...coordination, covered: coverage };
      },
      emitter: this.#emitter,
      retrieve: (taskId, params, options) => this.retrieve(taskId, params, options),
      list: (params, options) => this.list(params, options),
      create: (params, options) => this.create(params, options),
      createBatch: (params, options) => this.createBatch(params, options),
      cancelBatch: (params, options) => this.cancelBatch(params, options),
      waitForContext: (questionId, options) => new QuestionFiles(client).waitUntilReady(questionId, options),
      runModes: (options) => new RunModes(client).list({ limit: 100 }, options),
    });
  }

  /**
   * Lists forecasts, newest first. Filters `status`, `questionId` and `taskId` take one value, a
   * comma-separated list or an array.
   * @example
   * ```ts
   * const running = await client.forecasts.list({ status: ['queued', 'running_subforecasts'] });
   * ```
   */
  list(params?: ForecastListParams, options?: RequestOptions): PagePromise<ForecastListItem> {
    return this._list(ops.list, [], params, options);
  }

  /**
   * Starts a forecast on `questionId` or on an inline `question` (exactly one). Answers at once with the
   * `queued` task. An `Idempotency-Key` is sent (generated unless given) and reused on every retry.
   * @example
   * ```ts
   * const task = await client.forecasts.create({ questionId, runMode: 'standard' }, { idempotencyKey: 'job-42' });
   * ```
   */
  create(params: ForecastCreateParams, options?: RequestOptions): APIPromise<ForecastTask> {
    return this._call(ops.create, [], params, options);
  }

  /**
   * Reads a task. While it is not final the response carries `Retry-After` (see `.withResponse()`).
   * @example
   * ```ts
   * const task = await client.forecasts.retrieve(taskId, { fields: 'numeric' });
   * ```
   */
  retrieve(taskId: string, params?: ForecastRetrieveParams, options?: RequestOptions): APIPromise<ForecastTask> {
    return this._call(ops.retrieve, [taskId], params, options);
  }

  /**
   * Stops a queued or running task (work done is not refunded); repeating it is safe.
   * @example
   * ```ts
   * await client.forecasts.cancel(taskId);
   * ```
   */
  cancel(taskId: string, options?: RequestOptions): APIPromise<ForecastTask> {
    return this._call(ops.cancel, [taskId], undefined, options);
  }

  /**
   * Starts up to 25 forecasts; each item is accepted or rejected alone. For more, see {@link createMany}.
   * @example
   * ```ts
   * const { counts, items } = await client.forecasts.createBatch({ items: [{ questionId: a }, { questionId: b }] });
   * ```
   */
  createBatch(params: ForecastBatchParams, options?: RequestOptions): APIPromise<ForecastBatchResult> {
    return this._call(ops.createBatch, [], params, options);
  }

  /**
   * Cancels up to 25 tasks: `cancelled`, `already_finished` or `rejected` per task. For more, see {@link cancelMany}.
   * The spec does not show this answer's shape beyond the per-task result: the SDK reads the obvious
   * forms (a list of `{taskId, status}` under `items`, `results` or `data`, a map from task id to
   * status, or ids grouped by outcome) into `{items, counts}`, and rejects with
   * `InvalidResponseError` when none fits. Repeating a cancel is safe (the spec), so it is retried
   * like a `GET`: after a retry, a task the lost attempt cancelled shows as `already_finished`.
   * @example
   * ```ts
   * const { items } = await client.forecasts.cancelBatch({ taskIds: [a, b] });
   * ```
   */
  cancelBatch(params: ForecastCancelBatchParams, options?: RequestOptions): APIPromise<ForecastCancelBatchResult> {
    return this._call(ops.cancelBatch, [], params, options);
  }

  /**
   * Resolves with the task once it is final (`completed`, `failed` or `cancelled`: a failed forecast is
   * a result, not an exception).
   *
   * - **Cadence:** one `GET /forecasts/{task_id}` at once, then one each time the service's
   *   `Retry-After` runs out (15 s queued, 120 s running; 15 s when it names none; never under 1 s,
   *   never over an hour).
   * - **Outages:** a read that fails (no connection, a timeout, a 5xx, a 429) is retried with a
   *   backoff growing to 30 s until `timeout` (each retry on the client's `retry` event), whatever
   *   the client's `maxRetries`.
   * - **Abort:** `signal` rejects at once with the signal's reason; the task keeps running on the
   *   service (`forecasts.cancel` stops it).
   * - **Errors:** `WaitTimeoutError` once `timeout` ms have passed (`lastSeen`, and `cause` when reads
   *   were failing); an error of a read that cannot succeed (`NotFoundError`, `AuthenticationError`, …).
   *   Each carries `taskId` (and `taskIds`), to wait again later.
   * @example
   * ```ts
   * const task = await client.forecasts.wait(taskId, { waitForReport: true, onProgress: (p) => console.log(p.progressMessage) });
   * ```
   */
  wait(taskId: string, options?: WaitOptions): Promise<FinishedForecastTask> {
    return waitForTask(this.#flows(), taskId, options);
  }

  /**
   * Starts a forecast and waits for it. One idempotency key covers the start, so no retry starts a
   * second forecast; pass your own `idempotencyKey` to make a re-run of the same call replay it. With
   * `waitForContext` (and a `questionId`), it first waits for the question's files to be ready.
   *
   * - **Cadence:** as {@link wait}: the task is read at once, then as its `Retry-After` says (15 s
   *   queued, 120 s running). `timeout` covers the context wait, the start and the wait.
   * - **Outages:** the start and every read are retried (backoff growing to 30 s) until `timeout`;
   *   the start's key makes its retries safe.
   * - **Abort:** `signal` rejects at once with the signal's reason, and the forecast, once started,
   *   keeps running on the service: `onCreated` gives its id as soon as it exists, to wait again
   *   (`forecasts.wait(id)`, `forecasting wait <id>`) or cancel it.
   * - **Errors:** a refused start (`ForecastAlreadyRunningError`, `ContextNotReadyError`,
   *   `TooManyActiveForecastsError`, `ConflictError` for too few credits, `ValidationError`), then as
   *   {@link wait}: `WaitTimeoutError`, or a read's error, each with the task's `taskId`.
   * @example
   * ```ts
   * const task = await client.forecasts.createAndWait({ questionId, runMode: 'light' }, { timeout: 3600_000, onCreated: (t) => console.log('started', t.id) });
   * ```
   */
  createAndWait(params: ForecastCreateParams, options?: CreateAndWaitOptions): Promise<FinishedForecastTask> {
    return createAndWait(this.#flows(), params, options);
  }

  /**
   * Starts any number of forecasts, in batches of 25 with one idempotency key each (`<key>:<n>` when you
   * pass `idempotencyKey`, so re-running the call replays every batch). Resolves with every item's
   * outcome in input order.
   * @example
   * ```ts
   * const results = await client.forecasts.createMany(questionIds.map((questionId) => ({ questionId })));
   * const started = results.flatMap((r) => (r.status === 'accepted' ? [r.taskId] : []));
   * ```
   */
  createMany(items: readonly ForecastCreateParams[], options?: RequestOptions): Promise<BatchItemResult[]> {
    return createMany(this.#flows(), items, options);
  }

  /**
   * Cancels any number of tasks in chunks of 25; every task's outcome in input order (after a retried
   * chunk, a task its lost attempt cancelled shows as `already_finished`: see {@link cancelBatch}).
   * @example
   * ```ts
   * const results = await client.forecasts.cancelMany(taskIds);
   * ```
   */
  cancelMany(taskIds: readonly string[], options?: RequestOptions): Promise<CancelItemResult[]> {
    return cancelMany(this.#flows(), taskIds, options);
  }

  /**
   * Waits for many tasks with few requests. Resolves in input order with full task records (read once
   * each when final), or with the list items when `full: false`.
   *
   * - **Cadence:** each round is one `GET /forecasts?taskId=a,b,…` per 100 pending tasks, spaced by
   *   the list answer's `Retry-After`, else by the longest wait a pending task's state asks for (15 s
   *   queued, 120 s running); never under 1 s.
   * - **Outages:** a request that fails (no connection, a timeout, a 5xx, a 429) is retried with a
   *   backoff growing to 30 s until `timeout` (each retry on the client's `retry` event).
   * - **Abort:** `signal` rejects at once with the signal's reason; the tasks keep running (their ids
   *   are yours already, and `onProgress` names each).
   * - **Errors:** `WaitTimeoutError` (`taskIds` not yet final, `lastSeen`), or an error of a read that
   *   cannot succeed (`NotFoundError` for an unknown id, …); each carries `taskIds`, the tasks still
   *   waited for.
   * @example
   * ```ts
   * const tasks = await client.forecasts.waitMany(taskIds, { onProgress: (p) => console.log(p.taskId, p.status) });
   * ```
   */
  waitMany(taskIds: readonly string[], options?: WaitManyOptions & { full?: true | undefined }): Promise<FinishedForecastTask[]>;
  waitMany(taskIds: readonly string[], options: WaitManyOptions & { full: false }): Promise<ForecastListItem[]>;
  // Options typed as `WaitManyOptions` (whose `full` is any boolean): either kind of record.
  waitMany(taskIds: readonly string[], options?: WaitManyOptions): Promise<Array<FinishedForecastTask | ForecastListItem>>;
  waitMany(taskIds: readonly string[], options?: WaitManyOptions): Promise<Array<FinishedForecastTask | ForecastListItem>> {
    return waitForTasks(this.#flows(), taskIds, options);
  }

  /**
   * Runs a forecast for every item of any iterable or async iterable (read lazily, so 200,000 items
   * never sit in memory) inside the service's limits, and yields each item's outcome as soon as it is
   * known, in completion order, with the item's `index`:
   * - at most `maxActive` (default and most: 50) forecasts run at once; batches of up to 25 start as
   *   others end; every request goes through the client's request budget;
   * - **cadence:** one `GET /forecasts?taskId=…` a round polls every running forecast, spaced by the
   *   service's `Retry-After` (the first read of a new forecast 15 s after its start, unless the start
   *   states another wait); never under 1 s; a 429 is waited out as asked, within an hour;
   * - **outages:** a start or a read that fails (no connection, a timeout, a 5xx, a 429) is retried
   *   with a backoff growing to 30 s until it succeeds (each retry on the client's `retry` event);
   *   a start is sent again with its own key, so it never starts twice;
   * - a refused item (`rejected`), a failed forecast (`failed`) and short credits (`not_started`, for
   *   the refused item and every item after it) are results, not exceptions;
   * - **abort:** `signal` stops new starts at once, a pending hold or retry of a start included; the
   *   running forecasts are still waited for and yielded (`cancelOnAbort` cancels them instead).
   *   Leaving the loop (`break`) stops at once and leaves them running on the service;
   * - `runId` makes it resumable: batch `n` is keyed `<runId>:<n>` over fixed index ranges, so running
   *   the same items again with the same `runId` (within the service's 24-hour key retention) replays
   *   what was started and starts only the rest.
   *
   * **Errors:** an error of the run itself (authentication, a refusal no retry can fix) rejects the
   * iteration with `taskIds` naming the forecasts still running; they keep running, and a rerun with
   * the same `runId` picks them up.
   * @example
   * ```ts
   * const items = questionIds.map((questionId) => ({ questionId, runMode: 'light' as const }));
   * for await (const r of client.forecasts.runMany(items, { runId: 'nightly-2027-06-01', onProgress: (p) => console.log(p.counts) })) {
   *   if (r.status === 'completed') console.log(r.index, r.task.forecastData);
   *   else console.warn(r.index, r.status);
   * }
   * ```
   */
  runMany(items: RunManyInput, options: RunManyOptions & { full: true }): AsyncGenerator<RunManyResult<ForecastTask>, void, undefined>;
  runMany(items: RunManyInput, options?: RunManyOptions & { full?: false }): AsyncGenerator<RunManyResult, void, undefined>;
  // Options typed as `RunManyOptions` (whose `full` is any boolean): either kind of task.
  runMany(items: RunManyInput, options?: RunManyOptions): AsyncGenerator<RunManyResult<ForecastListItem | ForecastTask>, void, undefined>;
  runMany(items: RunManyInput, options?: RunManyOptions): AsyncGenerator<RunManyResult<ForecastListItem | ForecastTask>, void, undefined> {
    return runManyOnDemand(this.#flows(), items, options);
  }
}

/**
 * Run modes and their rough times and prices.
 * @example
 * ```ts
 * const { data } = await client.runModes.list();
 * const fallback = data.find((m) => m.isDefault)?.key;
 * ```
 */
export class RunModes extends APIResource {
  /**
   * Lists the run modes.
   * @example
   * ```ts
   * for await (const mode of client.runModes.list()) console.log(mode.key, mode.credits);
   * ```
   */
  list(params?: RunModeListParams, options?: RequestOptions): PagePromise<RunMode> {
    return this._list(runModeOperations.list, [], params, options);
  }
}

/**
 * A question's forecasts (`client.questions.forecasts`).
 * @example
 * ```ts
 * const task = await client.questions.forecasts.create(questionId, { runMode: 'light' });
 * ```
 */
export class QuestionForecasts extends APIResource {
  /**
   * Lists the question's forecasts in every state unless `status` is given.
   * @example
   * ```ts
   * const { data } = await client.questions.forecasts.list(questionId, { status: 'completed' });
   * ```
   */
  list(questionId: string, params?: QuestionForecastListParams, options?: RequestOptions): PagePromise<ForecastListItem> {
    return this._list(questionForecastOperations.list, [questionId], params, options);
  }

  /**
   * Runs a forecast on the question; 409 `ForecastAlreadyRunningError` (with `activeTaskId`) while one runs.
   * @example
   * ```ts
   * const task = await client.questions.forecasts.create(questionId, { presetId: 'none' });
   * ```
   */
  create(questionId: string, params?: QuestionForecastCreateParams, options?: RequestOptions): APIPromise<ForecastTask> {
    return this._call(questionForecastOperations.create, [questionId], params, options);
  }
}
