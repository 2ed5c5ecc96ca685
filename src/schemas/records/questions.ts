/**
 * What the service answers about questions: the question (discriminated on `type`), tags, and the
 * drafts of the normalize operations. The schemas load only with `validateResponses`.
 * @module
 */
import * as z from 'zod/mini';
import { Timestamp, exact, openEnum, unknownValue } from '../common.js';
import { QUESTION_TYPES } from '../enums.js';
import { SourceTemplate } from './templates.js';
import type { QuestionDefinition } from '../questions.js';

export const Tag = exact({
  /** The label as written. */
  name: z.string(),
  /** Its normalized form. */
  slug: z.string(),
});
/**
 * A tag as the service shows it.
 * @example
 * ```ts
 * const question = await client.questions.create({ type: 'binary', title: 'Will it rain?', tags: ['Weather'] });
 * const tag: Tag | undefined = question.tags[0]; // { name: 'Weather', slug: 'weather' }
 * ```
 */
export interface Tag extends z.output<typeof Tag> {}

/** Fields every question shows. */
const question = {
  id: z.string(),
  /** 1 to 500 characters. */
  title: z.string(),
  description: z.optional(z.string()),
  /** Defines what the forecast means. */
  resolutionCriteria: z.optional(z.string()),
  /** Empty when absent. */
  finePrint: z.optional(z.string()),
  /** Empty for types other than `multiple_choice`. */
  options: z.array(z.string()),
  /** Whether the answer may fall below `lowerBound`. */
  openLowerBound: z.boolean(),
  /** Whether the answer may fall above `upperBound`. */
  openUpperBound: z.boolean(),
  /** A generated label of hyphen-joined words. */
  callsign: z.string(),
  /** Whether at most one option can be true. */
  optionsAreMutuallyExclusive: z.boolean(),
  /** Whether some option must be true. */
  optionsAreComprehensive: z.boolean(),
  /** `private` or `organization`. */
  visibility: openEnum(['private', 'organization'] as const),
  /** `api` for questions created through this interface. */
  createdVia: z.string(),
  /** Labels, never shown to the forecaster. */
  tags: z.array(Tag),
  /** Present when built from a template: the template as it was then; later changes to the template never change the question. */
  sourceTemplate: z.optional(SourceTemplate),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};
const noBounds = { lowerBound: z.null(), upperBound: z.null(), scaleType: z.null() };
const bounds = {
  /** The lowest answer (Unix seconds for `date`). */
  lowerBound: z.number(),
  /** The highest answer (Unix seconds for `date`). */
  upperBound: z.number(),
};

export const BinaryQuestion = exact({ ...question, type: z.literal('binary'), ...noBounds });
/**
 * A yes/no question.
 * @example
 * ```ts
 * const q = await client.questions.retrieve(questionId);
 * if (q.type === 'binary') console.log(q.title, q.resolutionCriteria);
 * ```
 */
export interface BinaryQuestion extends z.output<typeof BinaryQuestion> {}
export const MultipleChoiceQuestion = exact({ ...question, type: z.literal('multiple_choice'), ...noBounds });
/**
 * A question answered by one of its `options`.
 * @example
 * ```ts
 * if (question.type === 'multiple_choice') console.log(question.options, question.optionsAreMutuallyExclusive);
 * ```
 */
export interface MultipleChoiceQuestion extends z.output<typeof MultipleChoiceQuestion> {}
export const NumericQuestion = exact({
  ...question,
  type: z.literal('numeric'),
  ...bounds,
  /** `linear` or `logarithmic`. */
  scaleType: openEnum(['linear', 'logarithmic'] as const),
});
/**
 * A question answered by a number between its bounds.
 * @example
 * ```ts
 * if (question.type === 'numeric') console.log(question.lowerBound, question.upperBound, question.scaleType);
 * ```
 */
export interface NumericQuestion extends z.output<typeof NumericQuestion> {}
export const DiscreteQuestion = exact({ ...question, type: z.literal('discrete'), ...bounds, scaleType: z.null() });
/**
 * A question answered by a whole number between its bounds.
 * @example
 * ```ts
 * if (question.type === 'discrete') console.log(`a whole number from ${question.lowerBound} to ${question.upperBound}`);
 * ```
 */
export interface DiscreteQuestion extends z.output<typeof DiscreteQuestion> {}
export const DateQuestion = exact({ ...question, type: z.literal('date'), ...bounds, scaleType: z.null() });
/**
 * A question answered by a date between its bounds (Unix seconds).
 * @example
 * ```ts
 * if (question.type === 'date') console.log(new Date(question.lowerBound * 1000), new Date(question.upperBound * 1000));
 * ```
 */
export interface DateQuestion extends z.output<typeof DateQuestion> {}

/**
 * A question of a type the SDK does not know yet: it passes, typed as the known ones. A known type
 * is not this branch's: a `numeric` question without its bounds is refused, not passed as unknown.
 */
const OtherQuestion = z.looseObject({ ...question, type: unknownValue(QUESTION_TYPES) });

export const Question = z.union([BinaryQuestion, MultipleChoiceQuestion, NumericQuestion, DiscreteQuestion, DateQuestion, OtherQuestion]) as unknown as z.ZodMiniType<Question>;
/**
 * A question as the service shows it, discriminated on `type`: narrow it and the bounds have that
 * type's shape (`null` for `binary` and `multiple_choice`, numbers otherwise).
 * @example
 * ```ts
 * const q = await client.questions.retrieve(questionId);
 * if (q.type === 'numeric') console.log(q.lowerBound, q.upperBound, q.scaleType);
 * ```
 */
export type Question = BinaryQuestion | MultipleChoiceQuestion | NumericQuestion | DiscreteQuestion | DateQuestion;

const NormalizeResultShape = exact({
  /**
   * `ok` with `question`; `unsupported` when the title cannot be made a question (see
   * `suggestedReframe`); `needs_clarification` with `clarification`, to answer through
   * `questions.clarify` with the same title. Not shown in the spec beyond these: others may come.
   */
  status: z.optional(openEnum(['ok', 'unsupported', 'needs_clarification'] as const)),
  /** The drafted question, not saved: pass it to `questions.create` or `forecasts.create`. */
  question: z.optional(z.looseObject({ type: openEnum(QUESTION_TYPES), title: z.string() })),
  /** A question the service can answer, when this one cannot be. */
  suggestedReframe: z.optional(z.string()),
  /** The question to answer through `normalize/clarify`, when the draft needs one. */
  clarification: z.optional(z.string()),
});
/** The normalize answer as its schema reads it, before `question` is typed as a definition. */
interface NormalizeResultAsRead extends z.output<typeof NormalizeResultShape> {}

/**
 * A question the service drafted: a definition `questions.create` and `forecasts.create` take as it
 * is (other fields the service adds pass through). Typed as the question types this SDK knows: a
 * type a newer service drafts is refused by `create` with `ValidationError`, before anything is sent.
 * @example
 * ```ts
 * const { question } = await client.questions.normalize({ title: 'bitcoin above 100k by June 2027?' });
 * if (question) await client.questions.create(question);
 * ```
 */
export type DraftedQuestion = QuestionDefinition & { [field: string]: unknown };

/**
 * The answer of the normalize operations: a drafted `question` (not saved), or `status: 'unsupported'`
 * with `suggestedReframe`. Beyond those, not shown in the spec: other fields pass through.
 * @example
 * ```ts
 * const title = 'rain in paris soon?';
 * let result: NormalizeResult = await client.questions.normalize({ title });
 * if (result.status === 'needs_clarification') result = await client.questions.clarify({ title, answer: 'By 1 June 2027' });
 * if (result.status === 'unsupported') console.log(result.suggestedReframe);
 * else if (result.question) await client.questions.create(result.question);
 * ```
 */
export interface NormalizeResult extends Omit<NormalizeResultAsRead, 'question'> {
  /** The drafted question, not saved: pass it to `questions.create` or `forecasts.create` as it is. */
  question?: DraftedQuestion;
}
/** Read leniently (`question` a looseObject with a type and a title); typed as {@link NormalizeResult}. */
export const NormalizeResult = NormalizeResultShape as unknown as z.ZodMiniType<NormalizeResult>;
