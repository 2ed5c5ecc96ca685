/**
 * Question schemas: the one source of the question types, of the SDK's checks before sending, and of
 * the mock service's checks on receipt.
 * @module
 */
import * as z from 'zod/mini';
import { MAX_DISCRETE_SPAN, MIN_DISCRETE_SPAN } from '../api/limits.js';
import { CursorPageParams, OffsetPageParams, exact, rule, unionByKey } from './common.js';
import { Options, Tags, Title } from './question-fields.js';
import { QUESTION_TYPES } from './enums.js';
import { DATE_BOUND_MILLISECONDS_FROM, MILLISECONDS_BOUND, orDate } from './date-bounds.js';

export { QUESTION_TYPES } from './enums.js';
export { DATE_BOUND_MILLISECONDS_FROM, MILLISECONDS_BOUND, looksLikeMilliseconds } from './date-bounds.js';
export type { QuestionType } from './enums.js';
export { NormalizeClarifyParams, NormalizeParams, NormalizeReviseParams } from './normalize.js';

/** Fields every question type takes. */
const common = {
  /** The question, 1 to 500 characters. */
  title: Title,
  description: z.optional(z.string()),
  /** Defines what the forecast means. */
  resolutionCriteria: z.optional(z.string()),
  /** The small print; empty when absent. */
  finePrint: z.optional(z.string()),
  /** Up to 20 labels; never shown to the forecaster. */
  tags: z.optional(Tags),
  /** `private` (the default) or `organization`. */
  visibility: z.optional(z.enum(['private', 'organization'])),
  /** Whether the answer may fall below `lowerBound` (default false). */
  openLowerBound: z.optional(z.boolean()),
  /** Whether the answer may fall above `upperBound` (default false). */
  openUpperBound: z.optional(z.boolean()),
  /** Whether at most one option can be true (default true; `multiple_choice`). */
  optionsAreMutuallyExclusive: z.optional(z.boolean()),
  /** Whether some option must be true (default true; `multiple_choice`). */
  optionsAreComprehensive: z.optional(z.boolean()),
};

/** A field the type does not take: absent, or the empty value a read shows (`[]` / `null`). */
const noOptions = (type: string) => {
  const error = `${type} questions take none`;
  // An empty array (not a tuple: one schema kind fewer in the bundle; typed `[]` all the same).
  return z.optional(z.array(z.unknown(), { error }).check(z.maxLength(0, { error }))) as unknown as z.ZodMiniOptional<z.ZodMiniType<[], []>>;
};
const noBound = (type: string) => z.optional(z.null({ error: `${type} questions take no bounds` }));
const noScale = (type: string) => z.optional(z.null({ error: `${type} questions take none` }));
const bound = (type: string, whole: boolean) =>
  (whole ? z.int({ error: `${type} bounds must be whole numbers` }) : z.number({ error: 'must be a number' }));

/** A date question's bound: whole Unix seconds, never milliseconds; a `Date` is converted. */
const dateBound = orDate(
  z.int({ error: 'date bounds must be whole numbers' }).check(
    z.lt(DATE_BOUND_MILLISECONDS_FROM, { error: MILLISECONDS_BOUND }),
    z.gt(-DATE_BOUND_MILLISECONDS_FROM, { error: MILLISECONDS_BOUND }),
  ),
);

export const BinaryQuestionDefinition = exact({
  type: z.literal('binary'),
  ...common,
  options: noOptions('binary'),
  lowerBound: noBound('binary'),
  upperBound: noBound('binary'),
  scaleType: noScale('binary'),
});
export const MultipleChoiceQuestionDefinition = exact({
  type: z.literal('multiple_choice'),
  ...common,
  /** 2 to 200 distinct options. */
  options: Options,
  lowerBound: noBound('multiple_choice'),
  upperBound: noBound('multiple_choice'),
  scaleType: noScale('multiple_choice'),
});
export const NumericQuestionDefinition = exact({
  type: z.literal('numeric'),
  ...common,
  options: noOptions('numeric'),
  /** Below `upperBound`; positive on a logarithmic scale. */
  lowerBound: bound('numeric', false),
  upperBound: bound('numeric', false),
  /** `linear`, or `logarithmic` with positive bounds. */
  scaleType: z.enum(['linear', 'logarithmic'], { error: 'numeric questions need linear or logarithmic' }),
});
export const DiscreteQuestionDefinition = exact({
  type: z.literal('discrete'),
  ...common,
  options: noOptions('discrete'),
  /** Whole numbers, 2 to 500 apart. */
  lowerBound: bound('discrete', true),
  upperBound: bound('discrete', true),
  scaleType: noScale('discrete'),
});
export const DateQuestionDefinition = exact({
  type: z.literal('date'),
  ...common,
  options: noOptions('date'),
  /** Whole Unix seconds (below 1e11: a bigger number is refused as milliseconds), or a `Date`. */
  lowerBound: dateBound,
  /** Whole Unix seconds (below 1e11: a bigger number is refused as milliseconds), or a `Date`. */
  upperBound: dateBound,
  scaleType: noScale('date'),
});
/**
 * A binary question to create: no options, no bounds.
 * @example
 * ```ts
 * const question: BinaryQuestionDefinition = { type: 'binary', title: 'Will it rain in Paris tomorrow?', tags: ['weather'] };
 * ```
 */
export interface BinaryQuestionDefinition extends z.input<typeof BinaryQuestionDefinition> {}
/**
 * A multiple choice question to create: 2 to 200 distinct options, no bounds.
 * @example
 * ```ts
 * const question: MultipleChoiceQuestionDefinition = { type: 'multiple_choice', title: 'Which team wins?', options: ['Lions', 'Tigers', 'Bears'] };
 * ```
 */
export interface MultipleChoiceQuestionDefinition extends z.input<typeof MultipleChoiceQuestionDefinition> {}
/**
 * A numeric question to create: `lowerBound` < `upperBound` and a `scaleType`.
 * @example
 * ```ts
 * const question: NumericQuestionDefinition = { type: 'numeric', title: 'Brent price on 1 June?', lowerBound: 40, upperBound: 140, scaleType: 'linear' };
 * ```
 */
export interface NumericQuestionDefinition extends z.input<typeof NumericQuestionDefinition> {}
/**
 * A discrete question to create: whole-number bounds 2 to 500 apart.
 * @example
 * ```ts
 * const question: DiscreteQuestionDefinition = { type: 'discrete', title: 'How many launches in May?', lowerBound: 0, upperBound: 120 };
 * ```
 */
export interface DiscreteQuestionDefinition extends z.input<typeof DiscreteQuestionDefinition> {}
/**
 * A date question to create: bounds in whole Unix seconds, or as `Date`s (sent as seconds). A number
 * of 1e11 or more is refused as milliseconds (`ValidationError` naming the bound; nothing is sent).
 * @example
 * ```ts
 * const question: DateQuestionDefinition = { type: 'date', title: 'When will the bridge reopen?', lowerBound: 1_780_000_000, upperBound: 1_800_000_000 };
 * const same: DateQuestionDefinition = { ...question, lowerBound: new Date('2026-05-28T20:26:40Z'), upperBound: new Date(Date.UTC(2027, 0, 15)) };
 * ```
 */
export interface DateQuestionDefinition extends z.input<typeof DateQuestionDefinition> {}

interface RuleInput {
  type?: unknown;
  options?: unknown;
  lowerBound?: unknown;
  upperBound?: unknown;
  scaleType?: unknown;
}

/**
 * The type rules that span fields: distinct options, ordered bounds, positive bounds on a log scale,
 * the discrete span. Shared by create (on the input) and the mock's edit (on the merged question).
 * @internal
 */
export function questionRuleIssues(q: RuleInput): Array<{ path: string; message: string }> {
  const issues: Array<{ path: string; message: string }> = [];
  if (q.type === 'multiple_choice' && Array.isArray(q.options) && new Set(q.options).size !== q.options.length) {
    issues.push({ path: 'options', message: 'must be distinct' });
  }
  const { lowerBound: lo, upperBound: hi } = q;
  if (typeof lo === 'number' && typeof hi === 'number') {
    if (lo >= hi) issues.push({ path: 'upperBound', message: 'must be greater than lowerBound' });
    if (q.type === 'numeric' && q.scaleType === 'logarithmic' && lo <= 0) {
      issues.push({ path: 'lowerBound', message: 'a logarithmic scale needs positive bounds' });
    }
    if (q.type === 'discrete' && lo < hi && (hi - lo < MIN_DISCRETE_SPAN || hi - lo > MAX_DISCRETE_SPAN)) {
      issues.push({
        path: 'upperBound',
        message: `discrete bounds must be ${MIN_DISCRETE_SPAN} to ${MAX_DISCRETE_SPAN} apart`,
      });
    }
  }
  return issues;
}

const typeRules = z.superRefine((q: RuleInput, ctx) => {
  for (const issue of questionRuleIssues(q)) {
    ctx.addIssue({ code: 'custom', message: issue.message, path: [issue.path], input: q });
  }
});

/**
 * A complete question definition: the question input fields, with the rules of its `type`.
 * Unknown fields pass through.
 */
export const QuestionDefinition = z
  .discriminatedUnion(
    'type',
    [BinaryQuestionDefinition, MultipleChoiceQuestionDefinition, NumericQuestionDefinition, DiscreteQuestionDefinition, DateQuestionDefinition],
    { error: `must be one of ${QUESTION_TYPES.join(', ')}` },
  )
  .check(typeRules);
/**
 * A complete question to create, discriminated on `type`: each type's fields and rules.
 * @example
 * ```ts
 * function draft(title: string): QuestionDefinition {
 *   return { type: 'binary', title };
 * }
 * ```
 */
export type QuestionDefinition =
  | BinaryQuestionDefinition
  | MultipleChoiceQuestionDefinition
  | NumericQuestionDefinition
  | DiscreteQuestionDefinition
  | DateQuestionDefinition;

/** Every question input field but `type`, all optional: an edit, or what a template question overrides. */
const someFields = {
  ...z.partial(z.object(common)).shape,
  /** 2 to 200 distinct options (`multiple_choice`): the type is not known here, but options are distinct for any type. */
  options: z.optional(Options.check(rule((o: string[]) => new Set(o).size === o.length, '', 'must be distinct'))),
  // The type is not known here: a number passes as it is (the service checks a date question's
  // bounds on the edited whole); a `Date` can only be a date bound and is sent as seconds.
  lowerBound: z.optional(z.nullable(orDate(z.number()))),
  upperBound: z.optional(z.nullable(orDate(z.number()))),
  scaleType: z.optional(z.nullable(z.enum(['linear', 'logarithmic']))),
};

/** `templateValues`: a map from blank key to the text that fills it. */
export const TemplateValues = z.record(z.string(), z.string());

export const QuestionFromTemplate = exact({
  /** The template to build from. */
  templateId: z.string(),
  /** Map from blank key to text. */
  templateValues: z.optional(TemplateValues),
  /** The type comes from the template. */
  type: z.optional(z.never({ error: 'comes from the template: leave it out' })),
  ...someFields,
});
/**
 * A question built from a template: `templateId`, `templateValues` (one text per blank), and any
 * question field but `type`, which wins over the template's.
 * @example
 * ```ts
 * await client.questions.create({ templateId, templateValues: { city: 'Paris', date: '1 June 2027' } });
 * ```
 */
export interface QuestionFromTemplate extends z.input<typeof QuestionFromTemplate> {}

export const QuestionCreateParams = unionByKey('templateId', QuestionFromTemplate, QuestionDefinition) as unknown as z.ZodMiniType<
  QuestionCreateParams,
  QuestionCreateParams
>;
/**
 * Body of `POST /questions`: a definition discriminated on `type`, or (with `templateId`) a
 * template with values.
 * @example
 * ```ts
 * const params: QuestionCreateParams = { type: 'numeric', title: 'Brent price on 1 June?', lowerBound: 40, upperBound: 140, scaleType: 'linear' };
 * await client.questions.create(params);
 * ```
 */
export type QuestionCreateParams = QuestionDefinition | QuestionFromTemplate;

export const QuestionUpdateParams = exact(someFields);
/**
 * Body of `PATCH /questions/{question_id}`: only the fields sent change. Once the question has a
 * forecast, only `description`, `resolutionCriteria`, `finePrint`, `visibility` and `tags` may change.
 * @example
 * ```ts
 * await client.questions.update(questionId, { resolutionCriteria: 'YES if Météo-France records 1 mm or more.' });
 * ```
 */
export interface QuestionUpdateParams extends z.input<typeof QuestionUpdateParams> {}

/** Fields that stay editable once a question has a forecast. */
export const FIELDS_EDITABLE_AFTER_FORECAST = [
  'description',
  'resolutionCriteria',
  'finePrint',
  'visibility',
  'tags',
] as const;

/**
 * Query of `GET /questions`. Filters beyond paging are not shown in the spec; extra keys are sent as given.
 */
export const QuestionListParams = exact({ ...CursorPageParams });
/**
 * Query of `GET /questions`: paging.
 * @example
 * ```ts
 * const page = await client.questions.list({ limit: 100 });
 * const next = await client.questions.list({ cursor: page.nextCursor! });
 * ```
 */
export interface QuestionListParams extends z.input<typeof QuestionListParams> {}

/**
 * Query of `GET /questions/browse` (offset paging). Filters beyond paging are not shown in the spec;
 * extra keys (a search text, say) are sent as given.
 */
export const QuestionBrowseParams = exact({
  ...OffsetPageParams,
  /** Text to find in titles (any case). Not shown in the spec: the SDK's choice of name, sent as given. */
  q: z.optional(z.string()),
  /** Question types to keep: one, a comma-separated list or an array. Not shown in the spec. */
  type: z.optional(z.union([z.string(), z.array(z.string())])),
});
/**
 * Query of `GET /questions/browse` (offset paging).
 * @example
 * ```ts
 * const rainy = await client.questions.browse({ q: 'rain', type: ['binary'], limit: 50, offset: 100 });
 * ```
 */
export interface QuestionBrowseParams extends z.input<typeof QuestionBrowseParams> {}

/** Query of `GET /tags`. Filters beyond paging are not shown in the spec. */
export const TagListParams = exact({ ...CursorPageParams });
/**
 * Query of `GET /tags`: paging.
 * @example
 * ```ts
 * for await (const tag of client.tags.list({ limit: 100 })) console.log(tag.slug);
 * ```
 */
export interface TagListParams extends z.input<typeof TagListParams> {}

const HTTPS_LINK = 'must be an https link to a market question';
/** Whether `text` is an absolute `https:` URL (as the URL parser reads it). */
const isHttpsLink = (text: string) => {
  try {
    return new URL(text).protocol === 'https:';
  } catch {
    return false;
  }
};

/** Body of `POST /questions/import`: a link to a question on a public prediction market. */
export const QuestionImportParams = exact({
  /** A link to a question on a public prediction market. */
  reference: z.string({ error: HTTPS_LINK }).check(rule(isHttpsLink, '', HTTPS_LINK)),
});
/**
 * Body of `POST /questions/import`: a link to a market question. It is copied; no forecast starts.
 * @example
 * ```ts
 * await client.questions.import({ reference: 'https://market.example/questions/will-x-happen' });
 * ```
 */
export interface QuestionImportParams extends z.input<typeof QuestionImportParams> {}
