/**
 * What the ready-made receivers tell the `forecasting-sdk:webhook` tracing channel (`core/channels.ts`):
 * one trace per call they answer, from its arrival to what it is, for a tracer or a metrics library.
 * Loaded only once someone subscribes (see `observe` in `receiver.ts`): a receiver nobody observes
 * carries none of it.
 * @module
 */
import type { Tracing, WebhookMessage } from '../core/channels.js';
import type { WebhookEvent } from './events.js';
import type { eventNotice } from './exactly-once.js';

/** The longest id or type passed on: a header or an event field may be anything a caller sent. */
const MAX_FIELD_CHARS = 200;

/** A W3C traceparent, as a subscriber must set it to travel with the event. */
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** One call under observation. @internal */
export interface Observation {
  /** The traceparent a subscriber set for the call, to travel with its event (else `undefined`). */
  readonly traceparent: string | undefined;
  /** What the call was: ends its trace (once). */
  done(outcome: NonNullable<WebhookMessage['outcome']>, detail: { event?: WebhookEvent | undefined; reason?: string; status?: number }): void;
}

/**
 * Starts the trace of a call that arrived at `startTime`, whose delivery id header `readId` reads
 * (loaded by `observe` of `receiver.ts`, only while someone subscribes, which hands it what it reads
 * with: this module imports nothing, so an app's bundler makes no chunk of what the two share). @internal
 */
export function startObservation(channel: Tracing, readId: () => string | undefined, startTime: number, noticeOf: typeof eventNotice): Observation {
  let raw: string | undefined;
  try {
    raw = readId();
  } catch {
    // Traced without it: a header that cannot be read is no reason to lose the call's trace.
  }
  // Anyone can send a call: only an id's characters are passed on.
  const deliveryId = raw !== undefined && /^[\x21-\x7e]{1,200}$/.test(raw) ? raw : undefined;
  const message: WebhookMessage = { startTime, ...(deliveryId === undefined ? {} : { deliveryId }) };
  channel.start.publish(message);
  channel.end.publish(message);
  let open = true;
  return {
    get traceparent() {
      try {
        const t = message.traceparent;
        return typeof t === 'string' && TRACEPARENT.test(t) ? t : undefined;
      } catch {
        return undefined;
      }
    },
    done(outcome, detail) {
      if (!open) return;
      open = false;
      const notice = detail.event && noticeOf(detail.event);
      // A subscriber may have frozen the message: what it does to it never fails the receiver.
      try {
        message.outcome = outcome;
        if (detail.reason !== undefined) message.reason = detail.reason;
        if (detail.status !== undefined) message.status = detail.status;
        if (notice) {
          message.eventId = notice.id.slice(0, MAX_FIELD_CHARS);
          message.eventType = notice.type.slice(0, MAX_FIELD_CHARS);
          if (notice.taskId !== undefined) message.taskId = notice.taskId.slice(0, MAX_FIELD_CHARS);
        }
      } catch {
        // Published as the subscriber left it.
      }
      channel.asyncStart.publish(message);
      channel.asyncEnd.publish(message);
    },
  };
}
