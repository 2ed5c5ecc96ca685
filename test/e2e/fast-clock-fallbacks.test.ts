// The waits the SDK falls back to when an answer states none, against startMockServer()'s defaults
// with mockClientOptions(mock): the spec's 15 s (queued) and 120 s (running) are the service's time,
// 600 times shorter here. They were taken as real time: waitMany on a task its list does not show
// waited 15 s or 120 s per read, runMany behind a full service held its starts 15 s, and a wait on a
// service stating no Retry-After polled every 15 s.
import { afterEach, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';
import { lateBy } from '../_timing.js';

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('waitMany on a task its list does not show (read alone)', () => {
  it("waits what the task's own read asks, and ends within about a second of a colleague's forecast", async () => {
    mock = await startMockServer();
    const client = new ForecastingClient({ ...mockClientOptions(mock), logLevel: 'off' });
    // A colleague's forecast on a shared question: the caller's list shows its own tasks only.
    const colleagueKey = 'pre_colleague_key_0123456789abcdef';
    mock.service.addApiKey({ key: colleagueKey });
    const colleague = new ForecastingClient({ ...mockClientOptions(mock), apiKey: colleagueKey, logLevel: 'off' });
    const question = await colleague.questions.create({ type: 'binary', title: 'Shared with the organization', visibility: 'organization' });
    const task = await colleague.forecasts.create({ questionId: question.id, runMode: 'light' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const [done] = await client.forecasts.waitMany([task.id]);
    expect(done!.status).toBe('completed');
    expect(mock.service.requests.count({ operation: 'forecasts.retrieve' })).toBeGreaterThan(0);
    expect(lateBy(mock, task.id)).toBeLessThan(2_500);
  });
});

describe('runMany behind a service full of forecasts started elsewhere', () => {
  it('sends its refused batch again after the queued wait of the mock (25 ms, so the least wait: 1 s), not 15 real seconds', async () => {
    mock = await startMockServer();
    const client = new ForecastingClient({ ...mockClientOptions(mock), logLevel: 'off' });
    const ids = (await Promise.all(Array.from({ length: 51 }, (_, i) => client.questions.create({ type: 'binary', title: `Full ${i}` })))).map((q) => q.id);
    // 50 moderate forecasts (15 minutes of the mock: 1.5 s) fill the service; the batch answer states no Retry-After.
    const blockers = await client.forecasts.createMany(ids.slice(0, 50).map((questionId) => ({ questionId, runMode: 'moderate' as const })));
    expect(blockers.filter((b) => b.taskId !== undefined)).toHaveLength(50);
    const began = performance.now();
    const results = [];
    for await (const result of client.forecasts.runMany([{ questionId: ids[50]!, runMode: 'light' as const }])) results.push(result);
    expect(results.map((r) => r.status)).toEqual(['completed']);
    expect(mock.service.forecastControls.activity().refused['too_many_active_forecasts']).toBeGreaterThan(0);
    // The blockers end within about 1.5 s, the run's light forecast half a second after its start.
    expect(performance.now() - began).toBeLessThan(8_000);
  });
});

describe('forecasts.wait against a service that states no Retry-After on its reads', () => {
  it("polls at the spec's 15 s of the service's time (so the least wait: 1 s), not 15 real seconds", async () => {
    mock = await startMockServer();
    const base = mockClientOptions(mock);
    // A server that states no wait on any answer: the client's own interval is all there is.
    const silent: typeof fetch = async (input, init) => {
      const res = await base.fetch(input, init);
      const headers = new Headers(res.headers);
      headers.delete('retry-after');
      return new Response(await res.arrayBuffer(), { status: res.status, headers });
    };
    const client = new ForecastingClient({ ...base, fetch: silent, logLevel: 'off' });
    const question = await client.questions.create({ type: 'binary', title: 'No stated wait' });
    const task = await client.forecasts.create({ questionId: question.id, runMode: 'light' });
    expect((await client.forecasts.wait(task.id)).status).toBe('completed');
    expect(lateBy(mock, task.id)).toBeLessThan(2_500);
  });
});
