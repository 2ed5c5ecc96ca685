/**
 * The Forecast chat group. Declarations only: the client's resources and the mock's handlers both read
 * them.
 * @module
 */
import { defineOperations } from '../core/operation.js';
import { accepts, returns } from '../schemas/returns.js';
import { FORECASTS } from './scopes.js';

/** The spec's "forecast chat messages" (30 a minute per key): counted in a coordinator's `chatMessages` window. */
const chatMessage = ['chatMessages'] as const;

const group = { scopes: FORECASTS };

/** The Forecast chat group. */
export const chatOperations = defineOperations('forecasts.chat', {
  list: { method: 'GET', path: '/forecasts/{task_id}/chat', params: accepts('ChatListParams'), response: returns('ChatThread'), paging: 'cursor' },
  create: { method: 'POST', path: '/forecasts/{task_id}/chat', params: accepts('ChatCreateParams'), response: returns('ChatThread'), windows: chatMessage },
  retrieve: { method: 'GET', path: '/forecasts/{task_id}/chat/{thread_id}', response: returns('ChatThread') },
  acceptContext: { method: 'POST', path: '/forecasts/chat/messages/{message_id}/accept-context', scope: 'questions:write', params: accepts('AcceptContextParams'), response: returns('ContextNote'), status: 201 },
}, group);
