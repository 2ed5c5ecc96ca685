/**
 * Forecast requests: starting one or many, bulk cancels, reads and list filters. Checked before
 * sending (and by the mock on receipt). The records the service answers are in `records/forecasts.ts`.
 * @module
 */
import * as z from 'zod/mini';
import { MAX_BATCH_ITEMS, MAX_BULK_CANCEL_IDS } from '../api/limits.js';
import { withKeysOf } from '../core/validate.js';
import { CursorPageParams, exact, rule } from './common.js';
import { BatchQuestionBounds } from './date-bounds.js';
import { QuestionCreateParams } from './questions.js';
import { RUN_MODES, TREATMENTS } from './enums.js';

export { RUN_MODES, TASK_STATUSES, FINAL_TASK_STATUSES, TREATMENTS } from './enums.js';
export type { RunModeKey, TaskStatus, ReportStatus } from './enums.js';

const Ids = z.array(z.string());
/** A context note sent with a forecast: `{text, treatment}`. */
export const ContextNoteInput = exact({
  /** The note. */
  text: z.string().check(z.minLength(1)),
  /** `consider` (default), `look_into`, `assume_true` or `ignore`. */
  treatment: z.optional(z.enum(TREATMENTS)),
});
/**
 * A context note: its text and how the forecaster should treat it. Applies to the next forecast only.
 * @example
 * ```ts
 * const note: ContextNoteInput = { text: 'The mayor resigned on Monday.', treatment: 'assume_true' };
 * await client.forecasts.create({ questionId, context: [note] });
 * ```
 */
export interface ContextNoteInput extends z.input<typeof ContextNoteInput> {}

/** Body of `POST /questions/{question_id}/forecasts` (and the fields `POST /forecasts` shares). */
const runFields = {
  /** Omitted: the organization's default (see `runModes.list`). */
  runMode: z.optional(z.enum(RUN_MODES)),
  /** A preset id, or `none`. */
  presetId: z.optional(z.string().check(z.minLength(1))),
  /** Connections switched off or on for this forecast only. */
  connections: z.optional(exact({ off: z.optional(Ids), on: z.optional(Ids) })),
  /** Notes for this forecast; needs `questions:write` as well. */
  context: z.optional(z.array(ContextNoteInput)),
  /** Run even while a context file is still processing. */
  allowIncompleteContext: z.optional(z.boolean()),
};

/**
 * Body of `POST /forecasts`: exactly one of `questionId` or an inline `question`, plus run options.
 * @example
 * ```ts
 * await client.forecasts.create({ questionId, runMode: 'light' });
 * await client.forecasts.create({ question: { type: 'binary', title: 'Will it rain in Paris tomorrow?' } });
 * ```
 */
export const ForecastCreateParams = exact({
  /** The question to forecast; exactly one of `questionId` or `question`. */
  questionId: z.optional(z.string().check(z.minLength(1))),
  /** A question to create and forecast (or `templateId` with `templateValues`); exactly one of `questionId` or `question`. */
  question: z.optional(QuestionCreateParams),
  ...runFields,
}).check(
  rule(
    (b: { questionId?: unknown; question?: unknown }) => (b.questionId === undefined) !== (b.question === undefined),
    'questionId',
    'give this or question: exactly one of the two',
  ),
);
/**
 * Body of `POST /forecasts`: exactly one of `questionId` or an inline `question`, plus the run
 * options (the type says so: a body with neither, or both, does not compile).
 * @example
 * ```ts
 * const params: ForecastCreateParams = { questionId, runMode: 'standard', presetId: 'none' };
 * await client.forecasts.create(params);
 * ```
 */
export type ForecastCreateParams =
  | (QuestionForecastCreateParams & { /** The question to forecast. */ questionId: string; question?: undefined })
  | (QuestionForecastCreateParams & { /** A question to create and forecast (or `templateId` with `templateValues`). */ question: QuestionCreateParams; questionId?: undefined });

/** Body of `POST /questions/{question_id}/forecasts`. Fields beyond `presetId` and `connections` are not shown in the spec; this SDK sends the same run options as `POST /forecasts`. */
export const QuestionForecastCreateParams = exact(runFields);
/**
 * Body of `POST /questions/{question_id}/forecasts`: the run options of `POST /forecasts`.
 * @example
 * ```ts
 * await client.questions.forecasts.create(questionId, { runMode: 'light', allowIncompleteContext: true });
 * ```
 */
export interface QuestionForecastCreateParams extends z.input<typeof QuestionForecastCreateParams> {}

/**
 * Body of `POST /forecasts/batch`: 1 to 25 items, each a `POST /forecasts` body. Items are checked by
 * the service one by one (a bad item is rejected alone and the others start), so only the count is
 * checked before sending, and an inline question's `Date` bounds converted to seconds.
 */
export const ForecastBatchParams = exact({
  /** 1 to 25 `POST /forecasts` bodies. */
  items: z
    // Any object: typed as a forecast body, checked by the service item by item; only an inline
    // question's `Date` bounds are converted to seconds, as `POST /forecasts` sends them.
    .array(withKeysOf(z.looseObject({ question: z.optional(BatchQuestionBounds) }), ForecastCreateParams) as unknown as z.ZodMiniType<ForecastCreateParams, ForecastCreateParams>)
    .check(z.minLength(1, { error: 'must not be empty' }), z.maxLength(MAX_BATCH_ITEMS, { error: `must hold at most ${MAX_BATCH_ITEMS}` })),
});
/**
 * Body of `POST /forecasts/batch`: 1 to 25 items, each a `POST /forecasts` body.
 * @example
 * ```ts
 * await client.forecasts.createBatch({ items: questionIds.map((questionId) => ({ questionId, runMode: 'light' })) });
 * ```
 */
export interface ForecastBatchParams extends z.input<typeof ForecastBatchParams> {}

/** Body of `POST /forecasts/cancel`: 1 to 25 task ids. */
export const ForecastCancelBatchParams = exact({
  /** 1 to 25 task ids. */
  taskIds: z
    .array(z.string().check(z.minLength(1)))
    .check(z.minLength(1), z.maxLength(MAX_BULK_CANCEL_IDS, { error: `must hold at most ${MAX_BULK_CANCEL_IDS} task ids` })),
});
/**
 * Body of `POST /forecasts/cancel`: 1 to 25 task ids.
 * @example
 * ```ts
 * const { items } = await client.forecasts.cancelBatch({ taskIds: ['3f1c…', '9a7e…'] });
 * ```
 */
export interface ForecastCancelBatchParams extends z.input<typeof ForecastCancelBatchParams> {}

/** A filter value that may repeat: one value, a comma-separated list, or an array. */
const Many = z.optional(z.union([z.string(), z.array(z.string())]));
/** Query of `GET /forecasts/{task_id}`. */
export const ForecastRetrieveParams = exact({
  /** `numeric` leaves out the report and sources. */
  fields: z.optional(z.enum(['numeric'])),
  /** Adds finished subforecasts' data (the answer can exceed a megabyte). */
  includeSubforecasts: z.optional(z.boolean()),
});
/**
 * Query of `GET /forecasts/{task_id}`.
 * @example
 * ```ts
 * const task = await client.forecasts.retrieve(taskId, { fields: 'numeric' }); // no report, no sources
 * ```
 */
export interface ForecastRetrieveParams extends z.input<typeof ForecastRetrieveParams> {}

/** Query of `GET /forecasts`. Newest first. */
export const ForecastListParams = exact({
  /** One status, a comma-separated list or an array. */
  status: Many,
  /** One question id, a comma-separated list or an array. */
  questionId: Many,
  /** One task id, a comma-separated list or an array. */
  taskId: Many,
  /** Forecasts started by a `watch`, a `schedule`, or `any` of them. */
  autoforecast: z.optional(z.enum(['watch', 'schedule', 'any'])),
  /** `all_visible` adds forecasts others shared. */
  scope: z.optional(z.enum(['all_visible'])),
  fields: z.optional(z.enum(['numeric'])),
  ...CursorPageParams,
});
/**
 * Query of `GET /forecasts`: filters and paging. Newest first.
 * @example
 * ```ts
 * for await (const item of client.forecasts.list({ status: 'completed', questionId, limit: 100 })) console.log(item.taskId);
 * ```
 */
export interface ForecastListParams extends z.input<typeof ForecastListParams> {}

/** Query of `GET /questions/{question_id}/forecasts`: every state unless `status` is given. */
export const QuestionForecastListParams = exact({ status: Many, ...CursorPageParams });
/**
 * Query of `GET /questions/{question_id}/forecasts`: every state unless `status` is given.
 * @example
 * ```ts
 * const page = await client.questions.forecasts.list(questionId, { status: ['completed', 'failed'] });
 * ```
 */
export interface QuestionForecastListParams extends z.input<typeof QuestionForecastListParams> {}

/** Query of `GET /run-modes`. */
export const RunModeListParams = exact({ ...CursorPageParams });
/**
 * Query of `GET /run-modes`.
 * @example
 * ```ts
 * for await (const mode of client.runModes.list({ limit: 10 })) console.log(mode.key, mode.credits);
 * ```
 */
export interface RunModeListParams extends z.input<typeof RunModeListParams> {}
