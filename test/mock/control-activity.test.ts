// GET /__mock/forecasts/activity over HTTP: what a test in another language reads to prove its client
// kept within the service's limits, refusals inside a 202 batch answer included (the request log
// shows the 202 only).
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { createMockService, ManualClock, mockClientOptions, startMockServer, type MockServer } from '../../src/testing/index.js';
import { controlAnswer } from '../../src/testing/control-openapi.js';

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
    // In the order docs/cli.md shows; POST /__mock/reset empties it.
    expect(Object.keys(after.body)).toEqual(['id', 'started', 'active', 'maxActive', 'maxActiveAt', 'refused']);
    const reset = await fetch(`${new URL(mock.baseURL).origin}/__mock/reset`, { method: 'POST', headers: { authorization: `Bearer ${mock.apiKey}` } });
    expect(reset.status).toBe(204);
    expect((await activity()).body).toMatchObject({ started: 0, active: 0, maxActive: 0, maxActiveAt: null, refused: {} });
  });

  it('takes the mock key like every control route: without one, a 401 with the error envelope', async () => {
    const res = await fetch(`${new URL(mock.baseURL).origin}/__mock/forecasts/activity`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
  });

  it('answers whole ms on a clock advanced by a fraction, as the schemas of the clock, the log and the activity say (held a defect)', async () => {
    const clock = new ManualClock();
    clock.advance(0.5);
    const service = createMockService({ httpControls: true, clock });
    const auth = { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' };
    const api = (path: string, body: unknown) => service.handle(new Request(`http://mock/api/v1/external${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) }));
    const question = (await (await api('/questions', { type: 'binary', title: 'A fraction of a ms' })).json()) as { id: string };
    expect((await api('/forecasts', { questionId: question.id })).status).toBe(202);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    for (const path of ['/clock', '/requests', '/forecasts/activity']) {
      const answer: unknown = await (await service.handle(new Request(`http://mock/__mock${path}`, { headers: auth }))).json();
      expect([path, ajv.validate(controlAnswer('GET', path).schema!, answer) || ajv.errorsText()]).toEqual([path, true]);
    }
  });
});
