/**
 * Connections to remote tool servers (MCP servers), spec "Connection": the address rule the SDK can
 * check before sending and the request schemas. The service (and the mock) resolves the host and
 * refuses an address that is not public too.
 * @module
 */
import * as z from 'zod/mini';
import { CursorPageParams, exact, rule } from './common.js';
import { CONNECTION_AUTH_KINDS, OWNERSHIP_SCOPES } from './enums.js';
import { addressKind } from './addresses.js';

/**
 * Why a connection address is refused, or `undefined`: it must be `https://`, hold no user name or
 * password, and not be an IP literal that is not public (see `addressKind`) or `localhost`.
 * A name is judged by the service once resolved. @internal
 */
export function connectionUrlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute https:// address';
  }
  if (url.protocol !== 'https:') return 'must start with https://';
  if (url.username || url.password) return 'must not hold a user name or password: send a key as api_key';
  const kind = addressKind(url.hostname);
  return kind && `must reach a public address, not a ${kind} one`;
}

const Name = z.string().check(z.minLength(1, { error: 'must not be empty' }));

/**
 * Body of `POST /connections`. The service adds the server and tests it at once. An `api_key` is sent
 * only here and never returned (reads show `hasApiKey`).
 * @example
 * ```ts
 * await client.connections.create({ scope: 'personal', name: 'CRM', url: 'https://mcp.example.com/crm', authKind: 'api_key', api_key: process.env.CRM_KEY });
 * ```
 */
export const ConnectionCreateParams = exact({
  /** `personal`, or `organization` (needs an organization admin). */
  scope: z.enum(OWNERSHIP_SCOPES),
  /** The connection's name. */
  name: Name,
  /** `https://` and reaching a public address. */
  url: z.string().check(
    z.superRefine((value, ctx) => {
      const problem = connectionUrlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
    }),
  ),
  /** `none`, `api_key` (send `api_key`) or `oauth` (a person signs in: see `connections.signIn`). */
  authKind: z.enum(CONNECTION_AUTH_KINDS),
  /** The server's key, with `authKind: 'api_key'` only; never returned, in any form. */
  api_key: z.optional(Name),
  /** The header the key goes in (default: `Authorization: Bearer <key>`), with `api_key` only. */
  apiKeyHeader: z.optional(z.string().check(z.regex(/^[\w!#$%&'*+.^`|~-]+$/, { error: 'must be an HTTP header name' }))),
}).check(
  rule((b: { authKind: string; api_key?: string }) => (b.authKind === 'api_key') === (b.api_key !== undefined), 'api_key', 'is required with authKind api_key, and taken only with it'),
  rule((b: { authKind: string; apiKeyHeader?: string }) => b.apiKeyHeader === undefined || b.authKind === 'api_key', 'apiKeyHeader', 'is taken only with authKind api_key'),
);
/**
 * Body of `POST /connections`: scope, name, address, and how to authenticate.
 * @example
 * ```ts
 * const params: ConnectionCreateParams = { scope: 'organization', name: 'Market data', url: 'https://mcp.example.com/markets', authKind: 'oauth' };
 * const conn = await client.connections.create(params);
 * ```
 */
export interface ConnectionCreateParams extends z.input<typeof ConnectionCreateParams> {}

/** Body of `PATCH /connections/{connection_id}`: only the fields sent change. */
export const ConnectionUpdateParams = exact({
  /** The connection's name (not shown in the spec: the SDK's choice). */
  name: z.optional(Name),
  /** `false` switches the whole connection off (for everyone, when it is an organization's). */
  enabled: z.optional(z.boolean()),
  /** Tool switches by tool name: `true` lets forecasts call the tool. */
  tools: z.optional(z.record(z.string(), z.boolean())),
});
/**
 * Body of `PATCH /connections/{connection_id}`: `enabled`, per-tool switches (`tools`), `name`.
 * @example
 * ```ts
 * const change: ConnectionUpdateParams = { tools: { search_accounts: true, delete_account: false } };
 * await client.connections.update(connectionId, change);
 * ```
 */
export interface ConnectionUpdateParams extends z.input<typeof ConnectionUpdateParams> {}

/** Body of `PUT /connections/{connection_id}/member-switch`. */
export const ConnectionMemberSwitchParams = exact({
  /** `false` leaves this organization connection out of your own forecasts. */
  enabled: z.boolean(),
});
/**
 * Body of `PUT /connections/{connection_id}/member-switch`: `{enabled}`, for your own forecasts.
 * @example
 * ```ts
 * const params: ConnectionMemberSwitchParams = { enabled: false };
 * await client.connections.memberSwitch(connectionId, params);
 * ```
 */
export interface ConnectionMemberSwitchParams extends z.input<typeof ConnectionMemberSwitchParams> {}

/** Query of `GET /connections`: filters beyond paging are not shown in the spec. */
export const ConnectionListParams = exact({ ...CursorPageParams });
/**
 * Query of `GET /connections`: paging.
 * @example
 * ```ts
 * for await (const conn of client.connections.list({ limit: 50 })) console.log(conn.name, conn.status);
 * ```
 */
export interface ConnectionListParams extends z.input<typeof ConnectionListParams> {}
