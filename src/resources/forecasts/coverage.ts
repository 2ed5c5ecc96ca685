/**
 * What `finalEventCoverage` loads on a coordinated wait's first ask: the key's webhooks, read through
 * the client, checked for every final event kind.
 * @module
 */
import type { BaseClient } from '../../core/base-client.js';
import { WebhookCoverage } from '../../core/webhook-coverage.js';
import { MAX_PAGE_SIZE } from '../../api/limits.js';
import { Webhooks } from '../webhooks.js';

/** The event kinds of a task's final statuses: waits trust webhook events only when the webhooks subscribe to all of them. */
const FINAL_EVENT_KINDS = ['forecast.completed', 'forecast.failed', 'forecast.cancelled'];

/** @internal */
export function coverageOf(client: BaseClient): WebhookCoverage {
  const read = async () => {
    const kinds: string[][] = [];
    for await (const hook of new Webhooks(client).list({ limit: MAX_PAGE_SIZE })) if (hook.enabled) kinds.push(hook.eventKinds);
    return kinds;
  };
  return new WebhookCoverage(read, FINAL_EVENT_KINDS, () => client._clock);
}
