/**
 * Connections: add (tested at once, on the simulated network: nothing is contacted), read, edit
 * (tool switches, `enabled`), delete, test, the member switch, and the start of an `oauth` sign-in.
 * A connection's key is never kept nor returned: reads show `hasApiKey`.
 * @module
 */
import { connectionOperations as ops } from '../../api/connections.js';
import type { Connection } from '../../schemas/records/connections.js';
import { requireOrganizationAdmin } from '../auth.js';
import { badRequest, notFound } from '../http.js';
import { canSeeConnection, CONNECTIONS, resolvedKind, testConnection, type ConnectionRecord } from '../models/connections.js';
import { cursorPage } from '../paging.js';
import { handlersFor, type HandlerContext } from './types.js';

/** How long a sign-in address works, in ms (the mock's choice). */
const SIGN_IN_TTL_MS = 10 * 60_000;

/** A connection as the caller reads it: with their own member switch when it is an organization's. */
function view(ctx: HandlerContext, r: ConnectionRecord): Connection {
  const organization = r.connection.scope === 'organization';
  return { ...r.connection, ...(organization && { memberEnabled: !r.membersOff.includes(ctx.principal.userId) }) };
}

function find(ctx: HandlerContext): ConnectionRecord {
  const id = ctx.pathParams['connection_id']!;
  const r = ctx.store.collection(CONNECTIONS).get(id);
  if (!r || !canSeeConnection(r, ctx.principal.userId, ctx.principal.organizationId)) throw notFound(`connectionId: no connection ${id}`);
  return r;
}

/** A connection the caller may change: their own, or their organization's when they administer it. */
function writable(ctx: HandlerContext): ConnectionRecord {
  const r = find(ctx);
  if (r.connection.scope === 'organization') requireOrganizationAdmin(ctx.principal, 'connectionId: changing an organization connection');
  return r;
}

export const connectionHandlers = handlersFor(ops, {
  list: (ctx) =>
    cursorPage(
      ctx.store
        .collection(CONNECTIONS)
        .list((r) => canSeeConnection(r, ctx.principal.userId, ctx.principal.organizationId))
        .map((r) => view(ctx, r)),
      ctx.input,
      (c) => c.id,
    ),
  create: (ctx) => {
    const { scope, name, url, authKind, api_key, apiKeyHeader } = ctx.input;
    if (scope === 'organization') requireOrganizationAdmin(ctx.principal, 'scope: an organization connection');
    // The SDK judged the literal; the service resolves the name (here, on the simulated network).
    const kind = resolvedKind(ctx.store, new URL(url).hostname);
    if (kind) throw badRequest(`must reach a public address: the host resolves to a ${kind} one`, 'url');
    const now = ctx.timestamp();
    const id = crypto.randomUUID();
    const draft: Connection = {
      id,
      scope,
      name,
      url,
      authKind,
      apiKeyHeader: apiKeyHeader ?? null,
      hasApiKey: api_key !== undefined,
      status: 'connected',
      tools: [],
      enabled: true,
      lastTestedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    // Added and tested at once.
    const { userId: ownerId, organizationId } = ctx.principal;
    const record = { id, ownerId, organizationId, connection: draft, membersOff: [], signedIn: false };
    record.connection = testConnection(ctx.store, record, now);
    return view(ctx, ctx.store.collection(CONNECTIONS).insert(record));
  },
  retrieve: (ctx) => view(ctx, find(ctx)),
  update: (ctx) => {
    const r = writable(ctx);
    const { name, enabled, tools } = ctx.input;
    const known = new Set(r.connection.tools.map((t) => t.name));
    for (const tool of Object.keys(tools ?? {})) {
      if (!known.has(tool)) throw badRequest(`the server has no tool "${tool}"`, `tools.${tool}`);
    }
    r.connection = {
      ...r.connection,
      ...(name !== undefined && { name }),
      ...(enabled !== undefined && { enabled }),
      tools: r.connection.tools.map((t) => ({ ...t, allowed: tools?.[t.name] ?? t.allowed })),
      updatedAt: ctx.timestamp(),
    };
    return view(ctx, r);
  },
  delete: (ctx) => {
    ctx.store.collection(CONNECTIONS).delete(writable(ctx).id);
  },
  test: (ctx) => {
    const r = writable(ctx);
    r.connection = testConnection(ctx.store, r, ctx.timestamp());
    return view(ctx, r);
  },
  memberSwitch: (ctx) => {
    const r = find(ctx);
    if (r.connection.scope !== 'organization') throw badRequest('the member switch is for organization connections; switch a personal one with enabled', 'connectionId');
    const me = ctx.principal.userId;
    r.membersOff = r.membersOff.filter((u) => u !== me).concat(ctx.input.enabled ? [] : [me]);
    return view(ctx, r);
  },
  signIn: (ctx) => {
    const r = writable(ctx);
    if (r.connection.authKind !== 'oauth') throw badRequest(`signing in is for oauth connections; this one is ${r.connection.authKind}`, 'authKind');
    const { origin } = new URL(r.connection.url);
    const state = crypto.randomUUID();
    return {
      authorizationUrl: `${origin}/oauth/authorize?response_type=code&client_id=forecasting-service&state=${state}`,
      expiresAt: new Date(ctx.clock.now() + SIGN_IN_TTL_MS).toISOString(),
    };
  },
});
