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
// What a test needs: the service, the server, the clocks, the client's options, and the names the
// guides show (limits, timings and the store's collections a test reads). The types are those of
// the service's public members. Everything else is internal: our own tests import it from its file.
export { createMockService, MockService } from './service.js';
export type { MockServiceOptions, RateLimitSetting } from './service.js';
export type { MockControls } from './controls.js';
export { startMockServer, DEFAULT_SERVER_TIME_SCALE } from './server.js';
export { MAX_HELD_BODY_BYTES } from './server-guard.js';
export type { MockServer, MockServerOptions } from './server.js';
export { ManualClock, ScaledClock } from './clock.js';
export type { MockClock, ScheduledCallback, ScaledClockOptions } from './clock.js';
export { FaultInjector, MockConnectionDropped } from './faults.js';
export type { ActiveFault, FaultRule } from './faults.js';
export type { RequestLog, RecordedRequest, RequestFilter } from './request-log.js';
export type { MockApiKey } from './auth.js';
export { clientClockFor, mockClientOptions } from './client-clock.js';
// The control surface of `forecasting mock` (the CLI reads it from here).
export { MOCK_CONTROL_PREFIX } from './control.js';
export { withMockControls } from './openapi.js';
// Input limits (docs/testing.md).
export { MAX_JSON_BODY_BYTES, MAX_JSON_UPLOAD_BODY_BYTES, MAX_MULTIPART_BODY_BYTES, MAX_JSON_DEPTH, MAX_LOGGED_BODY_BYTES } from './input.js';
// Lifecycles and timings the guides name.
export { TASK_TRANSITIONS, REPORT_TRANSITIONS } from './models/forecasts/task.js';
export { forecastDataFor } from './models/forecasts/data.js';
export { PRICES } from './models/credits.js';
export { FILE_PROCESSING_MS, CONTEXT_NOTES } from './models/context/files.js';
export { GENERATION_MS, LINK_DRAFT_MS } from './models/decision.js';
export { BUILTIN_TEMPLATES, QUESTION_TEMPLATES, TEMPLATE_FILES, TEMPLATE_FILE_PROCESSING_MS } from './models/templates.js';
export { CONNECTIONS } from './models/connections.js';
export { SHARE_LINKS, SUBSCRIPTIONS } from './models/sharing.js';
// The types of the service's public members (`service.store`, `service.controls`, …).
export type { Collection, CollectionKey, ForecastRecord, MockStore, Ownership, QuestionRecord } from './store.js';
export type { MockEventBus, MockForecastEvent, MockEventListener } from './events.js';
export type { MockWebhookEngine, MockWebhookOptions } from './webhooks/engine.js';
export type { MockWebhookCall } from './webhooks/records.js';
export type { ForecastControls } from './models/forecasts/controls.js';
export type { ForecastOutcome } from './models/forecasts/task.js';
export type { ForecastActivityRecord } from './models/forecasts/activity.js';
export type { CreditsRecord } from './models/credits.js';
export type { ContextControls } from './models/context/controls.js';
export type { ContextFileRecord, ContextNoteRecord } from './models/context/files.js';
export type { DecisionControls } from './models/decision.js';
export type { ConnectionControls, ConnectionRecord } from './models/connections.js';
export type { TemplateRecord, TemplateFileRecord } from './models/templates.js';
export type { SubscriptionRecord } from './models/sharing.js';
