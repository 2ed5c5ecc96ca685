/**
 * What the coordinator reports of the fleet: the STATS script's reply read as stats, and the keys
 * whose presence says a fleet has used a namespace.
 * @module
 */
import type { CoordinatorStats } from '../core/coordination.js';
import type { CoordinatorKeys } from './keys.js';
import { arrayReply, integerReply, stringsReply } from './link.js';

/** The STATS script's reply ({waiting, receivers, published, deduplicated, ...slot members}) and the WINDOW_COUNT's as stats, checked. */
export function sharedStats(reply: unknown, requests: unknown): CoordinatorStats {
  const items = arrayReply(reply, 'STATS', 4);
  const [waiting, receivers, published, deduplicated] = items.slice(0, 4).map((n) => integerReply(n, 'STATS'));
  const slots = stringsReply(items.slice(4), 'STATS');
  return {
    mode: 'shared',
    requestsInWindow: integerReply(requests, 'WINDOW_COUNT'),
    activeSlots: slots.length,
    activeTaskIds: slots.filter((m) => m.startsWith('t:')).map((m) => m.slice(2)),
    startsWaiting: waiting!,
    receiversSeen: receivers!,
    eventsPublished: published!,
    eventsDeduplicated: deduplicated!,
  };
}

/**
 * The keys a fleet leaves for longer than a moment (not the event claims, which are many, nor the
 * channel), a list per hash tag (one command may name keys of one tag only, on a cluster). @internal
 */
export function persistentKeys(keys: CoordinatorKeys): string[][] {
  return [
    [keys.requests, keys.modelCalls, keys.drafting, keys.chatMessages],
    [keys.slots, keys.queue, keys.receivers, keys.counters, keys.seq, keys.epoch, keys.reconciled, keys.reconcileGap, keys.webhookTests],
  ];
}
