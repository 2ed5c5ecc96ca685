/**
 * The retry policy: a pure function from what happened on an attempt to "wait this long" or "give up".
 * @module
 */
import { parseRetryAfter } from './errors.js';

/** What an attempt ended with, as far as retrying is concerned. */
export type AttemptOutcome =
  /** An HTTP answer with an error status. */
  | { kind: 'response'; status: number; type: string | undefined; retryAfter: string | null }
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
  /** The longest `Retry-After` honoured, in ms. */
  maxRetryAfter: number;
  /** Milliseconds left before the retry deadline. */
  remaining: number;
  initialDelay: number;
  maxDelay: number;
  /** Source of randomness in [0, 1), for full jitter. */
  random: () => number;
  /** Current time in ms, for `Retry-After` HTTP dates. */
  now: number;
}

/** The policy's answer. */
export type RetryDecision =
  | { retry: true; delay: number }
  | {
      retry: false;
      /** Set when the server asked for a wait longer than `maxRetryAfter`. */
      retryAfterTooLong?: number;
    };

/**
 * Decides whether to retry.
 * - 429 `rate_limit_error` and 503 mean the server did not act: retried for every operation.
 * - 408, other 5xx, a reset or a timeout after sending: retried only when safe to repeat.
 * - 409 `idempotency_in_progress`: the first request is still running; retried (keyed operations only).
 * - A refused connection sent nothing: retried for every operation.
 * - `Retry-After` is honoured up to `maxRetryAfter`; a longer wait gives up at once.
 * - Otherwise exponential backoff with full jitter.
 */
export function decideRetry(outcome: AttemptOutcome, ctx: RetryContext): RetryDecision {
  if (ctx.attempt > ctx.maxRetries) return { retry: false };
  if (!isRetryable(outcome, ctx.safeToRepeat)) return { retry: false };

  const asked = outcome.kind === 'response' ? parseRetryAfter(outcome.retryAfter, ctx.now) : undefined;
  if (asked !== undefined && asked > ctx.maxRetryAfter) return { retry: false, retryAfterTooLong: asked };
  const ceiling = Math.min(ctx.maxDelay, ctx.initialDelay * 2 ** (ctx.attempt - 1));
  const delay = asked ?? Math.floor(ctx.random() * ceiling);
  if (delay > ctx.remaining) return { retry: false };
  return { retry: true, delay };
}

function isRetryable(outcome: AttemptOutcome, safe: boolean): boolean {
  switch (outcome.kind) {
    case 'refused':
      return true;
    case 'network':
    case 'timeout':
      return safe;
    case 'response': {
      const { status, type } = outcome;
      if (status === 429) return type !== 'too_many_active_forecasts';
      if (status === 503) return true;
      if (status === 409) return type === 'idempotency_in_progress';
      return (status === 408 || status >= 500) && safe;
    }
  }
}
