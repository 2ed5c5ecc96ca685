/**
 * What the outage warning (and the coordinator channel's `errorType`) names as the reason Redis
 * failed: a code or a fixed phrase, never an error's message. A message may carry the URL with its
 * password, the host, a user or a key name (ioredis's `ReplyError` even keeps the command's
 * arguments, `AUTH` ones included), so only the leading code of a Redis error reply is read from it.
 * @module
 */

/**
 * The errors node-redis and ioredis raise that have neither a code nor a telling name (node-redis's
 * classes leave `name` as `Error`), by constructor name (a minifier may rename them: the reply's code
 * and the fallback still hold). When each comes, on a real server: test/redis/outage-reasons.test.ts.
 */
const BY_CLASS: Readonly<Record<string, string>> = {
  // node-redis: the server went away under a command, or the app closed the client.
  SocketClosedUnexpectedlyError: 'connection closed',
  ClientClosedError: 'client closed',
  DisconnectsClientError: 'client closed',
  ClientOfflineError: 'not connected',
  ConnectionTimeoutError: 'connect timeout',
  SocketTimeoutError: 'socket timeout',
  RootNodesUnavailableError: 'no cluster node reachable',
  MaxCommandRedirectionsError: 'too many cluster redirections',
  // ioredis: a command retried over `maxRetriesPerRequest` reconnections, a cluster it cannot reach.
  MaxRetriesPerRequestError: 'connection lost',
  ClusterAllFailedError: 'no cluster node reachable',
};

/** ioredis's plain `Error`s, by the start of their fixed message (none carries an address). */
const BY_MESSAGE: ReadonlyArray<readonly [RegExp, string]> = [
  [/^Connection is closed\.?$/, 'connection closed'],
  [/^Cluster isn't ready/, 'cluster not ready'],
  [/^Stream isn't writeable/, 'not connected'],
  [/^None of startup nodes is available/, 'no cluster node reachable'],
  [/^All sentinels are unreachable/, 'no sentinel reachable'],
];

/** A Redis error reply starts with its code: `WRONGTYPE Operation against…`, `READONLY You can't…`. */
const REPLY_CODE = /^([A-Z][A-Z_]{1,23})(?:\s|$)/;

/**
 * The clients' classes of a Redis error reply (node-redis's keep `name` as `Error`): any leading code
 * of theirs is the server's. Another error's message may start with any upper-case word (a custom
 * client's `HUNTER is not the password`), so of theirs only a code Redis itself answers is read.
 */
const REPLY_CLASSES = new Set(['ErrorReply', 'SimpleError', 'BlobError', 'ReplyError']);
const SERVER_CODES = new Set(
  'ERR WRONGTYPE NOSCRIPT NOPERM NOAUTH WRONGPASS READONLY LOADING BUSY BUSYKEY MASTERDOWN MISCONF OOM EXECABORT NOREPLICAS CLUSTERDOWN MOVED ASK TRYAGAIN CROSSSLOT NOPROTO UNKILLABLE NOTBUSY'.split(' '),
);

/** A socket's or TLS's code (`ECONNREFUSED`, `ERR_TLS_CERT_ALTNAME_INVALID`): upper case, and short. */
const CODE = /^[A-Z][A-Z0-9_]{0,47}$/;

const className = (error: object): string => {
  const name = (error as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' ? name : '';
};

/** `table`'s own entry for `name` (a class named `constructor` or `toString` is none). */
const own = (table: Readonly<Record<string, string>>, name: string): string | undefined => (Object.hasOwn(table, name) ? table[name] : undefined);

/**
 * A reason safe to log, for the warning "Redis did not answer (<reason>)": `ECONNREFUSED`,
 * `connection closed`, `no answer within 2000 ms`, `READONLY`, `WRONGTYPE`, `NOPERM`, `client closed`…
 * Else the error's class or name when it says more than `Error`. Never throws: the link reads it
 * after it turned local and before it schedules the probe (a throw would keep it local for good). @internal
 */
export function reasonOf(error: unknown, timeoutMs: number): string {
  try {
    return reasonWithin(error, timeoutMs, true);
  } catch {
    // A getter that throws, a proxy: nothing safe to read.
    return 'Error';
  }
}

function reasonWithin(error: unknown, timeoutMs: number, unwrap: boolean): string {
  if (typeof error !== 'object' || error === null) return 'no answer';
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
  const cls = className(error);
  // The link's own limit (named so) and node-redis's `timeout`, which the link sets to the same.
  if (name === 'TimeoutError' || cls === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  // The link refuses at once while the client reconnects (or was closed): it has no socket error to name.
  if (code === 'OFFLINE') return 'not connected';
  // Node's socket errors (`ECONNREFUSED`, `ECONNRESET`, `ENOTFOUND`) and TLS ones (`ERR_TLS_…`).
  if (typeof code === 'string' && CODE.test(code)) return code;
  const known = own(BY_CLASS, cls);
  if (known) return known;
  // node-redis's ReconnectStrategyError wraps the socket's error (once: a crafted one may wrap itself).
  const socketError = (error as { socketError?: unknown }).socketError;
  if (unwrap && cls === 'ReconnectStrategyError' && socketError !== undefined) return reasonWithin(socketError, timeoutMs, false);
  const text = typeof message === 'string' ? message : '';
  const reply = REPLY_CODE.exec(text)?.[1];
  if (reply && (REPLY_CLASSES.has(cls) || name === 'ReplyError' || SERVER_CODES.has(reply))) {
    return reply === 'ERR' && text.startsWith('ERR unknown command') ? 'ERR unknown command' : reply;
  }
  const fixed = BY_MESSAGE.find(([pattern]) => pattern.test(text));
  if (fixed) return fixed[1];
  // Unknown: a class that says more than `Error` (`UnexpectedReplyError`, `AbortError`), else its name.
  for (const candidate of [typeof name === 'string' ? name : '', cls]) {
    if (candidate !== 'Error' && /^[A-Za-z]{1,40}$/.test(candidate)) return candidate;
  }
  return 'Error';
}
