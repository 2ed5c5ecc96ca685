// What createWebhookHandler answers, header by header, with a coordinator that answers as the test
// says (no Redis): text answers say they are text, an error that is no verification failure is
// thrown on, and the `where` of a bad option names the function.
import { describe, expect, it, vi } from 'vitest';
import type { EventClaim, EventCoordinator } from '../../src/core/event-coordination.js';
import { createDeliveryDeduper, DELIVERY_ID_HEADER } from '../../src/webhooks/index.js';
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

describe('createWebhookHandler at start-up', () => {
  // A newcomer's route made without a handler was accepted, and failed the first signed call (a 500).
  it.each([undefined, null, 'handler', {}])('refuses a handler that is no function (%s) as it is made, as a missing secret', (handler) => {
    expect(() => createWebhookHandler(SECRET, handler as never)).toThrow(new TypeError('createWebhookHandler: `handler` must be a function.'));
  });
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

describe("createWebhookHandler's warnings for a failing coordinator", () => {
  /** A coordinator whose calls of the kinds in `down` reject. */
  const failingOn = (down: Set<string>): EventCoordinator => {
    const call = <T>(kind: string, value: T) => (down.has(kind) ? Promise.reject(new TypeError('refused')) : Promise.resolve(value));
    return { claimEvent: () => call('claim', 'claimed' as const), finishEvent: () => call('finish', undefined), unclaimEvent: () => call('unclaim', undefined), publish: () => call('publish', undefined) };
  };

  it('are the first at once, then at most one a minute with a count, however the failures come', async () => {
    let now = 0;
    const warn = vi.fn();
    const down = new Set(['claim']);
    const handle = createWebhookHandler(SECRET, vi.fn(), { coordinator: failingOn(down), logger: { warn } as never, clock: () => now });
    for (let i = 0; i < 10; i++) {
      // A claim that fails, then a publish that fails: never one event without a failure.
      down.clear();
      down.add(i % 2 === 0 ? 'claim' : 'publish');
      await handle(await post(forecastEvent('completed').body));
    }
    expect(warn).toHaveBeenCalledTimes(1);
    now = 60_000;
    await handle(await post(forecastEvent('completed').body));
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[1]![0]).toContain('9 more since the last');
  });

  it('tell an outage at once when the last failure is a minute old, whatever kind of call it was', async () => {
    let now = 0;
    const warn = vi.fn();
    const down = new Set(['unclaim']);
    const handle = createWebhookHandler(SECRET, () => Promise.reject(new Error('handler down')), { coordinator: failingOn(down), logger: { warn } as never, clock: () => now });
    await handle(await post(forecastEvent('completed').body)).catch(() => undefined);
    expect(warn).toHaveBeenCalledTimes(1);
    now = 120_000;
    down.clear();
    down.add('publish').add('claim');
    await handle(await post(forecastEvent('completed').body)).catch(() => undefined);
    expect(warn).toHaveBeenCalledTimes(2);
  });
});

describe('createWebhookHandler with a deduper of its own (docs/webhooks.md, "Duplicates and order")', () => {
  // Without a coordinator the route runs its handler for every repeat: the docs show the check to add.
  it('runs the handler once for two calls of one delivery, again after a failure, and answers 200 to each', async () => {
    const seen = createDeliveryDeduper();
    const handled: string[] = [];
    let fail = true;
    const route = createWebhookHandler(SECRET, async (event, request) => {
      const deliveryId = request.headers.get(DELIVERY_ID_HEADER)!;
      if (seen.seen(deliveryId)) return;
      try {
        if (fail) throw new Error('database down');
        handled.push(event.id);
      } catch (err) {
        seen.forget(deliveryId);
        throw err;
      }
    });
    const { body } = forecastEvent('completed');
    await expect(route(await post(body))).rejects.toThrow('database down');
    fail = false;
    const answers = [await route(await post(body)), await route(await post(body))];
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(handled).toHaveLength(1);
  });

  it('runs it for every repeat without that check', async () => {
    let runs = 0;
    const route = createWebhookHandler(SECRET, () => void runs++);
    const { body } = forecastEvent('completed');
    for (let i = 0; i < 2; i++) expect((await route(await post(body))).status).toBe(200);
    expect(runs).toBe(2);
  });
});
