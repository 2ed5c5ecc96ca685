/**
 * The Webhooks group: webhooks and their deliveries. Declarations only: the client's resources and the
 * mock's handlers both read them.
 * @module
 */
import { defineOperations } from '../core/operation.js';
import { accepts, returns } from '../schemas/returns.js';
import { FORECASTS } from './scopes.js';

/** The spec's "testing and replaying webhook deliveries" (20 a minute per user): counted in a coordinator's `webhookTests` window. */
const webhookTest = ['webhookTests'] as const;

const group = { scopes: FORECASTS };

/** The webhook operations of the Webhooks group, declared once. */
export const webhookOperations = defineOperations('webhooks', {
  list: { method: 'GET', path: '/webhooks', params: accepts('WebhookListParams'), response: returns('Webhook'), paging: 'cursor' },
  create: { method: 'POST', path: '/webhooks', params: accepts('WebhookCreateParams'), response: returns('WebhookWithSecret'), status: 201 },
  retrieve: { method: 'GET', path: '/webhooks/{webhook_id}', response: returns('Webhook') },
  update: { method: 'PATCH', path: '/webhooks/{webhook_id}', params: accepts('WebhookUpdateParams'), response: returns('Webhook') },
  delete: { method: 'DELETE', path: '/webhooks/{webhook_id}' },
  rotate: { method: 'POST', path: '/webhooks/{webhook_id}/rotate', response: returns('WebhookWithSecret') },
  test: { method: 'POST', path: '/webhooks/{webhook_id}/test', response: returns('WebhookDelivery'), windows: webhookTest },
}, group);

/** The delivery operations of the Webhooks group (`/webhook-deliveries`), declared once. */
export const webhookDeliveryOperations = defineOperations('webhooks.deliveries', {
  list: {
    method: 'GET',
    path: '/webhook-deliveries',
    params: accepts('WebhookDeliveryListParams'),
    response: returns('WebhookDelivery'),
    paging: 'cursor',
  },
  retrieve: { method: 'GET', path: '/webhook-deliveries/{delivery_id}', response: returns('WebhookDelivery') },
  listAttempts: {
    method: 'GET',
    path: '/webhook-deliveries/{delivery_id}/attempts',
    params: accepts('WebhookDeliveryAttemptListParams'),
    response: returns('WebhookDeliveryAttempt'),
    paging: 'cursor',
  },
  replay: { method: 'POST', path: '/webhook-deliveries/{delivery_id}/replay', response: returns('WebhookDelivery'), windows: webhookTest },
}, group);
