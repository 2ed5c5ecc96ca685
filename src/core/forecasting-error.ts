/**
 * The base of the error hierarchy, and the one error the webhooks entry throws. Apart from
 * `errors.ts` so that `forecasting-sdk/webhooks` (its code and its published declarations) reaches
 * these two classes and not every error of the client.
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

/**
 * Why a webhook call was refused by {@link verifyWebhook}.
 * @example
 * ```ts
 * catch (err) { if (err instanceof WebhookVerificationError && err.code === 'timestamp_out_of_range') console.warn('check the server clock'); }
 * ```
 */
export type WebhookVerificationErrorCode =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_out_of_range'
  | 'no_matching_signature'
  | 'malformed_payload';

/**
 * A webhook call failed verification; `code` says why.
 *
 * @example
 * ```ts
 * catch (err) { if (err instanceof WebhookVerificationError) res.status(400).send(err.code); }
 * ```
 */
export class WebhookVerificationError extends ForecastingError {
  override name = 'WebhookVerificationError';
  readonly code: WebhookVerificationErrorCode;
  constructor(code: WebhookVerificationErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
