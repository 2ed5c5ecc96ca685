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
export { startMockServer, DEFAULT_SERVER_TIME_SCALE } from './server.js';
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
export { MAX_JSON_BODY_BYTES, MAX_JSON_UPLOAD_BODY_BYTES, MAX_MULTIPART_BODY_BYTES, MAX_JSON_DEPTH, MAX_LOGGED_BODY_BYTES } from './input.js';
export { MockEventBus } from './events.js';
export { MOCK_CONTROLS, MOCK_CONTROL_PREFIX, MAX_CONTROL_BODY_BYTES, mockControlsMarkdown } from './control.js';
export type { MockControlRoute } from './control.js';
export { withMockControls } from './openapi.js';
export { clientClockFor, mockClientOptions } from './client-clock.js';
export { ForecastControls } from './models/forecasts/controls.js';
export { FORECAST_ACTIVITY } from './models/forecasts/activity.js';
export type { ForecastActivityRecord } from './models/forecasts/activity.js';
export { TASK_TRANSITIONS, REPORT_TRANSITIONS, RUN_MODE_PLANS, FORECAST_OUTCOMES } from './models/forecasts/task.js';
export type { ForecastOutcome } from './models/forecasts/task.js';
export { CONTEXT_FILES, CONTEXT_NOTES, FILE_TRANSITIONS, FILE_PROCESSING_MS } from './models/context/files.js';
export type { ContextFileRecord, ContextNoteRecord } from './models/context/files.js';
export { ContextControls, UploadSwitch } from './models/context/controls.js';
export { PRESETS, PRESET_DEFAULTS } from './models/presets.js';
export type { PresetRecord, PresetDefaultRecord } from './models/presets.js';
export type { CreditsRecord } from './models/credits.js';
export { PRICES, DEFAULT_BALANCE } from './models/credits.js';
export { forecastDataFor } from './models/forecasts/data.js';
export type { MockForecastEvent, MockEventListener } from './events.js';
export { MockWebhookEngine, WEBHOOK_RETRY_DELAYS_MS, WEBHOOK_USER_AGENT } from './webhooks/engine.js';
export type { MockWebhookOptions } from './webhooks/engine.js';
export { WEBHOOKS, WEBHOOK_DELIVERIES, WEBHOOK_ATTEMPTS } from './webhooks/records.js';
export type { MockWebhookCall, WebhookRecord, WebhookDeliveryRecord, WebhookAttemptRecord } from './webhooks/records.js';
export { DecisionControls, DECISIONS, LINK_OUTCOMES, GENERATION_MS, LINK_DRAFT_MS, DRAFTS_PER_GENERATION } from './models/decision.js';
export type { DecisionRecord, DecisionLinkRecord, LinkOutcome } from './models/decision.js';
export { PRICE_CHANGES, priceOf } from './models/credits.js';
export { BUILTIN_TEMPLATES, QUESTION_TEMPLATES, TEMPLATE_FILES, TEMPLATE_FILE_PROCESSING_MS } from './models/templates.js';
export type { TemplateRecord, TemplateFileRecord } from './models/templates.js';
export { ConnectionControls, CONNECTIONS, SIMULATED_HOSTS } from './models/connections.js';
export type { ConnectionRecord, SimulatedHost } from './models/connections.js';
export { SHARE_LINKS, SUBSCRIPTIONS } from './models/sharing.js';
export type { SubscriptionRecord } from './models/sharing.js';
