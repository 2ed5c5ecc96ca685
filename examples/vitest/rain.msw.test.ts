// The same code tested inside fetch with msw: no port, no socket. The mock service answers every
// request below the base URL; anything else fails the test (onUnhandledRequest: 'error').
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { ForecastingClient } from 'forecasting-sdk';
import { clientClockFor, createMockService } from 'forecasting-sdk/testing';
import { mockHandlers } from 'forecasting-sdk/testing/msw';
import { chanceOfRain } from './rain.js';

const baseURL = 'https://forecasting.example/api/v1/external';
const service = createMockService(); // a ManualClock: time moves only when something moves it
const server = setupServer(...mockHandlers(service, { baseURL }));
// The client's waits move the mock's clock, so the forecast completes without real waiting.
const client = new ForecastingClient({ apiKey: service.apiKey, baseURL, clock: clientClockFor(service.clock) });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => service.reset());
afterAll(() => server.close());

it('answers a probability, with requests that never left the process', async () => {
  const chance = await chanceOfRain(client, 'Berlin');
  expect(chance).toBeGreaterThanOrEqual(0);
  expect(chance).toBeLessThanOrEqual(1);
  expect(service.requests.count({ operation: 'forecasts.create' })).toBe(1);
});

it('sees the error class the service’s answer maps to', async () => {
  service.faults.add({ operation: 'questions.create', status: 403, type: 'permission_denied', message: 'questions:write is missing' });
  await expect(chanceOfRain(client, 'Madrid')).rejects.toMatchObject({ name: 'PermissionDeniedError', status: 403 });
});
