/**
 * Decision requests: the decision itself (2 to 4 options), its drafts, nodes, links, notes,
 * comments, conditions, modes and priced forecasts. Checked before sending and by the mock on
 * receipt. The spec shows only the option rule and `maxTotalCredits`: every other field name here is
 * this SDK's choice (see docs/decisions.md). The records are in `records/decisions.ts`.
 * @module
 */
import * as z from 'zod/mini';
import { MAX_DECISION_OPTIONS, MIN_DECISION_OPTIONS } from '../api/limits.js';
import { CursorPageParams, OffsetPageParams, exact, rule } from './common.js';
import { CONDITION_OPERATORS, DECISION_LINK_KINDS, DECISION_STATUSES, RUN_MODES } from './enums.js';
import { QuestionUpdateParams } from './questions.js';

export { CONDITION_OPERATORS, DECISION_LINK_KINDS, DECISION_STATUSES } from './enums.js';
export type { ConditionOperator, DecisionLinkKind, DecisionStatus } from './enums.js';

const Text = z.string().check(z.minLength(1, { error: 'must not be empty' }));
const Ids = z.array(Text).check(z.minLength(1, { error: 'must not be empty' }));
const OPTION_COUNT = `must hold ${MIN_DECISION_OPTIONS} to ${MAX_DECISION_OPTIONS}`;
/** 2 to 4 distinct options. */
const Options = z.array(Text).check(
  z.minLength(MIN_DECISION_OPTIONS, { error: OPTION_COUNT }),
  z.maxLength(MAX_DECISION_OPTIONS, { error: OPTION_COUNT }),
  rule((o: string[]) => new Set(o).size === o.length, '', 'must be distinct'),
);
const Description = z.optional(z.string());

/**
 * Body of `POST /decisions`: what is decided and its 2 to 4 options. The service drafts questions for
 * it at once (see `Decision.generation`).
 * @example
 * ```ts
 * await client.decisions.create({ title: 'Where do we open the next office?', options: ['Lisbon', 'Berlin'] });
 * ```
 */
export const DecisionCreateParams = exact({
  /** What is being decided. */
  title: Text,
  /** 2 to 4 distinct options to choose among. */
  options: Options,
  /** Context and constraints. */
  description: Description,
});
/**
 * Body of `POST /decisions`: a title and 2 to 4 distinct options.
 * Not shown in the spec beyond the 2 to 4 options: the other fields are the SDK's choice.
 * @example
 * ```ts
 * const params: DecisionCreateParams = { title: 'Where do we open the next office?', options: ['Lisbon', 'Berlin'], description: 'Budget: 2 M€ a year.' };
 * const decision = await client.decisions.create(params);
 * ```
 */
export interface DecisionCreateParams extends z.input<typeof DecisionCreateParams> {}

/** Body of `PATCH /decisions/{decision_id}`: only the fields sent change; `options` still 2 to 4. */
export const DecisionUpdateParams = exact({
  /** What is being decided. */
  title: z.optional(Text),
  /** 2 to 4 distinct options; a question put on a removed option keeps no option. */
  options: z.optional(Options),
  /** Context and constraints. */
  description: Description,
});
/**
 * Body of `PATCH /decisions/{decision_id}`: only the fields sent change.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const change: DecisionUpdateParams = { options: ['Lisbon', 'Berlin', 'Stay put'] };
 * await client.decisions.update(decisionId, change);
 * ```
 */
export interface DecisionUpdateParams extends z.input<typeof DecisionUpdateParams> {}

/** Query of `GET /decisions` (offset paging). `status` is this SDK's filter name. */
export const DecisionListParams = exact({
  ...OffsetPageParams,
  /** Only `active` or only `archived` decisions (default: both). */
  status: z.optional(z.enum(DECISION_STATUSES)),
});
/**
 * Query of `GET /decisions`: `limit` (up to 200, default 50), `offset`, `status`.
 * `limit` and `offset` are the spec's; `status` is the SDK's choice.
 * @example
 * ```ts
 * const query: DecisionListParams = { status: 'archived', limit: 100 };
 * for await (const d of client.decisions.list(query)) console.log(d.title, d.archivedAt);
 * ```
 */
export interface DecisionListParams extends z.input<typeof DecisionListParams> {}

/** Body of `POST /decisions/{decision_id}/generate`. */
export const DecisionGenerateParams = exact({
  /** What the new drafts should look into. */
  guidance: Description,
});
/**
 * Body of `POST /decisions/{decision_id}/generate`: optional guidance for the drafts.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const params: DecisionGenerateParams = { guidance: 'Hiring and rent costs over five years' };
 * await client.decisions.generate(decisionId, params);
 * ```
 */
export interface DecisionGenerateParams extends z.input<typeof DecisionGenerateParams> {}

/** Body of `PATCH /decisions/{decision_id}/drafts/{draft_id}`: question fields to change on the draft (the question type rules hold). */
export const DecisionDraftUpdateParams = QuestionUpdateParams;
/**
 * Body of `PATCH /decisions/{decision_id}/drafts/{draft_id}`: the drafted question's fields to change.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const change: DecisionDraftUpdateParams = { title: 'Will Lisbon office rents fall in 2027?' };
 * await client.decisions.drafts.update(decisionId, draftId, change);
 * ```
 */
export interface DecisionDraftUpdateParams extends z.input<typeof DecisionDraftUpdateParams> {}

/** Body of `POST /decisions/{decision_id}/drafts/keep` and `/discard`. */
export const DecisionDraftSelectParams = exact({
  /** The drafts to keep or discard (default: every draft). */
  draftIds: z.optional(Ids),
});
/**
 * Body of `drafts/keep` and `drafts/discard`: `draftIds`, or every draft when left out.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const params: DecisionDraftSelectParams = { draftIds: [draftId] };
 * await client.decisions.drafts.keep(decisionId, params);
 * ```
 */
export interface DecisionDraftSelectParams extends z.input<typeof DecisionDraftSelectParams> {}

const forecastFields = {
  /** Questions of the decision to forecast (default: every question on it). */
  questionIds: z.optional(Ids),
  /** The run mode of every forecast (default: the organization's). */
  runMode: z.optional(z.enum(RUN_MODES)),
};
/** Body of `POST /decisions/{decision_id}/forecasts/estimate`: which questions, in which run mode. */
export const DecisionForecastEstimateParams = exact(forecastFields);
/**
 * Body of `POST /decisions/{decision_id}/forecasts/estimate`: which questions, in which run mode.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const params: DecisionForecastEstimateParams = { questionIds: [questionId], runMode: 'light' };
 * const { totalCredits } = await client.decisions.forecasts.estimate(decisionId, params);
 * ```
 */
export interface DecisionForecastEstimateParams extends z.input<typeof DecisionForecastEstimateParams> {}

/** Body of `POST /decisions/{decision_id}/forecasts`: the estimate's fields and the approved total. */
export const DecisionForecastCreateParams = exact({
  ...forecastFields,
  /** The most the batch may cost, in credits: the approved estimate's `totalCredits`. A higher price is refused and nothing is charged. */
  maxTotalCredits: z.number().check(z.minimum(0)),
});
/**
 * Body of `POST /decisions/{decision_id}/forecasts`: the questions, the run mode and `maxTotalCredits`.
 * Not shown in the spec beyond `maxTotalCredits`: the other fields are the SDK's choice.
 * @example
 * ```ts
 * const estimate = await client.decisions.forecasts.estimate(decisionId, { runMode: 'light' });
 * const params: DecisionForecastCreateParams = { runMode: 'light', maxTotalCredits: estimate.totalCredits };
 * const run = await client.decisions.forecasts.create(decisionId, params);
 * ```
 */
export interface DecisionForecastCreateParams extends z.input<typeof DecisionForecastCreateParams> {}

/** Body of `POST /decisions/{decision_id}/nodes`. */
export const DecisionNodeCreateParams = exact({
  /** The question to put on the decision. */
  questionId: Text,
  /** The option the question informs, one of the decision's (default none). */
  option: z.optional(z.nullable(z.string())),
});
/**
 * Body of `POST /decisions/{decision_id}/nodes`: a question, and optionally the option it informs.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const params: DecisionNodeCreateParams = { questionId, option: 'Lisbon' };
 * const node = await client.decisions.nodes.create(decisionId, params);
 * ```
 */
export interface DecisionNodeCreateParams extends z.input<typeof DecisionNodeCreateParams> {}

const distinctEnds = rule(
  (l: { fromNodeId?: string; toNodeId?: string }) => l.fromNodeId === undefined || l.fromNodeId !== l.toNodeId,
  'toNodeId',
  'must differ from fromNodeId',
);
/** Body of `POST /decisions/{decision_id}/links`. */
export const DecisionLinkCreateParams = exact({
  /** The node the link starts from (the condition, for a conditional link). */
  fromNodeId: Text,
  /** The node the link goes to. */
  toNodeId: Text,
  /** `related` (default) or `conditional` (a model writes the conditional question; it can fail). */
  kind: z.optional(z.enum(DECISION_LINK_KINDS)),
  /** A caption. */
  label: Description,
}).check(distinctEnds);
/**
 * Body of `POST /decisions/{decision_id}/links`: two different nodes, a kind and a caption.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const params: DecisionLinkCreateParams = { fromNodeId, toNodeId, kind: 'conditional', label: 'if rents fall' };
 * const link = await client.decisions.links.create(decisionId, params);
 * ```
 */
export interface DecisionLinkCreateParams extends z.input<typeof DecisionLinkCreateParams> {}

/** Body of `PATCH /decisions/{decision_id}/links/{link_id}`: only a failed conditional link can be edited; it is written again. */
export const DecisionLinkUpdateParams = exact({
  /** The node the link starts from. */
  fromNodeId: z.optional(Text),
  /** The node the link goes to. */
  toNodeId: z.optional(Text),
  /** A caption. */
  label: Description,
}).check(distinctEnds);
/**
 * Body of `PATCH /decisions/{decision_id}/links/{link_id}`: the fields to change.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const change: DecisionLinkUpdateParams = { toNodeId: otherNodeId };
 * await client.decisions.links.update(decisionId, linkId, change); // a failed conditional link is written again
 * ```
 */
export interface DecisionLinkUpdateParams extends z.input<typeof DecisionLinkUpdateParams> {}

/** Body of the note and comment operations (create and edit). */
export const DecisionTextParams = exact({
  /** The text, not empty. */
  text: Text,
});
/**
 * Body of the note and comment operations: `text`.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const params: DecisionTextParams = { text: 'Budget is capped at 2 M€.' };
 * await client.decisions.notes.create(decisionId, params);
 * await client.decisions.comments.create(decisionId, { text: 'Lisbon looks cheaper.' });
 * ```
 */
export interface DecisionTextParams extends z.input<typeof DecisionTextParams> {}

/** Body of `POST /decisions/{decision_id}/conditions`. */
export const DecisionConditionCreateParams = exact({
  /** The node whose forecasts the condition watches. */
  nodeId: Text,
  /** `above` or `below` the `threshold`. */
  operator: z.enum(CONDITION_OPERATORS),
  /** In the forecast's own terms: a probability for `binary` and `multiple_choice` (of `option`), the median for the others. */
  threshold: z.number(),
  /** The option whose probability is compared (`multiple_choice` questions only). */
  option: Description,
  /** A caption. */
  label: Description,
});
/**
 * Body of `POST /decisions/{decision_id}/conditions`: a node, `operator` and `threshold`.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const params: DecisionConditionCreateParams = { nodeId, operator: 'above', threshold: 0.7, label: 'Go for Lisbon' };
 * const condition = await client.decisions.conditions.create(decisionId, params);
 * ```
 */
export interface DecisionConditionCreateParams extends z.input<typeof DecisionConditionCreateParams> {}

/** Body of `PATCH /decisions/{decision_id}/conditions/{condition_id}`: the fields to change, and `armed`. */
export const DecisionConditionUpdateParams = exact({
  /** `above` or `below` the `threshold`. */
  operator: z.optional(z.enum(CONDITION_OPERATORS)),
  /** The new threshold. */
  threshold: z.optional(z.number()),
  /** The option whose probability is compared. */
  option: Description,
  /** A caption. */
  label: Description,
  /** `true` arms the condition again (after it triggered); `false` disarms it. */
  armed: z.optional(z.boolean()),
});
/**
 * Body of `PATCH /decisions/{decision_id}/conditions/{condition_id}`: change it, or arm it again.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const change: DecisionConditionUpdateParams = { threshold: 0.8, armed: true };
 * await client.decisions.conditions.update(decisionId, conditionId, change);
 * ```
 */
export interface DecisionConditionUpdateParams extends z.input<typeof DecisionConditionUpdateParams> {}

/** Body of `PUT /decisions/{decision_id}/live`. */
export const DecisionLiveParams = exact({
  /** `true`: new forecasts on the decision's questions refresh its summary. */
  enabled: z.boolean(),
});
/**
 * Body of `PUT /decisions/{decision_id}/live`: `enabled`.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const params: DecisionLiveParams = { enabled: true };
 * const { live } = await client.decisions.setLive(decisionId, params);
 * ```
 */
export interface DecisionLiveParams extends z.input<typeof DecisionLiveParams> {}

/** Body of `PUT /decisions/{decision_id}/follow`. */
export const DecisionFollowParams = exact({
  /** `true` follows the decision, `false` unfollows it. */
  following: z.boolean(),
});
/**
 * Body of `PUT /decisions/{decision_id}/follow`: `following`.
 * Not shown in the spec: the fields are the SDK's choice (see docs/decisions.md).
 * @example
 * ```ts
 * const params: DecisionFollowParams = { following: false };
 * await client.decisions.setFollowing(decisionId, params);
 * ```
 */
export interface DecisionFollowParams extends z.input<typeof DecisionFollowParams> {}

/** Query of `GET /decisions/{decision_id}/comments` and `/conditions`: cursor paging. */
export const DecisionPageParams = exact({ ...CursorPageParams });
/**
 * Query of the comment and condition lists: `limit` and `cursor`.
 * @example
 * ```ts
 * const page = await client.decisions.comments.list(decisionId, { limit: 50 });
 * const next = await client.decisions.comments.list(decisionId, { cursor: page.nextCursor! });
 * ```
 */
export interface DecisionPageParams extends z.input<typeof DecisionPageParams> {}
