// Testing your own code against the mock service over real HTTP, on a manual clock: the client's
// waits move the mock's time, so a forecast completes in milliseconds and every run is the same.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ForecastingClient } from 'forecasting-sdk';
import { ManualClock, mockClientOptions, startMockServer, type MockServer } from 'forecasting-sdk/testing';
import { chanceOfRain, forecastChance } from './rain.js';

let mock: MockServer;
let client: ForecastingClient;
beforeAll(async () => {
  mock = await startMockServer({ clock: new ManualClock() });
  client = new ForecastingClient({ ...mockClientOptions(mock), maxRetries: 1 });
});
afterEach(() => mock.service.reset());
afterAll(() => mock.close());

describe('chanceOfRain', () => {
  it('answers a probability from a completed forecast', async () => {
    const chance = await chanceOfRain(client, 'Paris');
    expect(chance).toBeGreaterThanOrEqual(0);
    expect(chance).toBeLessThanOrEqual(1);
    // What reached the service: one question, one forecast, then reads no faster than it asked.
    expect(mock.service.requests.count({ operation: 'questions.create' })).toBe(1);
    expect(mock.service.requests.count({ operation: 'forecasts.create' })).toBe(1);
    expect(mock.service.store.questions.list()[0]?.question).toMatchObject({ title: 'Will it rain in Paris tomorrow?', tags: [{ slug: 'weather' }] });
  });

  it('retries a 503 once, as the SDK does, and still answers', async () => {
    mock.service.faults.add({ operation: 'questions.create', status: 503 });
    await expect(chanceOfRain(client, 'Oslo')).resolves.toBeTypeOf('number');
    expect(mock.service.requests.count({ operation: 'questions.create' })).toBe(2);
  });

  it('reports a failed forecast as an error', async () => {
    const question = await client.questions.create({ type: 'binary', title: 'Will it rain in Lima tomorrow?' });
    mock.service.forecastControls.setOutcome(question.id, { task: 'failed', message: 'no data for Lima' });
    await expect(forecastChance(client, question.id)).rejects.toThrow('The forecast ended failed: no data for Lima');
  });

  it('waits for the forecast already running instead of starting a second', async () => {
    const question = await client.questions.create({ type: 'binary', title: 'Will it rain in Rome tomorrow?' });
    const running = await client.forecasts.create({ questionId: question.id });
    await expect(forecastChance(client, question.id)).resolves.toBeTypeOf('number');
    expect(mock.service.store.forecasts.list().map((t) => t.id)).toEqual([running.id]);
  });
});
