/**
 * The retry policy: a pure function from what happened on an attempt to "wait this long" or "give up".
 * Two modes: a request's (a few retries, then the error), and a long wait's (`forecasts.wait`,
 * `waitMany`, `runMany`, readiness waits), which rides out an outage until the wait's own deadline.
 * @module
 */
import type { WaitMessage } from './channels.js';
import { parseRetryAfter } from './clock.js';
import type { RequestOptions } from './options.js';

/** What an attempt ended with, as far as retrying is concerned. */
export type AttemptOutcome =
  /** An HTTP answer with an error status. */
  | {
      kind: 'response';
      status: number;
      type: string | undefined;
      retryAfter: string | null;
      /** The error class's own word ({@link APIError.retry}), which overrides the status's rule. */
      retry?: boolean | undefined;
    }
  /** No connection was made: nothing reached the server. */
  | { kind: 'refused' }
  /** The connection broke or timed out after the request may have been sent. */
  | { kind: 'network' }
  | { kind: 'timeout' };

/** Everything the decision depends on besides the outcome. */
export interface RetryContext {
  /** 1 for the first attempt. */
  attempt: number;
  maxRetries: number;
  /** Whether the operation can be repeated without a second effect (GET/PUT/DELETE or keyed). */
  safeToRepeat: boolean;
  /** The longest `Retry-After` honoured, in ms (a request's retries only). */
  maxRetryAfter: number;
  /** Milliseconds left before the retry deadline (a wait's: before the wait's own deadline). */
  remaining: number;
  initialDelay: number;
  maxDelay: number;
  /** Source of randomness in [0, 1), for jitter. */
  random: () => number;
  /** Current time in ms, for `Retry-After` HTTP dates. */
  now: number;
  /** Decide for a request made by a long wait (see {@link decideRetry}). */
  wait?: boolean;
}

/** The policy's answer. */
export type RetryDecision =
  | {
      retry: true;
      delay: number;
      /** Where the delay came from: the answer's `Retry-After` (when it set the wait), or the backoff. */
      source: 'retry-after' | 'backoff';
    }
  | {
      retry: false;
      /** Set when the server asked for a wait longer than `maxRetryAfter`. */
      retryAfterTooLong?: number;
      /** A wait's retry would start at or after the wait's deadline: the wait times out there. */
      deadline?: true;
    };

/** The first backoff ceiling of a wait's retries, in ms; it doubles up to {@link WAIT_RETRY_MAX_MS}. */
export const WAIT_RETRY_FIRST_MS = 1000;
/** The most a wait waits between two attempts when the service gives no `Retry-After`, in ms. */
export const WAIT_RETRY_MAX_MS = 30_000;
/**
 * The longest wait a long wait sleeps on the service's word, in ms: a longer `Retry-After` (a date
 * years ahead) counts as this long, so the wait reads again an hour later rather than never.
 */
export const MAX_STATED_WAIT_MS = 3_600_000;

/**
 * Decides whether to retry.
 * - An error class that says whether to retry (the service's codes, handed in by the client: a 409
 *   saying the first request with the key still runs is retried, a 429 saying too many forecasts
 *   run is not) is obeyed.
 * - 429 and 503 mean the server did not act: retried for every operation.
 * - 408, other 5xx, a reset or a timeout after sending: retried only when safe to repeat.
 * - A refused connection sent nothing: retried for every operation.
 * - A request's retries: exponential backoff with full jitter, or `Retry-After` when it asks for
 *   longer (up to `maxRetryAfter`: a longer wait gives up at once); at most `maxRetries`, within `remaining`.
 * - A wait's retries ({@link RetryContext.wait}): no cap on attempts unless `maxRetries` is finite;
 *   the wait is `Retry-After` (up to {@link MAX_STATED_WAIT_MS}) and never less than
 *   {@link waitBackoff}, so an outage is met with fewer and fewer attempts and a `Retry-After: 0`
 *   with no busy loop; a retry that would start at or after the deadline ends the wait there.
 */
export function decideRetry(outcome: AttemptOutcome, ctx: RetryContext): RetryDecision {
  if (ctx.attempt > ctx.maxRetries) return { retry: false };
  if (!isRetryable(outcome, ctx.safeToRepeat)) return { retry: false };

  const asked = outcome.kind === 'response' ? parseRetryAfter(outcome.retryAfter, ctx.now) : undefined;
  if (!ctx.wait && asked !== undefined && asked > ctx.maxRetryAfter) return { retry: false, retryAfterTooLong: asked };
  const stated = Math.min(asked ?? 0, ctx.wait ? MAX_STATED_WAIT_MS : Infinity);
  const backoff = ctx.wait ? waitBackoff(ctx.attempt, ctx.random) : Math.floor(ctx.random() * Math.min(ctx.maxDelay, ctx.initialDelay * 2 ** (ctx.attempt - 1)));
  // Never under the backoff: a `Retry-After: 0` (or a date gone by) answered again and again must not make a busy loop.
  const delay = Math.max(stated, backoff);
  const source = asked !== undefined && stated >= backoff ? 'retry-after' : 'backoff';
  if (ctx.wait) return delay < ctx.remaining ? { retry: true, delay, source } : { retry: false, deadline: true };
  return delay > ctx.remaining ? { retry: false } : { retry: true, delay, source };
}

/**
 * A wait's backoff before retry `attempt` (1 for the first), in ms: the ceiling doubles from 1 s up
 * to 30 s, and the wait is half the ceiling plus a random part of the other half ("equal jitter"):
 * never under half the ceiling, so a long outage costs 6 to 9 attempts in its first minute and 2
 * to 4 a minute after that.
 * @example
 * ```ts
 * waitBackoff(1, () => 0); // 500
 * waitBackoff(9, () => 0.999); // 29985
 * ```
 */
export function waitBackoff(attempt: number, random: () => number): number {
  const ceiling = Math.min(WAIT_RETRY_MAX_MS, WAIT_RETRY_FIRST_MS * 2 ** Math.min(attempt - 1, 30));
  return Math.floor(ceiling / 2 + (random() * ceiling) / 2);
}

function isRetryable(outcome: AttemptOutcome, safe: boolean): boolean {
  switch (outcome.kind) {
    case 'refused':
      return true;
    case 'network':
    case 'timeout':
      return safe;
    case 'response': {
      const { status, retry } = outcome;
      // A class may forbid a retry, or allow one only for a call that is safe to repeat.
      if (retry !== undefined) return retry && safe;
      if (status === 429 || status === 503) return true;
      return (status === 408 || status >= 500) && safe;
    }
  }
}

/**
 * How a request made by a long wait retries: as {@link RetryContext.wait} says, until `deadline`.
 * @internal
 */
export interface WaitMode {
  /** Client-clock time (ms) at or after which no attempt starts; `undefined` for none. */
  deadline: number | undefined;
  /**
   * Ends the sleeps between attempts (not an attempt in flight) when it aborts, for a request that
   * must not be cut off mid-way (a `runMany` start, whose answer names the tasks it started).
   */
  sleepSignal?: AbortSignal | undefined;
  /** The wait's message on the `wait` channel, while someone subscribes: the parent of its reads' messages. */
  trace?: WaitMessage | undefined;
}

/** The request option that marks a request as a long wait's. @internal */
export const WAIT_MODE: unique symbol = Symbol('forecasting-sdk.waitMode');

/** Request options that may carry {@link WAIT_MODE}. @internal */
export type WaitRequestOptions = RequestOptions & { [WAIT_MODE]?: WaitMode };

/**
 * Thrown by a long wait's request when its retries reach the wait's deadline; the wait loop turns it
 * into its own timeout error. `cause` is the last failure. @internal
 */
export class WaitDeadlineReached extends Error {
  override name = 'WaitDeadlineReached';
}
