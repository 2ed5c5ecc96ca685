/**
 * Decisions in the mock, on its clock: drafting runs (a model writes three question drafts in
 * {@link GENERATION_MS}), conditional links written in {@link LINK_DRAFT_MS} (ready, or failed when a
 * test asks), conditions that trigger from forecasts completed on the decision's questions (heard on
 * the {@link MockEventBus}), and the summary written from the latest forecasts. The record shapes
 * are the SDK's own reading (the spec shows none).
 * @module
 */
import type { Decision, DecisionComment, DecisionCondition, DecisionDraft, DecisionGeneration, DecisionLink, DecisionNode, DecisionNote, DecisionSummary } from '../../schemas/records/decisions.js';
import type { ForecastData } from '../../schemas/records/forecasts.js';
import type { Question } from '../../schemas/records/questions.js';
import { collectionKey, type MockStore, type Ownership } from '../store.js';
import type { MockEnv } from '../env.js';
import { forecastDataOf } from './forecasts/data.js';
import { PRICE_CHANGES } from './credits.js';

/**
 * A link as stored: its view, and which drafting attempt is current.
 * @example
 * ```ts
 * const record = service.store.collection(DECISIONS).get(decisionId)!;
 * const link: DecisionLinkRecord | undefined = record.links.find((l) => l.id === linkId);
 * console.log(link?.status, link?.attempt); // attempt grows each time the link is written again
 * ```
 */
export interface DecisionLinkRecord extends DecisionLink {
  attempt: number;
}

/**
 * A decision as the mock stores it: what a read shows, plus its comments, conditions, summary and followers.
 * @example
 * ```ts
 * const record: DecisionRecord | undefined = service.store.collection(DECISIONS).get(decisionId);
 * console.log(record?.followers, record?.conditions.map((c) => c.status));
 * ```
 */
export interface DecisionRecord extends Ownership {
  id: string;
  title: string;
  description: string;
  options: string[];
  status: 'active' | 'archived';
  archivedAt: string | null;
  live: boolean;
  /** User ids. */
  followers: string[];
  generation: DecisionGeneration | null;
  nodes: DecisionNode[];
  links: DecisionLinkRecord[];
  notes: DecisionNote[];
  /** Their questions pass the question type rules (checked on every edit). */
  drafts: DecisionDraft[];
  comments: DecisionComment[];
  conditions: DecisionCondition[];
  summary: Omit<DecisionSummary, 'stale'>;
  /** Drafts written so far, so each run words its drafts anew. */
  draftsMade: number;
  createdAt: string;
  updatedAt: string;
}
/**
 * The decisions collection of the mock's store: one {@link DecisionRecord} per decision.
 * @example
 * ```ts
 * const archived = service.store.collection(DECISIONS).list((d) => d.status === 'archived');
 * ```
 */
export const DECISIONS = collectionKey<DecisionRecord>('decisions');

/**
 * How later conditional links end (set by `decisionControls.setLinkOutcome`); one record, id `links`.
 * @example
 * ```ts
 * service.decisionControls.setLinkOutcome('failed', 'No causal path found');
 * const outcome: LinkOutcome | undefined = service.store.collection(LINK_OUTCOMES).get('links'); // { id: 'links', outcome: 'failed', message: … }
 * ```
 */
export interface LinkOutcome {
  id: 'links';
  outcome: 'ready' | 'failed';
  message?: string | undefined;
}
/**
 * Where `decisionControls.setLinkOutcome` keeps how later conditional links end: one {@link LinkOutcome}, id `links`.
 * @example
 * ```ts
 * service.decisionControls.setLinkOutcome('failed');
 * service.store.collection(LINK_OUTCOMES).get('links')?.outcome; // 'failed'
 * ```
 */
export const LINK_OUTCOMES = collectionKey<LinkOutcome>('decisionLinkOutcomes');

/**
 * Drafts written by one drafting run.
 * @example
 * ```ts
 * const decision = await client.decisions.create({ title: 'Which city?', options: ['Lisbon', 'Berlin'] }); // drafting starts at once
 * service.clock.advance(GENERATION_MS);
 * expect((await client.decisions.retrieve(decision.id)).drafts).toHaveLength(DRAFTS_PER_GENERATION); // 3
 * ```
 */
export const DRAFTS_PER_GENERATION = 3;
/**
 * How long a drafting run takes on the mock clock (20 s per draft).
 * @example
 * ```ts
 * const decision = await client.decisions.create({ title: 'Which city?', options: ['Lisbon', 'Berlin'] });
 * service.clock.advance(GENERATION_MS); // 60 s later the run is completed, its drafts are there
 * expect((await client.decisions.retrieve(decision.id)).generation?.status).toBe('completed');
 * ```
 */
export const GENERATION_MS = DRAFTS_PER_GENERATION * 20_000;
/**
 * How long the model takes to write a conditional link.
 * @example
 * ```ts
 * const link = await client.decisions.links.create(decisionId, { fromNodeId, toNodeId, kind: 'conditional' }); // drafting
 * service.clock.advance(LINK_DRAFT_MS);
 * const ready = (await client.decisions.retrieve(decisionId)).links.find((l) => l.id === link.id); // status 'ready'
 * ```
 */
export const LINK_DRAFT_MS = 20_000;

const iso = (ms: number) => new Date(ms).toISOString();
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The record of `id`, if it still exists (a timer may outlive a `reset`). */
const current = (store: MockStore, id: string) => store.collection(DECISIONS).get(id);

/** The decision as reads show it to `userId`. */
export function decisionView(d: DecisionRecord, userId: string): Decision {
  const { ownerId: _o, organizationId: _g, followers, comments: _c, conditions: _k, summary: _s, draftsMade: _d, links, ...shown } = d;
  return { ...shown, following: followers.includes(userId), links: links.map(({ attempt: _a, ...link }) => link) };
}

/** Starts a drafting run: three drafts appear once it completes, {@link GENERATION_MS} later. */
export function startGeneration(env: MockEnv, d: DecisionRecord, guidance?: string): void {
  const generation: DecisionGeneration = { status: 'running', startedAt: iso(env.clock.now()), finishedAt: null };
  d.generation = generation;
  env.clock.schedule(env.clock.now() + GENERATION_MS, () => {
    const record = current(env.store, d.id);
    if (!record || record.generation !== generation) return;
    const now = iso(env.clock.now());
    for (let i = 0; i < DRAFTS_PER_GENERATION; i++) record.drafts.push(draft(record, record.draftsMade++, guidance, now));
    generation.status = 'completed';
    generation.finishedAt = now;
    record.updatedAt = now;
  });
}

/** The mock's stand-in for the model: the `n`th draft of a decision, a binary question on one of its options. */
function draft(d: DecisionRecord, n: number, guidance: string | undefined, now: string): DecisionDraft {
  const option = d.options[n % d.options.length]!;
  const topic = `"${clip(d.title, 300)}"`;
  const choice = clip(option, 100);
  const by = `31 December ${new Date(now).getUTCFullYear() + 1}`;
  // Each asks whether the option goes well, so a higher chance of YES speaks for it.
  const titles = [
    `Will choosing ${choice} deliver what is needed by ${by}?`,
    `Will ${choice} stay within its budget through ${by}?`,
    `Will ${choice} still look like the right choice on ${by}?`,
  ];
  return {
    id: crypto.randomUUID(),
    question: {
      type: 'binary',
      title: titles[Math.floor(n / d.options.length) % titles.length]!,
      description: `Drafted for the decision ${topic}${guidance ? `, looking into: ${guidance}` : ''}.`,
      resolutionCriteria: `Resolves YES if, on ${by}, the organization's own review finds it so.`,
    },
    option,
    rationale: `Informs the option "${choice}" of ${topic}.`,
    createdAt: now,
  };
}

/** Has the model write a conditional link: `drafting`, then `ready` or (as a test asked) `failed`, {@link LINK_DRAFT_MS} later. */
export function draftLink(env: MockEnv, d: DecisionRecord, link: DecisionLinkRecord): void {
  const attempt = ++link.attempt;
  Object.assign(link, { status: 'drafting', statement: null, error: null });
  env.clock.schedule(env.clock.now() + LINK_DRAFT_MS, () => {
    const record = current(env.store, d.id);
    const found = record?.links.find((l) => l.id === link.id);
    if (!record || !found || found.attempt !== attempt) return;
    const wanted = env.store.collection(LINK_OUTCOMES).get('links');
    const title = (nodeId: string) => {
      const questionId = record.nodes.find((n) => n.id === nodeId)?.questionId;
      return (questionId && env.store.questions.get(questionId)?.question.title) || 'the question';
    };
    found.updatedAt = iso(env.clock.now());
    if (wanted?.outcome === 'failed') {
      Object.assign(found, { status: 'failed', error: { message: wanted.message ?? 'The model could not write a conditional question for these two questions; edit the link to try again' } });
    } else {
      Object.assign(found, { status: 'ready', statement: `If "${title(found.fromNodeId)}" resolves YES: ${title(found.toNodeId)}` });
    }
  });
}

/**
 * The number a forecast gives, in the terms of a condition: the probability of YES (binary), of
 * `option` (multiple choice; without one, the likeliest option's), else the median.
 */
export function forecastValue(data: ForecastData, option?: string | null): number | undefined {
  const payload = data.payload as { probability?: number; probabilities?: Record<string, number> | number[]; percentiles?: { p50: number } };
  if (data.questionType === 'binary') return payload.probability;
  if (data.questionType === 'multiple_choice') {
    const probabilities = payload.probabilities as Record<string, number>;
    if (!option) return Math.max(...Object.values(probabilities));
    return Object.hasOwn(probabilities, option) ? probabilities[option] : undefined; // an option named `toString` is data, not a member
  }
  return payload.percentiles?.p50;
}

/** The latest completed forecast on each question of the decision, with its number. */
function latestForecasts(env: MockEnv, d: DecisionRecord): DecisionSummary['forecasts'] {
  const out: DecisionSummary['forecasts'] = [];
  for (const questionId of new Set(d.nodes.map((n) => n.questionId))) {
    const question = env.store.questions.get(questionId)?.question;
    const task = env.store.forecasts.list((r) => r.questionId === questionId && r.status === 'completed')[0];
    const value = question && task && forecastValue(forecastDataOf(env.store, question, task.id));
    if (task && value !== undefined) out.push({ questionId, taskId: task.id, value });
  }
  return out;
}

/** Writes the summary anew from the latest forecasts: each question's number, and the option they favour. */
export function writeSummary(env: MockEnv, d: DecisionRecord): void {
  const forecasts = latestForecasts(env, d);
  const question = (id: string) => env.store.questions.get(id)?.question as Question;
  // An option's score: the mean probability of YES of the binary questions put on it.
  let best: { option: string; score: number } | undefined;
  for (const option of d.options) {
    const values = forecasts.filter((f) => question(f.questionId).type === 'binary' && d.nodes.some((n) => n.questionId === f.questionId && n.option === option)).map((f) => f.value);
    const score = values.reduce((a, b) => a + b, 0) / values.length;
    if (values.length && (!best || score > best.score)) best = { option, score };
  }
  const parts = forecasts.map((f) => {
    const q = question(f.questionId);
    return `"${q.title}": ${q.type === 'binary' || q.type === 'multiple_choice' ? `${Math.round(f.value * 100)}%` : `median ${f.value}`}`;
  });
  d.summary = {
    text: forecasts.length
      ? `Based on ${forecasts.length} forecast(s): ${parts.join('; ')}.${best ? ` The forecasts favour "${best.option}".` : ''}`
      : "No forecasts on this decision's questions yet.",
    recommendation: best?.option ?? null,
    generatedAt: iso(env.clock.now()),
    forecasts,
  };
}

/** The summary as reads show it: `stale` when a newer forecast completed on one of its questions. */
export function summaryView(env: MockEnv, d: DecisionRecord): DecisionSummary {
  const ids = (list: DecisionSummary['forecasts']) => list.map((f) => f.taskId).join();
  return { ...d.summary, stale: ids(latestForecasts(env, d)) !== ids(d.summary.forecasts) };
}

/**
 * Listens for completed forecasts: on an active decision holding the question, armed conditions the
 * forecast's number crosses trigger, and in live mode the summary is written anew. Returns the
 * function that stops listening.
 */
export function watchDecisions(env: MockEnv): () => void {
  return env.events.on((event) => {
    if (event.type !== 'forecast.completed') return;
    const question = env.store.questions.get(event.questionId)?.question;
    if (!question) return;
    const data = forecastDataOf(env.store, question, event.taskId);
    const at = iso(event.at);
    for (const d of env.store.collection(DECISIONS).list((r) => r.status === 'active')) {
      const nodeIds = d.nodes.filter((n) => n.questionId === question.id).map((n) => n.id);
      if (nodeIds.length === 0) continue;
      for (const c of d.conditions) {
        const value = c.status === 'armed' && nodeIds.includes(c.nodeId) ? forecastValue(data, c.option) : undefined;
        if (value !== undefined && (c.operator === 'above' ? value > c.threshold : value < c.threshold)) {
          Object.assign(c, { status: 'triggered', triggeredAt: at, triggeredBy: { taskId: event.taskId, value }, updatedAt: at });
        }
      }
      if (d.live) writeSummary(env, d);
    }
  });
}

/**
 * Test hooks of the decisions, reached as `service.decisionControls`.
 * @example
 * ```ts
 * const estimate = await client.decisions.forecasts.estimate(decisionId);
 * service.decisionControls.setPrice('forecast.standard', 8);   // the start is now refused
 * service.decisionControls.setLinkOutcome('failed', 'No causal path found');
 * ```
 */
export class DecisionControls {
  constructor(private readonly store: MockStore) {}

  /**
   * Sets the price of a price key (`forecast.light`, …, `monitoring.question_month`) from now on:
   * estimates, starts, every charge, `GET /credits` and `GET /run-modes` read it.
   */
  setPrice(key: string, credits: number): void {
    const prices = this.store.collection(PRICE_CHANGES);
    prices.delete(key);
    prices.insert({ id: key, credits });
  }

  /** How conditional links drafted from now on end: `ready` (the default) or `failed` with `message`. */
  setLinkOutcome(outcome: 'ready' | 'failed', message?: string): void {
    const outcomes = this.store.collection(LINK_OUTCOMES);
    outcomes.delete('links');
    outcomes.insert({ id: 'links', outcome, message });
  }
}
