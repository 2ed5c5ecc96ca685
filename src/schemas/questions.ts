/**
 * Question schemas: the one source of the question types, of the SDK's checks before sending, and of
 * the mock service's checks on receipt.
 * @module
 */
import * as z from 'zod/mini';
import {
  MAX_DISCRETE_SPAN,
  MAX_OPTIONS,
  MAX_TAGS,
  MAX_TITLE_LENGTH,
  MIN_DISCRETE_SPAN,
  MIN_OPTIONS,
} from '../core/limits.js';
import { CursorPageParams, OffsetPageParams, Timestamp, openEnum, unionByKey } from './common.js';

/** The question types. */
export const QUESTION_TYPES = ['binary', 'multiple_choice', 'numeric', 'discrete', 'date'] as const;
/** A question type. */
export type QuestionType = (typeof QUESTION_TYPES)[number];

const Title = z.string().check(
  z.minLength(1, { error: 'must not be empty' }),
  z.maxLength(MAX_TITLE_LENGTH, { error: `must be at most ${MAX_TITLE_LENGTH} characters` }),
);
const Tags = z.array(z.string()).check(z.maxLength(MAX_TAGS, { error: `must hold at most ${MAX_TAGS} tags` }));
const Options = z.array(z.string()).check(
  z.minLength(MIN_OPTIONS, { error: `must hold at least ${MIN_OPTIONS} options` }),
  z.maxLength(MAX_OPTIONS, { error: `must hold at most ${MAX_OPTIONS} options` }),
);

/** Fields every question type takes. */
const common = {
  /** At most 500 characters. */
  title: Title,
  description: z.optional(z.string()),
  /** Defines what the forecast means. */
  resolutionCriteria: z.optional(z.string()),
  finePrint: z.optional(z.string()),
  /** Up to 20 labels; never shown to the forecaster. */
  tags: z.optional(Tags),
  /** `private` (default) or `organization`. */
  visibility: z.optional(z.enum(['private', 'organization'])),
  openLowerBound: z.optional(z.boolean()),
  openUpperBound: z.optional(z.boolean()),
  optionsAreMutuallyExclusive: z.optional(z.boolean()),
  optionsAreComprehensive: z.optional(z.boolean()),
};

/** A field the type does not take: absent, or the empty value a read shows (`[]` / `null`). */
const noOptions = (type: string) => z.optional(z.tuple([], { error: `${type} questions take no options` }));
const noBound = (type: string) => z.optional(z.null({ error: `${type} questions take no bounds` }));
const noScale = (type: string) => z.optional(z.null({ error: `${type} questions take no scaleType` }));
const bound = (type: string, whole: boolean) =>
  (whole ? z.int({ error: `${type} bounds must be whole numbers` }) : z.number({ error: 'must be a number' }));

const BinaryQuestion = z.looseObject({
  type: z.literal('binary'),
  ...common,
  options: noOptions('binary'),
  lowerBound: noBound('binary'),
  upperBound: noBound('binary'),
  scaleType: noScale('binary'),
});
const MultipleChoiceQuestion = z.looseObject({
  type: z.literal('multiple_choice'),
  ...common,
  /** 2 to 200 distinct options. */
  options: Options,
  lowerBound: noBound('multiple_choice'),
  upperBound: noBound('multiple_choice'),
  scaleType: noScale('multiple_choice'),
});
const NumericQuestion = z.looseObject({
  type: z.literal('numeric'),
  ...common,
  options: noOptions('numeric'),
  lowerBound: bound('numeric', false),
  upperBound: bound('numeric', false),
  /** `linear`, or `logarithmic` with positive bounds. */
  scaleType: z.enum(['linear', 'logarithmic'], { error: 'numeric questions need scaleType linear or logarithmic' }),
});
const DiscreteQuestion = z.looseObject({
  type: z.literal('discrete'),
  ...common,
  options: noOptions('discrete'),
  /** Whole numbers, 2 to 500 apart. */
  lowerBound: bound('discrete', true),
  upperBound: bound('discrete', true),
  scaleType: noScale('discrete'),
});
const DateQuestion = z.looseObject({
  type: z.literal('date'),
  ...common,
  options: noOptions('date'),
  /** Whole Unix seconds. */
  lowerBound: bound('date', true),
  upperBound: bound('date', true),
  scaleType: noScale('date'),
});

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
    issues.push({ path: 'options', message: 'options must be distinct' });
  }
  const { lowerBound: lo, upperBound: hi } = q;
  if (typeof lo === 'number' && typeof hi === 'number') {
    if (lo >= hi) issues.push({ path: 'upperBound', message: 'upperBound must be greater than lowerBound' });
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
    [BinaryQuestion, MultipleChoiceQuestion, NumericQuestion, DiscreteQuestion, DateQuestion],
    { error: `type must be one of ${QUESTION_TYPES.join(', ')}` },
  )
  .check(typeRules);

/** A question built from a template: `templateId`, `templateValues`, and any fields that win over the template's. */
export const QuestionFromTemplate = z.looseObject({
  templateId: z.string(),
  /** Map from blank key to text. */
  templateValues: z.optional(z.record(z.string(), z.string())),
  ...z.partial(z.object(common)).shape,
});

/** Body of `POST /questions`: a definition, or (with `templateId`) a template with values. */
export const QuestionCreateParams = unionByKey('templateId', QuestionFromTemplate, QuestionDefinition);
/** Body of `POST /questions`. */
export type QuestionCreateParams = z.input<typeof QuestionCreateParams>;

/**
 * Body of `PATCH /questions/{question_id}`: only the fields sent change. Once the question has a
 * forecast, only `description`, `resolutionCriteria`, `finePrint`, `visibility` and `tags` may change.
 */
export const QuestionUpdateParams = z.looseObject({
  ...z.partial(z.object(common)).shape,
  options: z.optional(Options),
  lowerBound: z.optional(z.nullable(z.number())),
  upperBound: z.optional(z.nullable(z.number())),
  scaleType: z.optional(z.nullable(z.enum(['linear', 'logarithmic']))),
});
/** Body of `PATCH /questions/{question_id}`. */
export type QuestionUpdateParams = z.input<typeof QuestionUpdateParams>;

/** Fields that stay editable once a question has a forecast. */
export const FIELDS_EDITABLE_AFTER_FORECAST = [
  'description',
  'resolutionCriteria',
  'finePrint',
  'visibility',
  'tags',
] as const;

/** A tag as the service shows it. */
export const Tag = z.looseObject({ name: z.string(), slug: z.string() });
/** A tag as the service shows it. */
export type Tag = z.output<typeof Tag>;

/** A question as the service shows it. Unknown fields pass through. */
export const Question = z.looseObject({
  id: z.string(),
  type: openEnum(QUESTION_TYPES),
  title: z.string(),
  description: z.optional(z.string()),
  resolutionCriteria: z.optional(z.string()),
  finePrint: z.optional(z.string()),
  options: z.array(z.string()),
  lowerBound: z.nullable(z.number()),
  upperBound: z.nullable(z.number()),
  openLowerBound: z.boolean(),
  openUpperBound: z.boolean(),
  scaleType: z.nullable(openEnum(['linear', 'logarithmic'])),
  /** A generated label of hyphen-joined words. */
  callsign: z.string(),
  optionsAreMutuallyExclusive: z.boolean(),
  optionsAreComprehensive: z.boolean(),
  visibility: openEnum(['private', 'organization']),
  /** `api` for questions created through this interface. */
  createdVia: z.string(),
  tags: z.array(Tag),
  /** Present when built from a template. */
  sourceTemplate: z.optional(z.looseObject({})),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
/** A question as the service shows it. */
export type Question = z.output<typeof Question>;

/**
 * Query of `GET /questions`. Filters beyond paging are not shown in the spec; extra keys are sent as given.
 */
export const QuestionListParams = z.looseObject({ ...CursorPageParams });
/** Query of `GET /questions`. */
export type QuestionListParams = z.input<typeof QuestionListParams>;

/**
 * Query of `GET /questions/browse` (offset paging). Filters beyond paging are not shown in the spec;
 * extra keys (a search text, say) are sent as given.
 */
export const QuestionBrowseParams = z.looseObject({ ...OffsetPageParams });
/** Query of `GET /questions/browse`. */
export type QuestionBrowseParams = z.input<typeof QuestionBrowseParams>;

/** Query of `GET /tags`. Filters beyond paging are not shown in the spec. */
export const TagListParams = z.looseObject({ ...CursorPageParams });
/** Query of `GET /tags`. */
export type TagListParams = z.input<typeof TagListParams>;

/** Body of `POST /questions/import`: a link to a question on a public prediction market. */
export const QuestionImportParams = z.looseObject({
  reference: z.url({ protocol: /^https$/, error: 'must be an https link to a market question' }),
});
/** Body of `POST /questions/import`. */
export type QuestionImportParams = z.input<typeof QuestionImportParams>;

/** Body of `POST /questions/normalize`: the rough question. */
export const NormalizeParams = z.looseObject({ title: Title });
/** Body of `POST /questions/normalize`. */
export type NormalizeParams = z.input<typeof NormalizeParams>;

/**
 * Body of `POST /questions/normalize/clarify`. Not shown in the spec: this SDK sends `title` (the
 * original text) and `answer` (the reply to the clarification asked); other keys pass through.
 */
export const NormalizeClarifyParams = z.looseObject({
  title: z.optional(z.string()),
  answer: z.optional(z.string()),
});
/** Body of `POST /questions/normalize/clarify`. */
export type NormalizeClarifyParams = z.input<typeof NormalizeClarifyParams>;

/**
 * Body of `POST /questions/normalize/revise`. Not shown in the spec: this SDK sends `question` (the
 * draft to revise) and `guidance` (what to change); other keys pass through.
 */
export const NormalizeReviseParams = z.looseObject({
  question: z.optional(z.looseObject({})),
  guidance: z.optional(z.string()),
});
/** Body of `POST /questions/normalize/revise`. */
export type NormalizeReviseParams = z.input<typeof NormalizeReviseParams>;

/**
 * Answer of the normalize operations: a drafted `question` (not saved), or `status: 'unsupported'`
 * with `suggestedReframe`. Other fields and status values pass through.
 */
export const NormalizeResult = z.looseObject({
  status: z.optional(openEnum(['ok', 'unsupported', 'needs_clarification'])),
  question: z.optional(z.looseObject({ type: openEnum(QUESTION_TYPES), title: z.string() })),
  suggestedReframe: z.optional(z.string()),
  /** The question to answer through `normalize/clarify`, when the draft needs one. */
  clarification: z.optional(z.string()),
});
/** Answer of the normalize operations. */
export type NormalizeResult = z.output<typeof NormalizeResult>;
