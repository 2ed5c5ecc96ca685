/**
 * The key layout of one coordinator, in two Redis Cluster hash tags: the windows the service counts
 * per key (requests, model calls, drafting, chat messages) under the key's namespace (`prefix`),
 * everything else (slots, queue, events, receivers, claims, the webhook tests window) under the
 * user's (`userPrefix`: the service counts active forecasts and webhook tests per user, and a user's
 * webhooks get every key's events). Both are one tag when they are the same. A
 * script touches keys of one tag only.
 * @module
 */

/** @internal */
export interface CoordinatorKeys {
  /** The key's namespace (the request windows), without its braces. */
  prefix: string;
  /** The user's namespace (the rest), without its braces. */
  userPrefix: string;
  /** Sliding window of requests: sorted set, member a unique id, score the caller's time. */
  requests: string;
  /** Sliding window of decisions' model calls, the same way. */
  modelCalls: string;
  /** Sliding window of calls drafting questions with AI, the same way. */
  drafting: string;
  /** Sliding window of forecast chat messages, the same way. */
  chatMessages: string;
  /** Sliding window of webhook tests and replays (per user), the same way. */
  webhookTests: string;
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
  /** How long the fleet waits between two such checks now: the interval, longer after checks that freed nothing. */
  reconcileGap: string;
  /** A random id set when the keys are first written: a new one means Redis lost its data (a restart, a flush). */
  epoch: string;
  /** A claimed event id: a string set with NX and a time to live. */
  event(eventId: string): string;
}

/** @internal */
export function coordinatorKeys(prefix: string, userPrefix = prefix): CoordinatorKeys {
  const keyTag = `{${prefix}}`;
  const tag = `{${userPrefix}}`;
  return {
    prefix,
    userPrefix,
    requests: `${keyTag}:requests`,
    modelCalls: `${keyTag}:modelCalls`,
    drafting: `${keyTag}:drafting`,
    chatMessages: `${keyTag}:chatMessages`,
    webhookTests: `${tag}:webhookTests`,
    slots: `${tag}:slots`,
    queue: `${tag}:queue`,
    beats: `${tag}:beats`,
    alive: `${tag}:alive`,
    seq: `${tag}:seq`,
    receivers: `${tag}:receivers`,
    counters: `${tag}:counters`,
    channel: `${tag}:events`,
    reconciled: `${tag}:reconciled`,
    reconcileGap: `${tag}:reconcileGap`,
    epoch: `${tag}:epoch`,
    event: (eventId) => `${tag}:event:${eventId}`,
  };
}
