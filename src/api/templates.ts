/**
 * The Question templates group: templates and their files. Declarations only: the client's resources
 * and the mock's handlers both read them.
 * @module
 */
import { defineOperations } from '../core/operation.js';
import { accepts, returns } from '../schemas/returns.js';
import { QUESTIONS } from './scopes.js';

const group = { scopes: QUESTIONS };

/** The Question templates group (8 of its 12 operations; the files are `questionTemplates.files.*`). */
export const questionTemplateOperations = defineOperations('questionTemplates', {
  list: { method: 'GET', path: '/question-templates', params: accepts('QuestionTemplateListParams'), response: returns('QuestionTemplate'), paging: 'cursor' },
  create: { method: 'POST', path: '/question-templates', params: accepts('QuestionTemplateCreateParams'), response: returns('QuestionTemplate'), status: 201 },
  createFromQuestion: { method: 'POST', path: '/question-templates/from-question', params: accepts('QuestionTemplateFromQuestionParams'), response: returns('QuestionTemplate'), status: 201 },
  retrieve: { method: 'GET', path: '/question-templates/{template_id}', response: returns('QuestionTemplate') },
  update: { method: 'PATCH', path: '/question-templates/{template_id}', params: accepts('QuestionTemplateUpdateParams'), response: returns('QuestionTemplate') },
  delete: { method: 'DELETE', path: '/question-templates/{template_id}', status: 204 },
  apply: { method: 'POST', path: '/question-templates/{template_id}/apply', scope: 'questions:read', params: accepts('QuestionTemplateApplyParams'), response: returns('QuestionTemplateApplication') },
  fill: { method: 'POST', path: '/question-templates/{template_id}/fill', params: accepts('QuestionTemplateFillParams'), response: returns('QuestionTemplateFill') },
}, group);

/** A template's files, of the Question templates group. */
export const questionTemplateFileOperations = defineOperations('questionTemplates.files', {
  upload: { method: 'POST', path: '/question-templates/{template_id}/files', params: accepts('QuestionTemplateFileUploadParams'), response: returns('QuestionTemplateFile'), status: 201, multipart: true },
  retrieve: { method: 'GET', path: '/question-templates/{template_id}/files/{file_id}', response: returns('QuestionTemplateFile') },
  update: { method: 'PATCH', path: '/question-templates/{template_id}/files/{file_id}', params: accepts('QuestionTemplateFileUpdateParams'), response: returns('QuestionTemplateFile') },
  delete: { method: 'DELETE', path: '/question-templates/{template_id}/files/{file_id}', status: 204 },
}, group);
