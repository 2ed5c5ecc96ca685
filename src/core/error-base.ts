/**
 * The base of every error the SDK throws, on its own so the error files can share it without a circle.
 * @module
 */

/**
 * Base class of every error thrown by this SDK.
 *
 * @example
 * ```ts
 * try { await client.questions.retrieve(id); }
 * catch (err) { if (err instanceof ForecastingError) console.error(err.message); }
 * ```
 */
export class ForecastingError extends Error {
  override name = 'ForecastingError';
  /**
   * Set when this error ended a wait for one task that exists (`forecasts.wait`, and
   * `forecasts.createAndWait` once its task is started): the task's id, to wait again with
   * `forecasts.wait(err.taskId)` or `forecasting wait <id>`. The task keeps running on the service.
   */
  declare taskId?: string;
  /**
   * Set when this error ended a wait for tasks that exist: the ones it still waited for
   * (`forecasts.wait`: the one task; `waitMany`: those not yet final; `runMany`: those running).
   */
  declare taskIds?: string[];
}
