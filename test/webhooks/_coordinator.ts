// Signed deliveries of one event, as the service sends them (a new signature per attempt), for the
// receivers' coordinator tests; and a coordinator that always rejects (a broken one, not Redis).
import type { EventCoordinator } from '../../src/core/coordination.js';
import { signWebhook } from '../../src/webhooks/index.js';

export const SECRET = 'whsec_coordinated_receiver_secret';

let n = 0;

/** A `forecast.<kind>` event of a new task (or of `taskId`). */
export function forecastEvent(kind: 'started' | 'completed' | 'failed' | 'cancelled', taskId = `task_${++n}`): { id: string; taskId: string; body: string } {
  const id = `svc:forecast.${kind}:${taskId}`;
  const data = { forecastId: kind === 'completed' ? `fc_${taskId}` : null, forecastUrl: `https://service.example/forecasts/${taskId}`, questionId: 'q_1', taskId };
  return { id, taskId, body: JSON.stringify({ createdAt: new Date().toISOString(), data, id, type: `forecast.${kind}` }) };
}

/** The headers of one delivery attempt of `body`. */
export async function deliveryHeaders(body: string, deliveryId = 'dlv_1'): Promise<Record<string, string>> {
  return { 'content-type': 'application/json', 'x-service-signature': await signWebhook(body, SECRET), 'x-service-delivery-id': deliveryId };
}

/** A coordinator whose every call rejects (its store is gone, and it has no fallback of its own). */
export function brokenCoordinator(): EventCoordinator & { calls: string[] } {
  const calls: string[] = [];
  const fail = (name: string) => {
    calls.push(name);
    return Promise.reject(new TypeError('connect ECONNREFUSED redis://user:hunter2@10.0.0.5:6379'));
  };
  return { calls, claimEvent: () => fail('claimEvent'), finishEvent: () => fail('finishEvent'), unclaimEvent: () => fail('unclaimEvent'), publish: () => fail('publish') };
}
