/** The console started in this process against a mock, and raw HTTP requests to it (any Host, any Origin). */
import { request } from 'node:http';
import { ForecastingClient } from '../../src/index.js';
import { startConsole, type RunningConsole } from '../../src/cli/console/server.js';
import { startMockServer, type MockServer } from '../../src/testing/index.js';

export const clientOf = (mock: MockServer) => new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, logLevel: 'off' });

export const consoleFor = (mock: MockServer): Promise<RunningConsole> => startConsole({ client: clientOf(mock), baseURL: mock.baseURL, apiKey: mock.apiKey });

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with exactly the headers given (Host included: Node's fetch would not let a test forge it). */
export function raw(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, setHost: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The secret path every page of the console is under: the printed address's, without its last `/`. */
export const baseOf = (running: Pick<RunningConsole, 'url'>): string => new URL(running.url).pathname.replace(/\/$/, '');

/**
 * An answer as the pages wrote it: the console's secret base taken out of its body and `Location`,
 * so a test reads the console's own paths (security.test.ts checks every link carries the base).
 */
export function unmounted(answer: Answer, base: string): Answer {
  const location = answer.headers.location;
  const strip = (text: string) => text.replaceAll(`"${base}/`, '"/');
  return {
    ...answer,
    body: strip(answer.body),
    headers: { ...answer.headers, ...(typeof location === 'string' && location.startsWith(`${base}/`) ? { location: location.slice(base.length) } : {}) },
  };
}

/** Where the page that answers the printed address moves on to (its meta refresh), unescaped. */
export function refreshTarget(answer: Answer): string | undefined {
  const found = /<meta http-equiv="refresh" content="0;url=([^"]*)">/.exec(answer.body)?.[1];
  return found?.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&#39;', "'").replaceAll('&amp;', '&');
}

/** The cookie the console sets for its printed address (its token is good once: this uses it). */
export async function cookieOf(running: RunningConsole): Promise<string> {
  const url = new URL(running.url);
  const answer = await raw(running.port, 'GET', `${url.pathname}${url.search}`, { host: url.host });
  const set = answer.headers['set-cookie'];
  const first = Array.isArray(set) ? set[0] : set;
  if (!first) throw new Error(`no cookie: ${answer.status}`);
  return first.split(';')[0]!;
}

/** A file's mock (with its control routes) and console, the console's session cookie and Host. */
export interface OpenConsole {
  mock: MockServer;
  running: RunningConsole;
  cookie: string;
  host: string;
  /** The console's secret base path (see {@link baseOf}). */
  base: string;
}

/** Starts a mock with its control routes and a console over it, and opens a session. */
export async function openConsole(): Promise<OpenConsole> {
  const mock = await startMockServer({ timeScale: 3600, httpControls: true });
  const running = await consoleFor(mock);
  return { mock, running, cookie: await cookieOf(running), host: new URL(running.url).host, base: baseOf(running) };
}

/** Stops what {@link openConsole} started. */
export async function closeConsole(open: Pick<OpenConsole, 'mock' | 'running'>): Promise<void> {
  await open.running.close();
  await open.mock.close();
}
