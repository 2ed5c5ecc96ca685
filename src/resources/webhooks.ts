import { APIResource } from '../core/resource.js';
import { webhookDeliveryOperations, webhookOperations } from '../api/webhooks.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/options.js';
import type { WebhookCreateParams, WebhookDeliveryAttemptListParams, WebhookDeliveryListParams, WebhookListParams, WebhookUpdateParams } from '../schemas/webhooks.js';
import type { Webhook, WebhookDelivery, WebhookDeliveryAttempt, WebhookWithSecret } from '../schemas/records/webhooks.js';
import type { ForecastTask } from '../schemas/records/forecasts.js';
import { forecastOperations } from '../api/forecasts.js';

/**
 * What {@link Webhooks.retrieveTask} needs from an event: `data.taskId`. Every forecast event has it.
 *
 * @example
 * ```ts
 * const ref: EventWithTask = { data: { taskId: 'a3c1…' } };
 * ```
 */
export interface EventWithTask {
  data: { taskId: string; forecastUrl?: string | undefined };
}

const deliveryOps = webhookDeliveryOperations;

/**
 * Deliveries: one per event and webhook, with its attempts. Every delivery and attempt is kept.
 *
 * @example
 * ```ts
 * for await (const d of client.webhooks.deliveries.list({ status: 'failed' })) {
 *   await client.webhooks.deliveries.replay(d.id);
 * }
 * ```
 */
export class WebhookDeliveries extends APIResource {
  /**
   * Lists deliveries, newest first; filter by `webhookId` and `status` (one or several).
   * @example
   * ```ts
   * const page = await client.webhooks.deliveries.list({ webhookId, status: ['retrying', 'failed'] });
   * ```
   */
  list(params?: WebhookDeliveryListParams, options?: RequestOptions): PagePromise<WebhookDelivery> {
    return this._list(deliveryOps.list, [], params, options);
  }

  /**
   * Reads one delivery: its status, attempts so far, retries remaining and next attempt time.
   * @example
   * ```ts
   * const { status, responseStatus } = await client.webhooks.deliveries.retrieve(deliveryId);
   * ```
   */
  retrieve(deliveryId: string, options?: RequestOptions): APIPromise<WebhookDelivery> {
    return this._call(deliveryOps.retrieve, [deliveryId], undefined, options);
  }

  /**
   * Lists a delivery's attempts. The attempt record is not shown in the spec: see {@link WebhookDeliveryAttempt}.
   * @example
   * ```ts
   * const attempts = await client.webhooks.deliveries.listAttempts(deliveryId).toArray({ limit: 10 });
   * ```
   */
  listAttempts(deliveryId: string, params?: WebhookDeliveryAttemptListParams, options?: RequestOptions): PagePromise<WebhookDeliveryAttempt> {
    return this._list(deliveryOps.listAttempts, [deliveryId], params, options);
  }

  /**
   * Sends a `failed` or `cancelled` delivery again, with the same id and body and a fresh set of
   * retries, when its webhook exists and is enabled. Shares the 20-a-minute limit with `test`.
   * @example
   * ```ts
   * const again = await client.webhooks.deliveries.replay(deliveryId); // status 'pending'
   * ```
   */
  replay(deliveryId: string, options?: RequestOptions): APIPromise<WebhookDelivery> {
    return this._call(deliveryOps.replay, [deliveryId], undefined, options);
  }
}

const ops = webhookOperations;

/**
 * Webhooks: where the service sends signed event calls. At most 5 per user. Verify the calls with
 * `verifyWebhook` from `forecasting-sdk/webhooks`.
 *
 * @example
 * ```ts
 * const { id, signingSecret } = await client.webhooks.create({
 *   url: 'https://example.com/hooks/forecasting',
 *   eventKinds: ['forecast.completed', 'forecast.failed'],
 * });
 * await client.webhooks.test(id); // a signed webhook.test call
 * ```
 */
export class Webhooks extends APIResource {
  /** Deliveries and their attempts (`/webhook-deliveries`). */
  readonly deliveries: WebhookDeliveries = new WebhookDeliveries(this._client);

  /**
   * Lists your webhooks.
   * @example
   * ```ts
   * for await (const hook of client.webhooks.list()) console.log(hook.url, hook.enabled);
   * ```
   */
  list(params?: WebhookListParams, options?: RequestOptions): PagePromise<Webhook> {
    return this._list(ops.list, [], params, options);
  }

  /**
   * Registers a webhook and returns it with its `signingSecret`, shown only now. The address rules
   * (https, at most 500 characters, no credentials or fragment, and no address that is not publicly
   * reachable: private, loopback, link-local, multicast, broadcast, reserved, or such an address
   * carried inside an IPv6 form) are checked before sending. `eventKinds` defaults to `['forecast.completed']`.
   * @example
   * ```ts
   * const hook = await client.webhooks.create({ url: 'https://example.com/hooks', description: 'prod' });
   * await secrets.put('forecasting-webhook', hook.signingSecret);
   * ```
   */
  create(params: WebhookCreateParams, options?: RequestOptions): APIPromise<WebhookWithSecret> {
    return this._call(ops.create, [], params, options);
  }

  /**
   * Reads one webhook (`secretPrefix` only, never the secret).
   * @example
   * ```ts
   * const hook = await client.webhooks.retrieve(webhookId);
   * ```
   */
  retrieve(webhookId: string, options?: RequestOptions): APIPromise<Webhook> {
    return this._call(ops.retrieve, [webhookId], undefined, options);
  }

  /**
   * Changes `enabled`, `url`, `description` or `eventKinds`. A new `url` cancels the deliveries still
   * waiting; pausing (`enabled: false`) drops events until re-enabled.
   * @example
   * ```ts
   * await client.webhooks.update(webhookId, { enabled: false });
   * ```
   */
  update(webhookId: string, params: WebhookUpdateParams, options?: RequestOptions): APIPromise<Webhook> {
    return this._call(ops.update, [webhookId], params, options);
  }

  /**
   * Deletes a webhook; its waiting deliveries are cancelled, its history stays.
   * @example
   * ```ts
   * await client.webhooks.delete(webhookId);
   * ```
   */
  delete(webhookId: string, options?: RequestOptions): APIPromise<void> {
    return this._call(ops.delete, [webhookId], undefined, options);
  }

  /**
   * Replaces the signing secret and returns the new one, shown only now. For 24 hours each call
   * carries two `v1` signatures, one per secret: verify with both meanwhile.
   * @example
   * ```ts
   * const { signingSecret } = await client.webhooks.rotate(webhookId);
   * // receivers: verifyWebhook(body, headers, [signingSecret, previousSecret])
   * ```
   */
  rotate(webhookId: string, options?: RequestOptions): APIPromise<WebhookWithSecret> {
    return this._call(ops.rotate, [webhookId], undefined, options);
  }

  /**
   * Sends a signed `webhook.test` call, even while the webhook is paused. Returns the delivery
   * (status `pending`); follow it with `deliveries.retrieve`. Shares the 20-a-minute limit with replays.
   * @example
   * ```ts
   * const delivery = await client.webhooks.test(webhookId);
   * ```
   */
  test(webhookId: string, options?: RequestOptions): APIPromise<WebhookDelivery> {
    return this._call(ops.test, [webhookId], undefined, options);
  }

  /**
   * Reads the task a verified event is about: `client.forecasts.retrieve(event.data.taskId)`, on this
   * client's base URL. The event's `forecastUrl` is never requested, so the API key never goes to an address the
   * event names: a forged or misdirected event cannot collect it.
   * @example
   * ```ts
   * const event = await verifyWebhook(body, headers, secret);
   * if (isKnownWebhookEvent(event) && event.type === 'forecast.completed') {
   *   const task = await client.webhooks.retrieveTask(event);
   * }
   * ```
   */
  retrieveTask(event: EventWithTask, options?: RequestOptions): APIPromise<ForecastTask> {
    return this._call(forecastOperations.retrieve, [event.data.taskId], undefined, options);
  }
}
