// A base URL without /api/v1/external: allowed (a proxy may serve the service at another path), but
// the client warns when it is built, and a 404 names the URL requested and the missing path.
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { ForecastingClient, NotFoundError, type Logger } from '../../src/index.js';
import { apiError, KEY, question, useMswServer } from './helpers.js';

const { server } = useMswServer();

function build(baseURL: string) {
  const warn = vi.fn<Logger['warn']>();
  const client = new ForecastingClient({ apiKey: KEY, baseURL, maxRetries: 0, logger: { debug: vi.fn(), info: vi.fn(), warn, error: vi.fn() } });
  return { client, warnings: () => warn.mock.calls.map(([line]) => line) };
}

describe('a base URL without /api/v1/external', () => {
  it('warns once when the client is built, saying where requests go', () => {
    const { warnings } = build('https://forecasts.example.com');
    expect(warnings()).toEqual([
      '[forecasting-sdk] baseURL https://forecasts.example.com does not end in /api/v1/external: requests go to https://forecasts.example.com/…, not https://forecasts.example.com/api/v1/external/…. Fine for a proxy at another path; otherwise add /api/v1/external.',
    ]);
  });

  it('says nothing for a base URL that ends in it, with or without a trailing slash', () => {
    expect(build('https://forecasts.example.com/api/v1/external').warnings()).toEqual([]);
    expect(build('https://forecasts.example.com/api/v1/external/').warnings()).toEqual([]);
  });

  it('names the full URL requested in a 404, and the path that may be missing', async () => {
    server.use(http.get('https://forecasts.example.com/questions/q1', () => apiError(404, 'not_found', 'No route for GET /questions/q1')));
    const err = await build('https://forecasts.example.com').client.questions.retrieve('q1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toBe(
      '404 not_found: No route for GET /questions/q1 (GET /questions/q1); requested https://forecasts.example.com/questions/q1: is /api/v1/external missing from baseURL?',
    );
  });

  it('leaves a 404 alone when the base URL ends in it (the id is wrong, not the address)', async () => {
    server.use(http.get('https://forecasts.example.com/api/v1/external/questions/q1', () => apiError(404, 'not_found', 'No question q1')));
    const err = await build('https://forecasts.example.com/api/v1/external').client.questions.retrieve('q1').catch((e: unknown) => e);
    expect((err as Error).message).not.toContain('requested');
  });

  it('still works through a proxy at another path', async () => {
    server.use(http.get('https://proxy.example.com/forecasting/questions/q1', () => HttpResponse.json(question('q1'))));
    await expect(build('https://proxy.example.com/forecasting').client.questions.retrieve('q1')).resolves.toMatchObject({ id: 'q1' });
  });
});
