/**
 * Connections (remote MCP servers) as the service shows them. Fields beyond the spec's list are this
 * SDK's lenient reading. A connection's key is never part of any answer. The schemas load only with
 * `validateResponses`.
 * @module
 */
import * as z from 'zod/mini';
import { Timestamp, exact, openString } from '../common.js';
import type { ConnectionAuthKind } from '../enums.js';

export const ConnectionTool = exact({
  /** The tool's name on the server. */
  name: z.string(),
  /** Whether forecasts may call it; tools that change data start `false`. */
  allowed: z.boolean(),
  /** Whether the server marks it as changing data. Not shown in the spec: read when present. */
  changesData: z.optional(z.boolean()),
});
/**
 * A tool of a connected server, and whether forecasts may call it.
 * @example
 * ```ts
 * const conn = await client.connections.retrieve(connectionId);
 * const blocked: ConnectionTool[] = conn.tools.filter((t) => !t.allowed);
 * ```
 */
export interface ConnectionTool extends z.output<typeof ConnectionTool> {}

const opt = z.optional(Timestamp);

export const Connection = exact({
  id: z.string(),
  /** `personal` or `organization`. */
  scope: openString<'personal' | 'organization'>(),
  name: z.string(),
  url: z.string(),
  /** `none`, `api_key` or `oauth`. */
  authKind: openString<ConnectionAuthKind>(),
  /** The header the key is sent in; null when it goes as a bearer value. */
  apiKeyHeader: z.optional(z.nullable(z.string())),
  /** Whether a key is stored (the key itself is never returned). */
  hasApiKey: z.boolean(),
  /** Not shown in the spec beyond its name: `connected`, `failed`, or `needs_sign_in` until a person signs in. */
  status: openString<'connected' | 'failed' | 'needs_sign_in'>(),
  /** What the last test found, when it failed. Not shown in the spec: read when present. */
  statusMessage: z.optional(z.nullable(z.string())),
  tools: z.array(ConnectionTool),
  /** `false`: switched off for every forecast. */
  enabled: z.boolean(),
  /** Your own switch of an organization connection (`member-switch`). Not shown in the spec: read when present. */
  memberEnabled: z.optional(z.boolean()),
  /** Not shown in the spec; read when present. */
  lastTestedAt: z.optional(z.nullable(Timestamp)),
  /** Not shown in the spec; read when present. */
  createdAt: opt,
  /** Not shown in the spec; read when present. */
  updatedAt: opt,
});
/**
 * A connection to a remote tool server (MCP server) that forecasts may call. Never holds its key:
 * `hasApiKey` says whether one is stored.
 * @example
 * ```ts
 * const conn = await client.connections.retrieve(connectionId);
 * console.log(conn.status, conn.tools.filter((t) => t.allowed).map((t) => t.name));
 * ```
 */
export interface Connection extends z.output<typeof Connection> {}

export const ConnectionSignIn = exact({
  /** The address a person opens in a browser to finish the sign-in. */
  authorizationUrl: z.string(),
  /** When the address stops working. Not shown in the spec: read when present. */
  expiresAt: opt,
});
/**
 * The answer of `connections.signIn`: an address for a person to open; only a person can finish an `oauth` sign-in.
 * @example
 * ```ts
 * const { authorizationUrl }: ConnectionSignIn = await client.connections.signIn(connectionId);
 * console.log(`Open ${authorizationUrl} to finish the sign-in`);
 * ```
 */
export interface ConnectionSignIn extends z.output<typeof ConnectionSignIn> {}
