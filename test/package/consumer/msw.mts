// ./testing/msw as an ES module: the mock service inside fetch, through msw's own types.
import { setupServer } from 'msw/node';
import type { HttpHandler } from 'msw';
import { ForecastingClient } from 'forecasting-sdk';
import { createMockService } from 'forecasting-sdk/testing';
import { mockHandlers } from 'forecasting-sdk/testing/msw';

export async function run(): Promise<string> {
  const baseURL = 'https://forecasting.example/api/v1/external';
  const service = createMockService();
  const handlers: HttpHandler[] = mockHandlers(service, { baseURL });
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const client = new ForecastingClient({ apiKey: 'pre_consumer', baseURL });
    return (await client.questions.retrieve('q_1')).title;
  } finally {
    server.close();
  }
}
