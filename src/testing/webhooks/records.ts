/**
 * The webhook model's records in the service's store: webhooks with their secrets, deliveries with
 * the exact body each sends, and attempts with the call each made.
 * @module
 */
import type { Webhook, WebhookDelivery, WebhookDeliveryAttempt } from '../../schemas/records/webhooks.js';
import { collectionKey, type Ownership } from '../store.js';

/**
 * A stored webhook: what reads show, plus its secrets and the base URL its events link to.
 * @example
 * ```ts
 * const hook: WebhookRecord | undefined = service.store.collection(WEBHOOKS).get(webhookId);
 * console.log(hook?.secrets.length); // 2 during a rotation
 * ```
 */
export interface WebhookRecord extends Ownership {
  id: string;
  webhook: Webhook;
  /** Newest first. A previous secret signs too until `until` (clock ms); the current one has `until: null`. */
  secrets: { secret: string; until: number | null }[];
  /** The service's base URL as the owner called it (`…/api/v1/external`), for `data.forecastUrl`. */
  apiBase: string;
}

/**
 * A stored delivery: what reads show, plus the exact body and event id it sends every time.
 * @example
 * ```ts
 * const deliveries: WebhookDeliveryRecord[] = service.store.collection(WEBHOOK_DELIVERIES).list();
 * console.log(deliveries.map((d) => d.delivery.status));
 * ```
 */
export interface WebhookDeliveryRecord {
  id: string;
  ownerId: string;
  delivery: WebhookDelivery;
  eventId: string;
  body: string;
  /** Bumped on every replay, so an attempt of an earlier round never moves the delivery. */
  round: number;
}

/**
 * One call the mock made (or, for a public address, would have made), as the receiver saw it.
 * @example
 * ```ts
 * await service.webhooks.idle();
 * const calls: MockWebhookCall[] = service.webhooks.calls();
 * for (const call of calls) console.log(call.url, call.headers['x-service-event-type'], call.sent);
 * ```
 */
export interface MockWebhookCall {
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
  /** False when the address was not called (public, or loopback without `allowLoopbackReceivers`). */
  sent: boolean;
}

/**
 * A stored attempt: what reads show, plus the call itself for tests.
 * @example
 * ```ts
 * const attempts: WebhookAttemptRecord[] = service.store.collection(WEBHOOK_ATTEMPTS).list((a) => a.deliveryId === deliveryId);
 * ```
 */
export interface WebhookAttemptRecord {
  id: string;
  deliveryId: string;
  attempt: WebhookDeliveryAttempt;
  call: MockWebhookCall;
}

/**
 * The engine's collections in the service's store.
 * @example
 * ```ts
 * const hooks = service.store.collection(WEBHOOKS).list((w) => w.webhook.enabled);
 * ```
 */
export const WEBHOOKS = collectionKey<WebhookRecord>('webhooks');
/**
 * The store collection of webhook deliveries: what reads show, plus the exact body each sends.
 * @example
 * ```ts
 * const failed = service.store.collection(WEBHOOK_DELIVERIES).list((d) => d.delivery.status === 'failed');
 * ```
 */
export const WEBHOOK_DELIVERIES = collectionKey<WebhookDeliveryRecord>('webhookDeliveries');
/**
 * The store collection of delivery attempts, each with the call it made.
 * @example
 * ```ts
 * const attempts = service.store.collection(WEBHOOK_ATTEMPTS).list((a) => a.deliveryId === deliveryId);
 * ```
 */
export const WEBHOOK_ATTEMPTS = collectionKey<WebhookAttemptRecord>('webhookAttempts');
