/**
 * Every operation's params schema, by the name its declaration gives (`accepts('QuestionListParams')`).
 * The client loads this module, and zod with it, with its first call that checks params, so a client
 * that is only constructed (or only reads by id) never loads them; the mock service and the OpenAPI
 * document import it directly.
 * @module
 */
import type * as z from 'zod/mini';
import { AcceptContextParams, ChatCreateParams, ChatListParams } from './chat.js';
import { ConnectionCreateParams, ConnectionListParams, ConnectionMemberSwitchParams, ConnectionUpdateParams } from './connections.js';
import { ContextFileReplaceParams, ContextFileUpdateParams, ContextFileUploadParams, ContextListParams, ContextNoteUpdateParams } from './context.js';
import {
  DecisionConditionCreateParams,
  DecisionConditionUpdateParams,
  DecisionCreateParams,
  DecisionDraftSelectParams,
  DecisionDraftUpdateParams,
  DecisionFollowParams,
  DecisionForecastCreateParams,
  DecisionForecastEstimateParams,
  DecisionGenerateParams,
  DecisionLinkCreateParams,
  DecisionLinkUpdateParams,
  DecisionListParams,
  DecisionLiveParams,
  DecisionNodeCreateParams,
  DecisionPageParams,
  DecisionTextParams,
  DecisionUpdateParams,
} from './decisions.js';
import {
  ContextNoteInput,
  ForecastBatchParams,
  ForecastCancelBatchParams,
  ForecastCreateParams,
  ForecastListParams,
  ForecastRetrieveParams,
  QuestionForecastCreateParams,
  QuestionForecastListParams,
  RunModeListParams,
} from './forecasts.js';
import { PresetCreateParams, PresetDefaultsParams, PresetFileUploadParams, PresetUpdateParams } from './presets.js';
import {
  NormalizeClarifyParams,
  NormalizeParams,
  NormalizeReviseParams,
  QuestionBrowseParams,
  QuestionCreateParams,
  QuestionImportParams,
  QuestionListParams,
  QuestionUpdateParams,
  TagListParams,
} from './questions.js';
import { AutomationListParams, ScheduleParams, WatchParams } from './schedules.js';
import { ShareLinkCreateParams, ShareLinkListParams, ShareLinkUpdateParams } from './sharing.js';
import {
  QuestionTemplateApplyParams,
  QuestionTemplateCreateParams,
  QuestionTemplateFileUpdateParams,
  QuestionTemplateFileUploadParams,
  QuestionTemplateFillParams,
  QuestionTemplateFromQuestionParams,
  QuestionTemplateListParams,
  QuestionTemplateUpdateParams,
} from './templates.js';
import { WebhookCreateParams, WebhookDeliveryAttemptListParams, WebhookDeliveryListParams, WebhookListParams, WebhookUpdateParams } from './webhooks.js';

/** The params schemas, by the name a declaration gives them. */
export const paramSchemas = {
  AcceptContextParams,
  AutomationListParams,
  ChatCreateParams,
  ChatListParams,
  ConnectionCreateParams,
  ConnectionListParams,
  ConnectionMemberSwitchParams,
  ConnectionUpdateParams,
  ContextFileReplaceParams,
  ContextFileUpdateParams,
  ContextFileUploadParams,
  ContextListParams,
  ContextNoteInput,
  ContextNoteUpdateParams,
  DecisionConditionCreateParams,
  DecisionConditionUpdateParams,
  DecisionCreateParams,
  DecisionDraftSelectParams,
  DecisionDraftUpdateParams,
  DecisionFollowParams,
  DecisionForecastCreateParams,
  DecisionForecastEstimateParams,
  DecisionGenerateParams,
  DecisionLinkCreateParams,
  DecisionLinkUpdateParams,
  DecisionListParams,
  DecisionLiveParams,
  DecisionNodeCreateParams,
  DecisionPageParams,
  DecisionTextParams,
  DecisionUpdateParams,
  ForecastBatchParams,
  ForecastCancelBatchParams,
  ForecastCreateParams,
  ForecastListParams,
  ForecastRetrieveParams,
  NormalizeClarifyParams,
  NormalizeParams,
  NormalizeReviseParams,
  PresetCreateParams,
  PresetDefaultsParams,
  PresetFileUploadParams,
  PresetUpdateParams,
  QuestionBrowseParams,
  QuestionCreateParams,
  QuestionForecastCreateParams,
  QuestionForecastListParams,
  QuestionImportParams,
  QuestionListParams,
  QuestionTemplateApplyParams,
  QuestionTemplateCreateParams,
  QuestionTemplateFileUpdateParams,
  QuestionTemplateFileUploadParams,
  QuestionTemplateFillParams,
  QuestionTemplateFromQuestionParams,
  QuestionTemplateListParams,
  QuestionTemplateUpdateParams,
  QuestionUpdateParams,
  RunModeListParams,
  ScheduleParams,
  ShareLinkCreateParams,
  ShareLinkListParams,
  ShareLinkUpdateParams,
  TagListParams,
  WatchParams,
  WebhookCreateParams,
  WebhookDeliveryAttemptListParams,
  WebhookDeliveryListParams,
  WebhookListParams,
  WebhookUpdateParams,
} as const;

/** A name `accepts` takes: one of {@link paramSchemas}. */
export type ParamsName = keyof typeof paramSchemas;

/** The params schema declared as `name`; `undefined` for a name no schema has. */
export function paramsSchemaOf(name: string): z.ZodMiniType | undefined {
  return Object.hasOwn(paramSchemas, name) ? (paramSchemas as Record<string, z.ZodMiniType>)[name] : undefined;
}

/**
 * The params schema an operation declares, for the mock service and the OpenAPI document, which load
 * them all; a name no schema has is a mistake of the declarations, and throws.
 */
export function paramsOf(op: { readonly params?: string | undefined; readonly sdkMethod: string }): z.ZodMiniType | undefined {
  if (op.params === undefined) return undefined;
  const schema = paramsSchemaOf(op.params);
  if (!schema) throw new TypeError(`${op.sdkMethod} declares params \`${op.params}\`, which no schema has`);
  return schema;
}
