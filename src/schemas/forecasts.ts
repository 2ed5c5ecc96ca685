/**
 * Forecast schemas: tasks, forecasts and their `forecastData`, run modes, batches, bulk cancels and
 * list filters. Requests are checked before sending (and by the mock on receipt); responses are
 * lenient: unknown fields and enum values pass.
 * @module
 */
import * as z from 'zod/mini';
import { MAX_BATCH_ITEMS, MAX_BULK_CANCEL_IDS } from '../core/limits.js';
import { CursorPageParams, Timestamp, openEnum, openString, rule } from './common.js';
import { QuestionCreateParams } from './questions.js';

/** Run modes, lightest (about 5 minutes) to heaviest (about 1.5 hours). */
export const RUN_MODES = ['light', 'moderate', 'standard', 'deep', 'max'] as const;
/** A run mode. */
export type RunModeKey = (typeof RUN_MODES)[number];
/** States of a forecast task; the last three are final. */
export const TASK_STATUSES = ['queued', 'running_subforecasts', 'synthesizing', 'completed', 'failed', 'cancelled'] as const;
/** A task state. */
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** The task states after which nothing changes. */
export const FINAL_TASK_STATUSES: ReadonlySet<string> = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);
/** A state of a forecast report; `completed` and `failed` are final. */
export type ReportStatus = 'pending' | 'writing' | 'completed' | 'failed';
/** Context note treatments. */
export const TREATMENTS = ['consider', 'look_into', 'assume_true', 'ignore'] as const;

const num = z.number();
const nums = z.array(num);
/**
 * A payload: unknown keys pass at run time, but the type has no index signature, so a field of another
 * question type's payload (`payload.probability` on a numeric forecast) does not type-check.
 */
const exact = <T extends z.core.$ZodLooseShape>(shape: T) => z.looseObject(shape) as unknown as z.ZodMiniObject<T, z.core.$strip>;
const Percentiles = exact({ p10: num, p50: num, p90: num });
const fd = <T extends string, F extends string, P extends z.core.$ZodLooseShape>(questionType: T, format: F, payload: P) =>
  z.looseObject({ questionType: z.literal(questionType), format: z.literal(format), payload: exact(payload) });

/** `forecastData` of a binary question. */
export const BinaryForecastData = fd('binary', 'probability', { probability: num });
/** `forecastData` of a multiple choice question. */
export const MultipleChoiceForecastData = fd(
  'multiple_choice',
  'option_probabilities',
  { probabilities: z.record(z.string(), num) },
);
const Continuous = {
  percentiles: Percentiles,
  probability_mass_function: nums,
  cumulative_distribution_function: nums,
  bucket_edges: nums,
  above_upper_probability: num,
  scaleType: z.nullable(z.string()),
};
/** `forecastData` of a numeric question. */
export const NumericForecastData = fd('numeric', 'probability_mass_function', Continuous);
/** `forecastData` of a date question. */
export const DateForecastData = fd('date', 'probability_mass_function', Continuous);
/** `forecastData` of a discrete question. */
export const DiscreteForecastData = fd(
  'discrete',
  'discrete_probability_array',
  { probabilities: nums, nominal_values: nums, percentiles: Percentiles, cell_boundaries: nums },
);
/** `forecastData` of one question type. */
export type BinaryForecastData = z.output<typeof BinaryForecastData>;
/** `forecastData` of one question type. */
export type MultipleChoiceForecastData = z.output<typeof MultipleChoiceForecastData>;
/** `forecastData` of one question type. */
export type NumericForecastData = z.output<typeof NumericForecastData>;
/** `forecastData` of one question type. */
export type DateForecastData = z.output<typeof DateForecastData>;
/** `forecastData` of one question type. */
export type DiscreteForecastData = z.output<typeof DiscreteForecastData>;
/** Shape of `forecastData` for a question type the SDK does not know yet. */
const OtherData = z.looseObject({ questionType: z.string(), format: z.string(), payload: z.looseObject({}) });

/**
 * The number of a forecast, `{questionType, format, payload}`, a union discriminated on
 * `questionType`: check it first and `payload` has that type's fields.
 * Checking is lenient: an unknown question type passes (typed as the known ones so narrowing works).
 * @example
 * ```ts
 * const data = task.forecast?.forecastData;
 * if (data?.questionType === 'binary') console.log(data.payload.probability);
 * if (data?.questionType === 'numeric') console.log(data.payload.percentiles.p50);
 * ```
 */
export const ForecastData = z.union([BinaryForecastData, MultipleChoiceForecastData, NumericForecastData, DateForecastData, DiscreteForecastData, OtherData]) as unknown as z.ZodMiniType<ForecastData>;
/** The number of a forecast, discriminated on `questionType`. */
export type ForecastData = BinaryForecastData | MultipleChoiceForecastData | NumericForecastData | DateForecastData | DiscreteForecastData;

/** The written report: texts are null until `status` is `completed`. */
export const Report = z.looseObject({
  status: openString<ReportStatus>(),
  /** One paragraph, up to about 120 words. */
  short: z.nullable(z.string()),
  /** Markdown, up to about 600 words. */
  medium: z.optional(z.nullable(z.string())),
  /** Markdown, up to about 2,000 words. */
  detailed: z.optional(z.nullable(z.string())),
});
/** The written report of a forecast. */
export type Report = z.output<typeof Report>;

/** A source the forecast used; `url` is usual but optional. */
export const Source = z.looseObject({ kind: openString<'web'>(), display_name: z.string(), url: z.optional(z.string()) });
/** A source the forecast used. */
export type Source = z.output<typeof Source>;

/** The `forecast` of a completed task. `report` and `sources` are left out with `fields: 'numeric'`. */
export const Forecast = z.looseObject({
  id: z.string(),
  generatedAt: Timestamp,
  forecastData: ForecastData,
  report: z.optional(Report),
  sources: z.optional(z.array(Source)),
});
/** The `forecast` of a completed task. */
export type Forecast = z.output<typeof Forecast>;

/** One subforecast; with `includeSubforecasts` a finished one also carries its data. */
export const Subforecast = z.looseObject({
  sequenceIndex: z.int(),
  status: z.string(),
  completedAt: z.nullable(Timestamp),
  forecastData: z.optional(ForecastData),
  writeUp: z.optional(z.string()),
  sources: z.optional(z.array(Source)),
});
/** One subforecast. */
export type Subforecast = z.output<typeof Subforecast>;

/**
 * A forecast task (`type: 'forecast_task'`), as `GET /forecasts/{task_id}` shows it.
 * @example
 * ```ts
 * const task = await client.forecasts.retrieve(taskId);
 * if (task.status === 'completed') console.log(task.forecast?.report?.short);
 * ```
 */
export const ForecastTask = z.looseObject({
  id: z.string(),
  type: z.optional(z.string()),
  status: openEnum(TASK_STATUSES),
  createdAt: Timestamp,
  startedAt: z.nullable(Timestamp),
  finishedAt: z.nullable(Timestamp),
  /** `{id, type, title}` and the other question fields. */
  question: z.looseObject({ id: z.string(), type: z.string(), title: z.string() }),
  /** Path beginning with `/api/v1/external`: join it with the host, not with the base URL. */
  pollingUrl: z.string(),
  progressMessage: z.string(),
  /** True while there is no combined answer yet. */
  partial: z.boolean(),
  completedSubforecastCount: z.int(),
  plannedSubforecastCount: z.int(),
  subforecasts: z.optional(z.array(Subforecast)),
  creditsCharged: z.number(),
  creditsRefunded: z.number(),
  runMode: openEnum(RUN_MODES),
  /** Present once `completed`. */
  forecast: z.optional(z.nullable(Forecast)),
  /** On `failed`: what happened. */
  error: z.optional(z.nullable(z.looseObject({ message: z.string() }))),
  preset: z.optional(z.nullable(z.looseObject({ used: z.boolean(), id: z.optional(z.string()), name: z.optional(z.string()) }))),
  connections: z.optional(
    z.array(z.looseObject({ name: z.string(), owner: z.optional(z.string()), calls: z.int(), status: openString<'used' | 'not_used' | 'failed' | 'unavailable'>() })),
  ),
  warnings: z.optional(z.array(z.looseObject({ code: z.string() }))),
});
/** A forecast task. */
export type ForecastTask = z.output<typeof ForecastTask>;

/**
 * An item of `GET /forecasts`: `taskId`, `status`, `forecastData` and a `report` holding only
 * `status` and `short`. The other fields are not shown in the spec; the SDK reads them when present
 * (the mock sends them) for progress.
 */
export const ForecastListItem = z.looseObject({
  taskId: z.string(),
  status: openEnum(TASK_STATUSES),
  forecastData: z.nullable(ForecastData),
  /** Never null: `pending` (with `short: null`) until writing starts. Left out with `fields: 'numeric'`. */
  report: z.optional(z.looseObject({ status: openString<ReportStatus>(), short: z.nullable(z.string()) })),
  questionId: z.optional(z.string()),
  runMode: z.optional(z.string()),
  createdAt: z.optional(Timestamp),
  progressMessage: z.optional(z.string()),
  completedSubforecastCount: z.optional(z.int()),
  plannedSubforecastCount: z.optional(z.int()),
});
/** An item of `GET /forecasts`. */
export type ForecastListItem = z.output<typeof ForecastListItem>;

/**
 * A run mode from `GET /run-modes`. Not shown in the spec beyond a rough time, a price and which mode
 * is the default: this SDK reads `key`, `name`, `credits`, `approximateMinutes` and `isDefault`.
 */
export const RunMode = z.looseObject({
  key: openEnum(RUN_MODES),
  name: z.optional(z.string()),
  credits: z.optional(z.number()),
  approximateMinutes: z.optional(z.number()),
  isDefault: z.optional(z.boolean()),
});
/** A run mode. */
export type RunMode = z.output<typeof RunMode>;

const Ids = z.array(z.string());
/** A context note sent with a forecast: `{text, treatment}`. */
export const ContextNoteInput = z.object({ text: z.string().check(z.minLength(1)), treatment: z.optional(z.enum(TREATMENTS)) });

/** Body of `POST /questions/{question_id}/forecasts` (and the fields `POST /forecasts` shares). */
const runFields = {
  /** Omitted: the organization's default (see `runModes.list`). */
  runMode: z.optional(z.enum(RUN_MODES)),
  /** A preset id, or `none`. */
  presetId: z.optional(z.string().check(z.minLength(1))),
  /** Connections switched off or on for this forecast only. */
  connections: z.optional(z.object({ off: z.optional(Ids), on: z.optional(Ids) })),
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
export const ForecastCreateParams = z
  .looseObject({
    questionId: z.optional(z.string().check(z.minLength(1))),
    question: z.optional(QuestionCreateParams),
    ...runFields,
  })
  .check(
    rule(
      (b: { questionId?: unknown; question?: unknown }) => (b.questionId === undefined) !== (b.question === undefined),
      'questionId',
      'exactly one of questionId or question is required',
    ),
  );
/** Body of `POST /forecasts`. */
export type ForecastCreateParams = z.input<typeof ForecastCreateParams>;

/** Body of `POST /questions/{question_id}/forecasts`. Fields beyond `presetId` and `connections` are not shown in the spec; this SDK sends the same run options as `POST /forecasts`. */
export const QuestionForecastCreateParams = z.looseObject(runFields);
/** Body of `POST /questions/{question_id}/forecasts`. */
export type QuestionForecastCreateParams = z.input<typeof QuestionForecastCreateParams>;

/**
 * Body of `POST /forecasts/batch`: 1 to 25 items, each a `POST /forecasts` body. Items are checked by
 * the service one by one (a bad item is rejected alone and the others start), so only the count is
 * checked before sending.
 */
export const ForecastBatchParams = z.looseObject({
  items: z
    // Any object: typed as a forecast body, checked by the service item by item.
    .array(z.looseObject({}) as unknown as z.ZodMiniType<ForecastCreateParams>)
    .check(z.minLength(1), z.maxLength(MAX_BATCH_ITEMS, { error: `must hold at most ${MAX_BATCH_ITEMS} items` })),
});
/** Body of `POST /forecasts/batch`. */
export type ForecastBatchParams = z.input<typeof ForecastBatchParams>;

const ItemError = z.looseObject({ type: z.string(), message: z.string() });
/** One item's outcome in a batch: `accepted` with `taskId`, or `rejected` with `error`. */
export const BatchItemResult = z.looseObject({
  index: z.int(),
  status: openString<'accepted' | 'rejected'>(),
  taskId: z.optional(z.string()),
  error: z.optional(ItemError),
});
/** One item's outcome in a batch. */
export type BatchItemResult = z.output<typeof BatchItemResult>;
/** Answer of `POST /forecasts/batch`. */
export const ForecastBatchResult = z.looseObject({
  counts: z.looseObject({ total: z.int(), accepted: z.int(), rejected: z.int() }),
  items: z.array(BatchItemResult),
});
/** Answer of `POST /forecasts/batch`. */
export type ForecastBatchResult = z.output<typeof ForecastBatchResult>;

/** Body of `POST /forecasts/cancel`: 1 to 25 task ids. */
export const ForecastCancelBatchParams = z.looseObject({
  taskIds: z
    .array(z.string().check(z.minLength(1)))
    .check(z.minLength(1), z.maxLength(MAX_BULK_CANCEL_IDS, { error: `must hold at most ${MAX_BULK_CANCEL_IDS} task ids` })),
});
/** Body of `POST /forecasts/cancel`. */
export type ForecastCancelBatchParams = z.input<typeof ForecastCancelBatchParams>;

/** One task's outcome in a bulk cancel. */
export const CancelItemResult = z.looseObject({
  taskId: z.string(),
  status: openString<'cancelled' | 'already_finished' | 'rejected'>(),
  error: z.optional(ItemError),
});
/** One task's outcome in a bulk cancel. */
export type CancelItemResult = z.output<typeof CancelItemResult>;
/**
 * Answer of `POST /forecasts/cancel`. Not shown in the spec beyond the per-task result: this SDK reads
 * `items` (one per task id sent, in order) and `counts`.
 */
export const ForecastCancelBatchResult = z.looseObject({
  items: z.array(CancelItemResult),
  counts: z.optional(z.looseObject({})),
});
/** Answer of `POST /forecasts/cancel`. */
export type ForecastCancelBatchResult = z.output<typeof ForecastCancelBatchResult>;

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
  if (listed) {
    const items = listed.map((entry: unknown) => {
      if (!isRecord(entry)) return undefined;
      const taskId = entry['taskId'] ?? entry['id'] ?? entry['task_id'];
      return typeof taskId === 'string' && typeof entry['status'] === 'string' ? ({ ...entry, taskId, status: entry['status'] } as CancelItemResult) : undefined;
    });
    return items.every(Boolean) ? { items: items as CancelItemResult[], counts } : undefined;
  }
  if (!isRecord(body)) return undefined;
  const map = [body['items'], body['results']].find(isRecord);
  if (map) {
    const items = Object.entries(map).map(([taskId, value]) => {
      const status = isRecord(value) ? value['status'] : value;
      return typeof status === 'string' ? ({ ...(isRecord(value) ? value : {}), taskId, status } as CancelItemResult) : undefined;
    });
    return items.every(Boolean) ? { items: items as CancelItemResult[], counts } : undefined;
  }
  const grouped = CANCEL_OUTCOMES.filter((status) => Array.isArray(body[status]));
  if (grouped.length === 0) return undefined;
  const items = grouped.flatMap((status) => (body[status] as unknown[]).map((taskId) => (typeof taskId === 'string' ? { taskId, status } : undefined)));
  return items.every(Boolean) ? { items: items as CancelItemResult[], counts } : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A filter value that may repeat: one value, a comma-separated list, or an array. */
const Many = z.optional(z.union([z.string(), z.array(z.string())]));
/** Query of `GET /forecasts/{task_id}`. */
export const ForecastRetrieveParams = z.looseObject({
  /** `numeric` leaves out the report and sources. */
  fields: z.optional(z.enum(['numeric'])),
  /** Adds finished subforecasts' data (the answer can exceed a megabyte). */
  includeSubforecasts: z.optional(z.boolean()),
});
/** Query of `GET /forecasts/{task_id}`. */
export type ForecastRetrieveParams = z.input<typeof ForecastRetrieveParams>;

/** Query of `GET /forecasts`. Newest first. */
export const ForecastListParams = z.looseObject({
  status: Many,
  questionId: Many,
  taskId: Many,
  /** Forecasts started by a `watch`, a `schedule`, or `any` of them. */
  autoforecast: z.optional(z.enum(['watch', 'schedule', 'any'])),
  /** `all_visible` adds forecasts others shared. */
  scope: z.optional(z.enum(['all_visible'])),
  fields: z.optional(z.enum(['numeric'])),
  ...CursorPageParams,
});
/** Query of `GET /forecasts`. */
export type ForecastListParams = z.input<typeof ForecastListParams>;

/** Query of `GET /questions/{question_id}/forecasts`: every state unless `status` is given. */
export const QuestionForecastListParams = z.looseObject({ status: Many, ...CursorPageParams });
/** Query of `GET /questions/{question_id}/forecasts`. */
export type QuestionForecastListParams = z.input<typeof QuestionForecastListParams>;

/** Query of `GET /run-modes`. */
export const RunModeListParams = z.looseObject({ ...CursorPageParams });
/** Query of `GET /run-modes`. */
export type RunModeListParams = z.input<typeof RunModeListParams>;
