/**
 * The error of a wait that ran out of time: the mechanism of every wait (forecast tasks, context files).
 * @module
 */
import { ForecastingError } from './error-base.js';

/**
 * A wait (`forecasts.wait`, `waitMany`, `createAndWait`) reached its `timeout` before the tasks were
 * final. The tasks keep running on the service; `lastSeen` holds their last known state, and `cause`
 * the last failure when the time ran out while the service could not be read (an outage).
 *
 * @example
 * ```ts
 * try { await client.forecasts.wait(taskId, { timeout: 600_000 }); }
 * catch (err) { if (err instanceof WaitTimeoutError) console.log(err.taskIds, err.lastSeen, err.cause); }
 * ```
 */
export class WaitTimeoutError extends ForecastingError {
  override name = 'WaitTimeoutError';
  constructor(
    message: string,
    /** The tasks not yet final. */
    override readonly taskIds: string[],
    /** The last state read of each task not yet final. */
    readonly lastSeen: unknown[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
