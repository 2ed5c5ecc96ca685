// The guard behind test/_setup/loopback-only.ts (the test processes) and loopback-child.mjs (the
// processes they start): every TCP and TLS connection, whoever opens it (fetch/undici, node:http,
// ioredis, node-redis, the mock's webhook deliveries), goes through `net.Socket.prototype.connect`.
// A connection to an address beyond loopback is refused there, before a name is looked up or a
// packet leaves, with ECONNREFUSED, and recorded. The machine's own addresses count as loopback: a
// packet to them never leaves it (a test checks that a server does not listen there).
import net from 'node:net';
import { networkInterfaces } from 'node:os';

const KEY = Symbol.for('forecasting-sdk.test.loopback-guard');

/**
 * Installs the guard, once per process, and returns its record: `host:port` of each connection it
 * refused (`onRefused` hears of each too).
 */
export function guardConnections(onRefused = () => undefined) {
  const holder = /** @type {{ [KEY]?: { refused: string[] } }} */ (globalThis);
  if (holder[KEY]) return holder[KEY];
  const record = { refused: [] };
  holder[KEY] = record;
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(...args) {
    // `net.connect` hands `connect` its arguments already normalised, as one array.
    const target = targetOf(Array.isArray(args[0]) ? args[0] : args);
    if (target === undefined || isLocal(target.host)) return Reflect.apply(connect, this, args);
    const where = `${target.host}:${target.port}`;
    record.refused.push(where);
    onRefused(where);
    const error = Object.assign(new Error(`connect ECONNREFUSED ${where} (the tests reach loopback only)`), { code: 'ECONNREFUSED' });
    process.nextTick(() => this.destroy(error));
    return this;
  };
  // A runtime whose fetch does not go through node:net (Bun's is its own): the same rule on fetch.
  if (globalThis.Bun !== undefined && typeof globalThis.fetch === 'function') {
    const fetch = globalThis.fetch;
    globalThis.fetch = function guardedFetch(input, init) {
      const url = new URL(typeof input === 'object' && input !== null && 'url' in input ? input.url : String(input));
      if (isLocal(url.hostname)) return fetch.call(globalThis, input, init);
      const where = `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
      record.refused.push(where);
      onRefused(where);
      return Promise.reject(new TypeError(`fetch failed: ${where} (the tests reach loopback only)`));
    };
  }
  return record;
}

/** This machine's own addresses (a packet to them never leaves it). */
let own;

/** Loopback, the unspecified address, or one of this machine's own addresses. */
export function isLocal(host) {
  own ??= new Set(Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address.toLowerCase())));
  return isLoopback(host) || own.has(host.replace(/^\[(.*)\]$/, '$1').toLowerCase());
}

/** The host and port a connection is for; `undefined` for a local (IPC) socket path. */
function targetOf(args) {
  const [first, second] = args;
  if (typeof first === 'object' && first !== null) {
    if (first.path !== undefined) return undefined;
    return { host: typeof first.host === 'string' && first.host !== '' ? first.host : 'localhost', port: String(first.port) };
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return undefined;
  return { host: typeof second === 'string' && second !== '' ? second : 'localhost', port: String(first) };
}

/** Loopback, or the unspecified address (which a connection reaches on this machine). */
function isLoopback(host) {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare === '::1' || bare === '::' || bare === '0.0.0.0') return true;
  const v4 = bare.replace(/^::ffff:/, '');
  return net.isIPv4(v4) && v4.startsWith('127.');
}
