/**
 * Webhooks and their deliveries as the service shows them. The schemas load only with
 * `validateResponses`.
 * @module
 */
import * as z from 'zod/mini';
import { Timestamp, exact, openEnum } from '../common.js';
import { SUBSCRIBABLE_EVENT_KINDS } from '../events.js';
import { WEBHOOK_DELIVERY_STATUSES } from '../webhooks.js';

/** A webhook as reads show it: `secretPrefix` only, never the secret. Unknown fields pass through. */
export const Webhook = exact({
  id: z.string(),
  /** `webhook`. */
  type: z.string(),
  url: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  /** The only part of the secret reads show. */
  secretPrefix: z.string(),
  eventKinds: z.array(openEnum(SUBSCRIBABLE_EVENT_KINDS)),
  lastDeliveryAt: z.nullable(Timestamp),
  lastDeliveryStatus: z.nullable(z.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
/**
 * A webhook as reads show it.
 *
 * @example
 * ```ts
 * const hook: Webhook = await client.webhooks.retrieve(webhookId);
 * console.log(hook.url, hook.enabled, hook.secretPrefix);
 * ```
 */
export interface Webhook extends z.output<typeof Webhook> {}

/** A webhook with its `signingSecret` (`whsec_…`): the answer of create and rotate, shown only then. */
export const WebhookWithSecret = exact({
  ...Webhook.shape,
  /** The whole secret (`whsec_…`): store it now, reads show only `secretPrefix`. */
  signingSecret: z.string(),
});
/**
 * A webhook with its `signingSecret`, as `create` and `rotate` return it. Store the secret then: reads
 * show only `secretPrefix`.
 *
 * @example
 * ```ts
 * const { id, signingSecret } = await client.webhooks.create({ url: 'https://example.com/hooks' });
 * ```
 */
export interface WebhookWithSecret extends z.output<typeof WebhookWithSecret> {}

/** A delivery: one event for one webhook, across its attempts. Unknown fields and statuses pass through. */
export const WebhookDelivery = exact({
  id: z.string(),
  webhookId: z.string(),
  endpointUrl: z.string(),
  eventKind: z.string(),
  status: openEnum(WEBHOOK_DELIVERY_STATUSES),
  isTest: z.boolean(),
  attemptCount: z.number(),
  retriesRemaining: z.number(),
  /** `null` when no attempt is waiting. */
  nextAttemptAt: z.nullable(Timestamp),
  /** HTTP status of the last answer; `null` before any answer. */
  responseStatus: z.nullable(z.number()),
  /** Empty when none. */
  errorMessage: z.string(),
  durationMs: z.nullable(z.number()),
  /** End of the last attempt, successful or not. */
  deliveredAt: z.nullable(Timestamp),
  createdAt: Timestamp,
});
/**
 * A delivery: one event for one webhook, across its attempts. `X-Service-Delivery-Id` carries its `id`.
 *
 * @example
 * ```ts
 * const delivery: WebhookDelivery = await client.webhooks.deliveries.retrieve(deliveryId);
 * if (delivery.status === 'failed') await client.webhooks.deliveries.replay(delivery.id);
 * ```
 */
export interface WebhookDelivery extends z.output<typeof WebhookDelivery> {}

/**
 * One attempt of a delivery. The spec does not show this record: the shape here is this SDK's lenient
 * reading (every field optional, unknown fields pass through), and it is what the mock service answers.
 */
export const WebhookDeliveryAttempt = exact({
  id: z.optional(z.string()),
  deliveryId: z.optional(z.string()),
  /** 1 for the first attempt; replays continue the count. */
  attemptNumber: z.optional(z.number()),
  /** HTTP status of the answer; `null` for a timeout or an unreachable receiver. */
  responseStatus: z.optional(z.nullable(z.number())),
  errorMessage: z.optional(z.string()),
  durationMs: z.optional(z.nullable(z.number())),
  startedAt: z.optional(Timestamp),
  completedAt: z.optional(z.nullable(Timestamp)),
});
/**
 * One attempt of a delivery. Not shown in the spec: a lenient shape, every field optional.
 *
 * @example
 * ```ts
 * for await (const attempt of client.webhooks.deliveries.listAttempts(deliveryId)) console.log(attempt.responseStatus);
 * ```
 */
export interface WebhookDeliveryAttempt extends z.output<typeof WebhookDeliveryAttempt> {}

