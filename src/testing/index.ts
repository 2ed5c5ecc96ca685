/**
 * `forecasting-sdk/testing`: a faithful in-memory mock of the Forecasting Service, to test an
 * integration without the network. Serve it over HTTP with {@link startMockServer}, or inside
 * `fetch` with `mockHandlers` from `forecasting-sdk/testing/msw`.
 *
 * @example
 * ```ts
 * import { startMockServer } from 'forecasting-sdk/testing';
 * const mock = await startMockServer();
 * // point the client at mock.baseURL with mock.apiKey; inspect mock.service.requests
 * await mock.close();
 * ```
 * @module
 */
export { createMockService, MockService } from './service.js';
export type { MockServiceOptions, RateLimitSetting } from './service.js';
export { startMockServer } from './server.js';
export type { MockServer, MockServerOptions } from './server.js';
export { ManualClock, ScaledClock, DEFAULT_START_MS } from './clock.js';
export type { MockClock, ScheduledCallback, ScaledClockOptions } from './clock.js';
export { FaultInjector, MockConnectionDropped } from './faults.js';
export type { ActiveFault, FaultRule } from './faults.js';
export { RequestLog } from './request-log.js';
export type { RecordedRequest, RequestFilter } from './request-log.js';
export { ALL_SCOPES } from './auth.js';
export type { MockApiKey } from './auth.js';
export { Collection, MockStore, collectionKey, FORECASTS, QUESTIONS } from './store.js';
export type { CollectionKey, ForecastRecord, Ownership, QuestionRecord } from './store.js';
export { API_PREFIX } from './router.js';
export { MockEventBus } from './events.js';
export type { MockForecastEvent, MockEventListener } from './events.js';
