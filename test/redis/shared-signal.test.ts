// Many commands on one signal: a wait's reads share its signal, and each sends a take to Redis. Node
// warns of a leak past 10 listeners on one signal; the link keeps one per signal however many wait.
// And a waiting start's many sleeps on one long-lived signal: AbortSignal.any left an entry in it
// for each, which Node 20 never drops.
import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { ClientClock } from '../../src/core/clock.js';
import { sleep } from '../../src/core/clock.js';
import { testClock } from './_clock.js';
import { processOn, useRedis } from './_setup.js';

const redis = useRedis();

describe('commands sharing one signal', () => {
  it('add one abort listener to it, not one each: no MaxListenersExceededWarning with 50 takes at once', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const { coordinator } = await processOn(redis, testClock(), { prefix: 'shared-signal', requestsPerMinute: 1_000 });
      const signal = new AbortController().signal;
      const ends = await Promise.all(Array.from({ length: 50 }, () => coordinator.take('requests', signal)));
      for (const end of ends) if (typeof end === 'function') end();
      // Warnings are emitted on the next turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('still ends every command waiting on it when it aborts, and a later command listens again', async () => {
    const { coordinator, client } = await processOn(redis, testClock(), { prefix: 'shared-signal-abort', commandTimeoutMs: 10_000 });
    // Redis holds its answers: every take waits on the signal.
    await client.sendCommand(['CLIENT', 'PAUSE', '2000', 'ALL']);
    const stop = new AbortController();
    const takes = Array.from({ length: 12 }, () => coordinator.take('requests', stop.signal).then(() => 'taken', () => 'aborted'));
    stop.abort();
    expect(await Promise.all(takes)).toEqual(Array(12).fill('aborted'));
    await client.sendCommand(['CLIENT', 'UNPAUSE']).catch(() => undefined);
    const again = new AbortController();
    await expect(coordinator.take('requests', again.signal)).resolves.not.toThrow();
  });

  it('holds waiting in line on one signal add one listener to it, and a waiting start leaves it no entry per try', async () => {
    // Real time, with the service's time 600 times faster: the waiting start tries every 50 ms.
    const fast: ClientClock = { now: () => Date.now(), sleep, serviceTimeScale: 600 };
    const { coordinator } = await processOn(redis, fast, { prefix: 'shared-signal-holds', maxActive: 1 });
    await (await coordinator.hold(1)).bind(['t_running']);
    const app = new AbortController();
    let asked = 0;
    const waiting = Array.from({ length: 12 }, () => coordinator.hold(1, { signal: app.signal, reconcile: async () => (asked++, []) }).catch((err: unknown) => err));
    await vi.waitFor(() => expect(asked).toBeGreaterThan(0));
    const dependants = () => {
      const key = Object.getOwnPropertySymbols(app.signal).find((s) => String(s) === 'Symbol(kDependantSignals)');
      return key ? ((app.signal as unknown as Record<symbol, Set<unknown> | undefined>)[key]?.size ?? 0) : 0;
    };
    const before = dependants();
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Some ten tries in half a second: each sleep used to leave an entry (AbortSignal.any).
    expect(dependants() - before).toBe(0);
    expect(getEventListeners(app.signal, 'abort')).toHaveLength(1);
    app.abort(new Error('stop'));
    expect((await Promise.all(waiting)).map((e) => (e as Error).message)).toEqual(Array(12).fill('stop'));
  });
});
