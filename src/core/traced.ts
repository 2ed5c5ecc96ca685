/**
 * The traced runs of a call, of its attempts and of waits (`channels.ts`): loaded only once someone
 * subscribes to a channel, so a client nobody observes carries none of it. One module: a bundler
 * makes one chunk of it, whichever run loads it first.
 * @module
 */
import { ID_VALUE, told, waitChannel, type AttemptMessage, type OperationMessage, type Tracing, type WaitMessage } from './channels.js';
import type { WaitOutcome, WaitScope } from './polling.js';
import type { Call, Next } from './pipeline.js';
import { WAIT_MODE, WaitDeadlineReached, type WaitRequestOptions } from './retry.js';
import { AttemptFailure, type PreparedRequest, type Received } from './transport.js';

/**
 * Runs `fn` inside `channel`'s trace of `message`, as `tracingChannel.tracePromise` does (`start`
 * with its bound stores around `fn`, `end`, then `error`, `asyncStart` and `asyncEnd`) with one
 * promise of its own rather than several: in a process where async hooks run (any application on
 * OpenTelemetry), each promise costs. `settle` sets the message's fields from the outcome before it
 * is published; the value is never put on the message (an answer's body has no place there).
 * @internal
 */
export function inTrace<T>(channel: Tracing, message: { error?: unknown }, fn: () => Promise<T>, settle?: (value: T | undefined, error: unknown) => void): Promise<T> {
  return channel.start.runStores(message, () => {
    const running = started(fn);
    channel.end.publish(message);
    return running.then(
      (value) => {
        ended(channel, message, value, undefined, false, settle);
        return value;
      },
      (error: unknown) => {
        ended(channel, message, undefined, error, true, settle);
        throw error;
      },
    );
  });
}

/** `fn()`, a synchronous throw as a rejection. */
function started<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return fn();
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Publishes the end of `message`'s trace: its fields set from the outcome (`error` when it `failed`), then `error`, `asyncStart`, `asyncEnd`. */
function ended<T>(channel: Tracing, message: { error?: unknown }, value: T | undefined, error: unknown, failed: boolean, settle: ((value: T | undefined, error: unknown) => void) | undefined): void {
  // A subscriber may have frozen its message: it gets it as it left it.
  // The error first: `settle` may name a truer one (an attempt's own, a wait's read's cause). Apart:
  // a subscriber that made `error` read-only still gets the status and the attempts.
  if (failed) told(() => (message.error = error));
  told(() => settle?.(value, error));
  if (failed) channel.error.publish(message);
  channel.asyncStart.publish(message);
  channel.asyncEnd.publish(message);
}

/**
 * Decodes a traced call's answer before its trace ends, so an answer the SDK cannot read (an
 * `InvalidResponseError` after a 2xx) fails the call's span and metric, not only its promise; the
 * caller's read takes the result kept on `received`. Calls `done` with `[error]` when it failed:
 * at once for a decode that returns, with no promise of its own (each costs where async hooks run).
 */
function decodeAhead(call: Call, received: Received, decode: (call: Call, received: Received) => unknown, done: (failure?: [unknown]) => void): void {
  let value: unknown;
  try {
    // Kept for the caller's read: one parse, one check, and a coordinator's settling once.
    received.decoded = [(value = decode(call, received))];
  } catch (error) {
    return done([error]);
  }
  if (value instanceof Promise) value.then(() => done(), (error: unknown) => done([error]));
  else done();
}

/**
 * Runs `run(call)` inside the `forecasting-sdk:operation` trace. With `inline`, `run` is the
 * attempts' driver and ends the trace itself (through `call.settled`, as it returns or throws):
 * no promise of the trace's own, for a client without steps around its attempts.
 * @internal
 */
export function traceCall(call: Call, channel: Tracing, baseURL: string, run: Next, decode: (call: Call, received: Received) => unknown, inline = false): Promise<Received> {
  const message = operationMessage(call, baseURL);
  call.trace = message;
  const settle = (received: Received | undefined, error: unknown): void => {
    message.attempts = call.attempt;
    if (received) {
      message.status = received.response.status;
      // A read's ids are in its path: only a write's answer names new ones (the task a start made).
      const ids = call.method === 'GET' ? undefined : answerIds(received.text);
      if (ids) message.answerIds = ids;
    } else {
      // A read that failed until its wait's deadline: the call failed with what its last attempt got (the wait says it timed out).
      const failure = error instanceof WaitDeadlineReached && error.cause !== undefined ? error.cause : error;
      const status = (failure as { status?: unknown } | null)?.status;
      if (typeof status === 'number') message.status = status;
      message.error = failure;
    }
  };
  const send = (): Promise<Received> => {
    // What subscribers added in `start`, under the client's own headers (they win).
    const added = safeHeaders(message);
    if (added) call.request = withHeaders(call.request, added);
    return run(call);
  };
  if (!inline) {
    // The trace fails when the answer cannot be read, but the caller still gets the answer (its decode rejects, `asResponse` reads it).
    let answered: Received | undefined;
    const traced = () => send().then((received) => new Promise<Received>((resolve, reject) => decodeAhead(call, received, decode, (failure) => (failure ? reject(((answered = received), failure[0])) : resolve(received)))));
    return inTrace(channel, message, traced, settle).catch((error: unknown) => answered ?? Promise.reject(error));
  }
  return channel.start.runStores(message, () => {
    // The driver ends after its first await at the earliest; a throw before it is published after `end`, as a rejection would be.
    let end: (() => void) | undefined;
    let afterEnd = false;
    call.settled = (received, error) => {
      call.settled = undefined;
      const finish = (failure?: [unknown]) => {
        end = () => ended(channel, message, failure ? undefined : received, failure?.[0], !!failure, settle);
        if (afterEnd) end();
      };
      if (received) decodeAhead(call, received, decode, finish);
      else finish([error]);
    };
    let running: Promise<Received>;
    try {
      running = send();
    } catch (error) {
      // Not reached by the driver (it is async: it rejects): the trace still ends, once.
      call.settled?.(undefined, error);
      running = Promise.reject(error);
    }
    channel.end.publish(message);
    afterEnd = true;
    end?.();
    return running;
  });
}

/** Runs one attempt inside the `forecasting-sdk:attempt` trace. @internal */
export function traceAttempt(call: Call, channel: Tracing, attempt: Next): Promise<Received> {
  const message: AttemptMessage = { operation: call.name, method: call.method, path: call.path, attempt: call.attempt, ...(call.trace ? { parent: call.trace } : {}) };
  return inTrace(
    channel,
    message,
    () => attempt(call),
    (received, error) => {
      if (received) message.status = received.response.status;
      else if (error instanceof AttemptFailure) {
        // The connection's error itself (the retry policy's wrapper is the core's own).
        message.errorType = error.error.name;
        message.error = error.error;
      }
    },
  );
}

/** The server of the last base URL seen: a client keeps one, and a URL parsed per call would cost more than the rest of the message. */
let server: { baseURL: string; address: string; port: number } | undefined;

function serverOf(baseURL: string): { address: string; port: number } {
  if (server?.baseURL !== baseURL) {
    const url = new URL(baseURL);
    server = { baseURL, address: url.hostname, port: url.port === '' ? (url.protocol === 'http:' ? 80 : 443) : Number(url.port) };
  }
  return server;
}

/** The `operation` channel's message for `call`. @internal */
function operationMessage(call: Call, baseURL: string): OperationMessage {
  const ids: Record<string, string> = {};
  const names = call.op?.pathParams ?? [];
  for (let i = 0; i < names.length; i++) {
    const id = call.ids[i];
    if (id !== undefined) ids[names[i]!] = id;
  }
  const { address, port } = serverOf(baseURL);
  const message: OperationMessage = { operation: call.name, method: call.method, pathTemplate: call.op?.path ?? call.path, path: call.path, ids, serverAddress: address, serverPort: port, headers: {} };
  // Per call, so built without spreading: a read of a wait names the wait.
  const wait = (call.options as WaitRequestOptions)[WAIT_MODE]?.trace;
  if (wait) (message as { parent?: WaitMessage }).parent = wait;
  return message;
}

/**
 * `request` with `added` under its own headers (the client's win). Built field by field, not
 * spread: a spread of the client's frozen headers takes V8's slow path, on every traced call, and
 * the request keeps the shape the prepare step gives it.
 */
function withHeaders(request: PreparedRequest, added: Record<string, string>): PreparedRequest {
  const headers: Record<string, string> = {};
  for (const name in added) headers[name] = added[name]!;
  const own = request.headers;
  for (const name in own) headers[name] = own[name]!;
  return { method: request.method, path: request.path, query: request.query, body: request.body, headers };
}

/** An id field's name (`id`, `…Id`, `…_id`, at most 64 characters); its value is {@link ID_VALUE}'s. */
const ID_KEY = /^(id|[A-Za-z]\w{0,60}Id|[a-z]\w{0,60}_id)$/;
/** The most ids taken from one answer. */
const MAX_ANSWER_IDS = 12;

/** Largest answer whose ids are read: a page of a list is far below; a larger answer names none. */
const MAX_ID_SCAN_CHARS = 1 << 20;

/** The ids an answer names at its top level (`id`, `…Id`, `…_id`), snake_case; `undefined` when none. */
function answerIds(text: string): Record<string, string> | undefined {
  if (text.length > MAX_ID_SCAN_CHARS || !text.startsWith('{')) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  let ids: Record<string, string> | undefined;
  let count = 0;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    // An id looks like one (an answer may be anything: a field named `…Id` holding text is not passed on).
    if (typeof value !== 'string' || !ID_VALUE.test(value) || !ID_KEY.test(key)) continue;
    (ids ??= {})[key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = value;
    if (++count >= MAX_ANSWER_IDS) break;
  }
  return ids;
}

/** An HTTP token (RFC 9110): what fetch takes as a header name. */
const TOKEN = /^[\w!#$%&'*+.^`|~-]+$/;

/** What HTTP carries as it is: tab, printable ASCII and Latin-1 (no line break, no NUL, nothing fetch refuses). */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Names a subscriber never sets: the connection's framing and hops (undici refuses them, and every
 * attempt would fail), credentials (the client's own kind is never replaced; another kind would go
 * beside it), and the client's own headers where it sends none: an `Idempotency-Key` on a call the
 * client did not key would make the service treat it as a repeat, a `Content-Type` on a call with
 * no body describes nothing.
 */
const REFUSED = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect', 'host', 'content-length', 'proxy-authorization', 'proxy-connection', 'authorization', 'x-api-key', 'cookie', 'idempotency-key', 'content-type']);

/**
 * The headers subscribers added to `message`, lower-case, those HTTP cannot carry (or must not)
 * left out; `undefined` when none. Read inside the guard: a subscriber may have made `headers` a
 * getter that throws, and telemetry never fails a call.
 */
function safeHeaders(message: OperationMessage): Record<string, string> | undefined {
  let safe: Record<string, string> | undefined;
  try {
    const added: unknown = message.headers;
    if (typeof added !== 'object' || added === null) return undefined;
    for (const name of Object.keys(added)) {
      const value: unknown = (added as Record<string, unknown>)[name];
      const lower = name.toLowerCase();
      if (!TOKEN.test(name) || typeof value !== 'string' || !FIELD_VALUE.test(value) || REFUSED.has(lower)) continue;
      (safe ??= {})[lower] = value;
    }
  } catch {
    // A subscriber's object that throws on reading adds nothing.
    return undefined;
  }
  return safe;
}

/** What {@link traceWait} runs. @internal */
export interface TracedWait<T> {
  kind: WaitMessage['kind'];
  taskIds: readonly string[];
  scope: WaitScope;
  body: () => Promise<T>;
  outcome: (value: T) => WaitOutcome;
  questionId: string | undefined;
}

/** Runs a wait inside the channel's trace; `poll` counts on `scope.trace`. @internal */
export function traceWait<T>(channel: Tracing, w: TracedWait<T>): Promise<T> {
  const message: WaitMessage = { kind: w.kind, taskIds: [...w.taskIds], reads: 0, wakes: { poll: 0, event: 0 }, links: [], ...(w.questionId === undefined ? {} : { questionId: w.questionId }) };
  w.scope.trace = message;
  return inTrace(channel, message, async () => {
    const value = await w.body();
    told(() => waitEnded(message, w.outcome(value)));
    return value;
  });
}

/** Sets what a wait ended with on its message. */
function waitEnded(message: WaitMessage, outcome: WaitOutcome): void {
  if (outcome.status !== undefined) message.status = outcome.status;
  if (outcome.taskIds !== undefined) message.taskIds = outcome.taskIds;
  if (outcome.finalStatuses !== undefined) message.statuses = countStatuses(outcome.finalStatuses);
}

/** A wait on the `wait` channel whose events are published one by one (`runMany`, an async generator). @internal */
export interface WaitTrace {
  readonly message: WaitMessage;
  /** The wait is over: `asyncEnd` with what it ended with. */
  end(outcome: WaitOutcome): void;
  /** The wait failed: `error`, then `asyncEnd`. */
  fail(error: unknown): void;
}

/** Opens a {@link WaitTrace} while someone subscribes to the `wait` channel (else `undefined`: nothing is built). @internal */
export function openWaitTrace(kind: WaitMessage['kind']): WaitTrace | undefined {
  const channel = waitChannel;
  if (!channel?.hasSubscribers) return undefined;
  const message: WaitMessage = { kind, taskIds: [], reads: 0, wakes: { poll: 0, event: 0 }, links: [] };
  channel.start.publish(message);
  channel.end.publish(message);
  let open = true;
  const close = () => {
    if (!open) return false;
    open = false;
    channel.asyncStart.publish(message);
    return true;
  };
  return {
    message,
    end(outcome) {
      // Once: what ended it first (a failure, or the run's end) is what the message keeps.
      if (!open) return;
      told(() => waitEnded(message, outcome));
      if (close()) channel.asyncEnd.publish(message);
    },
    fail(error) {
      if (!open) return;
      told(() => (message.error = error));
      channel.error.publish(message);
      if (close()) channel.asyncEnd.publish(message);
    },
  };
}

/** How many of `statuses` are each status. */
function countStatuses(statuses: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

