/**
 * Connections in the mock: a simulated network, so nothing is ever contacted. A host's address comes
 * from {@link ConnectionControls.resolve} (else names under `.internal`, `.local`, `.lan`, `.corp` or
 * `.home.arpa` are private, `localhost` loopback, and other names public); a server's tools come from
 * its URL; a host fails only when a test says so. Also the seam to forecasts: which connections a
 * forecast could call, and what its task shows of them.
 * @module
 */
import type { Connection, ConnectionTool } from '../../schemas/records/connections.js';
import type { TaskConnection } from '../../schemas/records/forecasts.js';
import { addressKind, withoutTrailingDot } from '../../schemas/addresses.js';
import { badRequest } from '../http.js';
import { collectionKey, type ForecastRecord, type MockStore, type Ownership } from '../store.js';

/**
 * A stored connection. Its key is never kept: only whether one was given.
 * @example
 * ```ts
 * const record: ConnectionRecord | undefined = service.store.collection(CONNECTIONS).get(connectionId);
 * console.log(record?.signedIn, record?.membersOff, record?.connection.hasApiKey);
 * ```
 */
export interface ConnectionRecord extends Ownership {
  id: string;
  /** The connection as reads show it, but `memberEnabled` (which depends on the reader). */
  connection: Connection;
  /** Users who switched this organization connection off for their own forecasts. */
  membersOff: string[];
  /** Whether a person finished the `oauth` sign-in. */
  signedIn: boolean;
}
/**
 * The connections collection of the mock's store, personal and organization ones alike.
 * @example
 * ```ts
 * const waiting = service.store.collection(CONNECTIONS).list((r) => r.connection.status === 'needs_sign_in');
 * ```
 */
export const CONNECTIONS = collectionKey<ConnectionRecord>('connections');

/**
 * What a test said about a host of the simulated network (`id` is the host name).
 * @example
 * ```ts
 * service.connectionControls.setFailing('tools.example.com');
 * const host: SimulatedHost | undefined = service.store.collection(SIMULATED_HOSTS).get('tools.example.com'); // { id: 'tools.example.com', failing: true }
 * ```
 */
export interface SimulatedHost {
  id: string;
  /** The address the name resolves to. */
  address?: string;
  /** True: calls to the server fail (tests, forecasts). */
  failing?: boolean;
}
/**
 * The hosts a test spoke of (`connectionControls.resolve`, `setFailing`), by host name; any other host is public and works.
 * @example
 * ```ts
 * service.connectionControls.resolve('mcp.example.com', '10.0.0.7');
 * service.store.collection(SIMULATED_HOSTS).get('mcp.example.com')?.address; // '10.0.0.7'
 * ```
 */
export const SIMULATED_HOSTS = collectionKey<SimulatedHost>('simulatedHosts');

const PRIVATE_NAMES = /\.(internal|local|lan|corp|home\.arpa)$/;

/**
 * An IP address as the URL parser writes it (`0177.0.0.1`, `2130706433`, `127.1` and `0x7f000001`
 * all become `127.0.0.1`; IPv6 compressed and lowercased, in brackets), so that it is judged like a
 * literal in a URL. A RangeError when it is not an IPv4 or IPv6 address.
 */
export function normalizeAddress(address: string): string {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  let hostname: string;
  try {
    hostname = new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}/`).hostname;
  } catch {
    throw new RangeError(`Not an IP address: ${address}`);
  }
  if (!hostname.startsWith('[') && !/^\d{1,3}(\.\d{1,3}){3}$/.test(hostname)) throw new RangeError(`Not an IP address: ${address}`);
  return hostname;
}

/**
 * What the address of `hostname` (as `new URL` gives it) is when not public, on the simulated
 * network. One trailing dot is ignored: `h.example.com.` is `h.example.com`.
 */
export function resolvedKind(store: MockStore, hostname: string): string | undefined {
  const host = withoutTrailingDot(hostname);
  const address = store.collection(SIMULATED_HOSTS).get(host)?.address;
  if (address !== undefined) {
    let normalized: string;
    try {
      normalized = normalizeAddress(address);
    } catch {
      return 'private'; // written into the store by hand and unreadable: refused rather than trusted
    }
    return addressKind(normalized);
  }
  return PRIVATE_NAMES.test(host) ? 'private' : addressKind(host);
}

/**
 * The tools the server at `url` offers, derived from the URL alone: a name from its last path segment
 * (else its host's first label), and three tools, the last of which changes data (so starts off).
 */
export function toolsAt(url: string): ConnectionTool[] {
  const { pathname, hostname } = new URL(url);
  const base = (pathname.split('/').filter(Boolean).pop() ?? hostname.split('.')[0] ?? 'server').toLowerCase().replace(/\W+/g, '_');
  return [
    { name: `search_${base}`, allowed: true, changesData: false },
    { name: `read_${base}`, allowed: true, changesData: false },
    { name: `update_${base}`, allowed: false, changesData: true },
  ];
}

const isFailing = (store: MockStore, url: string) => store.collection(SIMULATED_HOSTS).get(withoutTrailingDot(new URL(url).hostname))?.failing === true;

/**
 * Tests a connection on the simulated network: `failed` when its host fails, `needs_sign_in` for an
 * `oauth` one nobody signed in to, else `connected` with the server's tools (switches kept by name).
 */
export function testConnection(store: MockStore, record: Pick<ConnectionRecord, 'connection' | 'signedIn'>, now: string): Connection {
  const c = record.connection;
  const failing = isFailing(store, c.url);
  const waiting = c.authKind === 'oauth' && !record.signedIn;
  const kept = new Map(c.tools.map((t) => [t.name, t.allowed]));
  return {
    ...c,
    status: failing ? 'failed' : waiting ? 'needs_sign_in' : 'connected',
    statusMessage: failing ? 'The server did not answer' : waiting ? 'A person must sign in (connections.signIn)' : null,
    tools: failing || waiting ? c.tools : toolsAt(c.url).map((t) => ({ ...t, allowed: kept.get(t.name) ?? t.allowed })),
    lastTestedAt: now,
  };
}

/** Who a connection is for: its owner, or (organization scope) every member. */
export const canSeeConnection = (r: ConnectionRecord, userId: string, organizationId: string): boolean =>
  r.connection.scope === 'organization' ? r.organizationId === organizationId : r.ownerId === userId;

/**
 * The connections a forecast of `ownerId` in `organizationId` could call: their own and their
 * organization's, switched on (`enabled`) and not switched off by the member for themselves.
 */
export function connectionsFor(store: MockStore, ownerId: string, organizationId: string): ConnectionRecord[] {
  return store.collection(CONNECTIONS).list((r) => canSeeConnection(r, ownerId, organizationId) && r.connection.enabled && !r.membersOff.includes(ownerId));
}

/** Per-forecast switches of a forecast body: `{off: [ids], on: [ids]}`. */
export interface ConnectionSwitches {
  off?: string[] | undefined;
  on?: string[] | undefined;
}

/** What a forecast planned for one connection when it started. */
interface PlannedConnection {
  name: string;
  owner: string;
  /** `unavailable` (not connected), `failing` (calls fail), or the number of allowed tools it calls. */
  plan: 'unavailable' | 'failing' | number;
}
/** The connections of a forecast, planned when it started (`id` is the task id). */
interface ForecastConnections {
  id: string;
  connections: PlannedConnection[];
}
const FORECAST_CONNECTIONS = collectionKey<ForecastConnections>('forecastConnections');

/**
 * The connections a starting forecast could call: {@link connectionsFor}, less those its preset
 * switches off (`presetOff`: a connection added later stays on until a preset lists it), less the ids
 * in `off`, plus those in `on` (an organization connection the member switched off, say; not one
 * switched off for everyone). An id of the body the owner cannot see answers 400 naming it.
 */
export function planConnections(
  store: MockStore,
  owner: Ownership,
  switches: ConnectionSwitches = {},
  presetOff: readonly string[] = [],
): PlannedConnection[] {
  const all = store.collection(CONNECTIONS);
  for (const [list, ids] of [['off', switches.off], ['on', switches.on]] as const) {
    ids?.forEach((id, i) => {
      const r = all.get(id);
      if (!r || !canSeeConnection(r, owner.ownerId, owner.organizationId)) throw badRequest(`no connection ${id}`, `connections.${list}.${i}`);
    });
  }
  const chosen = new Set(connectionsFor(store, owner.ownerId, owner.organizationId).map((r) => r.id));
  for (const id of presetOff) chosen.delete(id);
  for (const id of switches.on ?? []) if (all.get(id)!.connection.enabled) chosen.add(id);
  for (const id of switches.off ?? []) chosen.delete(id);
  return [...chosen].map((id) => {
    const c = all.get(id)!.connection;
    const plan = c.status !== 'connected' ? 'unavailable' : isFailing(store, c.url) ? 'failing' : c.tools.filter((t) => t.allowed).length;
    return { name: c.name, owner: c.scope, plan };
  });
}

/** Keeps a started forecast's planned connections. */
export function recordConnections(store: MockStore, taskId: string, connections: PlannedConnection[]): void {
  store.collection(FORECAST_CONNECTIONS).insert({ id: taskId, connections });
}

/**
 * A task's `connections`: nothing is called while it is queued; then each finished subforecast calls
 * every allowed tool once (`used`), or tries a failing server once (`failed`: the forecast goes on).
 */
export function taskConnections(store: MockStore, r: ForecastRecord, finishedSubforecasts: number): TaskConnection[] {
  const planned = store.collection(FORECAST_CONNECTIONS).get(r.id)?.connections ?? [];
  return planned.map(({ name, owner, plan }) => {
    const calls = plan === 'unavailable' ? 0 : finishedSubforecasts * (plan === 'failing' ? 1 : plan);
    const status = plan === 'unavailable' ? 'unavailable' : calls === 0 ? 'not_used' : plan === 'failing' ? 'failed' : 'used';
    return { name, owner, calls, status };
  });
}

/**
 * A task's connection `warnings`: what a connection returned goes into the forecast, which the
 * question's organization can read when the question is `organization`-visible.
 */
export function connectionWarnings(store: MockStore, r: ForecastRecord, visibility: string): Array<{ code: string }> {
  const planned = store.collection(FORECAST_CONNECTIONS).get(r.id)?.connections ?? [];
  const callable = planned.some((p) => p.plan !== 'unavailable');
  return callable && visibility === 'organization' ? [{ code: 'connection_results_readable_by_others' }] : [];
}

/**
 * Test hooks of the simulated network, reached as `service.connectionControls`.
 * @example
 * ```ts
 * service.connectionControls.resolve('mcp.example.com', '10.0.0.7'); // adding it now answers 400
 * service.connectionControls.setFailing('tools.example.com');         // its connections fail
 * service.connectionControls.completeSignIn(connectionId);            // as if a person signed in
 * ```
 */
export class ConnectionControls {
  constructor(
    private readonly store: MockStore,
    private readonly now: () => string,
  ) {}

  private host(name: string): SimulatedHost {
    const hosts = this.store.collection(SIMULATED_HOSTS);
    return hosts.get(name) ?? hosts.insert({ id: name });
  }

  /**
   * Makes `hostname` resolve to `address` (an IPv4 or IPv6 literal, in any form a URL accepts, stored
   * as the URL parser normalizes it: `0x7f000001` is `127.0.0.1`): a private one is then refused.
   * @throws RangeError when `address` is not an IP address.
   */
  resolve(hostname: string, address: string): void {
    const normalized = normalizeAddress(address);
    this.host(withoutTrailingDot(hostname.toLowerCase())).address = normalized.startsWith('[') ? normalized.slice(1, -1) : normalized;
  }

  /** Makes the server at `hostname` fail (or work again): tests answer `failed`, forecasts show `failed` calls. */
  setFailing(hostname: string, failing = true): void {
    this.host(withoutTrailingDot(hostname.toLowerCase())).failing = failing;
  }

  /** Finishes the `oauth` sign-in of a connection, as the person opening `authorizationUrl` would: it connects and lists its tools. */
  completeSignIn(connectionId: string): Connection {
    const record = this.store.collection(CONNECTIONS).get(connectionId);
    if (!record) throw new Error(`No connection ${connectionId}`);
    record.signedIn = true;
    record.connection = testConnection(this.store, record, this.now());
    return record.connection;
  }
}
