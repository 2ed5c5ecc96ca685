/**
 * How `forecasting fleet status` connects to the Redis of `--redis` (one server, a node of a Cluster
 * with `--cluster`, a sentinel with `--sentinel <name>`), and what it says, in one line, when it
 * cannot: which of these is wrong and what to do. Only codes and fixed phrases go into the line,
 * never an error's message (node-redis puts the URL, password included, into some).
 * @module
 */
import { CliError, EXIT } from '../exit-codes.js';

type RedisModule = typeof import('redis');

/** A connected client of the kind the flags ask for. */
export type FleetRedis = ReturnType<RedisModule['createClient']> | ReturnType<RedisModule['createCluster']> | ReturnType<RedisModule['createSentinel']>;

/** Real-time limit on connecting and on each command: a fleet status that hangs helps nobody. */
export const TIMEOUT_MS = 5_000;

/** What {@link withinTime} rejects with when time is up. */
const TIMED_OUT = Symbol('timed out');

/** `promise`, or a rejection with {@link TIMED_OUT} after `ms` (the timer never holds the process). */
function withinTime<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(TIMED_OUT), ms);
    timer.unref?.();
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export interface ConnectFlags {
  redis: string;
  cluster?: boolean | undefined;
  sentinel?: string | undefined;
}

const failure = (message: string): CliError => new CliError(message, EXIT.api, 'RedisConnectionError');

/** Closes a client whatever its state (node-redis throws on one that never connected). */
const discard = (client: { destroy(): unknown }): void => void Promise.resolve().then(() => client.destroy()).catch(() => undefined);

/** node-redis's classes without a code, by constructor name (their `name` is plain `Error`). */
const PHRASES: Readonly<Record<string, string>> = {
  ConnectionTimeoutError: `no connection within ${TIMEOUT_MS / 1000} s`,
  SocketClosedUnexpectedlyError: 'connection closed',
  RootNodesUnavailableError: 'no cluster node reachable',
};

/** Why a connection failed: the time limit, a socket code, a Redis reply's code (`WRONGPASS`), a fixed phrase. */
function reason(err: unknown): string {
  if (err === TIMED_OUT) return `no answer within ${TIMEOUT_MS / 1000} s`;
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  // A code is short: a long upper-case string is no code of Node's.
  if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{0,47}$/.test(code)) return code;
  const reply = typeof message === 'string' ? /^([A-Z][A-Z_]{1,23})(?:\s|$)/.exec(message)?.[1] : undefined;
  if (reply) return reply;
  const cls = (err as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  // Own entries only: a class named `constructor` would find Object's.
  if (typeof cls === 'string' && Object.hasOwn(PHRASES, cls)) return PHRASES[cls]!;
  const name = err instanceof Error ? err.name : '';
  return /^[A-Za-z]{1,40}$/.test(name) ? name : 'Error';
}

/** The line for a server that refused us or could not be reached; `at` names it (`the Redis of --redis`). */
function refusal(err: unknown, at: string, passwordIn: string): string {
  const why = reason(err);
  if (why === 'WRONGPASS') return `${at} refused the password (WRONGPASS): check the user and password ${passwordIn}`;
  if (why === 'NOAUTH') return `${at} needs a password (NOAUTH): give it ${passwordIn}`;
  return `could not connect to ${at} (${why})`;
}

const IN_URL = 'in --redis (redis://user:password@host:port)';

/** A plain connection to `options`' server, or the error connecting gave. */
async function probe(redis: RedisModule, options: Parameters<RedisModule['createClient']>[0]): Promise<{ client?: ReturnType<RedisModule['createClient']>; error?: unknown }> {
  const client = redis.createClient(options);
  client.on('error', () => undefined);
  try {
    await withinTime<unknown>(client.connect(), TIMEOUT_MS);
    return { client };
  } catch (error) {
    discard(client);
    return { error };
  }
}

/** What the server's `INFO server` says it is (`standalone`, `cluster`, `sentinel`), if it says. */
async function modeOf(client: ReturnType<RedisModule['createClient']>): Promise<string | undefined> {
  const info = await withinTime(client.sendCommand(['INFO', 'server']), TIMEOUT_MS).catch(() => undefined);
  return typeof info === 'string' ? /^redis_mode:(\w+)/m.exec(info)?.[1] : undefined;
}

/** Why `--cluster` could not connect (node-redis says "all the root nodes are unavailable" for any cause). */
async function clusterProblem(redis: RedisModule, flags: ConnectFlags, socket: object, err: unknown): Promise<string> {
  const { client, error } = await probe(redis, { url: flags.redis, socket });
  if (!client) return refusal(error, 'the Redis of --redis', IN_URL);
  try {
    const mode = await modeOf(client);
    if (mode === 'standalone') return '--cluster: the server at --redis is not a cluster node (cluster support disabled); drop --cluster';
    if (mode === 'sentinel') return '--cluster: the server at --redis is a sentinel, not a cluster node; use --sentinel <name> instead of --cluster';
    if (mode === 'cluster') return `--cluster: the node at --redis answers, but the cluster's nodes could not be reached (${reason(err)}): check that this machine reaches the addresses they announce`;
    return `could not connect to the Redis Cluster of --redis (${reason(err)})`;
  } finally {
    discard(client);
  }
}

/** A server's address, as a socket takes it. */
interface Address {
  host: string;
  port: number;
}

/**
 * Asks the sentinel at `--redis` for the primary of `--sentinel` before the sentinel client connects:
 * that client waits for good on a name no sentinel knows, a server that is no sentinel, a refused
 * connection. Gives the primary's address, when the sentinel's answer is one.
 */
async function checkSentinel(redis: RedisModule, name: string, { host, port }: Address, socket: object): Promise<Address | undefined> {
  const { client, error } = await probe(redis, { socket: { ...socket, host, port } });
  // No credentials go to a sentinel (none did before): a NOAUTH here is the sentinel's own.
  if (!client) throw failure(`could not connect to the sentinel at --redis (${reason(error)})`);
  try {
    const primary = await withinTime(client.sendCommand(['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name]), TIMEOUT_MS).catch((err: unknown) => err);
    if (primary === null) throw failure(`--sentinel ${name}: the sentinel at --redis knows no primary of that name; check the name (SENTINEL MASTERS on it lists those it monitors)`);
    if (Array.isArray(primary)) {
      const [at, on] = primary as unknown[];
      return typeof at === 'string' && /^\d{1,5}$/.test(String(on)) ? { host: at, port: Number(on) } : undefined;
    }
    if (reason(primary) !== 'ERR') throw failure(`could not connect to the sentinel at --redis (${reason(primary)})`);
    if ((await modeOf(client)) === 'cluster') throw failure(`--sentinel ${name}: the server at --redis is a cluster node, not a sentinel; use --cluster instead of --sentinel`);
    throw failure(`--sentinel ${name}: the server at --redis is not a sentinel (it has no SENTINEL command); give a sentinel's address (often port 26379), or drop --sentinel`);
  } finally {
    discard(client);
  }
}

/** The database of `--redis` (`/2`), else a usage error that shows no part of the URL (node-redis's TypeError "Invalid pathname" ended the CLI as an unexpected error). */
function databaseOf(url: URL): number | undefined {
  if (url.pathname === '' || url.pathname === '/') return undefined;
  if (!/^\/\d{1,5}$/.test(url.pathname)) throw new CliError('--redis may end only with a database number: redis://host:6379/0');
  return Number(url.pathname.slice(1));
}

/**
 * Under `--sentinel`, what the primary's connections take of `--redis`: its user, password and
 * database (the sentinel client otherwise logs in to a primary that needs them with none and waits
 * for good, or reads database 0), and TLS for `rediss://`, on the sentinel's connections too (a
 * password never goes out in the clear where the URL asked for TLS). No credentials go to a sentinel.
 */
function sentinelOptions(url: URL): { tls: boolean; login: { username?: string; password?: string; database?: number } } {
  const login: { username?: string; password?: string; database?: number } = {};
  // Checked as valid percent-encoding (fleet.ts) before any connection.
  if (url.username) login.username = decodeURIComponent(url.username);
  if (url.password) login.password = decodeURIComponent(url.password);
  const database = databaseOf(url);
  if (database !== undefined) login.database = database;
  return { tls: url.protocol === 'rediss:', login };
}

/** Logs in to the primary a sentinel named, as the sentinel client will: a wrong or missing password is named at once. */
async function checkPrimary(redis: RedisModule, name: string, primary: Address, socket: object, login: object): Promise<void> {
  const { client, error } = await probe(redis, { ...login, socket: { ...socket, ...primary } });
  if (client) return discard(client);
  const why = reason(error);
  if (why === 'WRONGPASS' || why === 'NOAUTH') throw failure(refusal(error, `the primary of --sentinel ${name}`, IN_URL));
  // Unreachable from here (an address only the sentinels' network knows): the sentinel client says so below.
}

/** A connected client for the flags, or a `RedisConnectionError` (exit 3) saying what is wrong. */
export async function connectFleetRedis(redis: RedisModule, flags: ConnectFlags): Promise<FleetRedis> {
  const socket = { connectTimeout: TIMEOUT_MS, reconnectStrategy: false } as const;
  const url = new URL(flags.redis);
  // The URL writes an IPv6 address in brackets ([::1]); a socket takes it without.
  const sentinel = { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port || 26379) };
  const { tls, login } = sentinelOptions(url);
  const tlsSocket = tls ? ({ tls: true } as const) : {};
  if (flags.sentinel !== undefined) {
    const primary = await checkSentinel(redis, flags.sentinel, sentinel, { ...socket, ...tlsSocket });
    if (primary) await checkPrimary(redis, flags.sentinel, primary, { ...socket, ...tlsSocket }, login);
  }
  // One node of a cluster is enough to find the rest; a sentinel, to find the primary of --sentinel.
  const client: FleetRedis = flags.cluster
    ? redis.createCluster({ rootNodes: [{ url: flags.redis, socket }], defaults: { socket } })
    : flags.sentinel !== undefined
      ? redis.createSentinel({ name: flags.sentinel, sentinelRootNodes: [sentinel], sentinelClientOptions: { socket: tlsSocket }, nodeClientOptions: { ...login, socket: tlsSocket } })
      : redis.createClient({ url: flags.redis, socket });
  client.on('error', () => undefined);
  try {
    // connectTimeout covers the socket alone: a server that accepts and never answers the handshake would hold connect() for good.
    await withinTime<unknown>(client.connect(), TIMEOUT_MS);
  } catch (err) {
    discard(client);
    if (flags.cluster) throw failure(await clusterProblem(redis, flags, socket, err));
    if (flags.sentinel !== undefined) throw failure(`could not connect to the primary of --sentinel ${flags.sentinel} (${reason(err)})`);
    throw failure(refusal(err, 'the Redis of --redis', IN_URL));
  }
  if (!flags.cluster && flags.sentinel === undefined) await plainServer(client as ReturnType<RedisModule['createClient']>);
  return client;
}

/**
 * Refuses a cluster node or a sentinel given as one server: a coordinator on it would go `local`
 * (MOVED, or no such command) and warn before the CLI could name the flag it needs.
 */
async function plainServer(client: ReturnType<RedisModule['createClient']>): Promise<void> {
  const mode = await modeOf(client);
  if (mode !== 'cluster' && mode !== 'sentinel') return;
  discard(client);
  if (mode === 'cluster') throw failure('the server at --redis is a node of a Redis Cluster: add --cluster');
  throw failure('the server at --redis is a sentinel: add --sentinel <name>, the name of the primary it monitors (SENTINEL MASTERS on it lists them)');
}
