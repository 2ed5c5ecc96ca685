/**
 * The console's door. A local server that holds an API key is an attack surface: a web page in
 * the same browser can send it requests (CSRF), and a name that resolves to 127.0.0.1 can reach it
 * as its own origin (DNS rebinding), and a browser sends its cookies for 127.0.0.1 to every local
 * server whatever the port. So every request must name this server in `Host`, come under the run's
 * secret base path (the cookie's `Path`: no other local server gets it), carry the session (a cookie
 * set once from the printed address, good for a day), and, when it changes anything, come from this origin.
 * @module
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeXml } from './html.js';

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

/** The host names this server answers to, for its port. */
export const ownHosts = (port: number): string[] => [`127.0.0.1:${port}`, `localhost:${port}`];

function refuse(res: ServerResponse, status: number, message: string): Verdict {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${message}\n`);
  return 'answered';
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A day: the session cookie's `Max-Age`, and how long the server takes the session after it was opened. */
export const SESSION_MS = 86_400_000;

/** The secrets of one run: the path the console is served under, the token in the printed address (good once), and the session its cookie carries. */
export interface Keys {
  /**
   * The secret first segment of every path (`/<128 random bits>`), and the cookie's `Path`. A browser
   * sends a cookie to every server on 127.0.0.1 whatever its port: scoped to this path, the session
   * goes to no other local server, which cannot guess the path either.
   */
  base: string;
  token: string;
  session: string;
  /** The token was exchanged for the session: the address opens nothing more. */
  used: boolean;
  /** When the session ends (ms since the epoch), once opened: the cookie's day, kept by the server too. */
  expires?: number;
  /** The clock sessions end by. */
  now(): number;
}

/** What the gate decided: the request's target inside the console (its base taken off), or the answer already sent. */
export type Verdict = { target: string } | 'answered';

/** The target inside the console, or `undefined` for one outside its base. The base is compared in constant time: it is a secret. */
function inside(target: string, base: string): string | undefined {
  const end = target.slice(1).search(/[/?#]/);
  const first = end === -1 ? target : target.slice(0, end + 1);
  if (!sameToken(first, base)) return undefined;
  const rest = target.slice(first.length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * Judges a request before anything else runs: 421 for another `Host` (DNS rebinding), 400 for a
 * target that is not a path, 404 outside the secret base (saying nothing of it), the token in the
 * address exchanged for the session cookie (a page that moves on to the address without it), 401
 * without the session or after its day, 403 for a change from another origin or none, 405 for a
 * method the console never takes.
 */
export function gate(req: IncomingMessage, res: ServerResponse, port: number, keys: Keys): Verdict {
  const host = req.headers.host ?? '';
  if (!ownHosts(port).includes(host)) return refuse(res, 421, 'Misdirected request: this console answers only at its own loopback address.');
  const outer = req.url ?? '/';
  if (!outer.startsWith('/') || !URL.canParse(outer, 'http://console.invalid')) return refuse(res, 400, 'Bad request.');
  const target = inside(outer, keys.base);
  if (target === undefined) return refuse(res, 404, 'Not found.');
  // `/<base>//elsewhere` would parse as a host, not a path.
  if (/^\/[/\\]/.test(target)) return refuse(res, 400, 'Bad request.');
  const url = new URL(target, 'http://console.invalid');
  const given = url.searchParams.get('token');
  if (given !== null && req.method === 'GET') {
    if (!sameToken(given, keys.token)) return refuse(res, 401, 'Unauthorized: open the address the console printed, with its token.');
    // One time: an address seen later (a shared screen, a history, a log) opens nothing. The browser
    // that used it keeps its session for a day, or until the console stops.
    if (keys.used) return refuse(res, 401, 'Unauthorized: this address was used already. Restart the console for a new one.');
    keys.used = true;
    keys.expires = keys.now() + SESSION_MS;
    url.searchParams.delete('token');
    const target = `${keys.base}${ownPath(`${url.pathname}${url.search}`) ?? '/'}`;
    // A page of this origin that moves on, not a 303: the address is opened from elsewhere (`--open`'s
    // file, a chat's or a terminal's link), and Chromium sends no Strict cookie anywhere along a
    // redirect chain begun elsewhere (the token was spent, the page 401). The next load starts here.
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'set-cookie': `${cookieName(port)}=${keys.session}; HttpOnly; SameSite=Strict; Path=${keys.base}; Max-Age=${SESSION_MS / 1000}`,
    });
    res.end(`<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${escapeXml(target)}"><title>Forecasting console</title><p><a href="${escapeXml(target)}">Open the console</a></p>\n`);
    return 'answered';
  }
  if (!hasSession(req, cookieName(port), keys.session)) return refuse(res, 401, 'Unauthorized: open the address the console printed, with its token.');
  if (keys.expires === undefined || keys.now() >= keys.expires) return refuse(res, 401, 'Unauthorized: the session ended after a day. Restart the console for a new address.');
  if (req.method !== 'GET' && req.method !== 'HEAD' && !STATE_CHANGING.has(req.method ?? '')) return refuse(res, 405, 'Method not allowed.');
  if (STATE_CHANGING.has(req.method ?? '') && req.headers.origin !== `http://${host}`) {
    return refuse(res, 403, 'Forbidden: a change must come from the console’s own page.');
  }
  return { target };
}
