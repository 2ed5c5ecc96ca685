/**
 * Webhooks: register, read, edit, delete, rotate and test webhooks; list, read and replay
 * deliveries and their attempts. Sending is the delivery engine's (`../webhooks/engine.ts`).
 * @module
 */
import { MAX_WEBHOOKS } from '../../api/limits.js';
import { webhookDeliveryOperations as deliveryOps, webhookOperations as ops } from '../../api/webhooks.js';
import { addressKind } from '../../schemas/addresses.js';
import type { Webhook, WebhookWithSecret } from '../../schemas/records/webhooks.js';
import { badRequest, conflict, notFound } from '../http.js';
import { cursorPage } from '../paging.js';
import { API_PREFIX } from '../router.js';
import { SECRET_OVERLAP_MS, webhookEngineOf, type MockWebhookEngine } from '../webhooks/engine.js';
import { WEBHOOK_ATTEMPTS, WEBHOOK_DELIVERIES, WEBHOOKS, type WebhookDeliveryRecord, type WebhookRecord } from '../webhooks/records.js';
import { handlersFor, type HandlerContext } from './types.js';
import { toBase64Url } from '../base64url.js';

const engineOf = (ctx: HandlerContext): MockWebhookEngine => webhookEngineOf(ctx.store);

/** A new secret: `whsec_` and 32 random bytes in base64url. */
function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${toBase64Url(bytes)}`;
}

/** What reads show of a secret: `whsec_` and its first four characters. */
const prefixOf = (secret: string) => secret.slice(0, 10);

function findWebhook(ctx: HandlerContext): WebhookRecord {
  const id = ctx.pathParams['webhook_id'] ?? '';
  const record = ctx.store.collection(WEBHOOKS).get(id);
  if (!record || record.ownerId !== ctx.principal.userId) throw notFound(`No webhook ${id}`);
  return record;
}

function findDelivery(ctx: HandlerContext): WebhookDeliveryRecord {
  const id = ctx.pathParams['delivery_id'] ?? '';
  const record = ctx.store.collection(WEBHOOK_DELIVERIES).get(id);
  if (!record || record.ownerId !== ctx.principal.userId) throw notFound(`No webhook delivery ${id}`);
  return record;
}

/** The address rules the shared schema cannot apply alone: loopback only in test mode. */
function checkAddress(ctx: HandlerContext, url: string): void {
  if (addressKind(new URL(url).hostname) === 'loopback' && !engineOf(ctx).allowLoopbackReceivers) {
    throw badRequest(`must be a public address, not a loopback one (${engineOf(ctx).loopbackHint} to call a local receiver)`, 'url');
  }
}

/** The base URL the request came in on, up to and including `/api/v1/external`. */
function apiBaseOf(raw: string): string {
  const url = new URL(raw);
  const end = url.pathname.indexOf(API_PREFIX);
  return `${url.origin}${end < 0 ? API_PREFIX : url.pathname.slice(0, end + API_PREFIX.length)}`;
}

const withSecret = (record: WebhookRecord): WebhookWithSecret => ({ ...record.webhook, signingSecret: record.secrets[0]!.secret });

/** Counts a test or replay against the shared 20-a-minute limit of the user. */
const countTestOrReplay = (ctx: HandlerContext) => engineOf(ctx).countTestOrReplay(ctx.principal.userId);

export const webhookHandlers = [
  ...handlersFor(ops, {
    list: (ctx) =>
      cursorPage(
        ctx.store.collection(WEBHOOKS).list((w) => w.ownerId === ctx.principal.userId).map((w) => w.webhook),
        ctx.input,
        (w) => w.id,
      ),
    create: (ctx) => {
      checkAddress(ctx, ctx.input.url);
      const webhooks = ctx.store.collection(WEBHOOKS);
      const owned = webhooks.list((w) => w.ownerId === ctx.principal.userId).length;
      if (owned >= MAX_WEBHOOKS) throw conflict(`At most ${MAX_WEBHOOKS} webhooks per user; delete one first`);
      const secret = newSecret();
      const now = ctx.timestamp();
      const webhook: Webhook = {
        id: crypto.randomUUID(),
        type: 'webhook',
        url: ctx.input.url,
        description: ctx.input.description ?? '',
        enabled: true,
        secretPrefix: prefixOf(secret),
        eventKinds: [...new Set(ctx.input.eventKinds ?? ['forecast.completed'])] as Webhook['eventKinds'],
        lastDeliveryAt: null,
        lastDeliveryStatus: null,
        createdAt: now,
        updatedAt: now,
      };
      const record = webhooks.insert({
        id: webhook.id,
        ownerId: ctx.principal.userId,
        organizationId: ctx.principal.organizationId,
        webhook,
        secrets: [{ secret, until: null }],
        // Events link to the task on the address the owner uses to reach the service.
        apiBase: apiBaseOf(ctx.request.url),
      });
      return withSecret(record);
    },
    retrieve: (ctx) => findWebhook(ctx).webhook,
    update: (ctx) => {
      const record = findWebhook(ctx);
      const { enabled, url, description, eventKinds } = ctx.input;
      if (url !== undefined) checkAddress(ctx, url);
      const before = record.webhook.url;
      record.webhook = {
        ...record.webhook,
        ...(enabled !== undefined && { enabled }),
        ...(url !== undefined && { url }),
        ...(description !== undefined && { description }),
        ...(eventKinds !== undefined && { eventKinds: [...new Set(eventKinds)] }),
        updatedAt: ctx.timestamp(),
      };
      if (url !== undefined && url !== before) engineOf(ctx).cancelWaiting(record.id);
      return record.webhook;
    },
    delete: (ctx) => {
      const record = findWebhook(ctx);
      engineOf(ctx).cancelWaiting(record.id);
      ctx.store.collection(WEBHOOKS).delete(record.id);
      return undefined;
    },
    rotate: (ctx) => {
      const record = findWebhook(ctx);
      const now = ctx.clock.now();
      const secret = newSecret();
      // The new secret and the one it replaces sign for 24 hours; an older one stops at once.
      record.secrets = [{ secret, until: null }, { secret: record.secrets[0]!.secret, until: now + SECRET_OVERLAP_MS }];
      record.webhook = { ...record.webhook, secretPrefix: prefixOf(secret), updatedAt: ctx.timestamp() };
      return withSecret(record);
    },
    test: (ctx) => {
      const record = findWebhook(ctx);
      countTestOrReplay(ctx);
      // Sent even while the webhook is paused.
      return engineOf(ctx).startTest(record);
    },
  }),
  ...handlersFor(deliveryOps, {
    list: (ctx) => {
      const { webhookId, status } = ctx.input;
      const statuses = status === undefined ? undefined : new Set<string>(Array.isArray(status) ? status : [status]);
      const found = ctx.store
        .collection(WEBHOOK_DELIVERIES)
        .list(
          (d) =>
            d.ownerId === ctx.principal.userId &&
            (webhookId === undefined || d.delivery.webhookId === webhookId) &&
            (statuses === undefined || statuses.has(d.delivery.status)),
        );
      return cursorPage(
        found.map((d) => ({ ...d.delivery })),
        ctx.input,
        (d) => d.id,
      );
    },
    retrieve: (ctx) => ({ ...findDelivery(ctx).delivery }),
    listAttempts: (ctx) => {
      const delivery = findDelivery(ctx);
      // Attempts in the order they were made.
      const attempts = ctx.store
        .collection(WEBHOOK_ATTEMPTS)
        .list((a) => a.deliveryId === delivery.id)
        .reverse()
        .map((a) => a.attempt);
      return cursorPage(attempts, ctx.input, (a) => a.id ?? '');
    },
    replay: (ctx) => {
      const delivery = findDelivery(ctx);
      countTestOrReplay(ctx);
      const { status, webhookId } = delivery.delivery;
      if (status !== 'failed' && status !== 'cancelled') {
        throw conflict(`Only a failed or cancelled delivery can be replayed; this one is ${status}`);
      }
      const hook = ctx.store.collection(WEBHOOKS).get(webhookId);
      if (!hook) throw conflict(`The webhook ${webhookId} of this delivery was deleted`);
      if (!hook.webhook.enabled) throw conflict(`The webhook ${webhookId} is paused; enable it to replay`);
      return engineOf(ctx).replay(delivery, hook);
    },
  }),
];
