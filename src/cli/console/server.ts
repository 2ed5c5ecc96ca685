/**
 * `forecasting console`: a local web console over any Forecasting service (or the mock), drawn on
 * the server with the SDK. The key stays in this process: the browser gets pages, never the key.
 * Binds to 127.0.0.1 only; every request passes {@link gate} first.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ForecastingClient } from '../../index.js';
import { CONSOLE_CSS, CONSOLE_JS } from './assets.js';
import { gate, ownPath, SECURITY_HEADERS, type Keys } from './gate.js';
import { html, type Html } from './html.js';
import { mockControlFor, type MockControl } from './mock-control.js';
import { addSecret, redact } from '../report.js';
import { ROUTES, type Answer, type Context } from './routes.js';

/** How to start the console. */
export interface ConsoleOptions {
  /** The client it reads and acts with (its key never leaves this process). */
  client: ForecastingClient;
  /** The service address the client uses (to find the mock's control routes at its root). */
  baseURL: string;
  /** The key, only to keep it out of every page (an error message that quotes it). */
  apiKey: string;
  /** The port on 127.0.0.1; 0 or none: a free one. */
  port?: number;
  /** The clock a session's day is counted by (tests move it); `Date.now` by default. */
  now?: () => number;
}

/** A running console. */
export interface RunningConsole {
  /** The address to open, with its secret base and one-time access token: `http://127.0.0.1:<port>/<base>/?token=…`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Room for a browser's whole cookie jar for 127.0.0.1 (Chromium keeps up to 180 cookies of 4 KB a
 * host): another local server's page can set that many, and with Node's 16 KB default every request
 * would get 431 until the user cleared them.
 */
const MAX_HEADER_BYTES = 1024 * 1024;

/** A form body is a few fields: more is refused. */
const MAX_FORM_BYTES = 16 * 1024;

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  if (!/^application\/x-www-form-urlencoded\b/.test(req.headers['content-type'] ?? '')) return new URLSearchParams();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const NAV: ReadonlyArray<[string, string]> = [
  ['/questions', 'Questions'],
  ['/tasks', 'Tasks'],
  ['/webhooks', 'Webhooks'],
  ['/credits', 'Credits'],
];

function layout(title: string, path: string, body: Html, live: number | undefined, mock: boolean): string {
  const nav = [...NAV, ...(mock ? [['/mock', 'Mock clock'] as [string, string]] : [])];
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Forecasting console</title><link rel="stylesheet" href="/assets/console.css"><script src="/assets/console.js" defer></script></head>
<body><header><strong>Forecasting console</strong><nav>${nav.map(([href, label]) => html`<a href="${href}" class="${path.startsWith(href) ? 'here' : ''}">${label}</a>`)}</nav></header>
<main id="main"${live ? html` data-live="${live}"` : ''}>${body}</main></body></html>`.value;
}

function send(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, ...extra, 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Node answers a request it cannot read (a bad header line, headers too large, too slow) on its own,
 * without the console's headers: the same answer, with them.
 */
function refuseUnparsed(err: NodeJS.ErrnoException, socket: Socket): void {
  // An answer already under way on this connection cannot be followed by another: just close.
  const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (err.code === 'ECONNRESET' || !socket.writable || answering) return void socket.destroy();
  const [status, reason] =
    err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large'] : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request Timeout'] : [400, 'Bad Request'];
  rawAnswer(socket, status, reason);
}

/** A whole answer written on the socket, with the console's headers, and the connection closed: a client that keeps its side open holds nothing. */
function rawAnswer(socket: Socket, status: number, reason: string): void {
  const headers = Object.entries({ ...SECURITY_HEADERS, 'content-length': '0', connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${headers.join('')}\r\n`, () => socket.destroy());
  setTimeout(() => socket.destroy(), 1_000).unref();
}

/** A path inside the console to go back to after an action: its own, never another site's. */
const backTo = (value: string | null | undefined, fallback: string) => ownPath(value) ?? fallback;

/**
 * Markup with every link, form action and asset of the console under its secret base. The pages
 * write paths from the console's root; only an attribute the templates wrote can match, since every
 * value from elsewhere has its quotes escaped.
 */
export const mounted = (markup: string, base: string): string => markup.replace(/(\s(?:href|src|action)=")\/(?![/\\])/g, `$1${base}/`);

/** A redirect to a path of the console, under its base. */
function redirect(res: ServerResponse, base: string, path: string): void {
  res.writeHead(303, { ...SECURITY_HEADERS, location: `${base}${path}` });
  res.end();
}

type Served = Omit<Context, 'url' | 'form'> & { base: string };

async function handle(req: IncomingMessage, res: ServerResponse, target: string, context: Served): Promise<void> {
  const url = new URL(target, 'http://console.invalid');
  const { base } = context;
  // HEAD answers as GET does (the gate lets it through); Node leaves the body out.
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  if (method === 'GET' && url.pathname === '/assets/console.css') return send(res, 200, 'text/css; charset=utf-8', CONSOLE_CSS);
  if (method === 'GET' && url.pathname === '/assets/console.js') return send(res, 200, 'text/javascript; charset=utf-8', CONSOLE_JS);
  // No icon: an empty answer rather than a 404 in the browser's console.
  if (method === 'GET' && url.pathname === '/favicon.ico') {
    res.writeHead(204, SECURITY_HEADERS);
    return void res.end();
  }
  if (method === 'GET' && url.pathname === '/') return redirect(res, base, '/questions');
  const form = req.method === 'POST' ? await readForm(req) : undefined;
  if (req.method === 'POST' && form === undefined) return send(res, 413, 'text/plain; charset=utf-8', 'Payload too large.\n');
  for (const route of ROUTES) {
    const m = route.method === method ? route.pattern.exec(url.pathname) : null;
    if (!m) continue;
    if (route.mockOnly && !context.mock) break;
    let params: string[];
    try {
      params = m.slice(1).map(decodeURIComponent);
    } catch {
      return send(res, 400, 'text/plain; charset=utf-8', 'Bad request: a malformed escape in the path.\n');
    }
    const answer: Answer = await route.run({ ...context, url, form: form ?? new URLSearchParams() }, params);
    if ('redirect' in answer) return redirect(res, base, backTo(answer.redirect, '/'));
    // A live page's refresh gets its content alone, and in a header how long until the next (0: the page shows a final state, no more).
    if (req.headers['x-console-fragment'] === '1') return send(res, answer.status ?? 200, 'text/html; charset=utf-8', mounted(answer.body.value, base), { 'x-console-live': String(answer.live ?? 0) });
    return send(res, answer.status ?? 200, 'text/html; charset=utf-8', mounted(layout(answer.title, url.pathname, answer.body, answer.live, context.mock !== undefined), base));
  }
  send(res, 404, 'text/html; charset=utf-8', mounted(layout('Not found', url.pathname, html`<h1>Not found</h1><p>No page at <code>${url.pathname}</code>.</p>`, undefined, context.mock !== undefined), base));
}

/**
 * Starts the console on 127.0.0.1 and resolves once it listens.
 * @example
 * ```ts
 * const running = await startConsole({ client, baseURL, apiKey });
 * console.log(running.url); // http://127.0.0.1:53211/<base>/?token=…
 * ```
 */
export async function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  const keys: Keys = {
    base: `/${randomBytes(16).toString('base64url')}`,
    token: randomBytes(24).toString('base64url'),
    session: randomBytes(24).toString('base64url'),
    used: false,
    now: options.now ?? Date.now,
  };
  const mock = await mockControlFor(options.baseURL, options.apiKey);
  addSecret(options.apiKey);
  let port = 0;
  // No Host at all is the gate's to refuse (421, with the headers), not Node's bare 400.
  const server = createServer({ requireHostHeader: false, maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    const failed = (err: unknown) => {
      if (res.headersSent) return void res.destroy();
      send(res, 500, 'text/plain; charset=utf-8', `The console failed: ${redact(err instanceof Error ? err.message : String(err))}\n`);
    };
    // Nothing a request holds may end the process: whatever throws answers 500.
    try {
      const verdict = gate(req, res, port, keys);
      if (verdict === 'answered') return;
      handle(req, res, verdict.target, { client: options.client, mock, redact, base: keys.base, back: (form, fallback) => backTo(form.get('back'), fallback) }).catch(failed);
    } catch (err) {
      failed(err);
    }
  });
  server.on('clientError', refuseUnparsed);
  // What Node would answer on its own, without the console's headers: an Expect it does not know
  // (417), and CONNECT (the console tunnels nothing).
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => send(res, 417, 'text/plain; charset=utf-8', 'Expectation failed.\n'));
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.on('error', () => socket.destroy());
    rawAnswer(socket, 405, 'Method Not Allowed');
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${keys.base}/?token=${keys.token}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type { MockControl };
