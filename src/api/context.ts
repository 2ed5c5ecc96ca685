/**
 * The Question context group: a question's context notes and files. Declarations only: the client's
 * resources and the mock's handlers both read them.
 * @module
 */
import { defineOperations } from '../core/operation.js';
import { accepts, returns } from '../schemas/returns.js';
import { QUESTIONS } from './scopes.js';

const group = { scopes: QUESTIONS };

/** Context notes and readiness, of the Question context group. */
export const contextOperations = defineOperations('questions.context', {
  list: { method: 'GET', path: '/questions/{question_id}/context', params: accepts('ContextListParams'), response: returns('ContextNote'), paging: 'cursor' },
  create: { method: 'POST', path: '/questions/{question_id}/context', params: accepts('ContextNoteInput'), response: returns('ContextNote'), status: 201 },
  update: { method: 'PATCH', path: '/questions/{question_id}/context/{note_id}', params: accepts('ContextNoteUpdateParams'), response: returns('ContextNote') },
  delete: { method: 'DELETE', path: '/questions/{question_id}/context/{note_id}', status: 204 },
  ready: { method: 'GET', path: '/questions/{question_id}/context/ready', response: returns('ContextReady') },
}, group);

/** Context files, of the Question context group. */
export const fileOperations = defineOperations('questions.files', {
  list: { method: 'GET', path: '/questions/{question_id}/files', params: accepts('ContextListParams'), response: returns('ContextFile'), paging: 'cursor' },
  upload: { method: 'POST', path: '/questions/{question_id}/files', params: accepts('ContextFileUploadParams'), response: returns('ContextFile'), status: 201, multipart: true },
  retrieve: { method: 'GET', path: '/questions/{question_id}/files/{file_id}', response: returns('ContextFile') },
  update: { method: 'PATCH', path: '/questions/{question_id}/files/{file_id}', params: accepts('ContextFileUpdateParams'), response: returns('ContextFile') },
  delete: { method: 'DELETE', path: '/questions/{question_id}/files/{file_id}', status: 204 },
  replace: { method: 'POST', path: '/questions/{question_id}/files/{file_id}/replace', params: accepts('ContextFileReplaceParams'), response: returns('ContextFile'), multipart: true },
}, group);
