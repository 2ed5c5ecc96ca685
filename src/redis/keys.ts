/**
 * The key layout of one coordinator: every key and the channel under one Redis Cluster hash tag.
 * @module
 */

/** @internal */
export interface CoordinatorKeys {
  /** The namespace, without its braces. */
  prefix: string;
  /** Sliding window of requests: sorted set, member a unique id, score the caller's time. */
  requests: string;
  /** Sliding window of decisions' model calls, the same way. */
  modelCalls: string;
  /** Active slots: sorted set, `t:<task id>` scored +inf, `p:<hold id>:<i>` scored by its expiry. */
  slots: string;
  /** Waiting holds: sorted set, hold id scored by arrival (FIFO). */
  queue: string;
  /** Waiting holds' heartbeats: sorted set, hold id scored by the time it counts as dead. */
  beats: string;
  /** Processes with holds in the queue: sorted set, process id scored by when it counts as dead (Redis's clock). */
  alive: string;
  /** The arrival counter of the queue. */
  seq: string;
  /** Webhook receivers: sorted set, receiver id scored by when it last published. */
  receivers: string;
  /** Counters (`published`, `deduplicated`): a hash. */
  counters: string;
  /** The pub/sub channel of final notices and "slots freed". */
  channel: string;
  /** When a process of the fleet last checked held tasks against the service (one a `reconcileIntervalMs`). */
  reconciled: string;
  /** A random id set when the keys are first written: a new one means Redis lost its data (a restart, a flush). */
  epoch: string;
  /** A claimed event id: a string set with NX and a time to live. */
  event(eventId: string): string;
}

/** @internal */
export function coordinatorKeys(prefix: string): CoordinatorKeys {
  const tag = `{${prefix}}`;
  return {
    prefix,
    requests: `${tag}:requests`,
    modelCalls: `${tag}:modelCalls`,
    slots: `${tag}:slots`,
    queue: `${tag}:queue`,
    beats: `${tag}:beats`,
    alive: `${tag}:alive`,
    seq: `${tag}:seq`,
    receivers: `${tag}:receivers`,
    counters: `${tag}:counters`,
    channel: `${tag}:events`,
    reconciled: `${tag}:reconciled`,
    epoch: `${tag}:epoch`,
    event: (eventId) => `${tag}:event:${eventId}`,
  };
}
