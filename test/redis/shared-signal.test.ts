// Many commands on one signal: a wait's reads share its signal, and each sends a take to Redis. Node
// warns of a leak past 10 listeners on one signal; the link keeps one per signal however many wait.
import { describe, expect, it } from 'vitest';
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
});
