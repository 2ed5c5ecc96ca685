/**
 * `forecasting-sdk/webhooks`: verify the service's signed webhook calls. Standalone and small: no
 * runtime dependency, no Node-only import; runs on Node 20+, Deno, Bun and Cloudflare Workers.
 *
 * @example
 * ```ts
 * import { verifyWebhook, WebhookVerificationError } from 'forecasting-sdk/webhooks';
 *
 * export async function POST(request: Request) {
 *   try {
 *     const event = await verifyWebhook(await request.text(), request.headers, process.env.WEBHOOK_SECRET!);
 *     console.log(event.type, event.data);
 *     return new Response(null, { status: 200 });
 *   } catch (err) {
 *     if (err instanceof WebhookVerificationError) return new Response(err.code, { status: 400 });
 *     throw err;
 *   }
 * }
 * ```
 * @module
 */
export { WebhookVerificationError, type WebhookVerificationErrorCode } from '../core/webhook-errors.js';
export { verifyWebhook, isKnownWebhookEvent, type VerifyWebhookOptions, type WebhookPayload } from './verify.js';
export { signWebhook, type SignWebhookOptions } from './sign.js';
export { createDeliveryDeduper, type DeliveryDeduper, type DeliveryDeduperOptions } from './dedupe.js';
export {
  SIGNATURE_HEADER,
  DELIVERY_ID_HEADER,
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  type HeadersLike,
  type WebhookHeaders,
} from './headers.js';
export type {
  WebhookEvent,
  KnownWebhookEvent,
  KnownWebhookEventType,
  UnknownWebhookEvent,
  ForecastStartedEvent,
  ForecastCompletedEvent,
  ForecastFailedEvent,
  ForecastCancelledEvent,
  ForecastReportCompletedEvent,
  WebhookTestEvent,
} from './events.js';
