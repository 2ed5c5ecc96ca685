// What createWebhookHandler answers, header by header, with a coordinator that answers as the test
// says (no Redis): text answers say they are text, an error that is no verification failure is
// thrown on, and the `where` of a bad option names the function.
import { describe, expect, it, vi } from 'vitest';
import type { EventClaim, EventCoordinator } from '../../src/core/event-coordination.js';
import { createWebhookHandler } from '../../src/webhooks/fetch.js';
import { deliveryHeaders, forecastEvent, SECRET } from './_coordinator.js';

const post = async (body: string) => new Request('https://receiver.example/hooks', { method: 'POST', body, headers: await deliveryHeaders(body) });

/** A coordinator whose every claim answers `claim`. */
const claiming = (claim: EventClaim): EventCoordinator => ({
  claimEvent: async () => claim,
  finishEvent: async () => {},
  unclaimEvent: async () => {},
  publish: async () => {},
});

describe("createWebhookHandler's own answers", () => {
  it('are plain text: a refused call, a repeat, and a delivery whose event runs elsewhere', async () => {
    const handler = vi.fn();
    const forged = new Request('https://receiver.example/hooks', { method: 'POST', body: '{}', headers: { 'x-service-signature': 't=1,v1=00' } });
    const refused = await createWebhookHandler(SECRET, handler)(forged);
    const repeat = await createWebhookHandler(SECRET, handler, { coordinator: claiming('done') })(await post(forecastEvent('completed').body));
    const running = await createWebhookHandler(SECRET, handler, { coordinator: claiming('running') })(await post(forecastEvent('completed').body));
    expect([refused.status, repeat.status, running.status]).toEqual([400, 200, 503]);
    for (const answer of [refused, repeat, running]) expect(answer.headers.get('content-type')).toBe('text/plain');
    expect([await repeat.text(), await running.text(), running.headers.get('retry-after')]).toEqual(['repeat', 'running', '30']);
    expect(handler).not.toHaveBeenCalled();
  });

  it('answers a repeat without onRepeat', async () => {
    const answer = await createWebhookHandler(SECRET, vi.fn(), { coordinator: claiming('done') })(await post(forecastEvent('started').body));
    expect(answer.status).toBe(200);
  });

  it('throws on what is no verification failure: a body that breaks while read', async () => {
    const broken = new ReadableStream({
      pull(c) {
        c.error(new Error('connection reset'));
      },
    });
    const request = new Request('https://receiver.example/hooks', { method: 'POST', body: broken, headers: { 'x-service-signature': 't=1,v1=00' }, duplex: 'half' } as RequestInit);
    await expect(createWebhookHandler(SECRET, vi.fn())(request)).rejects.toThrow('connection reset');
  });

  it('names itself when coordinatorTimeoutMs is wrong', () => {
    expect(() => createWebhookHandler(SECRET, vi.fn(), { coordinatorTimeoutMs: -1 })).toThrow(/^createWebhookHandler: coordinatorTimeoutMs/);
  });
});
