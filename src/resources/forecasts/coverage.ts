/**
 * What `finalEventCoverage` loads on a coordinated wait's first ask: the key's webhooks, read through
 * the client, checked for every final event kind.
 * @module
 */
import type { BaseClient } from '../../core/base-client.js';
import { WebhookCoverage } from '../../core/webhook-coverage.js';

/** The key's webhooks, read by whoever loads this module (the webhooks resource is theirs: an app's bundler then makes no chunk of it apart). @internal */
export type WebhookReader = () => AsyncIterable<{ enabled: boolean; eventKinds: readonly string[] }>;

/** The event kinds of a task's final statuses: waits trust webhook events only when the webhooks subscribe to all of them. */
const FINAL_EVENT_KINDS = ['forecast.completed', 'forecast.failed', 'forecast.cancelled'];

/** @internal */
export function coverageOf(client: BaseClient, webhooks: WebhookReader): WebhookCoverage {
  const read = async () => {
    const kinds: (readonly string[])[] = [];
    for await (const hook of webhooks()) if (hook.enabled) kinds.push(hook.eventKinds);
    return kinds;
  };
  return new WebhookCoverage(read, FINAL_EVENT_KINDS, () => client._clock);
}
