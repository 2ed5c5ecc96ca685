/**
 * Bodies of the normalize operations (`POST /questions/normalize`, `/clarify`, `/revise`): turning
 * rough text into a question draft. Part of the questions group; re-exported by `questions.ts`.
 * @module
 */
import * as z from 'zod/mini';
import { exact } from './common.js';
import { Title } from './question-fields.js';

/** Body of `POST /questions/normalize`: the rough question. */
export const NormalizeParams = exact({
  /** The rough question, in your words. */
  title: Title,
});
/**
 * Body of `POST /questions/normalize`: the rough question.
 * @example
 * ```ts
 * const draft = await client.questions.normalize({ title: 'bitcoin above 100k next summer?' });
 * ```
 */
export interface NormalizeParams extends z.input<typeof NormalizeParams> {}

/**
 * Body of `POST /questions/normalize/clarify`. Not shown in the spec: this SDK sends `title` (the
 * original text) and `answer` (the reply to the clarification asked); other keys pass through.
 */
export const NormalizeClarifyParams = exact({
  /** The original text (the same limits as a title: 1 to 500 characters). */
  title: z.optional(Title),
  /** The reply to the clarification asked. */
  answer: z.optional(z.string()),
});
/**
 * Body of `POST /questions/normalize/clarify` (not shown in the spec: the SDK's choice).
 * @example
 * ```ts
 * const draft = await client.questions.clarify({ title: 'rain in Paris?', answer: 'Any measurable rain at Montsouris, 1 June 2027' });
 * ```
 */
export interface NormalizeClarifyParams extends z.input<typeof NormalizeClarifyParams> {}

/**
 * Body of `POST /questions/normalize/revise`. Not shown in the spec: this SDK sends `question` (the
 * draft to revise) and `guidance` (what to change); other keys pass through.
 */
export const NormalizeReviseParams = exact({
  /** The draft to revise. */
  question: z.optional(z.record(z.string(), z.unknown())),
  /** What to change. */
  guidance: z.optional(z.string()),
});
/**
 * Body of `POST /questions/normalize/revise` (not shown in the spec: the SDK's choice).
 * @example
 * ```ts
 * const revised = await client.questions.revise({ question: draft.question, guidance: 'Resolve on the Coinbase close.' });
 * ```
 */
export interface NormalizeReviseParams extends z.input<typeof NormalizeReviseParams> {}
