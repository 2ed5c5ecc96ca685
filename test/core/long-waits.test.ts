// A call that waits for the fleet's budget or a slot for more than a few seconds says so once at
// `info`: how long, and why. Measured on the client's clock (a test's manual clock here).
import { describe, expect, it } from 'vitest';
import type { ClientClock } from '../../src/core/clock.js';
import type { Coordinator, SlotHold } from '../../src/core/coordination.js';
import type { Operation } from '../../src/core/operation.js';
import { Call } from '../../src/core/pipeline.js';
import { infoOnLongWaits, LONG_WAIT_MS, sharedBudgetStep, slotsStep } from '../../src/core/pipeline-slots.js';
import type { Received } from '../../src/core/transport.js';

let now = 0;
const clock: ClientClock = { simulated: true, now: () => now, sleep: async () => undefined };

/** A coordinator whose take and hold each take `ms` of the clock. */
function slow(takeMs: number, holdMs: number): Coordinator {
  const hold: SlotHold = { count: 1, bind: async () => undefined, release: async () => undefined };
  return {
    attach: () => {},
    take: async () => void (now += takeMs),
    hold: async () => ((now += holdMs), hold),
    settle: async () => undefined,
    watch: () => () => {},
    receiving: () => false,
    stats: () => Promise.reject(new Error('not asked')),
  };
}

const start = { sdkMethod: 'forecasts.create', windows: ['requests'], starts: { slots: () => 1, taskIds: () => ['t1'] } } as unknown as Operation;
const newCall = () => {
  const c = new Call(start, 'POST', '/forecasts', undefined, {}, {}, undefined);
  c.request = { method: 'POST', path: '/forecasts', query: undefined, body: undefined, headers: {} };
  return c;
};
const answer = (): Received => ({ response: new Response(null, { status: 202 }), text: '{"taskId":"t1"}', request: 'POST /forecasts' });

describe('long waits for the coordinator', () => {
  it('logs a wait for the shared request budget once per call, with how long and why', async () => {
    const lines: string[] = [];
    const waited = infoOnLongWaits((m) => lines.push(m));
    const step = sharedBudgetStep(slow(LONG_WAIT_MS + 1_000, 0), () => {}, clock, waited);
    const call = newCall();
    // Two attempts of one call, each waiting: one line.
    await step(call, async () => answer());
    await step(call, async () => answer());
    expect(lines).toEqual(['forecasts.create waited 6.0 s for the shared request budget (requestsPerMinute of this key, across every process of the fleet) before it was sent.']);
  });

  it('logs a wait for an active-forecast slot, and nothing for a short wait', async () => {
    const lines: string[] = [];
    const waited = infoOnLongWaits((m) => lines.push(m));
    await sharedBudgetStep(slow(LONG_WAIT_MS - 1, 0), () => {}, clock, waited)(newCall(), async () => answer());
    expect(lines).toEqual([]);
    await slotsStep(slow(0, 42_000), undefined, () => {}, clock, waited)(newCall(), async () => answer());
    expect(lines).toEqual([expect.stringMatching(/^forecasts\.create waited 42\.0 s for an active-forecast slot \(maxActive forecasts run at once across the fleet/)]);
  });
});
