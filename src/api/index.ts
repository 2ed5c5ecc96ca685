/**
 * The one registry of the service's operation groups, as the spec's groups. Every table keyed by group
 * (the declarations below, the record schemas, the mock's handlers) is checked against these names by
 * the compiler, so a group cannot be missing from one of them; the manifest and the mock's route list
 * derive from {@link groupOperations}. It holds no record schema: those load lazily, by name.
 * @module
 */
import type { HttpMethod, Operation } from '../core/operation.js';
import type { Scope } from './scopes.js';
import { questionOperations, tagOperations } from './questions.js';
import { forecastOperations, questionForecastOperations, runModeOperations } from './forecasts.js';
import { chatOperations } from './chat.js';
import { questionScheduleOperations, questionWatchOperations, scheduleOperations, watchOperations } from './schedules.js';
import { creditOperations } from './account.js';
import { webhookDeliveryOperations, webhookOperations } from './webhooks.js';
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
} from './decisions.js';
import { contextOperations, fileOperations } from './context.js';
import { presetFileOperations, presetOperations } from './presets.js';
import { questionTemplateFileOperations, questionTemplateOperations } from './templates.js';
import { connectionOperations } from './connections.js';
import { shareLinkOperations, subscriptionOperations } from './sharing.js';
import { GROUP_NAMES, type GroupName } from './groups.js';
import type { OperationName } from './operation-names.js';

export { GROUP_NAMES, type GroupName };
export type { OperationId, OperationName } from './operation-names.js';

/** An operation of this service: its scope is one of the spec's. */
export type ServiceOperation = Operation<Scope>;

/** One `defineOperations` block: a client namespace's operations, by method name. */
export type OperationBlock = Readonly<Record<string, ServiceOperation>>;

/**
 * Each group's operations, as the blocks that declare them (a group spans several client namespaces:
 * questions holds `tags`, forecasts holds `runModes`). A missing group is a compile error.
 * @internal
 */
export const groupOperations = {
  questions: [questionOperations, tagOperations],
  forecasts: [runModeOperations, forecastOperations, questionForecastOperations],
  chat: [chatOperations],
  schedules: [questionScheduleOperations, questionWatchOperations, scheduleOperations, watchOperations],
  account: [creditOperations],
  webhooks: [webhookOperations, webhookDeliveryOperations],
  decisions: [
    decisionOperations,
    decisionDraftOperations,
    decisionForecastOperations,
    decisionNodeOperations,
    decisionLinkOperations,
    decisionNoteOperations,
    decisionCommentOperations,
    decisionConditionOperations,
    decisionSummaryOperations,
  ],
  context: [contextOperations, fileOperations],
  presets: [presetOperations, presetFileOperations],
  templates: [questionTemplateOperations, questionTemplateFileOperations],
  connections: [connectionOperations],
  sharing: [shareLinkOperations, subscriptionOperations],
} as const satisfies Record<GroupName, readonly OperationBlock[]>;

/** A group's operations, in declaration order. @internal */
export function operationsOf(group: GroupName): ServiceOperation[] {
  return groupOperations[group].flatMap((block: OperationBlock) => Object.values(block));
}

/** Every declared operation, with its schemas, group by group; the mock service routes from this list. @internal */
export const declaredOperations: readonly ServiceOperation[] = GROUP_NAMES.flatMap(operationsOf);

/**
 * The public manifest entry for an operation.
 * @example
 * ```ts
 * const entry: OperationManifestEntry | undefined = operations.find((o) => o.sdkMethod === 'forecasts.create');
 * // { method: 'POST', path: '/forecasts', scope: 'forecasts:write', sdkMethod: 'forecasts.create' }
 * ```
 */
export interface OperationManifestEntry {
  /** Upper-case HTTP method. */
  readonly method: HttpMethod;
  /** The spec's path template, as in `operations.tsv`. */
  readonly path: string;
  /** The scope the API key needs. */
  readonly scope: Scope;
  /** Dotted name of the client method that performs it, for example `questions.retrieve`. */
  readonly sdkMethod: OperationName;
}

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
  // The registry's names are the declarations' own literals (see OperationName).
  declaredOperations.map(({ method, path, scope, sdkMethod }) => Object.freeze({ method, path, scope, sdkMethod: sdkMethod as OperationName })),
);
