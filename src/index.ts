/**
 * forecasting-sdk: the typed client of the Forecasting Service.
 * @module
 */
export { ForecastingClient } from './client.js';
export { operations } from './operations.js';
// Everything of forecasting-sdk/webhooks, from the root too (one class identity: the same modules).
export * from './webhooks/index.js';
export {
  ForecastingError,
  APIError,
  InvalidResponseError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  UploadsDisabledError,
  NotFoundError,
  MethodNotAllowedError,
  ConflictError,
  ForecastAlreadyRunningError,
  ContextNotReadyError,
  IdempotencyInProgressError,
  DecisionConflictError,
  RateLimitError,
  TooManyActiveForecastsError,
  InternalServerError,
  OverloadedError,
  APIConnectionError,
  APITimeoutError,
  ValidationError,
  WebhookVerificationError,
  WaitTimeoutError,
} from './core/errors.js';
export type { APIErrorInit, ErrorExtras, ValidationIssue, WebhookVerificationErrorCode } from './core/errors.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export { Page, PagePromise, MAX_EMPTY_PAGES_IN_A_ROW } from './core/pagination.js';
export { toFile, type Uploadable } from './core/uploads.js';
export type { ClientOptions, RequestOptions } from './core/options.js';
export type { Logger, LogLevel } from './core/logger.js';
export type { ClientEvents, RequestEvent, ResponseEvent, RetryEvent, GenericQueryOptions, GenericBodyOptions } from './core/base-client.js';
export type { HttpMethod, Scope, OperationManifestEntry } from './core/operation.js';
export { Questions } from './resources/questions.js';
export { Tags } from './resources/tags.js';
export { Forecasts, ForecastChat, RunModes, QuestionForecasts } from './resources/forecasts/index.js';
export { QuestionSchedule, QuestionWatch, Schedules, Watches } from './resources/schedules.js';
export { CreditsResource } from './resources/credits.js';
export type { WaitOptions, WaitManyOptions } from './resources/forecasts/waits.js';
export { RUN_MODES, TASK_STATUSES } from './schemas/forecasts.js';
export type { ForecastProgress, ForecastProgressEvents } from './resources/forecasts/progress.js';
export type { TypedEmitter } from './core/emitter.js';
export type { ClientClock } from './core/clock.js';
export type {
  ForecastTask,
  ActiveForecastTask,
  CompletedForecastTask,
  FailedForecastTask,
  CancelledForecastTask,
  TaskConnection,
  ContextNoteInput,
  ForecastListItem,
  Forecast,
  ForecastData,
  BinaryForecastData,
  MultipleChoiceForecastData,
  NumericForecastData,
  DateForecastData,
  DiscreteForecastData,
  Report,
  Source,
  Subforecast,
  RunMode,
  RunModeKey,
  TaskStatus,
  ReportStatus,
  ForecastCreateParams,
  QuestionForecastCreateParams,
  ForecastRetrieveParams,
  ForecastListParams,
  QuestionForecastListParams,
  RunModeListParams,
  ForecastBatchParams,
  ForecastBatchResult,
  BatchItemResult,
  ForecastCancelBatchParams,
  ForecastCancelBatchResult,
  CancelItemResult,
} from './schemas/forecasts.js';
export type { Credits, Plan, Price, PriceKey } from './schemas/records/account.js';
export type { ChatThread, ChatMessage, ChatCreateParams, ChatListParams, AcceptContextParams, ContextNote, SuggestedContext } from './schemas/chat.js';
export type { Schedule, ScheduleParams, Watch, WatchParams, AutomationListParams } from './schemas/schedules.js';
export { Webhooks, WebhookDeliveries } from './resources/webhooks.js';
export type { EventWithTask } from './resources/webhooks.js';
export { SUBSCRIBABLE_EVENT_KINDS } from './schemas/events.js';
export { WEBHOOK_DELIVERY_STATUSES } from './schemas/webhooks.js';
export type { SubscribableEventKind } from './schemas/events.js';
export type {
  Webhook,
  WebhookWithSecret,
  WebhookCreateParams,
  WebhookUpdateParams,
  WebhookListParams,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookDeliveryAttempt,
  WebhookDeliveryListParams,
  WebhookDeliveryAttemptListParams,
} from './schemas/webhooks.js';
export { QUESTION_TYPES } from './schemas/questions.js';
export type {
  Question,
  BinaryQuestion,
  MultipleChoiceQuestion,
  NumericQuestion,
  DiscreteQuestion,
  DateQuestion,
  QuestionDefinition,
  BinaryQuestionDefinition,
  MultipleChoiceQuestionDefinition,
  NumericQuestionDefinition,
  DiscreteQuestionDefinition,
  DateQuestionDefinition,
  QuestionFromTemplate,
  QuestionType,
  QuestionCreateParams,
  QuestionUpdateParams,
  QuestionListParams,
  QuestionBrowseParams,
  QuestionImportParams,
  NormalizeParams,
  NormalizeClarifyParams,
  NormalizeReviseParams,
  NormalizeResult,
  Tag,
  TagListParams,
} from './schemas/questions.js';
export { VERSION } from './version.js';
