/**
 * The service's closed lists of values, shared by the request schemas and the record schemas.
 * @module
 */

/** The question types. */
export const QUESTION_TYPES = ['binary', 'multiple_choice', 'numeric', 'discrete', 'date'] as const;
/** A question type. */
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** Run modes, lightest (about 5 minutes) to heaviest (about 1.5 hours). */
export const RUN_MODES = ['light', 'moderate', 'standard', 'deep', 'max'] as const;
/** A run mode. */
export type RunModeKey = (typeof RUN_MODES)[number];

/** States of a forecast task; the last three are final. */
export const TASK_STATUSES = ['queued', 'running_subforecasts', 'synthesizing', 'completed', 'failed', 'cancelled'] as const;
/** A task state. */
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** The task states after which nothing changes. */
export const FINAL_TASK_STATUSES: ReadonlySet<string> = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

/** A state of a forecast report; `completed` and `failed` are final. */
export type ReportStatus = 'pending' | 'writing' | 'completed' | 'failed';

/** Context note treatments. */
export const TREATMENTS = ['consider', 'look_into', 'assume_true', 'ignore'] as const;

/** Who a template, preset or connection belongs to: one user (`personal`) or the whole `organization`. */
export const OWNERSHIP_SCOPES = ['personal', 'organization'] as const;
/** A scope on creation: `personal` or `organization` (needs an organization admin). */
export type OwnershipScope = (typeof OWNERSHIP_SCOPES)[number];

/** What an uploaded context file is (`user_context` by default). */
export const ARTIFACT_TYPES = ['user_context', 'background', 'evidence_source', 'dataset', 'assumption'] as const;
/** The kind of an uploaded context file. */
export type ArtifactType = (typeof ARTIFACT_TYPES)[number];

/** How a connection authenticates to its server. */
export const CONNECTION_AUTH_KINDS = ['none', 'api_key', 'oauth'] as const;
/** How a connection authenticates: none, an API key (`api_key`, never returned), or a person's `oauth` sign-in. */
export type ConnectionAuthKind = (typeof CONNECTION_AUTH_KINDS)[number];
