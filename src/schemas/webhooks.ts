/**
 * Webhook and webhook delivery schemas (spec "Webhook", "Webhook delivery", "Address rules"): the one
 * source of the types, of the SDK's checks before sending, and of the mock service's checks on receipt.
 * @module
 */
import * as z from 'zod/mini';
import { MAX_WEBHOOK_URL_LENGTH } from '../api/limits.js';
import { addressKind } from './addresses.js';
import { CursorPageParams, exact, openEnum } from './common.js';
import { SubscribableEventKind } from './events.js';
import { WEBHOOK_DELIVERY_STATUSES } from './enums.js';

export { WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryStatus } from './enums.js';

/** Why an address is refused, or `undefined` when it is acceptable (`https`, or the test-mode form). @internal */
export function webhookUrlProblem(raw: string): string | undefined {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute https:// address';
  }
  if (url.username || url.password) return 'must not hold a user name or password';
  // `new URL` drops an empty fragment, so look at the text as well.
  if (url.hash || raw.includes('#')) return 'must not hold a # fragment';
  const kind = addressKind(url.hostname);
  // Plain http:// to a loopback literal is the test-mode form: the mock service accepts it when told
  // to (`allowLoopbackReceivers`); the service refuses it. Anything else must be https to a public host.
  if (url.protocol === 'http:' && kind === 'loopback') return undefined;
  if (url.protocol !== 'https:') return 'must use https://';
  if (kind) return `must be a public address, not a ${kind} one`;
  return undefined;
}

/**
 * A webhook address: `https`, at most 500 characters, no user name, password or `#` fragment, and not
 * a private, loopback, link-local, multicast, broadcast, reserved or unspecified IP literal (names are
 * resolved by the service, not here). Plain `http://` to a loopback literal passes: it is the mock
 * service's test mode.
 */
export const WebhookUrl = z.string().check(
  z.superRefine((value, ctx) => {
    const problem = webhookUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
  }),
);

/** `eventKinds`: subscribable kinds only (`webhook.test` cannot be subscribed to), at least one. */
const EventKinds = z.array(SubscribableEventKind).check(z.minLength(1, { error: 'must hold at least one event kind' }));

/**
 * Body of `POST /webhooks`. `eventKinds` defaults to `['forecast.completed']`.
 */
export const WebhookCreateParams = exact({
  /** Where calls go: https, at most 500 characters, no credentials or fragment, a public host. */
  url: WebhookUrl,
  description: z.optional(z.string()),
  /** Kinds to receive (default `forecast.completed` only); one of {@link SUBSCRIBABLE_EVENT_KINDS}. */
  eventKinds: z.optional(EventKinds),
});
/**
 * Body of `POST /webhooks`.
 *
 * @example
 * ```ts
 * const params: WebhookCreateParams = { url: 'https://example.com/hooks', eventKinds: ['forecast.completed', 'forecast.failed'] };
 * ```
 */
export interface WebhookCreateParams extends z.input<typeof WebhookCreateParams> {}

/** Body of `PATCH /webhooks/{webhook_id}`: only the fields sent change. A new `url` cancels waiting deliveries. */
export const WebhookUpdateParams = exact({
  /** `false` pauses the webhook: events meanwhile are not sent later. */
  enabled: z.optional(z.boolean()),
  url: z.optional(WebhookUrl),
  description: z.optional(z.string()),
  eventKinds: z.optional(EventKinds),
});
/**
 * Body of `PATCH /webhooks/{webhook_id}`.
 *
 * @example
 * ```ts
 * const pause: WebhookUpdateParams = { enabled: false };
 * ```
 */
export interface WebhookUpdateParams extends z.input<typeof WebhookUpdateParams> {}


/** Query of `GET /webhooks`. */
export const WebhookListParams = exact({ ...CursorPageParams });
/**
 * Query of `GET /webhooks`.
 *
 * @example
 * ```ts
 * await client.webhooks.list({ limit: 5 });
 * ```
 */
export interface WebhookListParams extends z.input<typeof WebhookListParams> {}

/** Query of `GET /webhook-deliveries`: filters `webhookId` and `status` (repeatable); newest first. */
export const WebhookDeliveryListParams = exact({
  ...CursorPageParams,
  /** Only this webhook's deliveries. */
  webhookId: z.optional(z.string()),
  /** One status or several. */
  status: z.optional(z.union([openEnum(WEBHOOK_DELIVERY_STATUSES), z.array(openEnum(WEBHOOK_DELIVERY_STATUSES))])),
});
/**
 * Query of `GET /webhook-deliveries`.
 *
 * @example
 * ```ts
 * await client.webhooks.deliveries.list({ webhookId, status: ['failed', 'cancelled'] });
 * ```
 */
export interface WebhookDeliveryListParams extends z.input<typeof WebhookDeliveryListParams> {}

/** Query of `GET /webhook-deliveries/{delivery_id}/attempts`. */
export const WebhookDeliveryAttemptListParams = exact({ ...CursorPageParams });
/**
 * Query of `GET /webhook-deliveries/{delivery_id}/attempts`.
 *
 * @example
 * ```ts
 * await client.webhooks.deliveries.listAttempts(deliveryId, { limit: 10 });
 * ```
 */
export interface WebhookDeliveryAttemptListParams extends z.input<typeof WebhookDeliveryAttemptListParams> {}
