/**
 * The service's closed lists of values, shared by the request schemas and the record schemas.
 * @module
 */

/**
 * The question types.
 * @example
 * ```ts
 * if ((QUESTION_TYPES as readonly string[]).includes(input.type)) console.log('a known type');
 * ```
 */
export const QUESTION_TYPES = ['binary', 'multiple_choice', 'numeric', 'discrete', 'date'] as const;
/**
 * A question type.
 * @example
 * ```ts
 * const type: QuestionType = 'multiple_choice';
 * ```
 */
export type QuestionType = (typeof QUESTION_TYPES)[number];

/**
 * Run modes, lightest (about 5 minutes) to heaviest (about 1.5 hours).
 * @example
 * ```ts
 * for (const runMode of RUN_MODES) console.log(runMode); // light, moderate, standard, deep, max
 * ```
 */
export const RUN_MODES = ['light', 'moderate', 'standard', 'deep', 'max'] as const;
/**
 * A run mode.
 * @example
 * ```ts
 * const runMode: RunModeKey = 'deep';
 * await client.forecasts.create({ questionId, runMode });
 * ```
 */
export type RunModeKey = (typeof RUN_MODES)[number];

/**
 * States of a forecast task; the last three are final.
 * @example
 * ```ts
 * const open = TASK_STATUSES.filter((s) => !['completed', 'failed', 'cancelled'].includes(s)); // queued, running_subforecasts, synthesizing
 * ```
 */
export const TASK_STATUSES = ['queued', 'running_subforecasts', 'synthesizing', 'completed', 'failed', 'cancelled'] as const;
/**
 * A task state.
 * @example
 * ```ts
 * const finished: TaskStatus[] = ['completed', 'failed', 'cancelled'];
 * for await (const item of client.forecasts.list({ status: finished })) console.log(item.taskId);
 * ```
 */
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** The task states after which nothing changes. */
export const FINAL_TASK_STATUSES: ReadonlySet<string> = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

/**
 * A state of a forecast report; `completed` and `failed` are final.
 * @example
 * ```ts
 * const report: ReportStatus | undefined = task.status === 'completed' ? task.forecast.report?.status : undefined; // pending, writing, completed, failed
 * ```
 */
export type ReportStatus = 'pending' | 'writing' | 'completed' | 'failed';

/**
 * Context note treatments.
 * @example
 * ```ts
 * const choices = TREATMENTS.map((t) => ({ value: t, label: t.replace('_', ' ') })); // for a select box
 * ```
 */
export const TREATMENTS = ['consider', 'look_into', 'assume_true', 'ignore'] as const;
/**
 * A context note treatment: `consider` weighs it as evidence, `look_into` researches it further, `assume_true` takes it as given, `ignore` tells the forecaster not to rely on it.
 * @example
 * ```ts
 * const treatment: Treatment = 'assume_true';
 * await client.questions.context.create(questionId, { text: 'The vote was moved to June.', treatment });
 * ```
 */
export type Treatment = (typeof TREATMENTS)[number];
/**
 * The treatments a file may have: every note treatment but `ignore` (a file that should not count is removed).
 * @example
 * ```ts
 * const allowed = (FILE_TREATMENTS as readonly string[]).includes(input.treatment); // false for 'ignore'
 * ```
 */
export const FILE_TREATMENTS = ['consider', 'look_into', 'assume_true'] as const;
/**
 * A file treatment.
 * @example
 * ```ts
 * const treatment: FileTreatment = 'look_into';
 * await client.questions.files.update(questionId, fileId, { treatment });
 * ```
 */
export type FileTreatment = (typeof FILE_TREATMENTS)[number];
/**
 * What a context file is to the forecaster.
 * @example
 * ```ts
 * for (const artifactType of ARTIFACT_TYPES) console.log(artifactType); // user_context, background, evidence_source, dataset, assumption
 * ```
 */
export const ARTIFACT_TYPES = ['user_context', 'background', 'evidence_source', 'dataset', 'assumption'] as const;
/**
 * A context file's artifact type (`user_context` by default).
 * @example
 * ```ts
 * const artifactType: ArtifactType = 'dataset';
 * await client.questions.files.upload(questionId, { file: Buffer.from('a,b\n1,2'), filename: 'data.csv', artifactType });
 * ```
 */
export type ArtifactType = (typeof ARTIFACT_TYPES)[number];
/**
 * A context file's state: `processing` at first, then `ready` or `failed` (a failed file never becomes ready).
 * @example
 * ```ts
 * const waitingFor: ContextFileStatus = 'processing';
 * const pending = (await client.questions.files.list(questionId).toArray()).filter((f) => f.status === waitingFor);
 * ```
 */
export type ContextFileStatus = 'processing' | 'ready' | 'failed';

/**
 * Who a template, preset or connection belongs to: one user (`personal`) or the whole `organization`.
 * @example
 * ```ts
 * for (const scope of OWNERSHIP_SCOPES) {
 *   for await (const t of client.questionTemplates.list({ scope })) console.log(scope, t.name);
 * }
 * ```
 */
export const OWNERSHIP_SCOPES = ['personal', 'organization'] as const;
/**
 * A scope on creation: `personal` or `organization` (needs an organization admin).
 * @example
 * ```ts
 * const scope: OwnershipScope = isAdmin ? 'organization' : 'personal';
 * await client.questionTemplates.createFromQuestion({ questionId, scope, name: 'Like this one' });
 * ```
 */
export type OwnershipScope = (typeof OWNERSHIP_SCOPES)[number];

/**
 * How a connection authenticates to its server.
 * @example
 * ```ts
 * if (!(CONNECTION_AUTH_KINDS as readonly string[]).includes(input.authKind)) throw new Error(`authKind must be one of ${CONNECTION_AUTH_KINDS.join(', ')}`);
 * ```
 */
export const CONNECTION_AUTH_KINDS = ['none', 'api_key', 'oauth'] as const;
/**
 * How a connection authenticates: none, an API key (`api_key`, never returned), or a person's `oauth` sign-in.
 * @example
 * ```ts
 * const authKind: ConnectionAuthKind = 'oauth';
 * const conn = await client.connections.create({ scope: 'personal', name: 'Drive', url: 'https://mcp.example.com/drive', authKind });
 * if (conn.status === 'needs_sign_in') console.log((await client.connections.signIn(conn.id)).authorizationUrl);
 * ```
 */
export type ConnectionAuthKind = (typeof CONNECTION_AUTH_KINDS)[number];

/**
 * States of a decision: `archived` refuses every write until unarchived.
 * @example
 * ```ts
 * for (const status of DECISION_STATUSES) console.log(status, (await client.decisions.list({ status }).toArray()).length);
 * ```
 */
export const DECISION_STATUSES = ['active', 'archived'] as const;
/**
 * A decision's state.
 * @example
 * ```ts
 * const status: DecisionStatus = 'archived';
 * for await (const d of client.decisions.list({ status })) await client.decisions.unarchive(d.id);
 * ```
 */
export type DecisionStatus = (typeof DECISION_STATUSES)[number];
/**
 * Kinds of link between two questions of a decision; a `conditional` link is written by a model and can fail.
 * @example
 * ```ts
 * const choices = DECISION_LINK_KINDS.map((kind) => ({ value: kind, label: kind === 'conditional' ? 'If … then …' : 'Related' }));
 * ```
 */
export const DECISION_LINK_KINDS = ['related', 'conditional'] as const;
/**
 * A link's kind.
 * @example
 * ```ts
 * const kind: DecisionLinkKind = 'conditional';
 * await client.decisions.links.create(decisionId, { fromNodeId, toNodeId, kind });
 * ```
 */
export type DecisionLinkKind = (typeof DECISION_LINK_KINDS)[number];
/**
 * How a decision condition compares a forecast's number with its `threshold`.
 * @example
 * ```ts
 * if ((CONDITION_OPERATORS as readonly string[]).includes(input.operator)) console.log('a known operator');
 * ```
 */
export const CONDITION_OPERATORS = ['above', 'below'] as const;
/**
 * A condition's comparison.
 * @example
 * ```ts
 * const operator: ConditionOperator = 'below';
 * await client.decisions.conditions.create(decisionId, { nodeId, operator, threshold: 0.2 });
 * ```
 */
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/**
 * The event kinds a webhook can subscribe to (`eventKinds`); `webhook.test` is sent on request only.
 *
 * @example
 * ```ts
 * await client.webhooks.create({ url, eventKinds: [...SUBSCRIBABLE_EVENT_KINDS] });
 * ```
 */
export const SUBSCRIBABLE_EVENT_KINDS = [
  'forecast.started',
  'forecast.completed',
  'forecast.failed',
  'forecast.cancelled',
  'forecast.report.completed',
] as const;


/**
 * The states of a delivery (spec "Webhook delivery").
 * @example
 * ```ts
 * console.log(WEBHOOK_DELIVERY_STATUSES); // ['pending', 'in_progress', 'retrying', 'succeeded', 'failed', 'cancelled']
 * ```
 */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'in_progress', 'retrying', 'succeeded', 'failed', 'cancelled'] as const;
/**
 * The state of a delivery.
 *
 * @example
 * ```ts
 * const done: WebhookDeliveryStatus[] = ['succeeded', 'failed', 'cancelled'];
 * ```
 */
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
