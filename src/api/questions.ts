/**
 * The Questions group: questions, their drafting with AI (`normalize`) and tags. Declarations only:
 * the client's resources and the mock's handlers both read them.
 * @module
 */
import { defineOperations } from '../core/operation.js';
import { accepts, returns } from '../schemas/returns.js';
import { QUESTIONS } from './scopes.js';

/** The spec's "drafting questions with AI" (20 a minute per key): counted in a coordinator's `drafting` window. */
const drafting = ['drafting'] as const;

const group = { scopes: QUESTIONS };

/** The Questions group, declared once. */
export const questionOperations = defineOperations('questions', {
  list: { method: 'GET', path: '/questions', params: accepts('QuestionListParams'), response: returns('Question'), paging: 'cursor' },
  create: { method: 'POST', path: '/questions', params: accepts('QuestionCreateParams'), response: returns('Question'), status: 201 },
  retrieve: { method: 'GET', path: '/questions/{question_id}', response: returns('Question') },
  update: { method: 'PATCH', path: '/questions/{question_id}', params: accepts('QuestionUpdateParams'), response: returns('Question') },
  browse: { method: 'GET', path: '/questions/browse', params: accepts('QuestionBrowseParams'), response: returns('Question'), paging: 'offset' },
  import: { method: 'POST', path: '/questions/import', params: accepts('QuestionImportParams'), response: returns('Question'), status: 201 },
  normalize: { method: 'POST', path: '/questions/normalize', params: accepts('NormalizeParams'), response: returns('NormalizeResult'), windows: drafting },
  clarify: { method: 'POST', path: '/questions/normalize/clarify', params: accepts('NormalizeClarifyParams'), response: returns('NormalizeResult'), windows: drafting },
  revise: { method: 'POST', path: '/questions/normalize/revise', params: accepts('NormalizeReviseParams'), response: returns('NormalizeResult'), windows: drafting },
}, group);

/** The tags operation of the Questions group. */
export const tagOperations = defineOperations('tags', {
  list: { method: 'GET', path: '/tags', params: accepts('TagListParams'), response: returns('Tag'), paging: 'cursor' },
}, group);
