// The forecast lifecycle through the msw adapter: a user's unit test waits for a forecast in-process,
// on the mock's time. msw intercepts fetch in this file only.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { clientClockFor, createMockService } from '../../src/testing/index.js';
import { mockHandlers } from '../../src/testing/msw.js';

const baseURL = 'https://forecasting.example/api/v1/external';
const service = createMockService();
const server = setupServer(...mockHandlers(service, { baseURL }));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => service.reset());
afterAll(() => server.close());

it('creates and waits for a deep forecast through msw, on the mock clock', async () => {
  const client = new ForecastingClient({ apiKey: service.apiKey, baseURL, clock: clientClockFor(service.clock), logLevel: 'off' });
  const q = await client.questions.create({ type: 'numeric', title: 'Brent on 1 June?', lowerBound: 40, upperBound: 140, scaleType: 'linear' });
  const startedAt = service.clock.now();
  const task = await client.forecasts.createAndWait({ questionId: q.id, runMode: 'deep' }, { waitForReport: true });
  expect(task).toMatchObject({ status: 'completed', forecast: { forecastData: { questionType: 'numeric' }, report: { status: 'completed' } } });
  expect(service.clock.now() - startedAt).toBeGreaterThanOrEqual(60 * 60_000);
  expect(service.requests.list().map((r) => r.operation)).toContain('forecasts.retrieve');
});
