/**
 * What the service answers about decisions. The spec shows none of these shapes (only that a
 * decision has 2 to 4 options, can be archived and drafts questions): every field here is this SDK's
 * reading, documented in docs/decisions.md, and the mock answers exactly these. Reading is lenient:
 * unknown fields and enum values pass. The schemas load only with `validateResponses`.
 * @module
 */
import * as z from 'zod/mini';
import { Timestamp, exact, openEnum, openString } from '../common.js';
import { CONDITION_OPERATORS, DECISION_LINK_KINDS, DECISION_STATUSES, QUESTION_TYPES, RUN_MODES } from '../enums.js';

const str = z.string();
const maybe = z.optional(z.nullable(str));
const Problem = exact({ message: str });

export const DecisionNode = exact({
  id: str,
  /** The question put on the decision. */
  questionId: str,
  /** The option the question informs, or null. */
  option: z.nullable(str),
  createdAt: Timestamp,
});
/**
 * A question put on a decision (a node of its map).
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const { nodes } = await client.decisions.retrieve(decisionId);
 * const forLisbon: DecisionNode[] = nodes.filter((n) => n.option === 'Lisbon');
 * ```
 */
export interface DecisionNode extends z.output<typeof DecisionNode> {}

export const DecisionLink = exact({
  id: str,
  fromNodeId: str,
  toNodeId: str,
  /** `related` or `conditional`. */
  kind: openEnum(DECISION_LINK_KINDS),
  /** `ready`; a conditional link is `drafting` while a model writes it, then `ready` or `failed` (edit it to try again). */
  status: openString<'ready' | 'drafting' | 'failed'>(),
  /** A caption. */
  label: maybe,
  /** The conditional question the model wrote ("If … then …?"), once `ready`; null for a related link. */
  statement: maybe,
  /** Why a conditional link failed. */
  error: z.optional(z.nullable(Problem)),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
/**
 * A link between two nodes; a `conditional` one is written by a model and can fail.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const link: DecisionLink = await client.decisions.links.create(decisionId, { fromNodeId, toNodeId, kind: 'conditional' });
 * if (link.status === 'ready') console.log(link.statement);
 * ```
 */
export interface DecisionLink extends z.output<typeof DecisionLink> {}

export const DecisionNote = exact({ id: str, text: str, createdAt: Timestamp, updatedAt: Timestamp });
/**
 * A note on a decision.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const note: DecisionNote = await client.decisions.notes.create(decisionId, { text: 'Budget is capped at 2 M€.' });
 * ```
 */
export interface DecisionNote extends z.output<typeof DecisionNote> {}

export const DecisionDraftQuestion = exact({
  /** The question type. */
  type: openEnum(QUESTION_TYPES),
  title: str,
  description: z.optional(str),
  resolutionCriteria: z.optional(str),
  options: z.optional(z.array(str)),
  lowerBound: z.optional(z.nullable(z.number())),
  upperBound: z.optional(z.nullable(z.number())),
  scaleType: maybe,
});
/**
 * The question a draft proposes: question input fields, as `questions.create` takes them.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const { drafts } = await client.decisions.retrieve(decisionId);
 * for (const draft of drafts) console.log(draft.question.type, draft.question.title);
 * ```
 */
export interface DecisionDraftQuestion extends z.output<typeof DecisionDraftQuestion> {}

export const DecisionDraft = exact({
  id: str,
  question: DecisionDraftQuestion,
  /** The option the question would inform, or null. */
  option: z.nullable(str),
  /** Why the model proposes it. */
  rationale: z.optional(str),
  createdAt: Timestamp,
});
/**
 * A question drafted by the decision's model, waiting to be kept (it becomes a question and a node) or discarded.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const { drafts } = await client.decisions.retrieve(decisionId);
 * const wanted: DecisionDraft[] = drafts.filter((d) => d.option !== null);
 * await client.decisions.drafts.keep(decisionId, { draftIds: wanted.map((d) => d.id) });
 * ```
 */
export interface DecisionDraft extends z.output<typeof DecisionDraft> {}

export const DecisionGeneration = exact({
  /** `running` while the model drafts (a second `generate` answers 409 `generation_in_progress`), then `completed` or `failed`. */
  status: openString<'running' | 'completed' | 'failed'>(),
  startedAt: Timestamp,
  finishedAt: z.nullable(Timestamp),
});
/**
 * The latest drafting run of a decision.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const { generation } = await client.decisions.generate(decisionId);
 * console.log(generation?.status); // running, then completed or failed
 * ```
 */
export interface DecisionGeneration extends z.output<typeof DecisionGeneration> {}

export const Decision = exact({
  id: str,
  title: str,
  description: z.optional(str),
  /** 2 to 4 options. */
  options: z.array(str),
  /** `active` or `archived` (every write answers 409 `decision_archived` until unarchived). */
  status: openEnum(DECISION_STATUSES),
  /** Whether new forecasts on its questions refresh its summary. */
  live: z.boolean(),
  /** Whether the caller follows it. */
  following: z.boolean(),
  /** The latest drafting run, or null. */
  generation: z.nullable(DecisionGeneration),
  /** Questions put on it. */
  nodes: z.array(DecisionNode),
  links: z.array(DecisionLink),
  notes: z.array(DecisionNote),
  /** Drafts waiting to be kept or discarded. */
  drafts: z.array(DecisionDraft),
  archivedAt: z.optional(z.nullable(Timestamp)),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
/**
 * A decision: a choice among 2 to 4 options with a map of questions (nodes and links), notes and
 * drafts. Comments, conditions and the summary are read on their own.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const decision = await client.decisions.retrieve(decisionId);
 * console.log(decision.options, decision.nodes.length, decision.generation?.status);
 * ```
 */
export interface Decision extends z.output<typeof Decision> {}

export const DecisionComment = exact({
  id: str,
  text: str,
  /** The user who wrote it; only they may edit or delete it. */
  authorId: z.optional(str),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
/**
 * A comment on a decision.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const comment: DecisionComment = await client.decisions.comments.create(decisionId, { text: 'Lisbon looks cheaper.' });
 * ```
 */
export interface DecisionComment extends z.output<typeof DecisionComment> {}

export const DecisionCondition = exact({
  id: str,
  /** The node whose forecasts it watches. */
  nodeId: str,
  /** `above` or `below`. */
  operator: openEnum(CONDITION_OPERATORS),
  /** A probability (`binary`, `multiple_choice` with `option`) or a median (the other types). */
  threshold: z.number(),
  option: maybe,
  label: maybe,
  /** `armed`; `triggered` once a completed forecast crossed it (arm it again with `armed: true`); `disarmed`. */
  status: openString<'armed' | 'triggered' | 'disarmed'>(),
  triggeredAt: z.nullable(Timestamp),
  /** The forecast that triggered it, and its number. */
  triggeredBy: z.optional(z.nullable(exact({ taskId: str, value: z.number() }))),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
/**
 * A condition: it triggers when a completed forecast on its node's question crosses what it states.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * for await (const c of client.decisions.conditions.list(decisionId)) {
 *   if (c.status === 'triggered') console.log(c.label, c.triggeredBy?.value);
 * }
 * ```
 */
export interface DecisionCondition extends z.output<typeof DecisionCondition> {}

export const DecisionSummary = exact({
  /** The written summary. */
  text: str,
  /** The option the forecasts favour, or null. */
  recommendation: maybe,
  /** When it was written. */
  generatedAt: Timestamp,
  /** Whether a forecast completed on one of its questions since it was written. */
  stale: z.boolean(),
  /** The forecasts it is based on, with their numbers. */
  forecasts: z.array(exact({ questionId: str, taskId: str, value: z.number() })),
});
/**
 * A decision's summary, written from the latest forecasts on its questions.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * let summary: DecisionSummary = await client.decisions.summary.retrieve(decisionId);
 * if (summary.stale) summary = await client.decisions.summary.refresh(decisionId);
 * console.log(summary.recommendation, summary.text);
 * ```
 */
export interface DecisionSummary extends z.output<typeof DecisionSummary> {}

export const DecisionForecastEstimate = exact({
  /** The price of the whole batch, in credits: pass it as `maxTotalCredits` to start. */
  totalCredits: z.number(),
  /** The run mode priced. */
  runMode: openEnum(RUN_MODES),
  /** The credit balance now. */
  balance: z.number(),
  /** The price of each forecast. */
  items: z.array(exact({ questionId: str, credits: z.number() })),
});
/**
 * The price of a batch of forecasts on a decision, before it starts.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const estimate: DecisionForecastEstimate = await client.decisions.forecasts.estimate(decisionId, { runMode: 'light' });
 * if (estimate.totalCredits <= estimate.balance) await client.decisions.forecasts.create(decisionId, { runMode: 'light', maxTotalCredits: estimate.totalCredits });
 * ```
 */
export interface DecisionForecastEstimate extends z.output<typeof DecisionForecastEstimate> {}

export const DecisionForecastRun = exact({
  /** Credits charged (rejected items cost nothing). */
  creditsCharged: z.number(),
  /** One per question: `accepted` with `taskId`, or `rejected` with `error` (a forecast already running, say). */
  items: z.array(exact({ questionId: str, status: openString<'accepted' | 'rejected'>(), taskId: z.optional(str), error: z.optional(exact({ type: str, message: str })) })),
});
/**
 * The forecasts a decision started; wait for them with `forecasts.waitMany`.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const run: DecisionForecastRun = await client.decisions.forecasts.create(decisionId, { runMode: 'light', maxTotalCredits: 4 });
 * const taskIds = run.items.flatMap((i) => (i.taskId ? [i.taskId] : []));
 * await client.forecasts.waitMany(taskIds);
 * ```
 */
export interface DecisionForecastRun extends z.output<typeof DecisionForecastRun> {}
