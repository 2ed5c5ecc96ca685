/**
 * What the batch operations of the forecasts group answer (`POST /forecasts/batch`,
 * `POST /forecasts/cancel`): a result per item. Re-exported by `forecasts.ts`.
 * @module
 */
import * as z from 'zod/mini';
import { exact, openString, unknownValue } from '../common.js';

const ItemError = exact({
  type: z.string(),
  message: z.string(),
  /** On `forecast_already_running`: the task already running on the question (as the error envelope has it). */
  activeTaskId: z.optional(z.string()),
});

/** The item's place in the input, from 0. */
const index = z.int();

// Each known branch names the other's field as absent, so `r.taskId` reads as `string | undefined` before narrowing.
export const AcceptedItemResult = exact({ index, status: z.literal('accepted'), /** The started task. */ taskId: z.string(), error: z.optional(z.never()) });
/**
 * A batch item that started: its task is `taskId`.
 * @example
 * ```ts
 * const started: AcceptedItemResult[] = results.filter((r): r is AcceptedItemResult => r.status === 'accepted');
 * ```
 */
export interface AcceptedItemResult extends z.output<typeof AcceptedItemResult> {}

export const RejectedItemResult = exact({ index, status: z.literal('rejected'), taskId: z.optional(z.never()), /** Why; the message names the field. */ error: ItemError });
/**
 * A batch item that was refused: `error` says why, naming the field.
 * @example
 * ```ts
 * const refused: RejectedItemResult[] = results.filter((r): r is RejectedItemResult => r.status === 'rejected');
 * ```
 */
export interface RejectedItemResult extends z.output<typeof RejectedItemResult> {}

export const UnknownItemResult = exact({
  index,
  status: unknownValue(['accepted', 'rejected']),
  taskId: z.optional(z.string()),
  error: z.optional(ItemError),
});
/**
 * A batch item of a status this SDK does not know (one the service added later): it parses, typed
 * apart from the known ones so that comparing `status` with a misspelled value fails to compile.
 * @example
 * ```ts
 * const odd: UnknownItemResult[] = results.filter((r): r is UnknownItemResult => r.status !== 'accepted' && r.status !== 'rejected');
 * ```
 */
export interface UnknownItemResult extends z.output<typeof UnknownItemResult> {}

export const BatchItemResult = z.union([AcceptedItemResult, RejectedItemResult, UnknownItemResult]);
/**
 * One item's outcome in a batch, discriminated on `status`: `accepted` with `taskId`, or `rejected`
 * with `error` (a status newer than the SDK parses too, typed {@link UnknownValue}).
 * @example
 * ```ts
 * const results = await client.forecasts.createMany(items);
 * const started = results.flatMap((r) => (r.status === 'accepted' ? [r.taskId] : []));
 * const rejected = results.flatMap((r) => (r.status === 'rejected' ? [`${r.index}: ${r.error.message}`] : []));
 * ```
 */
export type BatchItemResult = AcceptedItemResult | RejectedItemResult | UnknownItemResult;

export const ForecastBatchResult = exact({
  counts: exact({ total: z.int(), accepted: z.int(), rejected: z.int() }),
  items: z.array(BatchItemResult),
});
/**
 * The answer of `POST /forecasts/batch`. The batch itself is not stored.
 * @example
 * ```ts
 * const { counts, items } = await client.forecasts.createBatch({ items: [{ questionId }] });
 * console.log(`${counts.accepted} started, ${counts.rejected} refused`, items[0]?.taskId);
 * ```
 */
export interface ForecastBatchResult extends z.output<typeof ForecastBatchResult> {}

export const CancelItemResult = exact({
  taskId: z.string(),
  status: openString<'cancelled' | 'already_finished' | 'rejected'>(),
  error: z.optional(ItemError),
});
/**
 * One task's outcome in a bulk cancel.
 * @example
 * ```ts
 * const results = await client.forecasts.cancelMany(taskIds);
 * for (const r of results) console.log(r.taskId, r.status); // cancelled, already_finished or rejected
 * ```
 */
export interface CancelItemResult extends z.output<typeof CancelItemResult> {}

export const ForecastCancelBatchResult = exact({
  /** One per task id sent. */
  items: z.array(CancelItemResult),
  counts: z.optional(z.record(z.string(), z.unknown())),
});
/**
 * The answer of `POST /forecasts/cancel`. Not shown in the spec beyond the per-task result: the SDK
 * reads the obvious forms into `{items, counts}` (see `forecasts.cancelBatch`).
 * @example
 * ```ts
 * const { items } = await client.forecasts.cancelBatch({ taskIds });
 * console.log(items.filter((i) => i.status === 'cancelled').length, 'cancelled');
 * ```
 */
export interface ForecastCancelBatchResult extends z.output<typeof ForecastCancelBatchResult> {}
