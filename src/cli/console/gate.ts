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

/** The cookie that carries the access token. */
export const TOKEN_COOKIE = 'forecasting_console';

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

/** The access token of the request's cookie, if any. */
export function cookieToken(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === TOKEN_COOKIE) return rest.join('=');
  }
  return undefined;
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

/**
 * Judges a request before anything else runs: 421 for another `Host` (DNS rebinding), the token in
 * the address turned into the cookie (and dropped from the address), 401 without the token, 403 for
 * a state-changing request from another origin or none, 405 for a method the console never takes.
 */
export function gate(req: IncomingMessage, res: ServerResponse, port: number, token: string): Verdict {
  const host = req.headers.host ?? '';
  if (!ownHosts(port).includes(host)) return refuse(res, 421, 'Misdirected request: this console answers only at its own loopback address.');
  const url = new URL(req.url ?? '/', `http://${host}`);
  const given = url.searchParams.get('token');
  if (given !== null && req.method === 'GET') {
    if (!sameToken(given, token)) return refuse(res, 401, 'Unauthorized: open the address the console printed, with its token.');
    url.searchParams.delete('token');
    res.writeHead(303, {
      ...SECURITY_HEADERS,
      'set-cookie': `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`,
      location: `${url.pathname}${url.search}`,
    });
    res.end();
    return 'answered';
  }
  if (!sameToken(cookieToken(req), token)) return refuse(res, 401, 'Unauthorized: open the address the console printed, with its token.');
  if (req.method !== 'GET' && req.method !== 'HEAD' && !STATE_CHANGING.has(req.method ?? '')) return refuse(res, 405, 'Method not allowed.');
  if (STATE_CHANGING.has(req.method ?? '') && req.headers.origin !== `http://${host}`) {
    return refuse(res, 403, 'Forbidden: a change must come from the console’s own page.');
  }
  return 'pass';
}
