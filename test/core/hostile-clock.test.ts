// Hostile review of `ClientClock.serviceTimeScale`: values the option check lets through (a
// positive finite number, however tiny) and getters that misbehave after it read them. Each held
// a defect, fixed with it.
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { serviceMinuteMs, type ClientClock } from '../../src/core/clock.js';
import { RequestBudget } from '../../src/core/request-budget.js';
import { BASE, makeClient, question, useMswServer } from './helpers.js';
import { settlesWithin } from '../_timing.js';

const { server } = useMswServer();

/** A clock as many apps write one: `sleep` on a bare `setTimeout` (unref'd here, so a long one never holds the test). */
const bareClock = (serviceTimeScale: number): ClientClock => ({
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => void setTimeout(resolve, ms).unref()),
  serviceTimeScale,
});

describe("a tiny serviceTimeScale: the service's minute is no longer than a timer holds", () => {
  // 1e-9 made the minute 6e13 ms, and 5e-324 (a positive finite number) made it Infinity: the
  // budget's sleep passed 2^31-1 ms, which a bare setTimeout fires after 1 ms, and the budget then
  // granted the next slot at once: a client limited to 1 request a minute sent one a millisecond.
  it.each([1e-9, Number.MIN_VALUE])('a budget of 1 a minute on a bare-setTimeout clock does not grant a second slot at once (scale %s)', async (scale) => {
    const budget = new RequestBudget(1, bareClock(scale));
    await budget.acquire();
    const controller = new AbortController();
    const second = budget.acquire(controller.signal);
    expect(await settlesWithin(second, 100)).toBe(false);
    controller.abort(new Error('done'));
    await expect(second).rejects.toThrow('done');
  });

  it('gives a finite minute of at most a day for every positive scale', () => {
    for (const scale of [1e-9, 1e-300, Number.MIN_VALUE]) {
      const minute = serviceMinuteMs({ now: () => 0, sleep: async () => undefined, serviceTimeScale: scale });
      expect([Number.isFinite(minute), minute <= 24 * 60 * 60_000, minute < 2 ** 31 - 1]).toEqual([true, true, true]);
    }
    // The usual scales are as they were.
    expect(serviceMinuteMs({ now: () => 0, sleep: async () => undefined, serviceTimeScale: 600 })).toBe(100);
    expect(serviceMinuteMs({ now: () => 0, sleep: async () => undefined, serviceTimeScale: 0.5 })).toBe(120_000);
  });
});

describe('a serviceTimeScale getter that throws once the options were checked', () => {
  /** A clock whose scale reads 600 once (the option check), then throws. */
  function brittleClock(): ClientClock {
    let reads = 0;
    return {
      now: () => Date.now(),
      sleep: async () => undefined,
      get serviceTimeScale(): number {
        if (++reads > 1) throw new Error('clock getter broke');
        return 600;
      },
    };
  }

  it('is read as no scale (a real minute), not thrown from serviceMinuteMs', () => {
    const clock = brittleClock();
    void clock.serviceTimeScale;
    expect(serviceMinuteMs(clock)).toBe(60_000);
  });

  // The budget is made at the first request: its constructor threw the getter's error, and every
  // request of the client, that one and all later ones, failed with it.
  it("does not fail every request of a client with a rateLimit with the getter's error", async () => {
    server.use(http.get(`${BASE}/questions/:id`, ({ params }) => HttpResponse.json(question(String(params['id'])))));
    const client = makeClient({ clock: brittleClock(), rateLimit: { requestsPerMinute: 5 } });
    expect((await client.questions.retrieve('q_1')).id).toBe('q_1');
    expect((await client.questions.retrieve('q_2')).id).toBe('q_2');
  });
});
