/**
 * AI drafting of questions (`normalize`, `clarify`, `revise`): deterministic drafts, nothing saved,
 * under the spec's 20-per-minute drafting limit.
 * @module
 */
import { DRAFTING_PER_MINUTE } from '../../api/limits.js';
import { questionOperations as ops } from '../../api/questions.js';
import { QuestionDefinition as QuestionDefinitionSchema } from '../../schemas/questions.js';
import { badRequest } from '../http.js';
import { validate } from '../input.js';
import { draftQuestion, withClarification, withGuidance } from '../models/draft.js';
import { pickDefinition, type QuestionDefinition } from '../models/question.js';
import type { HandlerContext, HandlerTable } from './types.js';

/** Counts the call against the drafting limit shared by the three operations. */
const countDraft = (ctx: HandlerContext) => ctx.limit('drafting calls', DRAFTING_PER_MINUTE);

/** A text field the spec leaves unshown but the call cannot work without. */
function requiredText(value: string | undefined, field: string): string {
  if (value === undefined || value.trim() === '') throw badRequest('is required', field);
  return value;
}

/** The drafting part of the questions' table (`handlers/questions.ts` holds the rest). */
export const draftingHandlers: Pick<HandlerTable<typeof ops>, 'normalize' | 'clarify' | 'revise'> = {
  normalize: (ctx) => {
    countDraft(ctx);
    return draftQuestion(ctx.input.title, ctx.clock.now());
  },
  clarify: (ctx) => {
    countDraft(ctx);
    const title = requiredText(ctx.input.title, 'title');
    const answer = requiredText(ctx.input.answer, 'answer');
    return withClarification(draftQuestion(title, ctx.clock.now(), true), answer);
  },
  revise: (ctx) => {
    countDraft(ctx);
    if (ctx.input.question === undefined) throw badRequest('is required', 'question');
    const guidance = requiredText(ctx.input.guidance, 'guidance');
    const draft = pickDefinition(validate(QuestionDefinitionSchema, ctx.input.question, 'question')) as QuestionDefinition;
    return { status: 'ok', question: withGuidance(draft, guidance) };
  },
};
