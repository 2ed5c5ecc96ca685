// One signal handed to many calls (a shutdown signal, AbortSignal.timeout() for a batch), against the
// mock over HTTP: Node warned "Possible EventTarget memory leak detected" past ten calls in flight
// or waiting on it (a listener each). The SDK now keeps one listener per signal, and removes it.
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(() => mock.close());

/** Runs `fn`, and the process warnings it caused by the next turn of the event loop. */
async function warningsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => void warnings.push(warning.name);
  process.on('warning', onWarning);
  try {
    await fn();
    await new Promise((resolve) => setImmediate(resolve));
    return warnings;
  } finally {
    process.off('warning', onWarning);
  }
}

describe('one signal shared by many calls', () => {
  it('30 calls in flight at once: no MaxListenersExceededWarning, and no listener left after', async () => {
    const client = new ForecastingClient({ ...mockClientOptions(mock), logLevel: 'off' });
    const shutdown = new AbortController();
    const warnings = await warningsOf(() => Promise.all(Array.from({ length: 30 }, () => client.tags.list({}, { signal: shutdown.signal }))));
    expect(warnings).not.toContain('MaxListenersExceededWarning');
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
  });

  it("30 calls waiting their turn in the client's rateLimit: no warning, and an abort ends every one with its reason", async () => {
    const client = new ForecastingClient({ ...mockClientOptions(mock), logLevel: 'off', rateLimit: { requestsPerMinute: 5 } });
    const shutdown = new AbortController();
    let settled: PromiseSettledResult<unknown>[] = [];
    const warnings = await warningsOf(async () => {
      const calls = Array.from({ length: 30 }, () => client.tags.list({}, { signal: shutdown.signal }));
      await new Promise((resolve) => setImmediate(resolve));
      shutdown.abort(new Error('shutting down'));
      settled = await Promise.allSettled(calls);
    });
    expect(warnings).not.toContain('MaxListenersExceededWarning');
    const reasons = settled.flatMap((s) => (s.status === 'rejected' ? [(s.reason as Error).message] : []));
    expect(reasons.length).toBeGreaterThan(0);
    expect(new Set(reasons)).toEqual(new Set(['shutting down']));
  });
});
