/**
 * The OpenAPI document's `webhooks`: the signed `POST` the service makes per event kind, with the
 * headers a receiver gets and the call the mock made as example.
 * @module
 * @internal
 */
import type * as z from 'zod/mini';
import { ref, type Schema } from './openapi-schemas.js';
import { recorded, withExample, type Json } from './openapi-recorded.js';
import * as events from './schemas/events.js';
import { WEBHOOK_USER_AGENT } from './testing/webhooks/engine.js';
import { DELIVERY_ID_HEADER, EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER } from './webhooks/headers.js';

/** The webhook event bodies, by kind, with the spec's "emitted when". */
export const EVENTS = [
  { kind: 'forecast.started', schema: 'ForecastStartedEvent', when: 'A forecast was created and queued.' },
  { kind: 'forecast.completed', schema: 'ForecastCompletedEvent', when: 'A forecast has its answer.' },
  { kind: 'forecast.failed', schema: 'ForecastFailedEvent', when: 'A forecast failed.' },
  { kind: 'forecast.cancelled', schema: 'ForecastCancelledEvent', when: 'A forecast was cancelled.' },
  {
    kind: 'forecast.report.completed',
    schema: 'ForecastReportCompletedEvent',
    when: 'The report is done, or failed for the last time (`data.reportStatus`); arrives shortly after `forecast.completed`, and again when a failed report is rewritten.',
  },
  { kind: 'webhook.test', schema: 'WebhookTestEvent', when: 'A test call was requested (`POST /webhooks/{webhook_id}/test`), even while the webhook is paused. It cannot be subscribed to.' },
] as const satisfies readonly { kind: events.KnownWebhookEventType; schema: keyof typeof events; when: string }[];

/** The event body schemas, by their component name. */
export function eventSchemas(): Record<string, z.ZodMiniType> {
  return Object.fromEntries(EVENTS.map(({ schema }) => [schema, events[schema]]));
}

/** `x-service-signature` → `X-Service-Signature`. */
function headerName(name: string): string {
  return name.replace(/(^|-)(\w)/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

const SIGNATURE_SCHEME = [
  '`t=<unix seconds>,v1=<signature>`. The signature is HMAC-SHA256, keyed with the whole signing secret (including `whsec_`),',
  'over the text `<t>.` followed by the raw body bytes, written as lowercase hex. Accept the call when your result equals any `v1`',
  '(compare in constant time; for 24 hours after a secret rotation two `v1` values appear, one per secret), and refuse a `t`',
  'more than 5 minutes from your clock. Every attempt is signed anew, with a new `t`. In forecasting-sdk:',
  '`verifyWebhook(body, headers, secret)` from `forecasting-sdk/webhooks`.',
].join(' ');

/** The headers of a webhook call of `kind`, with the values of the call the mock made as examples. */
function webhookHeaders(kind: string): Json[] {
  const sent = recorded.webhooks[kind]?.headers ?? {};
  const header = (name: string, description: string, schema: Schema): Json =>
    withExample({ name: headerName(name), in: 'header', required: true, description, schema }, sent[name]);
  return [
    header(SIGNATURE_HEADER, `The signature: ${SIGNATURE_SCHEME}`, { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' }),
    header(EVENT_ID_HEADER, 'The body `id`: service prefix, event kind and forecast id joined by colons; a resent event keeps it.', { type: 'string' }),
    header(EVENT_TYPE_HEADER, 'The body `type`.', { type: 'string', const: kind }),
    header(DELIVERY_ID_HEADER, 'The delivery id, kept across retries and replays: calls can arrive more than once and out of order, and this identifies duplicates.', { type: 'string', format: 'uuid' }),
    header('user-agent', 'The agent token of the service’s webhook calls.', { type: 'string', const: WEBHOOK_USER_AGENT }),
  ];
}

/** OpenAPI 3.1 `webhooks`: the signed `POST` the service makes to a registered webhook, per event kind. */
export function webhooks(): Json {
  const out: Json = {};
  for (const { kind, schema, when } of EVENTS) {
    const call = recorded.webhooks[kind];
    out[kind] = {
      post: {
        operationId: `on${kind.replace(/(^|\.)(\w)/g, (_, _dot: string, c: string) => c.toUpperCase())}`,
        summary: kind,
        description: [
          when,
          'The service calls each enabled webhook subscribed to the kind (`eventKinds`) with a signed HTTPS `POST`; events that happen while a webhook is paused are not sent later.',
          'Verify `X-Service-Signature` (its scheme is under that header) over the raw body before trusting it.',
        ].join(' '),
        tags: ['webhooks'],
        // Signed (see X-Service-Signature), not sent with an API key.
        security: [],
        parameters: webhookHeaders(kind),
        requestBody: {
          required: true,
          description: 'JSON with keys in alphabetical order and no spaces: ids and a link, never the forecast itself. Verify the signature over these exact bytes, before parsing them.',
          content: { 'application/json': { schema: ref(schema), ...(call ? { examples: { [kind]: { value: call.body } } } : {}) } },
        },
        responses: {
          '2XX': { description: 'Received. Answer within 10 seconds; at most 1 KB of the answer is read, then ignored.' },
          default: {
            description:
              'Not received. No answer within 10 seconds, no connection, 408, 425, 429 or 5xx: tried again after 30 seconds, 2 minutes, 10 minutes, 30 minutes and 2 hours (6 attempts in all). Any other answer, a redirect included: failed at once, with no retry.',
          },
        },
      },
    };
  }
  return out;
}
