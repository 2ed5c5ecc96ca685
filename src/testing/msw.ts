/**
 * The mock service inside `fetch`, through msw: no port, no socket. The only module that imports
 * msw (an optional peer dependency); import it from `forecasting-sdk/testing/msw`.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { ForecastingClient } from 'forecasting-sdk';
 * import { createMockService } from 'forecasting-sdk/testing';
 * import { mockHandlers } from 'forecasting-sdk/testing/msw';
 *
 * const service = createMockService();
 * const baseURL = 'https://forecasting.example/api/v1/external';
 * setupServer(...mockHandlers(service, { baseURL })).listen({ onUnhandledRequest: 'error' });
 * const client = new ForecastingClient({ apiKey: service.apiKey, baseURL });
 * console.log((await client.questions.list()).data); // []
 * ```
 * @module
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { MockConnectionDropped } from './faults.js';
import type { MockService } from './service.js';

/**
 * Options of {@link mockHandlers}.
 * @example
 * ```ts
 * const options: MockHandlersOptions = { baseURL: 'https://forecasting.example/api/v1/external' };
 * setupServer(...mockHandlers(service, options));
 * ```
 */
export interface MockHandlersOptions {
  /**
   * The base address the client is configured with, ending in `/api/v1/external`
   * (for example `https://forecasting.example/api/v1/external`). Requests below it reach the service.
   */
  baseURL: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * msw handlers that send every request below `baseURL` to `service`. A fault that drops the
 * connection answers `HttpResponse.error()` (the client sees a network error).
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMockService } from 'forecasting-sdk/testing';
 * import { mockHandlers } from 'forecasting-sdk/testing/msw';
 *
 * const service = createMockService();
 * const server = setupServer(...mockHandlers(service, { baseURL: 'https://forecasting.example/api/v1/external' }));
 * server.listen({ onUnhandledRequest: 'error' });
 * ```
 */
export function mockHandlers(service: MockService, options: MockHandlersOptions): HttpHandler[] {
  const base = options.baseURL.replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+\/api\/v1\/external$/.test(base)) {
    throw new TypeError(`baseURL must be an http(s) address ending in /api/v1/external, got ${options.baseURL}`);
  }
  // msw matches a RegExp against the address without its query; every path below the base matches.
  const below = new RegExp(`^${escapeRegExp(base)}/.*$`);
  return [
    http.all(below, async ({ request }) => {
      try {
        return await service.handle(request);
      } catch (err) {
        if (err instanceof MockConnectionDropped) return HttpResponse.error();
        throw err;
      }
    }),
  ];
}
