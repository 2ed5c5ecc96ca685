/**
 * Every record schema by name, and the list envelope around them: what `validateResponses` checks
 * answers against. Loaded on demand (a chunk of its own), so clients that do not validate
 * answers never load these schemas.
 * @module
 */
import * as z from 'zod/mini';
import { Credits } from './account.js';
import { ChatThread } from './chat.js';
import { ContextFile, ContextNote, ContextReady } from './context.js';
import { Preset, PresetDefaults } from './presets.js';
import { Decision, DecisionComment, DecisionCondition, DecisionDraft, DecisionForecastEstimate, DecisionForecastRun, DecisionLink, DecisionNode, DecisionNote, DecisionSummary } from './decisions.js';
import { ForecastBatchResult, ForecastCancelBatchResult, ForecastListItem, ForecastTask, RunMode } from './forecasts.js';
import { NormalizeResult, Question, Tag } from './questions.js';
import { Schedule, Watch } from './schedules.js';
import { Webhook, WebhookDelivery, WebhookDeliveryAttempt, WebhookWithSecret } from './webhooks.js';

/** The record schemas an operation's `response` names. */
export const recordSchemas = {
  Question,
  Tag,
  NormalizeResult,
  ForecastTask,
  ForecastListItem,
  RunMode,
  ForecastBatchResult,
  ForecastCancelBatchResult,
  ChatThread,
  ContextNote,
  Schedule,
  Watch,
  Credits,
  Webhook,
  WebhookWithSecret,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  Decision,
  DecisionDraft,
  DecisionNode,
  DecisionLink,
  DecisionNote,
  DecisionComment,
  DecisionCondition,
  DecisionSummary,
  DecisionForecastEstimate,
  DecisionForecastRun,
  ContextFile,
  ContextReady,
  Preset,
  PresetDefaults,
};
/** The name of a record schema. */
export type RecordName = keyof typeof recordSchemas;

/** The list envelope `{type: 'list', data, hasMore, nextCursor}` around `item`. */
export function listEnvelope<T extends z.ZodMiniType>(item: T) {
  return z.looseObject({
    type: z.optional(z.string()),
    data: z.array(item),
    hasMore: z.boolean(),
    nextCursor: z.optional(z.nullable(z.string())),
  });
}

const lists = new Map<string, z.ZodMiniType>();

/** The schema to check an answer with: the record, or (for a list) its envelope, built once. */
export function schemaOf(name: string, list: boolean): z.ZodMiniType | undefined {
  const record = (recordSchemas as Record<string, z.ZodMiniType>)[name];
  if (!record || !list) return record;
  let envelope = lists.get(name);
  if (!envelope) lists.set(name, (envelope = listEnvelope(record)));
  return envelope;
}
