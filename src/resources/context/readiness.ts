/**
 * The file readiness flow: wait until every file of a question is `ready`, on the core's shared
 * {@link poll} loop. The wait between reads is the service's `Retry-After` when it sends one, else a
 * gentle backoff ({@link readinessBackoff}, a pure function like the retry policy).
 * @module
 */
import type { APIPromise } from '../../core/api-promise.js';
import { waited, type ClientClock } from '../../core/clock.js';
import { parseRetryAfter } from '../../core/clock.js';
import { clip } from '../../core/text.js';
import { ContextFileFailedError, ContextWaitTimeoutError } from '../../api/errors.js';
import { MAX_PAGE_SIZE } from '../../api/limits.js';
import type { RequestOptions } from '../../core/options.js';
import type { PagePromise } from '../../core/pagination.js';
import { poll, tracedWait, waitScope } from '../../core/polling.js';
import type { ContextListParams } from '../../schemas/context.js';
import type { ContextFile, ContextReady } from '../../schemas/records/context.js';

/**
 * Options of `questions.files.waitUntilReady` (and of `forecasts.createAndWait` with `waitForContext`).
 * @example
 * ```ts
 * await client.questions.files.waitUntilReady(questionId, { timeout: 5 * 60_000, signal: AbortSignal.timeout(600_000) });
 * ```
 */
export interface ContextWaitOptions {
  /** Stops waiting at once; the wait rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Overall time allowed, in ms; then the wait rejects with `ContextWaitTimeoutError`. Default: no limit. */
  timeout?: number | undefined;
  /** Options of each read (`headers`, per-attempt `timeout`, `maxRetries`). */
  requestOptions?: Omit<RequestOptions, 'signal' | 'idempotencyKey'> | undefined;
}

/** What the flow reads with: the ready endpoint and the file list of a question. @internal */
export interface ReadinessContext {
  readonly clock: ClientClock;
  ready(questionId: string, options: RequestOptions): APIPromise<ContextReady>;
  list(questionId: string, params: ContextListParams, options: RequestOptions): PagePromise<ContextFile>;
}

/** The first wait when the service names none, in ms; it doubles up to {@link READINESS_MAX_WAIT_MS}. */
export const READINESS_FIRST_WAIT_MS = 1000;
/** The longest wait between readiness reads when the service names none, in ms. */
export const READINESS_MAX_WAIT_MS = 15_000;

/**
 * The wait before the next readiness read, in ms, after `attempt` reads that found files processing
 * (1 for the first): the service's `retryAfter` when it sent one, else 1 s doubling to 15 s.
 * @example
 * ```ts
 * readinessBackoff(1, undefined); // 1000
 * readinessBackoff(5, undefined); // 15000
 * readinessBackoff(3, 2000);      // 2000
 * ```
 */
export function readinessBackoff(attempt: number, retryAfter: number | undefined): number {
  return retryAfter ?? Math.min(READINESS_MAX_WAIT_MS, READINESS_FIRST_WAIT_MS * 2 ** (attempt - 1));
}

/**
 * Waits until every file of the question is ready and resolves with the files. Each round reads
 * `GET …/context/ready`; while it says not ready, the file list tells a failed file (which rejects with
 * {@link ContextFileFailedError}) from one still processing. Reads that fail are retried until the
 * wait's `timeout`, as in every wait (see `retry.ts`). @internal
 */
export async function waitUntilReady(ctx: ReadinessContext, questionId: string, o: ContextWaitOptions = {}): Promise<ContextFile[]> {
  let attempt = 0;
  let processing: ContextFile[] = [];
  const scope = waitScope(ctx.clock, o);
  const body = () => poll<ContextFile[]>(
    async (scope) => {
      const options = scope.options(o.requestOptions);
      const { data, response } = await ctx.ready(questionId, options).withResponse();
      const files = await ctx.list(questionId, { limit: MAX_PAGE_SIZE }, options).toArray();
      // Only `true` is ready: `"false"` or `1` from a broken answer must not start a forecast on unready files.
      if (data.ready === true) return [files, true];
      const failed = files.filter((f) => f.status === 'failed');
      if (failed.length > 0) {
        throw new ContextFileFailedError(`${failed.length} context file(s) failed and will never be ready: ${clip(failed.map((f) => f.filename ?? f.id).join(', '), 300)}; delete and upload again`, failed);
      }
      processing = files.filter((f) => f.status !== 'ready');
      return [files, false, readinessBackoff(++attempt, parseRetryAfter(response.headers.get('retry-after')))];
    },
    scope,
    READINESS_FIRST_WAIT_MS,
    () => new ContextWaitTimeoutError(`Context files still processing after ${waited(ctx.clock, o.timeout)}: ${clip(processing.map((f) => f.filename ?? f.id).join(', '), 300)}`, processing),
  );
  return tracedWait('context', [], scope, body, () => ({ status: 'ready' }), questionId);
}
