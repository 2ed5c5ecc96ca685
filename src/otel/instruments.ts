/**
 * The instrumentation's metrics: the pinned names (docs/observability.md), their units, and bucket
 * boundaries for what each measures.
 * @module
 */
import type { Counter, Histogram, Meter } from '@opentelemetry/api';

/** The instruments, made anew from each meter provider the instrumentation is given. @internal */
export interface Instruments {
  operationDuration: Histogram;
  retries: Counter;
  waitDuration: Histogram;
  queueDuration: Histogram;
  webhookDeliveries: Counter;
}

/** Bucket boundaries in seconds: a call (ms to a minute of retries), a wait (minutes to hours), a queue (nothing to minutes). */
const CALL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60];
const WAIT_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 2700, 3600, 5400, 7200, 14400];
const QUEUE_BUCKETS = [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 120, 300];

/** The pinned metric names, with their units and meaning. @internal */
export function instruments(meter: Meter): Instruments {
  return {
    operationDuration: meter.createHistogram('forecasting.client.operation.duration', { unit: 's', description: 'Duration of an operation call, its retries included, by operation and outcome.', advice: { explicitBucketBoundaries: CALL_BUCKETS } }),
    retries: meter.createCounter('forecasting.client.retries', { unit: '{retry}', description: 'Retries of failed attempts, by reason.' }),
    waitDuration: meter.createHistogram('forecasting.wait.duration', { unit: 's', description: 'Duration of a wait for tasks, by final status and what ended it.', advice: { explicitBucketBoundaries: WAIT_BUCKETS } }),
    queueDuration: meter.createHistogram('forecasting.fleet.queue.duration', { unit: 's', description: "Time a call waited for the fleet's request budget or for a forecast slot, by kind.", advice: { explicitBucketBoundaries: QUEUE_BUCKETS } }),
    webhookDeliveries: meter.createCounter('forecasting.webhook.deliveries', { unit: '{delivery}', description: 'Webhook calls answered by the ready-made receivers, by outcome.' }),
  };
}
