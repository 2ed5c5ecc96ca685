/**
 * Webhook event bodies (spec "Events" → "Body") as plain TypeScript types: what a receiver gets
 * from `verifyWebhook`. Written by hand, not inferred from a schema, so the published
 * `forecasting-sdk/webhooks` declarations stand alone; the mock's schemas in `schemas/events.ts`
 * are checked against these types by the compiler, so the two cannot drift apart.
 * @module
 */

/** The envelope every event shares; a resent event keeps its `id`. */
interface EventEnvelope<T extends string, D> {
  /** Service prefix, event kind and forecast id joined by colons; a resent event keeps it. */
  id: string;
  type: T;
  /** When the event happened (UTC). */
  createdAt: string;
  data: D;
}

// The `data` shapes are type aliases, not interfaces: an object type alias is assignable to
// `Record<string, unknown>` (UnknownWebhookEvent's `data`), an interface is not. `@inline`: the
// API reference shows their fields in each event, as no entry exports them.

/** What a forecast event points at: ids and a link, never the forecast itself. @inline */
type ForecastRefs<F extends string | null> = {
  /** The task; read it with `client.forecasts.retrieve(taskId)`. */
  taskId: string;
  questionId: string;
  /** Full address of the task. */
  forecastUrl: string;
  forecastId: F;
};

/** What `forecast.report.completed` carries: the ids, and whether the report is done or failed for good. @inline */
type ReportRefs = {
  /** The task; read it with `client.forecasts.retrieve(taskId)`. */
  taskId: string;
  questionId: string;
  /** Full address of the task. */
  forecastUrl: string;
  forecastId: string;
  reportStatus: 'completed' | 'failed';
};

/** What `webhook.test` carries. @inline */
type TestData = { test: true; webhookId: string };

/**
 * `forecast.started`: a forecast was created and queued. `data.forecastId` is `null`.
 *
 * @example
 * ```ts
 * if (event.type === 'forecast.started') console.log('queued', event.data.taskId);
 * ```
 */
export interface ForecastStartedEvent extends EventEnvelope<'forecast.started', ForecastRefs<null>> {}

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
export interface ForecastCompletedEvent extends EventEnvelope<'forecast.completed', ForecastRefs<string>> {}

/**
 * `forecast.failed`: a forecast failed. `data.forecastId` is `null`; the task's `error.message` explains.
 *
 * @example
 * ```ts
 * if (event.type === 'forecast.failed') alert(`forecast ${event.data.taskId} failed`);
 * ```
 */
export interface ForecastFailedEvent extends EventEnvelope<'forecast.failed', ForecastRefs<null>> {}

/**
 * `forecast.cancelled`: a forecast was cancelled. `data.forecastId` is `null`.
 *
 * @example
 * ```ts
 * if (event.type === 'forecast.cancelled') jobs.drop(event.data.taskId);
 * ```
 */
export interface ForecastCancelledEvent extends EventEnvelope<'forecast.cancelled', ForecastRefs<null>> {}

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
export interface ForecastReportCompletedEvent extends EventEnvelope<'forecast.report.completed', ReportRefs> {}

/**
 * `webhook.test`: sent by `POST /webhooks/{webhook_id}/test`, even while the webhook is paused.
 *
 * @example
 * ```ts
 * if (event.type === 'webhook.test') return new Response('ok'); // data: { test: true, webhookId }
 * ```
 */
export interface WebhookTestEvent extends EventEnvelope<'webhook.test', TestData> {}

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
