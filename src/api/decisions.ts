/**
 * The Decisions group. Its list of conflict codes is open: a 409 with a code the error table does not
 * know is a `DecisionConflictError` on any of its operations. Declarations only: the client's
 * resources and the mock's handlers both read them.
 * @module
 */
import { defineOperations, type GroupOptions } from '../core/operation.js';
import { accepts, returns } from '../schemas/returns.js';
import { DecisionConflictError } from './errors.js';
import { readRun } from './reads.js';
import { QUESTIONS, type Scope } from './scopes.js';
import { decisionStart } from './task-slots.js';

/** The spec's "decision calls using a model" (10 a minute per key): counted in a coordinator's `modelCalls` window. */
const modelCall = ['modelCalls'] as const;
/** Only a conditional link is drafted by a model. */
const conditionalLink = (params: unknown) => ((params as { kind?: unknown } | undefined)?.kind === 'conditional' ? modelCall : []);

/**
 * The questions scopes. The spec's list of decision codes is open: a 409 whose code the error table
 * does not know is a decision conflict, except `invalid_request_error` (too few credits).
 */
const group: GroupOptions<Scope> = { scopes: QUESTIONS, unknownCode: { status: 409, error: DecisionConflictError, except: ['invalid_request_error'] } };

/** The Decisions group: the decision itself, its modes and drafting. */
export const decisionOperations = defineOperations('decisions', {
  list: { method: 'GET', path: '/decisions', params: accepts('DecisionListParams'), response: returns('Decision'), paging: 'offset' },
  create: { method: 'POST', path: '/decisions', params: accepts('DecisionCreateParams'), response: returns('Decision'), status: 201, idempotent: true, windows: modelCall },
  retrieve: { method: 'GET', path: '/decisions/{decision_id}', response: returns('Decision') },
  update: { method: 'PATCH', path: '/decisions/{decision_id}', params: accepts('DecisionUpdateParams'), response: returns('Decision') },
  archive: { method: 'POST', path: '/decisions/{decision_id}/archive', response: returns('Decision') },
  unarchive: { method: 'POST', path: '/decisions/{decision_id}/unarchive', response: returns('Decision') },
  generate: { method: 'POST', path: '/decisions/{decision_id}/generate', params: accepts('DecisionGenerateParams'), response: returns('Decision'), status: 202, windows: modelCall },
  setLive: { method: 'PUT', path: '/decisions/{decision_id}/live', scope: 'forecasts:write', params: accepts('DecisionLiveParams'), response: returns('Decision') },
  setFollowing: { method: 'PUT', path: '/decisions/{decision_id}/follow', params: accepts('DecisionFollowParams'), response: returns('Decision') },
}, group);

/** A decision's question drafts. */
export const decisionDraftOperations = defineOperations('decisions.drafts', {
  update: { method: 'PATCH', path: '/decisions/{decision_id}/drafts/{draft_id}', params: accepts('DecisionDraftUpdateParams'), response: returns('DecisionDraft') },
  discard: { method: 'POST', path: '/decisions/{decision_id}/drafts/discard', params: accepts('DecisionDraftSelectParams'), response: returns('Decision') },
  keep: { method: 'POST', path: '/decisions/{decision_id}/drafts/keep', params: accepts('DecisionDraftSelectParams'), response: returns('Decision'), windows: modelCall },
}, group);

/** A decision's priced forecasts. */
export const decisionForecastOperations = defineOperations('decisions.forecasts', {
  create: {
    method: 'POST',
    path: '/decisions/{decision_id}/forecasts',
    scope: 'forecasts:write',
    params: accepts('DecisionForecastCreateParams'),
    response: returns('DecisionForecastRun'),
    read: { expects: 'a result per question in `items`', from: readRun },
    status: 202,
    idempotent: true,
    starts: decisionStart,
  },
  estimate: { method: 'POST', path: '/decisions/{decision_id}/forecasts/estimate', scope: 'forecasts:read', params: accepts('DecisionForecastEstimateParams'), response: returns('DecisionForecastEstimate') },
}, group);

/** The questions on a decision. */
export const decisionNodeOperations = defineOperations('decisions.nodes', {
  create: { method: 'POST', path: '/decisions/{decision_id}/nodes', params: accepts('DecisionNodeCreateParams'), response: returns('DecisionNode'), status: 201 },
  delete: { method: 'DELETE', path: '/decisions/{decision_id}/nodes/{node_id}', status: 204 },
}, group);

/** Links between a decision's questions. */
export const decisionLinkOperations = defineOperations('decisions.links', {
  create: { method: 'POST', path: '/decisions/{decision_id}/links', params: accepts('DecisionLinkCreateParams'), response: returns('DecisionLink'), status: 201, windows: conditionalLink },
  // Only a failed conditional link can be edited; the edit drafts it again.
  update: { method: 'PATCH', path: '/decisions/{decision_id}/links/{link_id}', params: accepts('DecisionLinkUpdateParams'), response: returns('DecisionLink'), windows: modelCall },
  delete: { method: 'DELETE', path: '/decisions/{decision_id}/links/{link_id}', status: 204 },
}, group);

/** A decision's notes. */
export const decisionNoteOperations = defineOperations('decisions.notes', {
  create: { method: 'POST', path: '/decisions/{decision_id}/notes', params: accepts('DecisionTextParams'), response: returns('DecisionNote'), status: 201 },
  update: { method: 'PATCH', path: '/decisions/{decision_id}/notes/{note_id}', params: accepts('DecisionTextParams'), response: returns('DecisionNote') },
  delete: { method: 'DELETE', path: '/decisions/{decision_id}/notes/{note_id}', status: 204 },
}, group);

/** A decision's comments. */
export const decisionCommentOperations = defineOperations('decisions.comments', {
  list: { method: 'GET', path: '/decisions/{decision_id}/comments', params: accepts('DecisionPageParams'), response: returns('DecisionComment'), paging: 'cursor' },
  create: { method: 'POST', path: '/decisions/{decision_id}/comments', params: accepts('DecisionTextParams'), response: returns('DecisionComment'), status: 201 },
  update: { method: 'PATCH', path: '/decisions/{decision_id}/comments/{comment_id}', params: accepts('DecisionTextParams'), response: returns('DecisionComment') },
  delete: { method: 'DELETE', path: '/decisions/{decision_id}/comments/{comment_id}', status: 204 },
}, group);

/** A decision's conditions. */
export const decisionConditionOperations = defineOperations('decisions.conditions', {
  list: { method: 'GET', path: '/decisions/{decision_id}/conditions', params: accepts('DecisionPageParams'), response: returns('DecisionCondition'), paging: 'cursor' },
  create: { method: 'POST', path: '/decisions/{decision_id}/conditions', params: accepts('DecisionConditionCreateParams'), response: returns('DecisionCondition'), status: 201 },
  update: { method: 'PATCH', path: '/decisions/{decision_id}/conditions/{condition_id}', params: accepts('DecisionConditionUpdateParams'), response: returns('DecisionCondition') },
  delete: { method: 'DELETE', path: '/decisions/{decision_id}/conditions/{condition_id}', status: 204 },
}, group);

/** A decision's summary. */
export const decisionSummaryOperations = defineOperations('decisions.summary', {
  retrieve: { method: 'GET', path: '/decisions/{decision_id}/summary', response: returns('DecisionSummary') },
  refresh: { method: 'POST', path: '/decisions/{decision_id}/summary/refresh', response: returns('DecisionSummary'), windows: modelCall },
}, group);
