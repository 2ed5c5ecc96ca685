import { APIResource } from '../core/resource.js';
import { connectionOperations } from '../api/connections.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/options.js';
import type { ConnectionCreateParams, ConnectionListParams, ConnectionMemberSwitchParams, ConnectionUpdateParams } from '../schemas/connections.js';
import type { Connection, ConnectionSignIn } from '../schemas/records/connections.js';

const ops = connectionOperations;

/**
 * Connections: remote tool servers (MCP servers) that forecasts may call. A failing connection never
 * stops a forecast; the task's `connections` says what each one did.
 *
 * @example
 * ```ts
 * const conn = await client.connections.create({ scope: 'personal', name: 'Filings', url: 'https://mcp.example.com/filings', authKind: 'none' });
 * console.log(conn.status, conn.tools); // tools that change data start with allowed: false
 * ```
 */
export class Connections extends APIResource {
  /**
   * Lists your connections and your organization's.
   * @example
   * ```ts
   * for await (const conn of client.connections.list()) console.log(conn.name, conn.enabled);
   * ```
   */
  list(params?: ConnectionListParams, options?: RequestOptions): PagePromise<Connection> {
    return this._list(ops.list, [], params, options);
  }

  /**
   * Adds a server and tests it at once; the answer lists its `tools`. The address must be `https://`
   * and public (checked before sending where it can be). `api_key` is never returned; reads show
   * `hasApiKey`. An `organization` connection needs an organization admin.
   * @example
   * ```ts
   * await client.connections.create({ scope: 'personal', name: 'CRM', url: 'https://mcp.example.com/crm', authKind: 'api_key', api_key: key, apiKeyHeader: 'X-Api-Key' });
   * ```
   */
  create(params: ConnectionCreateParams, options?: RequestOptions): APIPromise<Connection> {
    return this._call(ops.create, [], params, options);
  }

  /**
   * Reads one connection.
   * @example
   * ```ts
   * const conn = await client.connections.retrieve(connectionId);
   * ```
   */
  retrieve(connectionId: string, options?: RequestOptions): APIPromise<Connection> {
    return this._call(ops.retrieve, [connectionId], undefined, options);
  }

  /**
   * Switches tools on or off (`tools`, by name) or the whole connection (`enabled`).
   * @example
   * ```ts
   * await client.connections.update(connectionId, { tools: { update_crm: true }, enabled: true });
   * ```
   */
  update(connectionId: string, params: ConnectionUpdateParams, options?: RequestOptions): APIPromise<Connection> {
    return this._call(ops.update, [connectionId], params, options);
  }

  /**
   * Deletes a connection.
   * @example
   * ```ts
   * await client.connections.delete(connectionId);
   * ```
   */
  delete(connectionId: string, options?: RequestOptions): APIPromise<void> {
    return this._call(ops.delete, [connectionId], undefined, options);
  }

  /**
   * Tests the server again; the answer shows its `status` and `tools` now. The answer is not shown in
   * the spec: the SDK reads it as the connection.
   * @example
   * ```ts
   * const { status } = await client.connections.test(connectionId);
   * ```
   */
  test(connectionId: string, options?: RequestOptions): APIPromise<Connection> {
    return this._call(ops.test, [connectionId], undefined, options);
  }

  /**
   * Switches an organization connection on or off for your own forecasts only. The answer is not shown
   * in the spec: the SDK reads it as the connection.
   * @example
   * ```ts
   * await client.connections.memberSwitch(connectionId, { enabled: false });
   * ```
   */
  memberSwitch(connectionId: string, params: ConnectionMemberSwitchParams, options?: RequestOptions): APIPromise<Connection> {
    return this._call(ops.memberSwitch, [connectionId], params, options);
  }

  /**
   * Starts the sign-in of an `oauth` connection: a person opens `authorizationUrl` in a browser and
   * finishes it there (a program cannot).
   * @example
   * ```ts
   * const { authorizationUrl } = await client.connections.signIn(connectionId);
   * console.log(`Open ${authorizationUrl} to connect`);
   * ```
   */
  signIn(connectionId: string, options?: RequestOptions): APIPromise<ConnectionSignIn> {
    return this._call(ops.signIn, [connectionId], undefined, options);
  }
}
