/**
 * The error of a refused webhook call.
 * @module
 */
import { ForecastingError } from './error-base.js';

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
  | 'malformed_payload'
  /** Only from `webhookMiddleware` (answered `500`): another body parser read the body first, so its bytes are gone. */
  | 'body_already_read';

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
