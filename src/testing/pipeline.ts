/**
 * How the mock answers a request of the API, in request order, as the client's pipeline sends one:
 * receive (route, read the body within its cap, log) → refuse a body over its cap → idempotency →
 * faults → answer (route errors, auth and scope, rate limit, input checks, the handler) → reply
 * (request id, log, settle the key, a drop after handling, HEAD). Each step is a seam of its own.
 * @module
 */
import type { Operation } from '../core/operation.js';
import { paramsOf } from '../schemas/params.js';
import { redactHeaders, requireScope, type KeyRing, type Principal } from './auth.js';
import { delay, faultResponse, MockConnectionDropped, type FaultInjector, type FaultRule } from './faults.js';
import type { HandlerContext, OperationHandler } from './handlers/types.js';
import { badRequest, errorResponse, jsonResponse, methodNotAllowed, MockHttpError, notFound, Reply } from './http.js';
import { bodyFingerprint, bodyRefusal, formObject, loggedBody, protoKeyPath, queryObject, readBody, validate, type BodyRead } from './input.js';
import type { IdempotencyLedger } from './idempotency.js';
import type { RateLimiter, RateLimitSetting } from './rate-limit.js';
import type { RecordedRequest, RequestLog } from './request-log.js';
import { API_PREFIX, type Router, type RouteMatch } from './router.js';
import type { ControlEnv } from './controls.js';
import { isOpenApiPath, openApiResponse } from './openapi.js';

/** What the steps share: the service's parts they read and change. */
export interface PipelineParts {
  env: ControlEnv;
  keys: KeyRing;
  router: Router;
  handlers: ReadonlyMap<string, OperationHandler>;
  limiter: RateLimiter;
  idempotency: IdempotencyLedger;
  faults: FaultInjector;
  requests: RequestLog;
  rateLimit(): RateLimitSetting;
  /** Whether the served OpenAPI document describes the control routes too. */
  httpControls: boolean;
}

/** One request on its way through the steps. */
export interface Call {
  request: Request;
  url: URL;
  method: string;
  /** HEAD is answered as GET without the body (RFC 9110); the log and the faults see HEAD. */
  head: boolean;
  route: RouteMatch;
  operation: Operation | undefined;
  /** The path below `/api/v1/external`. */
  path: string;
  body: BodyRead;
  entry: RecordedRequest;
  /** The claimed `Idempotency-Key`, to settle with the answer (or release on a drop). */
  keyed?: { settle(response: Response): Promise<void>; release(): void };
  fault?: FaultRule | undefined;
}

/** Step 1: routes the request, reads its body (within the operation's cap) and logs it. */
export async function receive(parts: PipelineParts, request: Request, url: URL): Promise<Call> {
  const method = request.method.toUpperCase();
  const head = method === 'HEAD';
  const route = parts.router.match(head ? 'GET' : method, url.pathname);
  const operation = route.kind === 'operation' ? route.operation : undefined;
  const path = url.pathname.startsWith(`${API_PREFIX}/`) ? url.pathname.slice(API_PREFIX.length) : url.pathname;
  const body = await readBody(request, operation?.multipart === true);
  const entry: RecordedRequest = {
    method,
    path: parts.keys.redact(`${path}${url.search}`),
    operation: operation?.sdkMethod,
    status: null,
    dropped: false,
    idempotencyKey: optionalRedacted(parts.keys, request.headers.get('idempotency-key')),
    headers: redactHeaders(request.headers, (value) => parts.keys.redact(value)),
    // A client may send its key anywhere in a body: the log shows none.
    body: parts.keys.redactValue(loggedBody(body)),
    at: parts.env.clock.now(),
    requestId: `req_${crypto.randomUUID()}`,
  };
  parts.requests.add(entry);
  return { request, url, method, head, route, operation, path, body, entry };
}

const optionalRedacted = (keys: KeyRing, value: string | null) => (value === null ? undefined : keys.redact(value));

/** Step 2: a body over its cap was never read: refused first, as a server's HTTP layer would. */
export function refuseUnread(call: Call): Response | undefined {
  return call.body.kind === 'too_large' ? errorResponse(bodyRefusal(call.body)!) : undefined;
}

/**
 * Step 3: keyed operations of a live API key follow the spec's idempotency rules: an earlier answer
 * is replayed. The key is claimed before any delay, so a second request meanwhile finds the first in
 * progress.
 */
export async function claimKey(parts: PipelineParts, call: Call): Promise<Response | undefined> {
  // Keys are kept per API key: a call without a live one is the key check's to answer (401), never a replay.
  if (!call.operation?.idempotent || !parts.keys.knows(call.request.headers) || !call.request.headers.has('idempotency-key')) return undefined;
  // Kept as a SHA-256, not as the text: a body of 1 MB under each of a thousand keys held gigabytes.
  const text = new TextEncoder().encode(`${call.method} ${call.path} ${bodyFingerprint(call.body)}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', text));
  const claim = parts.idempotency.claim(call.request.headers, btoa(String.fromCharCode(...digest)));
  if (claim?.kind === 'answer') return claim.response;
  if (claim?.kind === 'proceed') call.keyed = claim;
  return undefined;
}

/** Step 4: the first matching fault rule: a delay, a dropped connection or an injected answer. */
export async function injectFault(parts: PipelineParts, call: Call): Promise<Response | undefined> {
  const { method, path, operation } = call;
  const fault = (call.fault = parts.faults.take({ method, path, template: operation?.path, operation: operation?.sdkMethod }));
  if (fault?.delayMs) {
    await delay(fault.delayMs, call.request.signal).catch((err: unknown) => {
      call.keyed?.release();
      throw err;
    });
  }
  if (fault?.drop && !fault.afterHandling) {
    call.keyed?.release();
    call.entry.dropped = true;
    throw new MockConnectionDropped();
  }
  const injected = fault ? faultResponse(fault) : undefined;
  return injected instanceof MockHttpError ? errorResponse(injected) : injected;
}

/** For a control path asked below the API prefix (`$FORECASTING_BASE_URL/__mock/clock`): where the control routes are. */
function controlHint(path: string): string {
  const at = path.indexOf('/__mock');
  return at > 0 ? `: the mock's control routes live at the server root, outside the API's prefix (${path.slice(at)})` : '';
}

/** Step 5: routing errors, auth and scope, the rate limit, input checks and the handler; every refusal is the error envelope. */
export async function answer(parts: PipelineParts, call: Call): Promise<Response> {
  const { route, request, url, body } = call;
  try {
    // The service's OpenAPI document, beside the API (and at the root) and open to all (no operation has these paths).
    if (route.kind === 'not_found' && isOpenApiPath(url.pathname)) return await openApiResponse(request, url, parts.httpControls);
    if (route.kind === 'not_found') throw notFound(`No route for ${request.method} ${url.pathname}${controlHint(url.pathname)}`);
    // OPTIONS asks what a path takes: 204 with `Allow`, no key needed.
    if (route.kind === 'method_not_allowed' && request.method.toUpperCase() === 'OPTIONS') return new Response(null, { status: 204, headers: { allow: route.allow.join(', ') } });
    if (route.kind === 'method_not_allowed') throw methodNotAllowed(request.method, route.allow);
    const { operation, pathParams } = route;
    const principal = parts.keys.authenticate(request.headers);
    requireScope(principal, operation.scope);
    const setting = parts.rateLimit();
    if (setting) parts.limiter.hit('requests', principal.key, setting.requestsPerMinute);
    const handler = parts.handlers.get(operation.sdkMethod);
    if (!handler) throw new MockHttpError(501, 'not_implemented', `${operation.sdkMethod} is not implemented by the mock service yet`);
    // The body was read once, above: a multipart handler gets the bytes back as a request of its own.
    const forHandler = body.kind === 'multipart' ? new Request(request, { body: body.bytes }) : request;
    const input = await inputOf(operation, url, body, request);
    return toResponse(await handler.handle(handlerContext(parts, { operation, pathParams, input, principal, request: forHandler })), operation);
  } catch (err) {
    if (err instanceof MockHttpError) return errorResponse(err);
    const message = err instanceof Error ? err.message : String(err);
    return errorResponse(new MockHttpError(500, 'api_error', `The mock service failed: ${message}`));
  }
}

/** Step 6: stamps and logs the answer, settles the key, drops the connection after handling if a fault says so, strips a HEAD answer. */
export async function reply(call: Call, response: Response): Promise<Response> {
  response.headers.set('x-request-id', call.entry.requestId);
  call.entry.status = response.status;
  noteAnswer(call.entry, response);
  await call.keyed?.settle(response);
  if (call.fault?.drop) {
    call.entry.dropped = true;
    throw new MockConnectionDropped('connection dropped by an injected fault after the request was handled');
  }
  return call.head ? await withoutBody(response) : response;
}

type CallFacts = Pick<HandlerContext, 'operation' | 'pathParams' | 'input' | 'principal' | 'request'>;

function handlerContext(parts: PipelineParts, facts: CallFacts & { principal: Principal }): HandlerContext {
  const { env } = parts;
  return {
    ...facts,
    store: env.store,
    clock: env.clock,
    events: env.events,
    timestamp: () => new Date(env.clock.now()).toISOString(),
    limit: (name, perMinute) => parts.limiter.hit(name, facts.principal.key, perMinute),
    uploadsDisabled: env.uploads.disabled(facts.principal.organizationId),
  };
}

/** A HEAD answer: the GET answer's status and headers, its length kept, no body. */
async function withoutBody(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  if (response.body) headers.set('content-length', String((await response.arrayBuffer()).byteLength));
  return new Response(null, { status: response.status, statusText: response.statusText, headers });
}

/** The checked body (POST/PUT/PATCH; an upload's form with its files) or query (GET/DELETE). */
async function inputOf(operation: Operation, url: URL, body: BodyRead, request: Request): Promise<unknown> {
  const refusal = bodyRefusal(body);
  if (refusal) throw refusal;
  const query = operation.method === 'GET' || operation.method === 'DELETE';
  const form = operation.multipart && body.kind === 'multipart';
  // A form sent where the spec takes JSON was read as no body at all (`{}`): a PATCH of junk answered 200.
  if (!query && !form && body.kind === 'multipart') throw badRequest('The request body must be JSON (Content-Type: application/json), not a multipart form');
  const schema = paramsOf(operation);
  const raw = query ? queryObject(url.searchParams, schema) : body.kind === 'json' ? body.value : form ? await formObject(body.bytes, request.headers) : {};
  const proto = protoKeyPath(raw);
  if (proto !== undefined) throw badRequest('is not a field the service takes', proto);
  return schema ? validate(schema, raw) : raw;
}

/** Notes in the log what a test may ask of an answer: its `Retry-After`, and whether it was a replay. */
function noteAnswer(entry: RecordedRequest, response: Response): void {
  const retryAfter = response.headers.get('retry-after');
  if (retryAfter !== null) entry.retryAfter = retryAfter;
  if (response.headers.get('idempotent-replayed') === 'true') entry.replayed = true;
}

function toResponse(result: unknown, operation: Operation): Response {
  if (result instanceof Reply) return jsonResponse(result.status ?? operation.status ?? 200, result.body, result.headers);
  if (result === undefined) return new Response(null, { status: operation.status ?? 204 });
  return jsonResponse(operation.status ?? 200, result);
}
