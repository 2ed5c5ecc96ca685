/**
 * Webhook and webhook delivery schemas (spec "Webhook", "Webhook delivery", "Address rules"): the one
 * source of the types, of the SDK's checks before sending, and of the mock service's checks on receipt.
 * @module
 */
import * as z from 'zod/mini';
import { MAX_WEBHOOK_URL_LENGTH } from '../core/limits.js';
import { CursorPageParams, exact, openEnum } from './common.js';
import { SubscribableEventKind } from './events.js';

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

/** What a host is when it is not public: `loopback`, `private`, `link-local` or `unspecified`. @internal */
export type AddressKind = 'loopback' | 'private' | 'link-local' | 'unspecified';

/**
 * Classifies a host as the URL parser normalized it (IPv4 dotted decimal, IPv6 in brackets,
 * lowercase names). One trailing dot (the fully qualified form, `localhost.`) is ignored. Names
 * other than `localhost` are public here: only literals can be judged without resolving them (the
 * service resolves names before every call).
 * @internal
 */
export function addressKind(hostname: string): AddressKind | undefined {
  const host = withoutTrailingDot(hostname);
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  const v4 = ipv4(host);
  if (v4) return ipv4Kind(v4);
  if (!host.startsWith('[')) return undefined;
  const v6 = ipv6(host.slice(1, -1));
  if (!v6) return undefined;
  if (v6.every((g) => g === 0)) return 'unspecified';
  if (v6.slice(0, 7).every((g) => g === 0) && v6[7] === 1) return 'loopback';
  const embedded = () => ipv4Kind([v6[6]! >> 8, v6[6]! & 255, v6[7]! >> 8, v6[7]! & 255]);
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): judged as the IPv4 address they hold.
  if (v6.slice(0, 5).every((g) => g === 0) && (v6[5] === 0xffff || v6[5] === 0)) return embedded();
  // NAT64 (64:ff9b::a.b.c.d): a gateway translates it to the IPv4 address it holds.
  if (v6[0] === 0x64 && v6[1] === 0xff9b && v6.slice(2, 6).every((g) => g === 0)) return embedded();
  if ((v6[0]! & 0xffc0) === 0xfe80) return 'link-local';
  if ((v6[0]! & 0xffc0) === 0xfec0) return 'private'; // site-local fec0::/10 (deprecated, still routed inside networks)
  if ((v6[0]! & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7
  return undefined;
}

/** The host name without one trailing dot: `localhost.` names the same host as `localhost`. @internal */
export function withoutTrailingDot(hostname: string): string {
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}

function ipv4(host: string): number[] | undefined {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
  return parts.map(Number);
}

function ipv4Kind([a, b]: number[]): AddressKind | undefined {
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 169 && b === 254) return 'link-local';
  const isPrivate =
    a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168) || (a === 100 && b! >= 64 && b! <= 127);
  return isPrivate ? 'private' : undefined;
}

/** Eight 16-bit groups of a normalized IPv6 literal (the URL parser already compressed and lowercased it). */
function ipv6(text: string): number[] | undefined {
  const [head = '', tail] = text.split('::');
  const groups = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const fill = 8 - left.length - right.length;
  if (fill < 0 || (tail === undefined && fill !== 0) || [...left, ...right].some(Number.isNaN)) return undefined;
  return [...left, ...Array<number>(fill).fill(0), ...right];
}

/**
 * A webhook address: `https`, at most 500 characters, no user name, password or `#` fragment, and not
 * a private, loopback, link-local or unspecified IP literal (names are resolved by the service, not
 * here). Plain `http://` to a loopback literal passes: it is the mock service's test mode.
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

/**
 * The states of a delivery (spec "Webhook delivery").
 * @example
 * ```ts
 * console.log(WEBHOOK_DELIVERY_STATUSES); // ['pending', 'in_progress', 'retrying', 'succeeded', 'failed', 'cancelled']
 * ```
 */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'in_progress', 'retrying', 'succeeded', 'failed', 'cancelled'] as const;
/**
 * The state of a delivery.
 *
 * @example
 * ```ts
 * const done: WebhookDeliveryStatus[] = ['succeeded', 'failed', 'cancelled'];
 * ```
 */
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

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
