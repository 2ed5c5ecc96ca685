/**
 * API keys of the mock service, as in the spec's Authentication section: a key in
 * `Authorization: Bearer <key>` or `X-Api-Key: <key>`; unknown → 401, missing scope → 403.
 * @module
 */
import type { Scope } from '../api/scopes.js';
import { constantTimeEqual } from '../webhooks/crypto.js';
import { MockHttpError } from './http.js';

const encoder = new TextEncoder();

/**
 * Every scope of the spec.
 * @example
 * ```ts
 * createMockService({ apiKeys: [{ key: 'pre_all', scopes: [...ALL_SCOPES] }, { key: 'pre_reader', scopes: ['questions:read'] }] });
 * ```
 */
export const ALL_SCOPES: readonly Scope[] = [
  'questions:read',
  'questions:write',
  'forecasts:read',
  'forecasts:write',
  'connections:read',
  'connections:write',
];

/**
 * An API key the mock accepts.
 *
 * @example
 * ```ts
 * createMockService({ apiKeys: [{ key: 'pre_reader', scopes: ['questions:read'], userId: 'u1', organizationId: 'org1' }] });
 * ```
 */
export interface MockApiKey {
  /** The key text; real keys begin with `pre_`. */
  key: string;
  /** Scopes it grants (default: every scope). */
  scopes?: Scope[];
  /** The user it acts for (default: a user of its own). */
  userId?: string;
  /** The user's organization (default: the organization every key shares). */
  organizationId?: string;
  /**
   * Whether the user is an admin of the organization (default false). Organization-scope presets,
   * connections and templates need one: for anyone else they answer 403 `permission_denied`.
   */
  organizationAdmin?: boolean;
}

/** Who a request acts for, once its key is known. */
export interface Principal {
  /** The key itself (rate limits count per key). */
  key: string;
  scopes: ReadonlySet<Scope>;
  userId: string;
  organizationId: string;
  /** Whether the user administers the organization (see {@link MockApiKey.organizationAdmin}). */
  organizationAdmin: boolean;
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * The keys a service accepts; keys can be added and revoked while it runs. Inspecting or
 * serializing it never shows a key.
 */
export class KeyRing {
  private readonly keys = new Map<string, Principal>();
  /** Every key ever added, revoked ones too, for {@link redact}. */
  private readonly known = new Set<string>();
  /** The organization keys share unless they name one. */
  readonly defaultOrganizationId = crypto.randomUUID();

  constructor(keys: readonly MockApiKey[]) {
    for (const k of keys) this.add(k);
  }

  add(entry: MockApiKey): Principal {
    const principal: Principal = {
      key: entry.key,
      scopes: new Set(entry.scopes ?? ALL_SCOPES),
      userId: entry.userId ?? crypto.randomUUID(),
      organizationId: entry.organizationId ?? this.defaultOrganizationId,
      organizationAdmin: entry.organizationAdmin ?? false,
    };
    this.keys.set(entry.key, principal);
    this.known.add(entry.key);
    return principal;
  }

  /** The principal of a key, if it is known. */
  find(key: string): Principal | undefined {
    return this.keys.get(key);
  }

  /**
   * `text` with every key the ring holds, or held before a revoke, replaced by `[redacted]`: a client
   * may send its key anywhere (a query, a cookie), and the request log shows none of them.
   */
  redact(text: string): string {
    for (const key of this.known) if (text.includes(key)) text = text.replaceAll(key, '[redacted]');
    return text;
  }

  /**
   * A JSON value with every key the ring knows redacted (see {@link redact}) in its strings and its
   * member names: what an answer or the request log may show of text a client chose.
   */
  redactValue(value: unknown): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const kept = this.redactValue(item);
        if (kept !== item) (out ??= value.slice())[i] = kept;
      }
      return out ?? value;
    }
    // Rebuilt only when a name or a value changed; entries, not assignments: a member named `__proto__` stays a member.
    const entries = Object.entries(value);
    const kept = entries.map(([name, v]) => [this.redact(name), this.redactValue(v)] as const);
    return kept.some(([name, v], i) => name !== entries[i]![0] || v !== entries[i]![1]) ? Object.fromEntries(kept) : value;
  }

  /** Revokes a key: later requests with it answer 401. */
  revoke(key: string): boolean {
    return this.keys.delete(key);
  }

  /** How many keys the ring holds. */
  get size(): number {
    return this.keys.size;
  }

  /** A safe summary: how many keys, never a key. */
  toJSON(): { keys: number } {
    return { keys: this.keys.size };
  }

  /** What `util.inspect` / `console.log` show: never a key. */
  [INSPECT](): string {
    return `KeyRing ${JSON.stringify(this.toJSON())}`;
  }

  /** Whether the request's key is a live one (no error: a step before the key check asks). */
  knows(headers: Headers): boolean {
    const key = keyOf(headers);
    return key !== undefined && this.matching(key) !== undefined;
  }

  /**
   * The principal of a presented key, compared with every live key in constant time (no map lookup,
   * no early exit): how long it takes says nothing about how much of a key a guess got right.
   */
  private matching(presented: string): Principal | undefined {
    const bytes = encoder.encode(presented);
    let found: Principal | undefined;
    for (const [key, principal] of this.keys) {
      if (constantTimeEqual(encoder.encode(key), bytes) && found === undefined) found = principal;
    }
    return found;
  }

  /** The principal for the request's key; 401 `invalid_api_key` when missing or unknown. */
  authenticate(headers: Headers): Principal {
    const key = keyOf(headers);
    if (key === undefined) throw new MockHttpError(401, 'invalid_api_key', 'No API key: send Authorization: Bearer <key> or X-Api-Key');
    const principal = this.matching(key);
    if (!principal) throw new MockHttpError(401, 'invalid_api_key', 'The API key is wrong, revoked or expired');
    return principal;
  }
}

/** Generates a key in the service's format. */
export function generateKey(): string {
  return `pre_mock_${crypto.randomUUID().replaceAll('-', '')}`;
}

/** The key from `Authorization: Bearer` or `X-Api-Key`. */
export function keyOf(headers: Headers): string | undefined {
  const auth = headers.get('authorization');
  const bearer = auth?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return bearer ?? (headers.get('x-api-key')?.trim() || undefined);
}

/** 403 `permission_denied` unless the key holds `scope`. */
export function requireScope(principal: Principal, scope: Scope): void {
  if (!principal.scopes.has(scope)) {
    throw new MockHttpError(403, 'permission_denied', `This API key lacks the ${scope} scope`);
  }
}

/** 403 `permission_denied` unless the caller administers the organization; `what` starts the message (for example `scope: an organization template`). */
export function requireOrganizationAdmin(principal: Principal, what: string): void {
  if (!principal.organizationAdmin) {
    throw new MockHttpError(403, 'permission_denied', `${what} needs an organization admin`);
  }
}

/**
 * Headers that carry a secret of their own: the request log shows them as `[redacted]`. Cookies too:
 * a browser sends the cookies of every server on 127.0.0.1 (the console's session among them) to the
 * mock's address, and the log is readable with the mock's key.
 */
const SECRET_HEADERS = new Set(['x-api-key', 'cookie', 'set-cookie', 'proxy-authorization']);

/** Replaces the key, and every other credential, in headers shown by the request log. */
export function redactHeaders(headers: Headers, redact: (value: string) => string = (value) => value): Record<string, string> {
  // Entries, not assignments: a header a client names `__proto__` stays a header.
  const entries: [string, string][] = [];
  headers.forEach((value, name) => {
    const scheme = value.match(/^\w+\s+/)?.[0] ?? '';
    entries.push([name, name === 'authorization' ? `${scheme}[redacted]` : SECRET_HEADERS.has(name) ? '[redacted]' : redact(value)]);
  });
  return Object.fromEntries(entries);
}

/**
 * A JSON answer with every key of `ring` redacted: error messages quote what a client sent (an id,
 * a path), and a client may have sent its key there. Other answers are returned as they are.
 * @internal
 */
export async function redactedAnswer(response: Response, ring: KeyRing): Promise<Response> {
  if (!response.body || !(response.headers.get('content-type') ?? '').startsWith('application/json')) return response;
  const text = await response.text();
  let out: string;
  try {
    out = JSON.stringify(ring.redactValue(JSON.parse(text)));
  } catch {
    out = ring.redact(text); // a `malformed` fault's body
  }
  return new Response(out, { status: response.status, statusText: response.statusText, headers: response.headers });
}
