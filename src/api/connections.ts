/**
 * The Connections group: remote tool servers (MCP servers) forecasts may call. Declarations only: the
 * client's resources and the mock's handlers both read them.
 * @module
 */
import { defineOperations } from '../core/operation.js';
import { accepts, returns } from '../schemas/returns.js';
import { CONNECTIONS } from './scopes.js';

const group = { scopes: CONNECTIONS };

/** The Connections group, declared once. */
export const connectionOperations = defineOperations('connections', {
  list: { method: 'GET', path: '/connections', params: accepts('ConnectionListParams'), response: returns('Connection'), paging: 'cursor' },
  create: { method: 'POST', path: '/connections', params: accepts('ConnectionCreateParams'), response: returns('Connection'), status: 201 },
  retrieve: { method: 'GET', path: '/connections/{connection_id}', response: returns('Connection') },
  update: { method: 'PATCH', path: '/connections/{connection_id}', params: accepts('ConnectionUpdateParams'), response: returns('Connection') },
  delete: { method: 'DELETE', path: '/connections/{connection_id}', status: 204 },
  test: { method: 'POST', path: '/connections/{connection_id}/test', response: returns('Connection') },
  memberSwitch: { method: 'PUT', path: '/connections/{connection_id}/member-switch', params: accepts('ConnectionMemberSwitchParams'), response: returns('Connection') },
  signIn: { method: 'POST', path: '/connections/{connection_id}/sign-in', response: returns('ConnectionSignIn') },
}, group);
