/**
 * The Questions group: questions, their drafting with AI (`normalize`) and tags. Declarations only:
 * the client's resources and the mock's handlers both read them.
 * @module
 */
import { defineOperations } from '../core/operation.js';
import { returns } from '../schemas/returns.js';
import {
  NormalizeClarifyParams,
  NormalizeParams,
  NormalizeReviseParams,
  QuestionBrowseParams,
  QuestionCreateParams,
  QuestionImportParams,
  QuestionListParams,
  QuestionUpdateParams,
  TagListParams,
} from '../schemas/questions.js';
import { QUESTIONS } from './scopes.js';

const group = { scopes: QUESTIONS };

/** The Questions group, declared once. */
export const questionOperations = defineOperations('questions', {
  list: { method: 'GET', path: '/questions', params: QuestionListParams, response: returns('Question'), paging: 'cursor' },
  create: { method: 'POST', path: '/questions', params: QuestionCreateParams, response: returns('Question'), status: 201 },
  retrieve: { method: 'GET', path: '/questions/{question_id}', response: returns('Question') },
  update: { method: 'PATCH', path: '/questions/{question_id}', params: QuestionUpdateParams, response: returns('Question') },
  browse: { method: 'GET', path: '/questions/browse', params: QuestionBrowseParams, response: returns('Question'), paging: 'offset' },
  import: { method: 'POST', path: '/questions/import', params: QuestionImportParams, response: returns('Question'), status: 201 },
  normalize: { method: 'POST', path: '/questions/normalize', params: NormalizeParams, response: returns('NormalizeResult') },
  clarify: { method: 'POST', path: '/questions/normalize/clarify', params: NormalizeClarifyParams, response: returns('NormalizeResult') },
  revise: { method: 'POST', path: '/questions/normalize/revise', params: NormalizeReviseParams, response: returns('NormalizeResult') },
}, group);

/** The tags operation of the Questions group. */
export const tagOperations = defineOperations('tags', {
  list: { method: 'GET', path: '/tags', params: TagListParams, response: returns('Tag'), paging: 'cursor' },
}, group);
