/**
 * The traced runs of a call and of its attempts (`channels.ts`): loaded only once someone
 * subscribes to a channel, so a client nobody observes carries none of it.
 * @module
 */
import type { AttemptMessage, OperationMessage, Tracing } from './channels.js';
import type { Call, Next } from './pipeline.js';
import { AttemptFailure, type Received } from './transport.js';

/**
 * Runs `fn` inside `channel`'s trace of `message`, its value kept out of the message: a tracing
 * channel stores what the function resolves to as `result`, and an answer (its body) has no place
 * there. @internal
 */
export async function inTrace<T>(channel: Tracing, message: object, fn: () => Promise<T>): Promise<T> {
  let value: T | undefined;
  await channel.tracePromise(async () => {
    value = await fn();
  }, message);
  return value as T;
}

/** Runs `run(call)` inside the `forecasting-sdk:operation` trace. @internal */
export function traceCall(call: Call, channel: Tracing, baseURL: string, run: Next): Promise<Received> {
  const message = operationMessage(call, baseURL);
  return inTrace(channel, message, async () => {
    // What subscribers added in `start`, under the client's own headers (they win).
    const added = safeHeaders(message.headers);
    if (added) call.request = { ...call.request, headers: { ...added, ...call.request.headers } };
    try {
      const received = await run(call);
      message.status = received.response.status;
      const ids = answerIds(received.text);
      if (ids) message.answerIds = ids;
      return received;
    } catch (err) {
      const status = (err as { status?: unknown } | null)?.status;
      if (typeof status === 'number') message.status = status;
      throw err;
    } finally {
      message.attempts = call.attempt;
    }
  });
}

/** Runs one attempt inside the `forecasting-sdk:attempt` trace. @internal */
export function traceAttempt(call: Call, channel: Tracing, attempt: Next): Promise<Received> {
  const message: AttemptMessage = { operation: call.name, method: call.method, path: call.path, attempt: call.attempt };
  return inTrace(channel, message, async () => {
    try {
      const received = await attempt(call);
      message.status = received.response.status;
      return received;
    } catch (err) {
      if (err instanceof AttemptFailure) message.errorType = err.error.name;
      throw err;
    }
  });
}

/** The `operation` channel's message for `call`. @internal */
function operationMessage(call: Call, baseURL: string): OperationMessage {
  const url = new URL(baseURL);
  const ids: Record<string, string> = {};
  const names = call.op?.pathParams ?? [];
  names.forEach((name, i) => {
    const id = call.ids[i];
    if (id !== undefined) ids[name] = id;
  });
  const port = url.port === '' ? (url.protocol === 'http:' ? 80 : 443) : Number(url.port);
  return { operation: call.name, method: call.method, pathTemplate: call.op?.path ?? call.path, path: call.path, ids, serverAddress: url.hostname, serverPort: port, headers: {} };
}

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
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (typeof value !== 'string' || value.length > 200 || !/^(id|\w+Id|\w+_id)$/.test(key)) continue;
    (ids ??= {})[key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = value;
  }
  return ids;
}

/** A header name as HTTP has them, and a value with no line break: what a subscriber adds that fetch would refuse is left out. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The headers subscribers added, lower-case, those HTTP cannot carry left out; `undefined` when none. */
function safeHeaders(added: Record<string, string>): Record<string, string> | undefined {
  let safe: Record<string, string> | undefined;
  for (const [name, value] of Object.entries(added)) {
    if (!TOKEN.test(name) || typeof value !== 'string' || /[\r\n\0]/.test(value)) continue;
    (safe ??= {})[name.toLowerCase()] = value;
  }
  return safe;
}
