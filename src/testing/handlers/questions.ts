/**
 * Questions: create, retrieve, edit (with the lock once forecast), list, browse and import.
 * @module
 */
import { questionOperations as ops } from '../../api/questions.js';
import {
  FIELDS_EDITABLE_AFTER_FORECAST,
  QuestionDefinition as QuestionDefinitionSchema,
} from '../../schemas/questions.js';
import { badRequest, conflict } from '../http.js';
import { validate } from '../input.js';
import { importedQuestion } from '../models/draft.js';
import {
  buildQuestion,
  definitionOf,
  findVisibleQuestion,
  insertQuestion,
  pickDefinition,
  visibleQuestions,
  type QuestionDefinition,
} from '../models/question.js';
import { findTemplate, questionFromTemplate } from '../models/templates.js';
import { cursorPage, offsetPage } from '../paging.js';
import { draftingHandlers } from './drafting.js';
import { handlersFor, type HandlerContext } from './types.js';

const EDITABLE_AFTER_FORECAST: ReadonlySet<string> = new Set(FIELDS_EDITABLE_AFTER_FORECAST);

/** The `question_id` path parameter (the router always sets it for these routes). */
const questionId = (ctx: HandlerContext) => ctx.pathParams['question_id'] ?? '';

export const questionHandlers = handlersFor(ops, {
  ...draftingHandlers,
  create: (ctx) => {
    if ('templateId' in ctx.input && typeof ctx.input.templateId === 'string') {
      const built = questionFromTemplate(findTemplate(ctx, ctx.input.templateId), ctx.input);
      return insertQuestion(ctx, built.definition, built.sourceTemplate, built.presetId);
    }
    return insertQuestion(ctx, ctx.input as QuestionDefinition);
  },
  retrieve: (ctx) => findVisibleQuestion(ctx, questionId(ctx)).question,
  update: (ctx) => {
    const record = findVisibleQuestion(ctx, questionId(ctx));
    const current = definitionOf(record.question);
    const patch = pickDefinition(ctx.input);
    if (ctx.store.hasForecast(record.id)) {
      for (const [field, value] of Object.entries(patch)) {
        const unchanged = JSON.stringify(value) === JSON.stringify(current[field as keyof QuestionDefinition]);
        if (!EDITABLE_AFTER_FORECAST.has(field) && !unchanged) {
          throw conflict(
            `${field}: cannot change once the question has a forecast; only ${FIELDS_EDITABLE_AFTER_FORECAST.join(', ')} can`,
          );
        }
      }
    }
    // The type rules hold for the question as a whole, so they are checked on the merged fields.
    const merged = validate(QuestionDefinitionSchema, { ...current, ...patch }) as QuestionDefinition;
    const question = buildQuestion(merged, {
      id: record.id,
      callsign: record.question.callsign,
      createdAt: record.question.createdAt,
      updatedAt: ctx.timestamp(),
      sourceTemplate: record.question.sourceTemplate,
    });
    ctx.store.questions.replace({ ...record, question });
    return question;
  },
  list: (ctx) =>
    cursorPage(
      visibleQuestions(ctx).map((r) => r.question),
      ctx.input,
      (q) => q.id,
    ),
  browse: (ctx) => {
    // Filters are not in the spec; the mock supports `q` (text in the title) and `type`, and ignores others.
    const text = typeof ctx.input['q'] === 'string' ? ctx.input['q'].toLowerCase() : undefined;
    const rawType = ctx.input['type'];
    const types = typeof rawType === 'string' ? rawType.split(',') : Array.isArray(rawType) ? rawType.map(String) : undefined;
    const found = visibleQuestions(ctx)
      .map((r) => r.question)
      .filter((q) => (text === undefined || q.title.toLowerCase().includes(text)) && (!types || types.includes(q.type)));
    return offsetPage(found, ctx.input);
  },
  import: (ctx) => {
    const url = new URL(ctx.input.reference);
    if (url.protocol !== 'https:') throw badRequest('must be an https link to a market question', 'reference');
    const def = importedQuestion(url);
    if (!def) throw badRequest('must link to a question page (its last path segment names the question)', 'reference');
    return insertQuestion(ctx, def);
  },
});
