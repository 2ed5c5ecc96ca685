/**
 * The client's own steps of the request pipeline (see `pipeline.ts`), in call order: prepare,
 * budget, events, transport, decode; and the events a client emits.
 * @module
 */
import type { EventEmitter } from 'eventemitter3';
import { toJSONText } from './errors.js';
import { unreadable } from './params-check.js';
import type { Redact } from './redact.js';
import { clip } from './text.js';
import type { LeveledLogger } from './logger.js';
import type { AttemptStep, Call } from './pipeline.js';
import type { RequestBudget } from './request-budget.js';
import { decodeBody, invalidAnswer, toSearchParams, type PreparedRequest, type Received, type Transport } from './transport.js';
import { endUpload, toMultipart } from './uploads.js';

/**
 * Fields of every client event. Never holds a key or a body.
 * @example
 * ```ts
 * client.on('request', (e: RequestEvent) => console.log(e.method, e.path, `attempt ${e.attempt}`));
 * ```
 */
export interface RequestEvent {
  /** Dotted client method, for example `questions.create`. */
  operation: string;
  method: string;
  /** Path below the base URL, ids included. */
  path: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** The `Idempotency-Key` sent, for keyed operations. */
  idempotencyKey: string | undefined;
}
/**
 * Emitted for every HTTP answer, errors included.
 * @example
 * ```ts
 * client.on('response', (e: ResponseEvent) => console.log(e.status, `${e.durationMs} ms`, e.replayed ? '(replayed)' : ''));
 * ```
 */
export interface ResponseEvent extends RequestEvent {
  status: number;
  /** Milliseconds from sending to the answer's headers. */
  durationMs: number;
  /** The server replayed an earlier answer (`Idempotent-Replayed: true`). */
  replayed: boolean;
}
/**
 * Emitted before waiting for a retry.
 * @example
 * ```ts
 * client.on('retry', (e: RetryEvent) => console.warn(`${e.error} (status ${e.status}); next try in ${e.delayMs} ms`));
 * ```
 */
export interface RetryEvent extends RequestEvent {
  /** HTTP status of the failed attempt, or `undefined` when there was no answer. */
  status: number | undefined;
  /** Name of the error class of the failed attempt. */
  error: string;
  /** How long the client waits before the next attempt, in ms. */
  delayMs: number;
}
/**
 * The events a client emits, with their listener signatures.
 * @example
 * ```ts
 * const onRetry: ClientEvents['retry'] = (e) => console.warn(`retry ${e.attempt} of ${e.operation} in ${e.delayMs} ms`);
 * client.on('retry', onRetry);
 * ```
 */
export interface ClientEvents {
  request: (event: RequestEvent) => void;
  response: (event: ResponseEvent) => void;
  retry: (event: RetryEvent) => void;
}

/**
 * Checks a decoded answer against its record `name` (the list envelope when `list`): given to the
 * client as a loader, so the record schemas load only when `validateResponses` is on. @internal
 */
export type RecordCheck = (name: string, list: boolean, data: unknown) => unknown;

/**
 * The prepare step: the call's headers, query and body as sent. `headers` are those of every request,
 * `auth` the key's header again, applied last so that a caller's header cannot replace it. @internal
 */
export function prepareStep(headers: Readonly<Record<string, string>>, auth: Readonly<Record<string, string>>, redact?: Redact): (call: Call) => PreparedRequest {
  const prepare = (call: Call): PreparedRequest => {
    // The shared headers as they are when nothing is added (ky copies them into its own Headers).
    let sent = headers;
    const { options, body: given } = call;
    // The two checks only save copies: no headers add nothing, and ky drops a header whose value is undefined.
    // Stryker disable next-line ConditionalExpression: see above
    if (options.headers) sent = { ...sent, ...lowerCaseNames(options.headers), ...auth };
    // Stryker disable next-line ConditionalExpression: see above
    if (call.idempotencyKey) sent = { ...sent, 'idempotency-key': call.idempotencyKey };
    let body: PreparedRequest['body'];
    // An upload with a `file` goes as multipart (an upload without one, such as a preset file's JSON form, as JSON).
    if (call.op?.multipart && (given as { file?: unknown } | undefined)?.file !== undefined) {
      const form = toMultipart(given as Record<string, unknown>, redact);
      body = form.body;
      sent = { ...sent, 'content-type': form.type };
    } else if (given instanceof FormData) body = given;
    else if (given !== undefined) {
      body = toJSONText(given, 'body', '', redact);
      sent = { ...sent, 'content-type': 'application/json' };
    }
    // A generic request's query is one option, `query`; an operation's parameters are fields of their own.
    const query = toSearchParams(call.query, call.op ? undefined : 'query', redact);
    return { method: call.method, path: call.path, query, body, headers: sent };
  };
  // Input read here that throws (a revoked Proxy as a body, a query value whose text throws) is refused as params are.
  return (call) => {
    try {
      return prepare(call);
    } catch (err) {
      throw unreadable(err, redact);
    }
  };
}

/**
 * The budget step: every attempt takes a slot of the client's request budget before it is sent, so
 * retries and wait loops share it too. @internal
 */
export function budgetStep(budget: RequestBudget): AttemptStep {
  return (call, next) =>
    budget.acquire(call.options.signal).then(
      () => next(call),
      // Aborted while waiting for a slot: nothing was sent, but an upload's source is still let go.
      (err: unknown) => {
        endUpload(call.request.body, () => err);
        throw err;
      },
    );
}

/**
 * The events step: `request` before the attempt goes on, `response` when it has an HTTP answer
 * (errors included). Event objects are built only when someone listens: this runs on every attempt.
 * @internal
 */
export function eventsStep(events: EventEmitter<ClientEvents>, log: LeveledLogger): AttemptStep {
  return (call, next) => {
    const { method, path } = call.request;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: only saves building an event nobody hears
    if (events.listenerCount('request') > 0) events.emit('request', { operation: call.name, method, path, attempt: call.attempt, idempotencyKey: call.idempotencyKey });
    // Stryker disable next-line ConditionalExpression: only saves building a line below the log level
    if (log.enabled('debug')) log.debug(`${method} ${clip(path, 200)} (attempt ${call.attempt})`);
    // Stryker disable next-line ConditionalExpression: without a listener the answer only passes through
    if (events.listenerCount('response') === 0) return next(call);
    const sentAt = Date.now();
    return next(call).then((received) => {
      const { response } = received;
      events.emit('response', {
        operation: call.name,
        method,
        path,
        attempt: call.attempt,
        idempotencyKey: call.idempotencyKey,
        status: response.status,
        durationMs: Date.now() - sentAt,
        replayed: response.headers.get('idempotent-replayed') === 'true',
      });
      return received;
    });
  };
}

/** The transport step, the last of an attempt: sends the request and reads the whole answer. @internal */
export function transportStep(transport: Transport): AttemptStep {
  return (call) => {
    call.sent = true;
    return transport.send(call.request, call.timeout, call.options.signal);
  };
}

/**
 * The decode step: a successful answer as the call's result, or {@link InvalidResponseError} when it
 * cannot be. Synchronous unless `validateResponses` is on (the schemas may still be loading).
 * @internal
 */
export function decodeStep(check: Promise<RecordCheck> | undefined): (call: Call, received: Received) => unknown {
  return ({ op, list }, received) => {
    // A generic request reads any JSON, or nothing.
    if (!op) return decodeBody(received, 'json');
    const expected = !op.response ? 'nothing' : op.read ? 'json' : list ? 'list' : 'record';
    let data = decodeBody(received, expected);
    if (op.read) {
      data = op.read.from(data);
      if (data === undefined) throw invalidAnswer(received, `expected ${op.read.expects}`);
    }
    const name = op.response;
    // Stryker disable next-line ConditionalExpression: a check of no name finds no schema either
    if (!check || name === undefined) return data;
    return check.then((checked) => checked(name, list, data));
  };
}

/** Header names in lower case, so that one given twice in different cases is sent once. @internal */
export function lowerCaseNames(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value;
  return out;
}
