// GET /__mock/forecasts/activity over HTTP: what a test in another language reads to prove its client
// kept within the service's limits, refusals inside a 202 batch answer included (the request log
// shows the 202 only).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { ManualClock, mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';

let mock: MockServer;
let client: ForecastingClient;
beforeAll(async () => {
  mock = await startMockServer({ clock: new ManualClock(), httpControls: true });
  client = new ForecastingClient({ ...mockClientOptions(mock), logLevel: 'off' });
});
afterAll(() => mock.close());

const activity = async (key = mock.apiKey) => {
  const res = await fetch(`${new URL(mock.baseURL).origin}/__mock/forecasts/activity`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('GET /__mock/forecasts/activity', () => {
  it('counts starts, those running and a batch item refused inside a 202 answer, as forecastControls.activity() does', async () => {
    const before = await activity();
    expect(before).toEqual({ status: 200, body: { id: expect.any(String), started: 0, active: 0, maxActive: 0, maxActiveAt: null, refused: {} } });
    const question = await client.questions.create({ type: 'binary', title: 'Will the batch be refused in part?' });
    // Two items on one question: the second is refused (one forecast at a time per question), inside a 202.
    const batch = await client.forecasts.createBatch({ items: [{ questionId: question.id }, { questionId: question.id }] });
    expect(batch.counts).toEqual({ total: 2, accepted: 1, rejected: 1 });
    const after = await activity();
    expect(after.body).toEqual({ ...mock.service.forecastControls.activity(), maxActiveAt: expect.any(Number) });
    expect(after.body).toMatchObject({ started: 1, active: 1, maxActive: 1, refused: { forecast_already_running: 1 } });
    expect(mock.service.requests.list().map((r) => r.status)).toEqual([201, 202]);
  });

  it('takes the mock key like every control route: without one, a 401 with the error envelope', async () => {
    const res = await fetch(`${new URL(mock.baseURL).origin}/__mock/forecasts/activity`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
  });
});
