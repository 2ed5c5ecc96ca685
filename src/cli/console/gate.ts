/**
 * The console's door. A local server that holds an API key is an attack surface: a web page in
 * the same browser can send it requests (CSRF), and a name that resolves to 127.0.0.1 can reach it
 * as its own origin (DNS rebinding). So every request must name this server in `Host`, carry the
 * access token (a cookie set once from the printed address), and, when it changes anything, come
 * from this origin.
 * @module
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The cookie of the console on `port`. Cookies are not kept apart by port, so the name carries it:
 * two consoles do not overwrite each other's, and another local server's cookie of the same name
 * cannot shadow this one's.
 */
export const cookieName = (port: number): string => `forecasting_console_${port}`;

/** Every answer's headers: a strict policy (own scripts and styles only, nothing framed, nothing cached). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // Not no-referrer: with it Chromium sends `Origin: null` on the console's own form posts.
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** Constant-time comparison of a presented token with the real one. */
export function sameToken(presented: string | undefined, token: string): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether any cookie of that name holds the session (another server on 127.0.0.1 may have set one of the same name for a narrower path, sent first). */
function hasSession(req: IncomingMessage, name: string, session: string): boolean {
  return (req.headers.cookie ?? '').split(';').some((part) => {
    const [key, ...rest] = part.trim().split('=');
    return key === name && sameToken(rest.join('='), session);
  });
}

/** A path of this console to send a browser to: one that starts with a single `/` and holds no space or control character, else `/`. */
export function ownPath(value: string | null | undefined): string | undefined {
  // Printable ASCII only: a header cannot carry more (`/Ā` would fail the redirect after the action ran).
  if (!value || !/^\/(?![/\\])/.test(value) || /[^\u0021-\u007e]|\\/.test(value)) return undefined;
  return value;
}

/** What the gate decided: go on, or the answer already sent. */
export type Verdict = 'pass' | 'answered';

/** The host names this server answers to, for its port. */
export const ownHosts = (port: number): string[] => [`127.0.0.1:${port}`, `localhost:${port}`];

function refuse(res: ServerResponse, status: number, message: string): Verdict {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${message}\n`);
  return 'answered';
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The secrets of one run: the token in the printed address (good once), and the session its cookie carries. */
export interface Keys {
  token: string;
  session: string;
  /** The token was exchanged for the session: the address opens nothing more. */
  used: boolean;
}

/**
 * Judges a request before anything else runs: 400 for a target that is not a path, 421 for another
 * `Host` (DNS rebinding), the token in the address exchanged for the session cookie (and dropped
 * from the address), 401 without the session, 403 for a change from another origin or none, 405 for
 * a method the console never takes.
 */
export function gate(req: IncomingMessage, res: ServerResponse, port: number, keys: Keys): Verdict {
  const host = req.headers.host ?? '';
  if (!ownHosts(port).includes(host)) return refuse(res, 421, 'Misdirected request: this console answers only at its own loopback address.');
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://console.invalid');
  } catch {
    return refuse(res, 400, 'Bad request.');
  }
  if (!(req.url ?? '').startsWith('/')) return refuse(res, 400, 'Bad request.');
  const given = url.searchParams.get('token');
  if (given !== null && req.method === 'GET') {
    if (!sameToken(given, keys.token)) return refuse(res, 401, 'Unauthorized: open the address the console printed, with its token.');
    // One time: an address seen later (a shared screen, a history, a log) opens nothing. The browser
    // that used it keeps its session for a day, or until the console stops.
    if (keys.used) return refuse(res, 401, 'Unauthorized: this address was used already. Restart the console for a new one.');
    keys.used = true;
    url.searchParams.delete('token');
    res.writeHead(303, {
      ...SECURITY_HEADERS,
      'set-cookie': `${cookieName(port)}=${keys.session}; HttpOnly; SameSite=Strict; Path=/; Max-Age=86400`,
      location: ownPath(`${url.pathname}${url.search}`) ?? '/',
    });
    res.end();
    return 'answered';
  }
  if (!hasSession(req, cookieName(port), keys.session)) return refuse(res, 401, 'Unauthorized: open the address the console printed, with its token.');
  if (req.method !== 'GET' && req.method !== 'HEAD' && !STATE_CHANGING.has(req.method ?? '')) return refuse(res, 405, 'Method not allowed.');
  if (STATE_CHANGING.has(req.method ?? '') && req.headers.origin !== `http://${host}`) {
    return refuse(res, 403, 'Forbidden: a change must come from the console’s own page.');
  }
  return 'pass';
}
