/**
 * Tags: the distinct tags on the questions the caller sees, by slug.
 * @module
 */
import { tagOperations as ops } from '../../api/questions.js';
import type { Tag } from '../../schemas/records/questions.js';
import { visibleQuestions } from '../models/question.js';
import { cursorPage } from '../paging.js';
import { handlersFor } from './types.js';

export const tagHandlers = handlersFor(ops, {
  list: (ctx) => {
    const bySlug = new Map<string, Tag>();
    for (const { question } of visibleQuestions(ctx)) {
      for (const tag of question.tags) if (!bySlug.has(tag.slug)) bySlug.set(tag.slug, tag);
    }
    const tags = [...bySlug.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
    return cursorPage(tags, ctx.input, (t) => t.slug);
  },
});
