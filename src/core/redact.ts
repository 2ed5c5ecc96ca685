/**
 * The client's key put out of what an answer or a failed connection hands back: a server may echo
 * the key, in plain text or spelled with JSON escapes, and Node's fetch keeps the raw bytes of an
 * answer it could not parse on the error it throws.
 * @module
 */

/**
 * What the client refuses in a key (its check and a coordinator's read of `FORECASTING_API_KEY`
 * share it): a control character or one beyond ASCII (a header cannot carry it), a quote or a
 * backslash (JSON always escapes them, so an echo could not be found to redact). @internal
 */
export const UNUSABLE_KEY = /["\\\u0000-\u001f\u007f-\uffff]/;

/** A key as the header carries it: spaces at either end dropped (a `.env` line's), as fetch drops them. @internal */
export const trimKey = (key: string): string => key.replace(/^ +| +$/g, '');

/** What stands for the client's key wherever an answer echoed it. */
const REDACTED = '[redacted]';

/**
 * The shortest key redacted from answers. A service key is longer (`pre_` and a long random part);
 * a shorter one is a test's (`'x'`, `'test'`), and putting `[redacted]` for it would rewrite every
 * answer that holds those letters.
 */
const MIN_REDACTED_KEY = 16;

/** Replaces the key in a text; the same string when it holds none. @internal */
export type Redact = (text: string) => string;

/** For each redactor, whether a header name holds its key: names come lowercased, the key may not be. */
const NAMES = new WeakMap<Redact, (name: string) => boolean>();

/**
 * A redactor of `secret`, or none for a key too short to redact. The cost of a call is one
 * `includes` over its text and one search for an escape: a JSON one (`\u005f` for `_`, `\/`), which
 * parsing the JSON would undo and spell the key out, or a URL's (`%5F`, in a redirect's `Location`,
 * which a reader would undo). A text holding one is also read with its escapes of printable
 * characters undone, and that reading is kept when it holds the key. (A key holds no `"` nor `\`,
 * which JSON always escapes: the client refuses them.)
 * @internal
 */
export function redactorOf(secret: string): Redact | undefined {
  if (secret.length < MIN_REDACTED_KEY) return undefined;
  const redactor = readerOf(secret);
  // Header names come lowercased: a name is read for the key lowercased.
  const lowered = readerOf(secret.toLowerCase());
  NAMES.set(redactor, (name) => lowered(name) !== name);
  return redactor;
}

function readerOf(secret: string): Redact {
  const redact = (text: string) => (text.includes(secret) ? text.replaceAll(secret, REDACTED) : text);
  return (text) => {
    const plain = redact(text);
    let read = plain;
    // Read again while a reading undoes more (a JSON escape may spell a URL escape, `\u0025` then
    // `5F`; `%255F` is one URL escape inside another), a few times at most. Each JSON escape is read
    // whole (`\\` too), so an escaped backslash before a `u` is no escape, but a backslash before a
    // `%` is no JSON escape and hides nothing; `"` and `\` stay escaped, so a reading is the same JSON.
    for (let pass = 0, before = ''; pass < 4 && read !== before && /\\[u/]|%[2-7]/i.test(read); pass++) {
      before = read;
      read = read.replace(/(?:\\u00|%)([2-7][\da-f])|\\[^%]/gi, (escape, hex?: string) => {
        const c = hex ? String.fromCharCode(parseInt(hex, 16)) : escape === '\\/' ? '/' : escape;
        return c === '"' || c === '\\' ? escape : c;
      });
    }
    return read.includes(secret) ? redact(read) : plain;
  };
}

/**
 * `headers` with the key redacted from every value, and a header left out whose name holds it (no
 * name can hold `[redacted]`); the same object when none holds it. Rebuilt from the entries, so each
 * `Set-Cookie` stays its own. @internal
 */
export function redactedHeaders(headers: Headers, redact: Redact | undefined): Headers {
  if (!redact) return headers;
  const named = NAMES.get(redact) ?? (() => false);
  // Each value is redacted once: the copy is made only when something changed.
  let changed = false;
  const kept: Array<[string, string]> = [];
  for (const [name, value] of headers) {
    const clean = named(name) ? undefined : redact(value);
    if (clean !== value) changed = true;
    if (clean !== undefined) kept.push([name, clean]);
  }
  return changed ? new Headers(kept) : headers;
}

/**
 * How deep what fetch threw is looked into: fetch's own is four deep at most (its TypeError, an
 * `AggregateError`, its `errors`, a socket's error, and that error's fields).
 */
const MAX_CAUSE_DEPTH = 6;

/**
 * What fetch threw, as the cause of the SDK's own error: itself, or none when any text in it holds
 * the key (a message, a stack, a code, a field, down its causes and an `AggregateError`'s `errors`),
 * when it is deeper than fetch's own or cannot be read, or, where `util.inspect` is at hand, when
 * that shows the key (a `Request`, `Headers` or `Map` in it, as ky's `HTTPError` holds). Node's
 * fetch keeps the unread rest of an answer it could not parse (`data`, headers included) on its
 * parser error; a `fetch` of the caller's may throw a text naming the `Authorization` header.
 * @internal
 */
export function causeWithoutKey(err: unknown, redact: Redact | undefined): unknown {
  const holdsKey = (value: unknown, depth: number): boolean =>
    typeof value === 'string'
      ? redact!(value) !== value
      : typeof value === 'object' && value !== null && (depth > MAX_CAUSE_DEPTH || Object.getOwnPropertyNames(value).some((key) => holdsKey((value as Record<string, unknown>)[key], depth + 1)));
  try {
    const util = (globalThis as { process?: { getBuiltinModule?: (id: string) => { inspect?: (value: unknown, options: object) => string } | undefined } }).process?.getBuiltinModule?.('node:util');
    return redact && (holdsKey(err, 0) || holdsKey(util?.inspect?.(err, { depth: MAX_CAUSE_DEPTH, showHidden: true }), 0)) ? undefined : err;
  } catch {
    return undefined;
  }
}
