/**
 * The exact bytes of a webhook call's body (spec "Events" → "Body"): JSON with keys in alphabetical
 * order at every level and no spaces, built from what the event bus announced.
 * @module
 */
import type { MockForecastEvent } from '../events.js';

/** The service prefix of event ids: an event id is `evt:<kind>:<forecast id, else task id>`. */
export const EVENT_ID_PREFIX = 'evt';

/**
 * `JSON.stringify` with object keys sorted at every level (UTF-16 code unit order), no spaces.
 * @internal
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    // Entries, not assignments: a `__proto__` key stays a key rather than setting a prototype.
    return Object.fromEntries(Object.keys(v).sort().map((key) => [key, (v as Record<string, unknown>)[key]]));
  });
}

/**
 * The spec's event id: service prefix, kind and forecast id joined by colons. `forecastId` is null on
 * `forecast.started`, `failed` and `cancelled`, so those use the task id; a `webhook.test` uses its
 * delivery id. A resent (retried or replayed) event keeps it, since the body is stored once.
 * @internal
 */
export function eventId(kind: string, subject: string): string {
  return `${EVENT_ID_PREFIX}:${kind}:${subject}`;
}

/** The body of a forecast event; `apiBase` is the service's base URL as the webhook's owner calls it. @internal */
export function forecastEventBody(event: MockForecastEvent, apiBase: string): { id: string; body: string } {
  const id = eventId(event.type, event.forecastId ?? event.taskId);
  const data: Record<string, unknown> = {
    taskId: event.taskId,
    questionId: event.questionId,
    forecastId: event.forecastId,
    forecastUrl: `${apiBase}/forecasts/${encodeURIComponent(event.taskId)}`,
  };
  if (event.type === 'forecast.report.completed') data['reportStatus'] = event.reportStatus ?? 'completed';
  const body = canonicalJson({ id, type: event.type, createdAt: new Date(event.at).toISOString(), data });
  return { id, body };
}

/** The body of a `webhook.test` call. @internal */
export function testEventBody(webhookId: string, deliveryId: string, at: number): { id: string; body: string } {
  const id = eventId('webhook.test', deliveryId);
  const body = canonicalJson({ id, type: 'webhook.test', createdAt: new Date(at).toISOString(), data: { test: true, webhookId } });
  return { id, body };
}
