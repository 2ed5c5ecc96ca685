/** A hostile service for the CLI, console and otel reviews: the mock behind a proxy that rewrites its JSON answers as a test says. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockServer } from '../../src/testing/index.js';

/** Rewrites an answer: its path (below the base URL), method and parsed JSON body; returns the body to send (a string is sent as it is). */
export type Rewrite = (path: string, method: string, body: unknown) => unknown;

export interface HostileService {
  baseURL: string;
  rewrite: Rewrite;
  close(): Promise<void>;
}

/** The mock, every JSON answer passed through `rewrite` (replaceable on the returned object). */
export async function hostileService(mock: MockServer, rewrite: Rewrite = (_p, _m, b) => b): Promise<HostileService> {
  const root = mock.baseURL.replace(/\/api\/v1\/external$/, '');
  const h: HostileService = {
    baseURL: '',
    rewrite,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const headers: Record<string, string> = {};
        for (const name of ['authorization', 'content-type', 'idempotency-key']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const answer = await fetch(`${root}${req.url}`, { method: req.method, headers, ...(body ? { body } : {}) });
        let text = await answer.text();
        if ((answer.headers.get('content-type') ?? '').includes('json') && text) {
          const path = (req.url ?? '').replace(/^\/api\/v1\/external/, '');
          const out = h.rewrite(path, req.method ?? 'GET', JSON.parse(text));
          text = typeof out === 'string' ? out : JSON.stringify(out);
        }
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json', 'retry-after': '1' }).end(text);
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  h.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/external`;
  return h;
}
