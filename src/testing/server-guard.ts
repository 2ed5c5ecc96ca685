/**
 * What the HTTP server does about requests that never become one: time limits on the headers and on
 * the whole request (a client trickling bytes, or declaring a body it never sends, must not hold a
 * connection for Node's default five minutes), and Node's own refusals (bytes that are not HTTP,
 * headers over Node's limit, a request too slow) answered in the service's error envelope rather
 * than as a bare status line.
 * @module
 */
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { realClearTimeout, realSetTimeout } from './real-timers.js';

/** The time limits of a mock server, in real milliseconds. @internal */
export interface ServerLimits {
  /** From the connection (or the end of the previous request) to the end of the headers. */
  headersMs: number;
  /** From the start of a request to the end of its body. */
  requestMs: number;
  /** How often Node checks the limits (its default, 30 s, lets a limit overrun by as much). */
  checkEveryMs: number;
  /**
   * Request body bytes the server holds at once, across its connections, read and not yet done with:
   * past it a request answers 503 `overloaded_error` (each body has its own cap; this bounds many at once).
   */
  heldBodyBytes: number;
  /**
   * A connection on which nothing moves either way for this long is closed: a client that stops
   * reading its answers (or sends a request and then nothing) holds it no longer.
   */
  idleMs: number;
}

/**
 * The request body bytes a server started by `startMockServer` holds at once, across its
 * connections (256 MiB: 25 uploads of 10 MiB in flight). One body has its own cap (1 MiB of JSON,
 * 10 MiB for an upload); this one bounds many at once, so 150 clients each parking a 10 MiB upload
 * cannot make the mock hold 1.5 GB. Past it a request answers `503 overloaded_error` with
 * `Retry-After: 1` and its connection is closed; a body's bytes are freed as soon as the service is
 * done with it.
 * @example
 * ```ts
 * console.log(MAX_HELD_BODY_BYTES); // 268435456
 * ```
 */
export const MAX_HELD_BODY_BYTES = 256 * 1024 * 1024;

/**
 * The limits `startMockServer` uses: a loopback or test-network client sends headers at once and a
 * 10 MiB upload well within a minute. They bound receiving, and a connection idle both ways for 2
 * minutes: a slow answer (a `delayMs` fault, at most a minute) is not cut.
 * @internal
 */
export const DEFAULT_SERVER_LIMITS: Readonly<ServerLimits> = { headersMs: 10_000, requestMs: 60_000, checkEveryMs: 1_000, heldBodyBytes: MAX_HELD_BODY_BYTES, idleMs: 120_000 };

/** Node's server options for `limits`. The Host check is the mock's own (an envelope, not Node's empty 400). @internal */
export function serverOptions(limits: ServerLimits): ServerOptions {
  return {
    headersTimeout: limits.headersMs,
    requestTimeout: limits.requestMs,
    connectionsCheckingInterval: limits.checkEveryMs,
    requireHostHeader: false,
  };
}

const REASONS: Readonly<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Content Too Large', 431: 'Request Header Fields Too Large' };

/** A whole HTTP answer carrying the error envelope, that closes the connection. @internal */
export function rawErrorAnswer(status: number, type: string, message: string): string {
  const body = envelope(type, message);
  return `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\ncontent-type: application/json\r\ncontent-length: ${body.byteLength}\r\nconnection: close\r\n\r\n${new TextDecoder().decode(body)}`;
}

/** The error envelope's bytes. */
const envelope = (type: string, message: string) => new TextEncoder().encode(JSON.stringify({ type: 'error', error: { type, message } }));

/** The envelope for an error Node's parser or its timers raise on a connection. */
function refusalOf(code: string | undefined, limits: ServerLimits, maxHeaderSize: number): [number, string, string] {
  const seconds = (ms: number) => `${ms / 1000} s`;
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'invalid_request_error', `The request did not arrive in time: headers within ${seconds(limits.headersMs)}, the whole request within ${seconds(limits.requestMs)}`];
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'invalid_request_error', `The request line and headers may be at most ${maxHeaderSize} bytes`];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'request_too_large', 'The chunk extensions of the body are too large'];
    default:
      return [400, 'invalid_request_error', 'The request is not valid HTTP/1.1'];
  }
}

/**
 * Answers Node's `clientError`s with the envelope, then closes the connection. Bytes that are not
 * HTTP pipelined behind requests still being answered are refused after those answers, never in
 * their place (a status line inside an answer corrupts it; one before a queued answer is read as
 * that answer); nothing is written to a client that already went away. An `Expect` other than
 * `100-continue` is a 417 in the envelope (Node's own has no body), its body left unread. Returns
 * what the request handler calls for each request, so the answers of a connection are known in order.
 * @internal
 */
export function answerClientErrors(server: Server, limits: ServerLimits, maxHeaderSize: number): (req: IncomingMessage, res: ServerResponse) => void {
  // Answers go out in order: once a connection's latest is out, every earlier one is.
  const latest = new WeakMap<Duplex, ServerResponse>();
  const previous = new WeakMap<ServerResponse, ServerResponse>();
  // Node's parser raises its error again for each later chunk: the first decides.
  const handled = new WeakSet<Duplex>();
  const track = (req: IncomingMessage, res: ServerResponse): void => {
    const before = latest.get(req.socket);
    // Linked while it is pending only: a kept-alive connection's answers are not held in a chain.
    if (before && !before.writableFinished) {
      previous.set(res, before);
      res.once('close', () => previous.delete(res));
    }
    latest.set(req.socket, res);
  };
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (handled.has(socket)) return;
    handled.add(socket);
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const refuse = () => {
      // Closed once written, or after a second for a client that stopped reading.
      const timer = realSetTimeout(() => socket.destroy(), 1_000);
      timer.unref?.();
      socket.once('finish', () => socket.destroy());
      socket.once('close', () => realClearTimeout(timer));
      socket.end(rawErrorAnswer(...refusalOf(err.code, limits, maxHeaderSize)));
    };
    const last = latest.get(socket);
    // The error is the latest request itself (its body too slow, or broken): refused in its answer's
    // place once the answers before it are out, unless its own has begun. Else it came after it.
    const incomplete = last !== undefined && !last.req.complete;
    if (incomplete && last.headersSent) return socket.destroy();
    const before = incomplete ? previous.get(last) : last;
    if (!before || before.writableFinished) return refuse();
    // A client that never reads those answers holds the connection no longer than this.
    const timer = realSetTimeout(() => socket.destroy(), limits.idleMs);
    timer.unref?.();
    before.once('finish', () => {
      realClearTimeout(timer);
      refuse();
    });
    before.once('close', () => before.writableFinished || socket.destroy());
  });
  // The header's value is not echoed: a client may put anything in it, a key included.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    track(req, res);
    const body = envelope('invalid_request_error', 'The Expect header asks for what the mock cannot meet: it meets only 100-continue');
    res.writeHead(417, { 'content-type': 'application/json', 'content-length': String(body.byteLength), connection: 'close' }).end(body);
  });
  // Nothing moving either way: Node closes the connection (a queued answer to a client that never reads).
  server.setTimeout(limits.idleMs);
  return track;
}
