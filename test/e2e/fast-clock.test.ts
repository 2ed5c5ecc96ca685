// The mock's default fast clock and the waits the SDK chooses itself. The mock states Retry-After on
// answers that start forecasts (its own choice: the spec states it on reads only), in real seconds,
// so runMany's first read on the default server is the mock's wait, not the client's 15 s fallback;
// and the SDK stays correct against a service that states none.
import { afterEach, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { DEFAULT_SERVER_TIME_SCALE, ManualClock, mockClientOptions, ScaledClock, startMockServer, type MockServer } from '../../src/testing/index.js';

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const plainClient = (m: MockServer) => new ForecastingClient({ apiKey: m.apiKey, baseURL: m.baseURL, logLevel: 'off' });
const questions = (client: ForecastingClient, n: number, title: string) => Promise.all(Array.from({ length: n }, (_, i) => client.questions.create({ type: 'binary', title: `${title} ${i}` })));

describe('Retry-After on answers that start forecasts', () => {
  it('is the queued 15 s on a manual clock, and its real share (1 s) at the default 600x; none when nothing started', async () => {
    for (const options of [{ clock: new ManualClock() }, {}]) {
      mock = await startMockServer(options);
      const client = plainClient(mock);
      const [a, b, c] = await questions(client, 3, 'Stated wait');
      const expected = options.clock ? '15' : '1';
      const single = await client.forecasts.create({ questionId: a!.id }).withResponse();
      const batch = await client.forecasts.createBatch({ items: [{ questionId: b!.id }] }).withResponse();
      const onQuestion = await client.questions.forecasts.create(c!.id, {}).withResponse();
      expect([single, batch, onQuestion].map((r) => [r.response.status, r.response.headers.get('retry-after')])).toEqual([
        [202, expected],
        [202, expected],
        [202, expected],
      ]);
      const refused = await client.forecasts.createBatch({ items: [{ questionId: a!.id }] }).withResponse();
      expect(refused.data.items[0]?.status).toBe('rejected');
      expect(refused.response.headers.get('retry-after')).toBeNull();
      await mock.close();
      mock = undefined;
    }
  });
});

describe('runMany on the default startMockServer(), with a client that knows nothing of its clock', () => {
  it('runs 20 light forecasts (half a real second each) in a few seconds, not over 15', async () => {
    mock = await startMockServer();
    const client = plainClient(mock);
    const ids = (await questions(client, 20, 'Fast run')).map((q) => q.id);
    const began = performance.now();
    const results = [];
    for await (const r of client.forecasts.runMany(ids.map((questionId) => ({ questionId, runMode: 'light' as const })))) results.push(r);
    expect(results.filter((r) => r.status === 'completed')).toHaveLength(20);
    expect(performance.now() - began).toBeLessThan(6000);
  });
});

describe('a service that states no Retry-After on a start, as the spec’s', () => {
  it('runMany reads a new forecast 15 s after its start, the spec’s queued wait, and completes', async () => {
    mock = await startMockServer({ clock: new ManualClock() });
    const base = mockClientOptions(mock);
    // The spec's service: no Retry-After on a start.
    const fetchStripped: typeof fetch = async (input, init) => {
      const res = await base.fetch(input, init);
      if (init?.method !== 'POST') return res;
      const headers = new Headers(res.headers);
      headers.delete('retry-after');
      return new Response(await res.arrayBuffer(), { status: res.status, headers });
    };
    const client = new ForecastingClient({ ...base, fetch: fetchStripped, logLevel: 'off' });
    const ids = (await questions(client, 3, 'Spec start')).map((q) => q.id);
    mock.service.requests.clear();
    const start = mock.clock.now();
    const results = [];
    for await (const r of client.forecasts.runMany(ids.map((questionId) => ({ questionId, runMode: 'light' as const })))) results.push(r);
    expect(results.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
    const [batch] = mock.service.requests.list({ operation: 'forecasts.createBatch' });
    const [firstRead] = mock.service.requests.list({ operation: 'forecasts.list' });
    expect([batch!.at - start, firstRead!.at - start]).toEqual([0, 15_000]);
  });
});

describe('an outage of the default startMockServer()', () => {
  it('a plain client’s wait rides out a second of refused connections and resolves within seconds', async () => {
    // The default server's clock, passed in so that closing the first server leaves it running.
    const clock = new ScaledClock({ timeScale: DEFAULT_SERVER_TIME_SCALE });
    mock = await startMockServer({ clock });
    const client = plainClient(mock);
    const [q] = await questions(client, 1, 'Real outage');
    const task = await client.forecasts.create({ questionId: q!.id, runMode: 'light' });
    const { service } = mock;
    const port = Number(new URL(mock.baseURL).port);
    const retries: string[] = [];
    client.on('retry', (e) => retries.push(e.error));
    const began = performance.now();
    const waiting = client.forecasts.wait(task.id);
    await new Promise((r) => setTimeout(r, 100));
    await mock.close();
    await new Promise((r) => setTimeout(r, 1000));
    mock = await startMockServer({ service, port });
    await expect(waiting).resolves.toMatchObject({ status: 'completed' });
    expect(retries.length).toBeGreaterThan(0);
    expect(performance.now() - began).toBeLessThan(5000);
    clock.stop();
  });
});

describe("the client's own rateLimit on the default startMockServer()", () => {
  it('counts a minute of the mock (a tenth of a second): 70 requests at 60 a minute go in about a second, none refused', async () => {
    mock = await startMockServer({ rateLimit: { requestsPerMinute: 60 } });
    const client = new ForecastingClient({ ...mockClientOptions(mock), rateLimit: { requestsPerMinute: 60 }, maxRetries: 0, logLevel: 'off' });
    const began = performance.now();
    await Promise.all(Array.from({ length: 70 }, () => client.tags.list()));
    expect(mock.service.requests.count({ operation: 'tags.list', status: 200 })).toBe(70);
    expect(performance.now() - began).toBeLessThan(5_000);
  });
});
