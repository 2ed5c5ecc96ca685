/**
 * Webhook event bodies (spec "Events" → "Body"): one schema per event kind, joined in a
 * discriminated union on `type`. Unknown fields pass through, so a field the service adds later
 * never breaks a receiver.
 *
 * The `forecasting-sdk/webhooks` entry imports only the types from here (it must not load zod);
 * the mock service uses the schemas to build and check the events it sends.
 * @module
 */
import * as z from 'zod/mini';
import { Timestamp, exact } from './common.js';

/**
 * The event kinds a webhook can subscribe to (`eventKinds`); `webhook.test` is sent on request only.
 *
 * @example
 * ```ts
 * await client.webhooks.create({ url, eventKinds: [...SUBSCRIBABLE_EVENT_KINDS] });
 * ```
 */
export const SUBSCRIBABLE_EVENT_KINDS = [
  'forecast.started',
  'forecast.completed',
  'forecast.failed',
  'forecast.cancelled',
  'forecast.report.completed',
] as const;

/** A kind a webhook can subscribe to (schema of one `eventKinds` item). */
export const SubscribableEventKind = z.enum(SUBSCRIBABLE_EVENT_KINDS);
/**
 * A kind a webhook can subscribe to.
 *
 * @example
 * ```ts
 * const kinds: SubscribableEventKind[] = ['forecast.completed', 'forecast.failed'];
 * ```
 */
export type SubscribableEventKind = (typeof SUBSCRIBABLE_EVENT_KINDS)[number];

/** The envelope every event shares: `id` (kept when an event is resent), `type`, `createdAt` (UTC). */
function eventSchema<const T extends string, S extends z.core.$ZodLooseShape>(type: T, data: S) {
  return exact({
    /** Service prefix, event kind and forecast id joined by colons; a resent event keeps it. */
    id: z.string(),
    type: z.literal(type),
    /** When the event happened (UTC). */
    createdAt: Timestamp,
    data: exact(data),
  });
}

/** What a forecast event points at: ids and a link, never the forecast itself. */
const forecastRefs = {
  /** The task; read it with `client.forecasts.retrieve(taskId)`. */
  taskId: z.string(),
  questionId: z.string(),
  /** Full address of the task. */
  forecastUrl: z.string(),
};

/** `forecast.started`: a forecast was created and queued. `data.forecastId` is `null`. */
export const ForecastStartedEvent = eventSchema('forecast.started', { ...forecastRefs, forecastId: z.null() });
/**
 * `forecast.started`: a forecast was created and queued. `data.forecastId` is `null`.
 *
 * @example
 * ```ts
 * if (event.type === 'forecast.started') console.log('queued', event.data.taskId);
 * ```
 */
export interface ForecastStartedEvent extends z.output<typeof ForecastStartedEvent> {}

/** `forecast.completed`: a forecast has its answer; `data.forecastId` names it. */
export const ForecastCompletedEvent = eventSchema('forecast.completed', { ...forecastRefs, forecastId: z.string() });
/**
 * `forecast.completed`: a forecast has its answer; `data.forecastId` names it. The body carries ids and
 * a link, never the forecast: read it with the task id.
 *
 * @example
 * ```ts
 * if (isKnownWebhookEvent(event) && event.type === 'forecast.completed') {
 *   const task = await client.forecasts.retrieve(event.data.taskId);
 * }
 * ```
 */
export interface ForecastCompletedEvent extends z.output<typeof ForecastCompletedEvent> {}

/** `forecast.failed`: a forecast failed. `data.forecastId` is `null`. */
export const ForecastFailedEvent = eventSchema('forecast.failed', { ...forecastRefs, forecastId: z.null() });
/**
 * `forecast.failed`: a forecast failed. `data.forecastId` is `null`; the task's `error.message` explains.
 *
 * @example
 * ```ts
 * if (event.type === 'forecast.failed') alert(`forecast ${event.data.taskId} failed`);
 * ```
 */
export interface ForecastFailedEvent extends z.output<typeof ForecastFailedEvent> {}

/** `forecast.cancelled`: a forecast was cancelled. `data.forecastId` is `null`. */
export const ForecastCancelledEvent = eventSchema('forecast.cancelled', { ...forecastRefs, forecastId: z.null() });
/**
 * `forecast.cancelled`: a forecast was cancelled. `data.forecastId` is `null`.
 *
 * @example
 * ```ts
 * if (event.type === 'forecast.cancelled') jobs.drop(event.data.taskId);
 * ```
 */
export interface ForecastCancelledEvent extends z.output<typeof ForecastCancelledEvent> {}

/**
 * `forecast.report.completed`: the report is done (`reportStatus: 'completed'`) or failed for the last
 * time (`'failed'`). A rewritten failed report sends it again, so `failed` can be followed by `completed`.
 */
export const ForecastReportCompletedEvent = eventSchema('forecast.report.completed', {
  ...forecastRefs,
  forecastId: z.string(),
  reportStatus: z.enum(['completed', 'failed']),
});
/**
 * `forecast.report.completed`: the report is done or failed for the last time (see `data.reportStatus`).
 * A `failed` one can be followed by a `completed` one when the report is rewritten.
 *
 * @example
 * ```ts
 * if (isKnownWebhookEvent(event) && event.type === 'forecast.report.completed' && event.data.reportStatus === 'completed') {
 *   notify(event.data.forecastUrl);
 * }
 * ```
 */
export interface ForecastReportCompletedEvent extends z.output<typeof ForecastReportCompletedEvent> {}

/** `webhook.test`: sent by `POST /webhooks/{webhook_id}/test`, even while the webhook is paused. */
export const WebhookTestEvent = eventSchema('webhook.test', { test: z.literal(true), webhookId: z.string() });
/**
 * `webhook.test`: sent by `POST /webhooks/{webhook_id}/test`, even while the webhook is paused.
 *
 * @example
 * ```ts
 * if (event.type === 'webhook.test') return new Response('ok'); // data: { test: true, webhookId }
 * ```
 */
export interface WebhookTestEvent extends z.output<typeof WebhookTestEvent> {}

/** Every event kind the spec names, discriminated on `type`. */
export const KnownWebhookEvent = z.discriminatedUnion('type', [
  ForecastStartedEvent,
  ForecastCompletedEvent,
  ForecastFailedEvent,
  ForecastCancelledEvent,
  ForecastReportCompletedEvent,
  WebhookTestEvent,
]);
/**
 * Every event kind the spec names, discriminated on `type`: `switch (event.type)` narrows `data`.
 *
 * @example
 * ```ts
 * if (isKnownWebhookEvent(event)) {
 *   switch (event.type) {
 *     case 'forecast.completed': return onAnswer(event.data.forecastId); // string
 *     case 'forecast.failed': return onFailure(event.data.taskId);
 *   }
 * }
 * ```
 */
export type KnownWebhookEvent =
  | ForecastStartedEvent
  | ForecastCompletedEvent
  | ForecastFailedEvent
  | ForecastCancelledEvent
  | ForecastReportCompletedEvent
  | WebhookTestEvent;

/**
 * The `type` of an event kind the spec names.
 *
 * @example
 * ```ts
 * const handled: KnownWebhookEventType[] = ['forecast.completed', 'forecast.report.completed'];
 * ```
 */
export type KnownWebhookEventType = KnownWebhookEvent['type'];

/**
 * An event of a kind this SDK version does not know yet (the service may add kinds). Verification
 * accepts it, so a receiver can acknowledge it (answer 2xx) rather than have it retried.
 *
 * @example
 * ```ts
 * if (!isKnownWebhookEvent(event)) console.warn('unhandled event kind', event.type);
 * ```
 */
export interface UnknownWebhookEvent {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/**
 * What a verified webhook call carries: a known event, or one of a kind added later. Narrow it with
 * `isKnownWebhookEvent` first: the open `UnknownWebhookEvent` keeps `event.type` checks alone from
 * narrowing `data`.
 *
 * @example
 * ```ts
 * const event: WebhookEvent = await verifyWebhook(body, headers, secret);
 * console.log(event.id, event.type, event.createdAt);
 * ```
 */
export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;
