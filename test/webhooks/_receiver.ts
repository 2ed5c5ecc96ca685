/** A webhook receiver on 127.0.0.1 for the real-HTTP tests: records each call, answers as scripted. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCall {
  headers: IncomingHttpHeaders;
  /** The raw body bytes. */
  body: Buffer;
}

/** How the receiver answers the nth call (1-based): a status, optionally after a real delay. */
export type Script = (n: number, call: ReceivedCall) => { status: number; delayMs?: number; headers?: Record<string, string>; body?: string };

export interface Receiver {
  url: string;
  calls: ReceivedCall[];
  /** Replaces the script. */
  answer(script: Script): void;
  close(): Promise<void>;
}

export async function startReceiver(script: Script = () => ({ status: 200 }), path = '/hooks'): Promise<Receiver> {
  let current = script;
  const calls: ReceivedCall[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const call = { headers: req.headers, body: Buffer.concat(chunks) };
    calls.push(call);
    const { status, delayMs, headers, body } = current(calls.length, call);
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (!res.destroyed) res.writeHead(status, headers).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    calls,
    answer: (next) => {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
