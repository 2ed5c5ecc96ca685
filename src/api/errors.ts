/**
 * The spec's error codes and their classes, beside the operations that answer them. The core knows
 * only the statuses; the client hands it {@link SPEC_ERROR_CODES}. A group whose codes the spec leaves
 * open declares its own fallback (decisions: see `api/decisions.ts`).
 * @module
 */
import {
  ConflictError,
  ForecastingError,
  PermissionDeniedError,
  RateLimitError,
  WaitTimeoutError,
  type APIErrorClass,
  type ErrorTable,
} from '../core/errors.js';

/**
 * 403 `uploads_disabled`: the organization turned file uploads off.
 * @example
 * ```ts
 * catch (err) { if (err instanceof UploadsDisabledError) console.log('file uploads are off for this organization: send notes instead'); }
 * ```
 */
export class UploadsDisabledError extends PermissionDeniedError {
  override name = 'UploadsDisabledError';
}
/**
 * 409 `forecast_already_running`: the question already has a forecast running.
 * @example
 * ```ts
 * try {
 *   await client.forecasts.create({ questionId });
 * } catch (err) {
 *   if (!(err instanceof ForecastAlreadyRunningError) || !err.activeTaskId) throw err;
 *   await client.forecasts.wait(err.activeTaskId); // wait for the one running instead
 * }
 * ```
 */
export class ForecastAlreadyRunningError extends ConflictError {
  override name = 'ForecastAlreadyRunningError';
  /** The id of the task that is running. */
  get activeTaskId(): string | undefined {
    const id = this.extras['activeTaskId'];
    return typeof id === 'string' ? id : undefined;
  }
}
/**
 * 409 `context_not_ready`: a question or preset file is still processing.
 * @example
 * ```ts
 * catch (err) { if (err instanceof ContextNotReadyError) console.log('still processing:', err.files); }
 * ```
 */
export class ContextNotReadyError extends ConflictError {
  override name = 'ContextNotReadyError';
  /** The unfinished files, as the service listed them. */
  get files(): unknown[] {
    const files = this.extras['files'];
    return Array.isArray(files) ? files : [];
  }
}
/**
 * 409 `idempotency_in_progress`: the first request with this idempotency key is still being handled. Retried by default
 * (a call with an idempotency key: the service sends it to no other).
 * @example
 * ```ts
 * // Retried by default; seen only with maxRetries: 0 (or when the retries run out).
 * catch (err) { if (err instanceof IdempotencyInProgressError) console.log('the first request with this key is still running'); }
 * ```
 */
export class IdempotencyInProgressError extends ConflictError {
  override name = 'IdempotencyInProgressError';
  /** The first request with the key is still running: asking again is how to get its answer. */
  static override readonly retry = true;
}
/**
 * 409 with a decision code: `generation_in_progress` (drafting is running), `decision_archived`, or
 * any other code the service answers to a decision operation (the spec does not list them all), so
 * `err.type` is the one to branch on. A 409 `invalid_request_error` (too few credits) stays a
 * {@link ConflictError}.
 *
 * @example
 * ```ts
 * try { await client.decisions.generate(decisionId); }
 * catch (err) { if (err instanceof DecisionConflictError && err.type === 'generation_in_progress') console.log('still drafting'); }
 * ```
 */
export class DecisionConflictError extends ConflictError {
  override name = 'DecisionConflictError';
}
/**
 * 429 `too_many_active_forecasts`: more than 50 API-started forecasts running for one user. Not retried.
 * @example
 * ```ts
 * catch (err) { if (err instanceof TooManyActiveForecastsError) await client.forecasts.waitMany(runningTaskIds); } // then start again
 * ```
 */
export class TooManyActiveForecastsError extends RateLimitError {
  override name = 'TooManyActiveForecastsError';
  /** A slot frees when a forecast ends, not after a `Retry-After`: the caller decides (`runMany` waits). */
  static override readonly retry = false;
}

/** The spec's Errors table, the codes with a class of their own, as `status error.type`. @internal */
export const SPEC_ERROR_CODES: ErrorTable = new Map<string, APIErrorClass>([
  ['403 uploads_disabled', UploadsDisabledError],
  ['409 forecast_already_running', ForecastAlreadyRunningError],
  ['409 context_not_ready', ContextNotReadyError],
  ['409 idempotency_in_progress', IdempotencyInProgressError],
  ['409 generation_in_progress', DecisionConflictError],
  ['409 decision_archived', DecisionConflictError],
  ['429 too_many_active_forecasts', TooManyActiveForecastsError],
]);

/**
 * A context file as the errors of a readiness wait list it: `id`, `status`, and whatever else the service showed.
 * @example
 * ```ts
 * try { await client.questions.files.waitUntilReady(questionId); }
 * catch (err) {
 *   if (!(err instanceof ContextFileFailedError)) throw err;
 *   const failed: ContextFileSummary[] = err.files;
 *   for (const f of failed) await client.questions.files.delete(questionId, f.id);
 * }
 * ```
 */
export interface ContextFileSummary {
  id: string;
  status: string;
  filename?: string | undefined;
}

/**
 * A readiness wait (`questions.files.waitUntilReady`, or `createAndWait` with `waitForContext`)
 * found a file that `failed`: it never becomes ready. Remove it (`questions.files.delete`) and
 * upload it again.
 *
 * @example
 * ```ts
 * try { await client.questions.files.waitUntilReady(questionId); }
 * catch (err) { if (err instanceof ContextFileFailedError) console.log(err.files.map((f) => f.id)); }
 * ```
 */
export class ContextFileFailedError extends ForecastingError {
  override name = 'ContextFileFailedError';
  constructor(
    message: string,
    /** The files that failed. */
    readonly files: ContextFileSummary[],
  ) {
    super(message);
  }
}

/**
 * A readiness wait reached its `timeout` while files were still processing; `files` lists them.
 * A {@link WaitTimeoutError} (with no task ids), so one `catch` covers every wait.
 *
 * @example
 * ```ts
 * try { await client.questions.files.waitUntilReady(questionId, { timeout: 60_000 }); }
 * catch (err) { if (err instanceof ContextWaitTimeoutError) console.log(err.files); }
 * ```
 */
export class ContextWaitTimeoutError extends WaitTimeoutError {
  override name = 'ContextWaitTimeoutError';
  constructor(
    message: string,
    /** The files still processing at the last read. */
    readonly files: ContextFileSummary[],
  ) {
    super(message, [], files);
  }
}
