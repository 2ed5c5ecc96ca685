/**
 * Webhook event bodies (spec "Events" → "Body"): one schema per event kind, joined in a
 * discriminated union on `type`. Unknown fields pass through, so a field the service adds later
 * never breaks a receiver.
 *
 * The types are written by hand in `webhooks/events.ts` (the `forecasting-sdk/webhooks`
 * declarations must stand without zod); each schema here is checked to parse to exactly its type.
 * The mock service uses the schemas to build and check the events it sends.
 * @module
 */
import * as z from 'zod/mini';
import type * as events from '../webhooks/events.js';
import { Timestamp, exact, schemaFor } from './common.js';
import { SUBSCRIBABLE_EVENT_KINDS } from './enums.js';

export { SUBSCRIBABLE_EVENT_KINDS } from './enums.js';

export type { KnownWebhookEventType, UnknownWebhookEvent, WebhookEvent } from '../webhooks/events.js';
// Each schema below carries the name of the type it parses to, as the record schemas do.
export type ForecastStartedEvent = events.ForecastStartedEvent;
export type ForecastCompletedEvent = events.ForecastCompletedEvent;
export type ForecastFailedEvent = events.ForecastFailedEvent;
export type ForecastCancelledEvent = events.ForecastCancelledEvent;
export type ForecastReportCompletedEvent = events.ForecastReportCompletedEvent;
export type WebhookTestEvent = events.WebhookTestEvent;
export type KnownWebhookEvent = events.KnownWebhookEvent;

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
export const ForecastStartedEvent = schemaFor<events.ForecastStartedEvent>()(eventSchema('forecast.started', { ...forecastRefs, forecastId: z.null() }));

/** `forecast.completed`: a forecast has its answer; `data.forecastId` names it. */
export const ForecastCompletedEvent = schemaFor<events.ForecastCompletedEvent>()(eventSchema('forecast.completed', { ...forecastRefs, forecastId: z.string() }));

/** `forecast.failed`: a forecast failed. `data.forecastId` is `null`. */
export const ForecastFailedEvent = schemaFor<events.ForecastFailedEvent>()(eventSchema('forecast.failed', { ...forecastRefs, forecastId: z.null() }));

/** `forecast.cancelled`: a forecast was cancelled. `data.forecastId` is `null`. */
export const ForecastCancelledEvent = schemaFor<events.ForecastCancelledEvent>()(eventSchema('forecast.cancelled', { ...forecastRefs, forecastId: z.null() }));

/**
 * `forecast.report.completed`: the report is done (`reportStatus: 'completed'`) or failed for the last
 * time (`'failed'`). A rewritten failed report sends it again, so `failed` can be followed by `completed`.
 */
export const ForecastReportCompletedEvent = schemaFor<events.ForecastReportCompletedEvent>()(
  eventSchema('forecast.report.completed', { ...forecastRefs, forecastId: z.string(), reportStatus: z.enum(['completed', 'failed']) }),
);

/** `webhook.test`: sent by `POST /webhooks/{webhook_id}/test`, even while the webhook is paused. */
export const WebhookTestEvent = schemaFor<events.WebhookTestEvent>()(eventSchema('webhook.test', { test: z.literal(true), webhookId: z.string() }));

/** Every event kind the spec names, discriminated on `type`. */
export const KnownWebhookEvent = schemaFor<events.KnownWebhookEvent>()(
  z.discriminatedUnion('type', [ForecastStartedEvent, ForecastCompletedEvent, ForecastFailedEvent, ForecastCancelledEvent, ForecastReportCompletedEvent, WebhookTestEvent]),
);
