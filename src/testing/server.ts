/**
 * The mock service over real HTTP: a node:http server on 127.0.0.1 that turns each
 * `IncomingMessage` into a Fetch `Request` for {@link MockService.handle} and writes the `Response` back.
 *
 * `node:http` is looked up when a server starts (`process.getBuiltinModule`), never imported: the
 * rest of `forecasting-sdk/testing` (the service, the clocks, the msw handlers) then bundles for a
 * browser as it is, with one entry and one set of types for every runtime.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ScaledClock, type MockClock } from './clock.js';
import { MockConnectionDropped } from './faults.js';
import { badRequest, errorResponse, methodNotAllowed, MockHttpError, notFound } from './http.js';
import { API_PREFIX } from './router.js';
import { answerClientErrors, DEFAULT_SERVER_LIMITS, serverOptions, type ServerLimits } from './server-guard.js';
import { createMockService, type MockService, type MockServiceOptions } from './service.js';

/**
 * The speed of {@link startMockServer}'s default clock: a {@link ScaledClock} running 600 times
 * faster than real time, so a standard forecast (30 mock-minutes) completes in 3 real seconds and a
 * client that honours `Retry-After` waits it out with no special option.
 * @example
 * ```ts
 * const mock = await startMockServer(); // a standard forecast (30 mock-minutes) takes 30 * 60 / DEFAULT_SERVER_TIME_SCALE = 3 s
 * ```
 */
export const DEFAULT_SERVER_TIME_SCALE = 600;

/**
 * Options of {@link startMockServer}: the service's options, or a service to serve. Without `clock`
 * or `timeScale` the server runs a {@link ScaledClock} at {@link DEFAULT_SERVER_TIME_SCALE} from the
 * real time now (unlike `createMockService`, whose default is a `ManualClock`).
 * @example
 * ```ts
 * await startMockServer({ clock: new ManualClock() }); // time moves only when the test says so
 * await startMockServer({ timeScale: 3600 }); // an hour passes every real second
 * ```
 */
export interface MockServerOptions extends MockServiceOptions {
  /** Serve this service instead of creating one (the other service options are then ignored). */
  service?: MockService | undefined;
  /** Port (default 0: a free port). */
  port?: number | undefined;
  /**
   * The address to listen on (default `127.0.0.1`): another loopback address, `::1`, or `0.0.0.0` /
   * `::` for every interface, so a container or another machine of a test network can reach it.
   * Webhooks still go only to loopback receivers, whatever the host.
   */
  host?: string | undefined;
}

/**
 * A running mock server.
 * @example
 * ```ts
 * const mock = await startMockServer();
 * mock.clock.advance(60_000);
 * mock.service.requests.count(); // requests that reached it
 * await mock.close();
 * ```
 */
export interface MockServer {
  /**
   * `http://127.0.0.1:<port>/api/v1/external` (or the `host` listened on; for `0.0.0.0` and `::`,
   * the loopback address of this machine): pass it as the client's `baseURL`.
   */
  baseURL: string;
  /** The service's default API key. */
  apiKey: string;
  service: MockService;
  clock: MockClock;
  /**
   * Stops the server, closing open connections. For a service it made (no `service` given), it ends
   * the service's webhook calls in flight too (each recorded as an attempt with no answer) and stops
   * the clock it made, so nothing keeps the process alive; serving that service again
   * (`startMockServer({ service: mock.service })`) runs its clock on, retries included.
   */
  close(): Promise<void>;
}

/** The clocks `close()` stopped (each made by its server): serving their service again resumes them. */
const stoppedByClose = new WeakSet<ScaledClock>();

/** Node's `http` module, found at run time; a clear error where the runtime has none (a browser). */
function nodeHttp(): typeof import('node:http') {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const http = proc?.getBuiltinModule?.('node:http') as typeof import('node:http') | undefined;
  if (!http) {
    throw new Error('startMockServer needs Node.js 20.16 or later (node:http); in a browser, serve the mock with mockHandlers from forecasting-sdk/testing/msw');
  }
  return http;
}

/**
 * Starts the mock service on a free port of 127.0.0.1. Its default clock runs (see
 * {@link DEFAULT_SERVER_TIME_SCALE}), so forecasts complete for a client with no test options; pass
 * `clock: new ManualClock()` for time that moves only when a test moves it.
 *
 * @example
 * ```ts
 * import { startMockServer } from 'forecasting-sdk/testing';
 * const mock = await startMockServer();
 * const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL });
 * // ...
 * await mock.close();
 * ```
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  return serveMock(options, DEFAULT_SERVER_LIMITS);
}

/** {@link startMockServer} with other time limits (our tests of slow clients use short ones). @internal */
export async function serveMock(options: MockServerOptions, limits: ServerLimits): Promise<MockServer> {
  const { service: given, port = 0, host = '127.0.0.1', ...serviceOptions } = options;
  // A server is for running clients, which need time to move: a scaled clock unless told otherwise.
  if (!serviceOptions.clock && serviceOptions.timeScale === undefined) serviceOptions.timeScale = DEFAULT_SERVER_TIME_SCALE;
  const service = given ?? createMockService(serviceOptions);
  // A service a closed server made, served again: its clock runs on.
  if (service.clock instanceof ScaledClock && stoppedByClose.delete(service.clock)) service.clock.resume();
  let origin = '';
  const http = nodeHttp();
  const held: HeldBodies = { bytes: 0, limit: limits.heldBodyBytes };
  const server = http.createServer(serverOptions(limits), (req, res) => {
    track(req, res);
    void respond(service, origin, held, req, res);
  });
  const track = answerClientErrors(server, limits, http.maxHeaderSize);
  // Node hands a CONNECT its raw socket: answer it as any request, then close (the mock tunnels nothing).
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    // Node takes its own error listener off a socket it hands over: a reset would be an uncaught error.
    socket.on('error', () => socket.destroy());
    const res = new http.ServerResponse(req);
    res.assignSocket(socket);
    res.shouldKeepAlive = false;
    res.on('finish', () => socket.destroySoon());
    void respond(service, origin, held, req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: actualPort, address } = server.address() as AddressInfo;
  origin = `http://${clientHost(address)}:${actualPort}`;
  // A scaled clock made here is ours to stop; one passed in belongs to the caller.
  const ownsClock = !given && !options.clock;
  let closing: Promise<void> | undefined;
  return {
    baseURL: `${origin}${API_PREFIX}`,
    apiKey: service.apiKey,
    service,
    clock: service.clock,
    // Once: a second call (an afterAll after the test's own close) waits for the first.
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
        // A service made here has nobody left to serve: its calls end, its clock stops, until it is served again.
        if (!given) service.webhooks.endCalls();
        if (ownsClock && service.clock instanceof ScaledClock) {
          service.clock.stop();
          stoppedByClose.add(service.clock);
        }
      })),
  };
}

/** The host a client on this machine uses for a listening address: loopback for "every interface", IPv6 in brackets. */
function clientHost(address: string): string {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::') return '[::1]';
  return address.includes(':') ? `[${address}]` : address;
}

/** The request body bytes a server's connections hold, read and not yet done with, and how many they may. */
interface HeldBodies {
  bytes: number;
  readonly limit: number;
}

async function respond(service: MockService, origin: string, held: HeldBodies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Aborts the request's signal when the client goes away, so injected delays end early.
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  let response: Response;
  const body = heldBody(req, held);
  try {
    response = await answerOf(service, origin, req, body.stream, controller.signal);
  } catch (err) {
    if (err instanceof MockConnectionDropped) {
      req.socket.destroy();
      return;
    }
    // A refusal from reading the body (the server's held bytes past their limit) is answered as such.
    const message = err instanceof Error ? err.message : String(err);
    response = errorResponse(err instanceof MockHttpError ? err : new MockHttpError(500, 'api_error', `The mock server failed: ${message}`));
  } finally {
    // The service is done with the body: what it read is no longer held, whether or not the answer
    // can go out yet (one queued behind another, to a client that does not read, may wait for good).
    body.release();
  }
  if (res.destroyed) return;
  const bytes = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // A HEAD answer keeps the length the GET answer has.
  headers['content-length'] = req.method === 'HEAD' ? (response.headers.get('content-length') ?? '0') : String(bytes.length);
  // Answered before the body was read to its end (a body over its cap): close the connection
  // rather than read the rest. Node then ends the socket once the answer is written.
  if (!req.complete) headers['connection'] = 'close';
  res.writeHead(response.status, headers);
  res.end(bytes);
}

/** The service's answer to `req`, or the server's own to a request it cannot hand on. */
async function answerOf(service: MockService, origin: string, req: IncomingMessage, body: () => ReadableStream<Uint8Array>, signal: AbortSignal): Promise<Response> {
  const method = req.method ?? 'GET';
  // RFC 9112: an HTTP/1.1 request without Host is refused (Node's own check would answer an empty 400).
  if (req.httpVersion === '1.1' && req.headers.host === undefined) {
    return errorResponse(badRequest('An HTTP/1.1 request needs a Host header'), { connection: 'close' });
  }
  if (FETCH_FORBIDDEN.has(method)) return unrepresentable(service, method, new URL(`${origin}${targetPath(req.url)}`).pathname);
  return service.handle(toRequest(req, origin, signal, body));
}

/** Methods a Fetch `Request` cannot carry (they throw), so never reach `service.handle`. */
const FETCH_FORBIDDEN: ReadonlySet<string> = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** The answer to such a method, from the service's routes: 405 with `Allow` on a known path, else 404. */
function unrepresentable(service: MockService, method: string, path: string): Response {
  const allow = service.allowedMethods(path);
  return errorResponse(allow ? methodNotAllowed(method, allow) : notFound(`No route for ${method} ${path}`));
}

/** The request for the service, addressed to this server: routing reads the request target's path only. */
function toRequest(req: IncomingMessage, origin: string, signal: AbortSignal, stream: () => ReadableStream<Uint8Array>): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? 'GET';
  // The body is streamed, not buffered here: the service reads it up to its cap and stops.
  const body = method === 'GET' || method === 'HEAD' ? undefined : stream();
  return new Request(`${origin}${targetPath(req.url)}`, { method, headers, body, signal, duplex: 'half' } as RequestInit);
}

/**
 * The path and query of a request target. Never built from the `Host` header, which a client may
 * fill with a path of its own (`127.0.0.1/api/v1/external/tags#`). An absolute-form target
 * (`http://host/path`) gives its path; anything else (`*`, a CONNECT's `host:port`, junk) routes
 * nowhere. A target starting `//` stays a path (it answers 404) because it is appended to the
 * origin, never resolved against it.
 */
function targetPath(target = '/'): string {
  if (target.startsWith('/')) return target;
  try {
    const url = new URL(target);
    // `host:443` parses as scheme `host:` with path `443`: only http(s) targets name a path.
    return url.protocol === 'http:' || url.protocol === 'https:' ? `${url.pathname}${url.search}` : '/';
  } catch {
    return '/';
  }
}

/**
 * The request body as a pull stream (made only for a method that has one): a chunk is read off the
 * socket only when the service asks for one. Its bytes count in `held` until `release()`, when the
 * service is done with it; a chunk that takes `held` past its limit errors the stream with a 503,
 * which the service answers.
 */
function heldBody(req: IncomingMessage, held: HeldBodies): { stream: () => ReadableStream<Uint8Array>; release: () => void } {
  let mine = 0;
  let released = false;
  const release = () => {
    released = true;
    held.bytes -= mine;
    mine = 0;
  };
  const stream = () => {
    const chunks = req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    return new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const next = await chunks.next();
          if (next.done) return controller.close();
          // Read after the service was done with it: held by nobody.
          if (released) return controller.enqueue(next.value);
          mine += next.value.byteLength;
          held.bytes += next.value.byteLength;
          if (held.bytes <= held.limit) return controller.enqueue(next.value);
          req.pause();
          controller.error(new MockHttpError(503, 'overloaded_error', `The mock server holds ${held.limit} bytes of request bodies at most, across its connections: try again shortly`, {}, { 'retry-after': '1' }));
        },
        // The service stopped reading (over its cap): leave the rest unread.
        cancel() {
          req.pause();
        },
      },
      { highWaterMark: 0 },
    );
  };
  return { stream, release };
}
