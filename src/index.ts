/**
 * forecasting-sdk: the typed client of the Forecasting Service.
 *
 * @example
 * ```ts
 * import { ForecastingClient } from 'forecasting-sdk';
 *
 * const client = new ForecastingClient(); // FORECASTING_API_KEY and FORECASTING_BASE_URL from the environment
 * const question = await client.questions.create({ type: 'binary', title: 'Will it rain in Paris tomorrow?' });
 * const task = await client.forecasts.createAndWait({ questionId: question.id, runMode: 'light' });
 * console.log(task.status, task.forecast?.forecastData);
 * ```
 * @module
 */
export { ForecastingClient } from './client.js';
export { operations, type OperationManifestEntry, type OperationName, type OperationId } from './api/index.js';
export { unknownFields, type UnknownField } from './unknown-fields.js';
// Everything of forecasting-sdk/webhooks, from the root too (one class identity: the same modules).
export * from './webhooks/index.js';
export {
  ForecastingError,
  APIError,
  InvalidResponseError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  MethodNotAllowedError,
  ConflictError,
  RateLimitError,
  InternalServerError,
  OverloadedError,
  APIConnectionError,
  APITimeoutError,
  ValidationError,
  WebhookVerificationError,
  WaitTimeoutError,
} from './core/errors.js';
export type { APIErrorInit, ErrorExtras, ValidationIssue, WebhookVerificationErrorCode } from './core/errors.js';
// The spec's own codes, beside the operations that answer them.
export {
  UploadsDisabledError,
  ForecastAlreadyRunningError,
  ContextNotReadyError,
  IdempotencyInProgressError,
  DecisionConflictError,
  TooManyActiveForecastsError,
  ContextFileFailedError,
  ContextWaitTimeoutError,
  type ContextFileSummary,
} from './api/errors.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export { CHANNELS, type AttemptMessage, type CoordinatorMessage, type OperationMessage, type QueueMessage, type RetryMessage, type WaitMessage, type WebhookMessage } from './core/channels.js';
export { Page, PagePromise } from './core/pagination.js';
export { toFile, type Uploadable } from './core/uploads.js';
export type { ClientOptions, RequestOptions } from './core/options.js';
export type { Logger, LogLevel } from './core/logger.js';
export type { ClientEvents, RequestEvent, ResponseEvent, RetryEvent, GenericQueryOptions, GenericBodyOptions } from './core/base-client.js';
export type { HttpMethod } from './core/operation.js';
export type { Scope } from './api/scopes.js';
export { Questions } from './resources/questions.js';
export { Tags } from './resources/tags.js';
export { Forecasts, ForecastChat, RunModes, QuestionForecasts } from './resources/forecasts/index.js';
export { QuestionSchedule, QuestionWatch, Schedules, Watches } from './resources/schedules.js';
export { CreditsResource } from './resources/credits.js';
export type { WaitOptions, WaitManyOptions, CreateAndWaitOptions } from './resources/forecasts/waits.js';
export type { RunManyOptions, RunManyResult, RunManyFinished, RunManyRejected, RunManyNotStarted, RunManyItemError, RunManyProgress, RunManyCounts, RunManyInput } from './resources/forecasts/run-many.js';
export { RUN_MODES, TASK_STATUSES } from './schemas/enums.js';
export type { ForecastProgress, ForecastProgressEvents } from './resources/forecasts/progress.js';
export type { TypedEmitter } from './core/emitter.js';
export type { ClientClock } from './core/clock.js';
export type {
  CoordinatedWindow,
  WindowEnd,
  Coordinator,
  CoordinatorAttachment,
  CoordinatorStats,
  EventCoordinator,
  HoldOptions,
  SlotHold,
  TaskFinalNotice,
} from './core/coordination.js';
export type { UnknownValue } from './schemas/common.js';
export type {
  ContextNoteInput,
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
  ForecastCancelBatchParams,
} from './schemas/forecasts.js';
export type {
  ForecastTask,
  ActiveForecastTask,
  CompletedForecastTask,
  FailedForecastTask,
  CancelledForecastTask,
  FinishedForecastTask,
  TaskConnection,
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
  ForecastBatchResult,
  BatchItemResult,
  AcceptedItemResult,
  RejectedItemResult,
  UnknownItemResult,
  ForecastCancelBatchResult,
  CancelItemResult,
} from './schemas/records/forecasts.js';
export type { Credits, Plan, Price, PriceKey } from './schemas/records/account.js';
export type {
  ChatCreateParams,
  ChatListParams,
  AcceptContextParams,
} from './schemas/chat.js';
export type {
  ChatThread,
  ChatMessage,
  ContextNote,
  SuggestedContext,
} from './schemas/records/chat.js';
export type {
  ScheduleParams,
  WatchParams,
  AutomationListParams,
} from './schemas/schedules.js';
export type {
  Schedule,
  Watch,
} from './schemas/records/schedules.js';
export { Webhooks, WebhookDeliveries } from './resources/webhooks.js';
export type { EventWithTask } from './resources/webhooks.js';
export { SUBSCRIBABLE_EVENT_KINDS } from './schemas/enums.js';
export { WEBHOOK_DELIVERY_STATUSES } from './schemas/enums.js';
export type { SubscribableEventKind } from './schemas/events.js';
export type {
  WebhookCreateParams,
  WebhookUpdateParams,
  WebhookListParams,
  WebhookDeliveryStatus,
  WebhookDeliveryListParams,
  WebhookDeliveryAttemptListParams,
} from './schemas/webhooks.js';
export type {
  Webhook,
  WebhookWithSecret,
  WebhookDelivery,
  WebhookDeliveryAttempt,
} from './schemas/records/webhooks.js';
export { QUESTION_TYPES } from './schemas/enums.js';
export type {
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
  TagListParams,
} from './schemas/questions.js';
export type {
  Question,
  BinaryQuestion,
  MultipleChoiceQuestion,
  NumericQuestion,
  DiscreteQuestion,
  DateQuestion,
  NormalizeResult,
  DraftedQuestion,
  Tag,
} from './schemas/records/questions.js';
export {
  Decisions,
  DecisionDrafts,
  DecisionForecasts,
  DecisionNodes,
  DecisionLinks,
  DecisionNotes,
  DecisionComments,
  DecisionConditions,
  DecisionSummaryResource,
} from './resources/decisions/index.js';
export type { EstimateAndStartOptions, EstimateAndStartResult } from './resources/decisions/priced-start.js';
export { DECISION_STATUSES, DECISION_LINK_KINDS, CONDITION_OPERATORS } from './schemas/enums.js';
export type {
  DecisionStatus,
  DecisionLinkKind,
  ConditionOperator,
  DecisionCreateParams,
  DecisionUpdateParams,
  DecisionListParams,
  DecisionGenerateParams,
  DecisionDraftUpdateParams,
  DecisionDraftSelectParams,
  DecisionForecastEstimateParams,
  DecisionForecastCreateParams,
  DecisionNodeCreateParams,
  DecisionLinkCreateParams,
  DecisionLinkUpdateParams,
  DecisionTextParams,
  DecisionConditionCreateParams,
  DecisionConditionUpdateParams,
  DecisionLiveParams,
  DecisionFollowParams,
  DecisionPageParams,
} from './schemas/decisions.js';
export type {
  Decision,
  DecisionNode,
  DecisionLink,
  DecisionNote,
  DecisionDraft,
  DecisionDraftQuestion,
  DecisionGeneration,
  DecisionComment,
  DecisionCondition,
  DecisionSummary,
  DecisionForecastEstimate,
  DecisionForecastRun,
} from './schemas/records/decisions.js';
export { QuestionContext, QuestionFiles } from './resources/context/index.js';
export type { ContextWaitOptions } from './resources/context/readiness.js';
export { Presets, PresetFiles } from './resources/presets.js';
export { FILE_TREATMENTS, TREATMENTS } from './schemas/enums.js';
export type { ContextFileStatus, FileTreatment, Treatment } from './schemas/enums.js';
export type {
  ContextListParams,
  ContextNoteUpdateParams,
  ContextFileUploadParams,
  ContextFileUpdateParams,
  ContextFileReplaceParams,
} from './schemas/context.js';
export type { PresetCreateParams, PresetUpdateParams, PresetDefaultsParams, PresetFileUploadParams, PresetFileJSON, PresetListParams } from './schemas/presets.js';
export type { ContextFile, ContextReady } from './schemas/records/context.js';
export type { Preset, PresetNote, PresetDefaults } from './schemas/records/presets.js';
export { QuestionTemplates, QuestionTemplateFiles } from './resources/templates.js';
export { Connections } from './resources/connections.js';
export { QuestionShareLinks, QuestionSubscriptions } from './resources/sharing.js';
export { OWNERSHIP_SCOPES, ARTIFACT_TYPES, CONNECTION_AUTH_KINDS } from './schemas/enums.js';
export type { OwnershipScope, ArtifactType, ConnectionAuthKind } from './schemas/enums.js';
export type {
  TemplateFields,
  TemplateBlankInput,
  QuestionTemplateCreateParams,
  QuestionTemplateUpdateParams,
  QuestionTemplateFromQuestionParams,
  QuestionTemplateListParams,
  QuestionTemplateApplyParams,
  QuestionTemplateFillParams,
  QuestionTemplateFileUploadParams,
  QuestionTemplateFileUpdateParams,
} from './schemas/templates.js';
export type {
  QuestionTemplate,
  QuestionTemplateFields,
  QuestionTemplateBlank,
  QuestionTemplateFile,
  QuestionTemplateApplication,
  QuestionTemplateFill,
  SourceTemplate,
} from './schemas/records/templates.js';
export type { ConnectionCreateParams, ConnectionUpdateParams, ConnectionMemberSwitchParams, ConnectionListParams } from './schemas/connections.js';
export type { Connection, ConnectionTool, ConnectionSignIn } from './schemas/records/connections.js';
export type { ShareLinkCreateParams, ShareLinkUpdateParams, ShareLinkListParams } from './schemas/sharing.js';
export type { ShareLink, QuestionSubscription } from './schemas/records/sharing.js';
export { VERSION } from './version.js';
