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
/** A context note treatment: `consider` weighs it as evidence, `look_into` researches it further, `assume_true` takes it as given, `ignore` tells the forecaster not to rely on it. */
export type Treatment = (typeof TREATMENTS)[number];
/** The treatments a file may have: every note treatment but `ignore` (a file that should not count is removed). */
export const FILE_TREATMENTS = ['consider', 'look_into', 'assume_true'] as const;
/** A file treatment. */
export type FileTreatment = (typeof FILE_TREATMENTS)[number];
/** What a context file is to the forecaster. */
export const ARTIFACT_TYPES = ['user_context', 'background', 'evidence_source', 'dataset', 'assumption'] as const;
/** A context file's artifact type (`user_context` by default). */
export type ArtifactType = (typeof ARTIFACT_TYPES)[number];
/** A context file's state: `processing` at first, then `ready` or `failed` (a failed file never becomes ready). */
export type ContextFileStatus = 'processing' | 'ready' | 'failed';
/** Who a preset is for: its creator, or the whole organization (created by an organization admin). */
export const PRESET_SCOPES = ['personal', 'organization'] as const;
/** A preset scope. */
export type PresetScope = (typeof PRESET_SCOPES)[number];

/** States of a decision: `archived` refuses every write until unarchived. */
export const DECISION_STATUSES = ['active', 'archived'] as const;
/** A decision's state. */
export type DecisionStatus = (typeof DECISION_STATUSES)[number];
/** Kinds of link between two questions of a decision; a `conditional` link is written by a model and can fail. */
export const DECISION_LINK_KINDS = ['related', 'conditional'] as const;
/** A link's kind. */
export type DecisionLinkKind = (typeof DECISION_LINK_KINDS)[number];
/** How a decision condition compares a forecast's number with its `threshold`. */
export const CONDITION_OPERATORS = ['above', 'below'] as const;
/** A condition's comparison. */
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];
