/**
 * What the service answers about forecasts: tasks, forecasts and their `forecastData`, list items,
 * run modes, batch and bulk-cancel results. The schemas load only with `validateResponses`; the
 * types are the public ones. Reading is lenient: unknown fields and enum values pass.
 * @module
 */
import * as z from 'zod/mini';
import { Timestamp, exact, knownValue, openEnum, openString, unknownValue } from '../common.js';
import { RUN_MODES, TASK_STATUSES, type ReportStatus } from '../enums.js';

// The batch answers are records of this group too.
export * from './forecast-batches.js';

const num = z.number();
const nums = z.array(num);
const Percentiles = exact({ p10: num, p50: num, p90: num });
/** `questionType format` of each shape of a forecast number the SDK knows. */
const KNOWN_DATA = new Set<string>();
const fd = <T extends string, F extends string, P extends z.core.$ZodLooseShape>(questionType: T, format: F, payload: P) => {
  KNOWN_DATA.add(`${questionType} ${format}`);
  return exact({ questionType: z.literal(questionType), format: z.literal(format), payload: exact(payload) });
};

export const BinaryForecastData = fd('binary', 'probability', {
  /** The chance of YES, 0 to 1. */
  probability: num,
});
/**
 * `forecastData` of a binary question: the chance of YES.
 * @example
 * ```ts
 * if (data.questionType === 'binary') console.log(`${Math.round(data.payload.probability * 100)}% YES`);
 * ```
 */
export interface BinaryForecastData extends z.output<typeof BinaryForecastData> {}

export const MultipleChoiceForecastData = fd('multiple_choice', 'option_probabilities', {
  /** Map from option text to its chance. */
  probabilities: z.record(z.string(), num),
});
/**
 * `forecastData` of a multiple choice question: a chance per option.
 * @example
 * ```ts
 * if (data.questionType === 'multiple_choice') for (const [option, chance] of Object.entries(data.payload.probabilities)) console.log(option, chance);
 * ```
 */
export interface MultipleChoiceForecastData extends z.output<typeof MultipleChoiceForecastData> {}

const Continuous = {
  /** `p10`, `p50` (the median) and `p90`. */
  percentiles: Percentiles,
  probability_mass_function: nums,
  cumulative_distribution_function: nums,
  bucket_edges: nums,
  /** The chance the answer falls above the upper bound. */
  above_upper_probability: num,
  scaleType: z.nullable(z.string()),
};
export const NumericForecastData = fd('numeric', 'probability_mass_function', Continuous);
/**
 * `forecastData` of a numeric question: a distribution over the range.
 * @example
 * ```ts
 * if (data.questionType === 'numeric') console.log('median', data.payload.percentiles.p50, '80% in', data.payload.percentiles.p10, '…', data.payload.percentiles.p90);
 * ```
 */
export interface NumericForecastData extends z.output<typeof NumericForecastData> {}
export const DateForecastData = fd('date', 'probability_mass_function', Continuous);
/**
 * `forecastData` of a date question: a distribution over time, values in Unix seconds.
 * @example
 * ```ts
 * if (data.questionType === 'date') console.log('median', new Date(data.payload.percentiles.p50 * 1000).toISOString());
 * ```
 */
export interface DateForecastData extends z.output<typeof DateForecastData> {}

export const DiscreteForecastData = fd('discrete', 'discrete_probability_array', {
  /** The chance of each value of `nominal_values`. */
  probabilities: nums,
  nominal_values: nums,
  percentiles: Percentiles,
  cell_boundaries: nums,
});
/**
 * `forecastData` of a discrete question: a chance per whole value.
 * @example
 * ```ts
 * if (data.questionType === 'discrete') data.payload.nominal_values.forEach((v, i) => console.log(v, data.payload.probabilities[i]));
 * ```
 */
export interface DiscreteForecastData extends z.output<typeof DiscreteForecastData> {}

/** Shape of `forecastData` for a question type the SDK does not know yet: passes, typed as the known ones. */
// A known pair is not this branch's (a numeric number needs its percentiles); a new format of a known
// type is, as a new type is.
const OtherData = z
  .looseObject({ questionType: z.string(), format: z.string(), payload: z.looseObject({}) })
  .check(z.superRefine((data, ctx) => void (KNOWN_DATA.has(`${data.questionType} ${data.format}`) && knownValue(ctx, data.format))));

export const ForecastData = z.union([BinaryForecastData, MultipleChoiceForecastData, NumericForecastData, DateForecastData, DiscreteForecastData, OtherData]) as unknown as z.ZodMiniType<ForecastData>;
/**
 * The number of a forecast, `{questionType, format, payload}`, discriminated on `questionType`:
 * check it first and `payload` has that type's fields.
 * @example
 * ```ts
 * const data = task.forecast?.forecastData;
 * if (data?.questionType === 'binary') console.log(data.payload.probability);
 * if (data?.questionType === 'numeric') console.log(data.payload.percentiles.p50);
 * ```
 */
export type ForecastData = BinaryForecastData | MultipleChoiceForecastData | NumericForecastData | DateForecastData | DiscreteForecastData;

export const Report = exact({
  /** `pending`, `writing`, `completed` or `failed`; the texts are null until `completed`. */
  status: openString<ReportStatus>(),
  /** One paragraph, up to about 120 words. */
  short: z.nullable(z.string()),
  /** Markdown with headings, up to about 600 words. */
  medium: z.optional(z.nullable(z.string())),
  /** Markdown with headings, up to about 2,000 words. */
  detailed: z.optional(z.nullable(z.string())),
});
/**
 * The written report of a forecast, at three lengths. It is written after the number.
 * @example
 * ```ts
 * if (task.status === 'completed' && task.forecast.report?.status === 'completed') console.log(task.forecast.report.medium); // Markdown
 * ```
 */
export interface Report extends z.output<typeof Report> {}

export const Source = exact({
  /** `web` is shown; other kinds are not shown in the spec. */
  kind: openString<'web'>(),
  display_name: z.string(),
  /** Usual but optional. */
  url: z.optional(z.string()),
});
/**
 * A source the forecast used.
 * @example
 * ```ts
 * if (task.status === 'completed') for (const source of task.forecast.sources ?? []) console.log(source.display_name, source.url);
 * ```
 */
export interface Source extends z.output<typeof Source> {}

export const Forecast = exact({
  /** The forecast's own id (not the task id). */
  id: z.string(),
  generatedAt: Timestamp,
  forecastData: ForecastData,
  /** Left out with `fields: 'numeric'`. */
  report: z.optional(Report),
  /** Left out with `fields: 'numeric'`. */
  sources: z.optional(z.array(Source)),
});
/**
 * The `forecast` of a completed task: the number, the report and the sources.
 * @example
 * ```ts
 * const task = await client.forecasts.createAndWait({ questionId });
 * const forecast: Forecast | undefined = task.status === 'completed' ? task.forecast : undefined;
 * ```
 */
export interface Forecast extends z.output<typeof Forecast> {}

export const Subforecast = exact({
  sequenceIndex: z.int(),
  status: z.string(),
  completedAt: z.nullable(Timestamp),
  /** With `includeSubforecasts`, on a finished subforecast. */
  forecastData: z.optional(ForecastData),
  /** With `includeSubforecasts`, on a finished subforecast. */
  writeUp: z.optional(z.string()),
  /** With `includeSubforecasts`, on a finished subforecast. */
  sources: z.optional(z.array(Source)),
});
/**
 * One of the subforecasts a task runs in parallel.
 * @example
 * ```ts
 * const task = await client.forecasts.retrieve(taskId, { includeSubforecasts: true });
 * for (const sub of task.subforecasts ?? []) console.log(sub.sequenceIndex, sub.status);
 * ```
 */
export interface Subforecast extends z.output<typeof Subforecast> {}

export const TaskConnection = exact({
  name: z.string(),
  /** Who the connection belongs to. Its type is not shown in the spec: kept as it comes (`unknown`: narrow before use). */
  owner: z.optional(z.unknown()),
  /** How many times the forecast called it. */
  calls: z.int(),
  status: openString<'used' | 'not_used' | 'failed' | 'unavailable'>(),
});
/**
 * A connection a forecast could call, and whether it did. A failing connection never stops a forecast.
 * @example
 * ```ts
 * for (const c of task.connections ?? []) console.log(c.name, c.status, `${c.calls} calls`); // used, not_used, failed, unavailable
 * ```
 */
export interface TaskConnection extends z.output<typeof TaskConnection> {}

/** What every forecast task shows, whatever its status. */
const task = {
  /** The task id (different from `forecast.id`). */
  id: z.string(),
  /** `forecast_task`. */
  type: z.optional(z.string()),
  createdAt: Timestamp,
  /** Null until it happens. */
  startedAt: z.nullable(Timestamp),
  /** Null until it happens. */
  finishedAt: z.nullable(Timestamp),
  /** `{id, type, title}` and the other question fields. */
  question: z.looseObject({ id: z.string(), type: z.string(), title: z.string() }),
  /** A path beginning with `/api/v1/external`: join it with the host, not with the base URL. */
  pollingUrl: z.string(),
  /** Human-readable progress. */
  progressMessage: z.string(),
  /** True while there is no combined answer yet. */
  partial: z.boolean(),
  completedSubforecastCount: z.int(),
  plannedSubforecastCount: z.int(),
  subforecasts: z.optional(z.array(Subforecast)),
  creditsCharged: z.number(),
  creditsRefunded: z.number(),
  runMode: openEnum(RUN_MODES),
  /** Null when no preset was used; else `{used: true}` with the preset's `id` and `name` when you may see them. */
  preset: z.optional(z.nullable(exact({ used: z.boolean(), id: z.optional(z.string()), name: z.optional(z.string()) }))),
  /** Connections the forecast could call. */
  connections: z.optional(z.array(TaskConnection)),
  /** Each with a `code`: `template_content_readable_by_others`, `preset_content_may_show_in_forecast` or `connection_results_readable_by_others` (others may come). */
  warnings: z.optional(z.array(exact({ code: openString<'template_content_readable_by_others' | 'preset_content_may_show_in_forecast' | 'connection_results_readable_by_others'>() }))),
};
/** Absent (or null) on a task that is not `completed`. */
const noForecast = z.optional(z.null());
/** Absent (or null) on a task that is not `failed`. */
const noError = z.optional(z.null());

export const ActiveForecastTask = exact({
  ...task,
  /** `queued`, `running_subforecasts` or `synthesizing`. */
  status: z.enum(['queued', 'running_subforecasts', 'synthesizing']),
  forecast: noForecast,
  error: noError,
});
/**
 * A task still queued or running. Reading it tells how long to wait (`Retry-After`).
 * @example
 * ```ts
 * const task = await client.forecasts.retrieve(taskId);
 * if (task.status === 'queued' || task.status === 'running_subforecasts' || task.status === 'synthesizing') console.log(task.progressMessage);
 * ```
 */
export interface ActiveForecastTask extends z.output<typeof ActiveForecastTask> {}

export const CompletedForecastTask = exact({
  ...task,
  status: z.literal('completed'),
  /** The answer: `forecastData`, and the report and sources unless `fields: 'numeric'`. */
  forecast: Forecast,
  error: noError,
});
/**
 * A completed task: `forecast` holds the answer. Its report may still be being written.
 * @example
 * ```ts
 * const task = await client.forecasts.retrieve(taskId);
 * if (task.status === 'completed') console.log(task.forecast.forecastData, task.forecast.report?.status);
 * ```
 */
export interface CompletedForecastTask extends z.output<typeof CompletedForecastTask> {}

export const FailedForecastTask = exact({
  ...task,
  status: z.literal('failed'),
  forecast: noForecast,
  /** What happened. */
  error: exact({ message: z.string() }),
});
/**
 * A failed task: `error.message` says what happened; only finished subforecasts are readable.
 * @example
 * ```ts
 * const task = await client.forecasts.wait(taskId);
 * if (task.status === 'failed') console.log(task.error.message);
 * ```
 */
export interface FailedForecastTask extends z.output<typeof FailedForecastTask> {}

export const CancelledForecastTask = exact({ ...task, status: z.literal('cancelled'), forecast: noForecast, error: noError });
/**
 * A cancelled task. Work done is not refunded.
 * @example
 * ```ts
 * const task = await client.forecasts.cancel(taskId);
 * if (task.status === 'cancelled') console.log(`cancelled after ${task.completedSubforecastCount} subforecasts`);
 * ```
 */
export interface CancelledForecastTask extends z.output<typeof CancelledForecastTask> {}

/**
 * A task of a status the SDK does not know yet: it passes, typed as the known ones. A known status is
 * not this branch's: a `completed` task without its `forecast` is refused, not passed as unknown.
 */
const OtherTask = z.looseObject({ ...task, status: unknownValue(TASK_STATUSES) });

export const ForecastTask = z.union([ActiveForecastTask, CompletedForecastTask, FailedForecastTask, CancelledForecastTask, OtherTask]) as unknown as z.ZodMiniType<ForecastTask>;
/**
 * A forecast task (`type: 'forecast_task'`), discriminated on `status`: narrow it and `forecast`
 * (completed) or `error` (failed) is there.
 * @example
 * ```ts
 * const task = await client.forecasts.retrieve(taskId);
 * if (task.status === 'completed') console.log(task.forecast.forecastData);
 * else if (task.status === 'failed') console.log(task.error.message);
 * ```
 */
export type ForecastTask = ActiveForecastTask | CompletedForecastTask | FailedForecastTask | CancelledForecastTask;
/**
 * A task in a final status, as a wait gives it (`wait`, `createAndWait`, `waitMany`): `completed`,
 * `failed` or `cancelled`, never one still running.
 * @example
 * ```ts
 * const task: FinishedForecastTask = await client.forecasts.createAndWait({ questionId });
 * switch (task.status) {
 *   case 'completed': console.log(task.forecast.forecastData); break;
 *   case 'failed': console.log(task.error.message); break;
 *   case 'cancelled': break;
 * }
 * ```
 */
export type FinishedForecastTask = CompletedForecastTask | FailedForecastTask | CancelledForecastTask;

export const ForecastListItem = exact({
  taskId: z.string(),
  status: openEnum(TASK_STATUSES),
  /** The number once completed, else null. */
  forecastData: z.nullable(ForecastData),
  /** Never null: `pending` (with `short: null`) until writing starts. Left out with `fields: 'numeric'`. */
  report: z.optional(exact({ status: openString<ReportStatus>(), short: z.nullable(z.string()) })),
  /** Not shown in the spec; read when present (the mock sends it). */
  questionId: z.optional(z.string()),
  /** Not shown in the spec; read when present. */
  runMode: z.optional(z.string()),
  /** Not shown in the spec; read when present. */
  createdAt: z.optional(Timestamp),
  /** Not shown in the spec; read when present. */
  progressMessage: z.optional(z.string()),
  /** Not shown in the spec; read when present. */
  completedSubforecastCount: z.optional(z.int()),
  /** Not shown in the spec; read when present. */
  plannedSubforecastCount: z.optional(z.int()),
  /** What started it: `schedule`, `watch`, or null for an API start. Not shown in the spec; read when present. */
  autoforecast: z.optional(z.nullable(openString<'schedule' | 'watch'>())),
});
/**
 * An item of `GET /forecasts`: `taskId`, `status`, `forecastData` and a `report` of only `status` and `short`.
 * @example
 * ```ts
 * for await (const item of client.forecasts.list({ status: 'completed' })) console.log(item.taskId, item.forecastData, item.report?.short);
 * ```
 */
export interface ForecastListItem extends z.output<typeof ForecastListItem> {}

export const RunMode = exact({
  key: openEnum(RUN_MODES),
  name: z.optional(z.string()),
  /** The price, in credits. */
  credits: z.optional(z.number()),
  /** The rough time a forecast takes. */
  approximateMinutes: z.optional(z.number()),
  /** The organization's default mode. */
  isDefault: z.optional(z.boolean()),
});
/**
 * A run mode from `GET /run-modes`. Not shown in the spec beyond a rough time, a price and which mode
 * is the default: this SDK reads `key`, `name`, `credits`, `approximateMinutes` and `isDefault`.
 * @example
 * ```ts
 * const modes = await client.runModes.list();
 * const byDefault = modes.data.find((m) => m.isDefault); // { key: 'standard', credits, approximateMinutes, … }
 * ```
 */
export interface RunMode extends z.output<typeof RunMode> {}
