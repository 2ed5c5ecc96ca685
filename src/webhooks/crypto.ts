/**
 * HMAC-SHA256 and constant-time comparison behind one small interface, so verification runs
 * anywhere: Node's crypto when the runtime offers it (sync, fastest), else Web Crypto (Deno,
 * Cloudflare Workers, browsers). Node's module is reached through `process.getBuiltinModule`, never
 * a static `node:crypto` import, so bundlers for edge runtimes never see a Node-only import.
 * @module
 */

/** The part of `node:crypto` used here, typed locally to keep Node's module out of the import graph. */
interface NodeHmac {
  update(data: string | Uint8Array): NodeHmac;
  digest(): Uint8Array;
}
interface NodeCrypto {
  createHmac(algorithm: 'sha256', key: NodeKey): NodeHmac;
  createSecretKey(key: string, encoding: 'utf8'): NodeKey;
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}
/** A `KeyObject`, opaque here. */
type NodeKey = object;

/** One way to sign and compare. `hmac` is sync on Node and a Promise on Web Crypto. @internal */
export interface CryptoBackend {
  /** HMAC-SHA256 keyed with the UTF-8 bytes of `secret`, over `prefix` (UTF-8) then `body`. */
  hmac(secret: string, prefix: string, body: string | Uint8Array): Uint8Array | Promise<Uint8Array>;
  /** Constant-time equality; `false` for different lengths. */
  equal(a: Uint8Array, b: Uint8Array): boolean;
}

/** Constant-time equality of byte arrays: the time depends on the length only, never on where they differ. @internal */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

const encoder = new TextEncoder();

/**
 * Returns the key made from `secret`, making it once: imported keys are cached per secret (a few
 * hundred ns saved per call on Node, a whole import on Web Crypto), at most 16, oldest dropped first.
 */
function cachedKey<K>(cache: Map<string, K>, secret: string, make: (secret: string) => K): K {
  let key = cache.get(secret);
  if (key === undefined) {
    if (cache.size >= 16) cache.delete(cache.keys().next().value as string);
    cache.set(secret, (key = make(secret)));
  }
  return key;
}

// Importing a raw HMAC key cannot fail for a string secret, so the promise is cached as is.
const webKeys = new Map<string, Promise<CryptoKey>>();
const importWebKey = (secret: string) =>
  // Stryker disable next-line BooleanLiteral: whether the key could be exported changes nothing here: it never is
  crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);

/** Web Crypto: one key import per secret (cached), one sign per call. @internal */
export const webBackend: CryptoBackend = {
  async hmac(secret, prefix, body) {
    const key = await cachedKey(webKeys, secret, importWebKey);
    // Web Crypto signs one buffer, so `<t>.` and the body bytes (untouched) are joined.
    const head = encoder.encode(prefix);
    const bytes = typeof body === 'string' ? encoder.encode(body) : body;
    const data = new Uint8Array(head.length + bytes.length);
    data.set(head);
    data.set(bytes, head.length);
    return new Uint8Array(await crypto.subtle.sign('HMAC', key, data));
  },
  equal: constantTimeEqual,
};

let nodeBackend: CryptoBackend | null | undefined; // undefined: not looked up yet; null: none (or forced off)

function loadNode(): CryptoBackend | null {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const mod = proc?.getBuiltinModule?.('node:crypto') as Partial<NodeCrypto> | undefined;
    const { createHmac, createSecretKey, timingSafeEqual } = mod ?? {};
    if (!createHmac || !createSecretKey || !timingSafeEqual) return null;
    const keys = new Map<string, NodeKey>();
    // Stryker disable next-line StringLiteral: Node reads a string key as UTF-8 when the encoding is empty too
    const makeKey = (secret: string) => createSecretKey(secret, 'utf8');
    return {
      // Two updates: `<t>.` then the body as given, with no copy into one buffer.
      hmac: (secret, prefix, body) =>
        createHmac('sha256', cachedKey(keys, secret, makeKey)).update(prefix).update(body).digest(),
      equal: (a, b) => a.length === b.length && timingSafeEqual(a, b),
    };
    // Stryker disable next-line BlockStatement: returning undefined instead looks Node's crypto up again next time, with the same outcome
  } catch {
    return null;
  }
}

/** The backend to use: Node's crypto when available, else Web Crypto. @internal */
export function cryptoBackend(): CryptoBackend {
  // Stryker disable next-line ConditionalExpression: looking the backend up on every call finds the same one (a cache)
  if (nodeBackend === undefined) nodeBackend = loadNode();
  return nodeBackend ?? webBackend;
}

/**
 * Forces the Web Crypto path even where Node's crypto exists (`true`), or restores the automatic
 * choice (`false`). For tests of the edge-runtime path; not part of the public API.
 * @internal
 */
export function _forceWebCrypto(on: boolean): void {
  nodeBackend = on ? null : undefined;
}
