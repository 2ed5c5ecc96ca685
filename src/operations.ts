/**
 * The manifest of every operation the SDK performs, derived from the declarations in `resources/`.
 * @module
 */
import type { Operation, OperationManifestEntry } from './core/operation.js';
import { questionOperations } from './resources/questions.js';
import { tagOperations } from './resources/tags.js';
import { chatOperations, forecastOperations, questionForecastOperations, runModeOperations } from './resources/forecasts/index.js';
import { questionScheduleOperations, questionWatchOperations, scheduleOperations, watchOperations } from './resources/schedules.js';
import { creditOperations } from './resources/credits.js';
import { webhookDeliveryOperations, webhookOperations } from './resources/webhooks.js';
import {
  decisionCommentOperations,
  decisionConditionOperations,
  decisionDraftOperations,
  decisionForecastOperations,
  decisionLinkOperations,
  decisionNodeOperations,
  decisionNoteOperations,
  decisionOperations,
  decisionSummaryOperations,
} from './resources/decisions/index.js';
import { contextOperations, fileOperations } from './resources/context/index.js';
import { presetFileOperations, presetOperations } from './resources/presets.js';

/** Every declared operation, with its schemas; the mock service routes from this list. @internal */
export const declaredOperations: readonly Operation[] = [
  questionOperations,
  tagOperations,
  runModeOperations,
  forecastOperations,
  questionForecastOperations,
  chatOperations,
  questionScheduleOperations,
  questionWatchOperations,
  scheduleOperations,
  watchOperations,
  creditOperations,
  webhookOperations,
  webhookDeliveryOperations,
  decisionOperations,
  decisionDraftOperations,
  decisionForecastOperations,
  decisionNodeOperations,
  decisionLinkOperations,
  decisionNoteOperations,
  decisionCommentOperations,
  decisionConditionOperations,
  decisionSummaryOperations,
  contextOperations,
  fileOperations,
  presetOperations,
  presetFileOperations,
].flatMap((group): Operation[] => Object.values(group));

/**
 * Every operation as `{ method, path, scope, sdkMethod }`, `path` written as in the spec.
 *
 * @example
 * ```ts
 * import { operations } from 'forecasting-sdk';
 * operations.find((o) => o.sdkMethod === 'questions.retrieve');
 * // { method: 'GET', path: '/questions/{question_id}', scope: 'questions:read', sdkMethod: 'questions.retrieve' }
 * ```
 */
export const operations: readonly OperationManifestEntry[] = Object.freeze(
  declaredOperations.map(({ method, path, scope, sdkMethod }) => Object.freeze({ method, path, scope, sdkMethod })),
);
