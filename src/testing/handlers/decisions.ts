/**
 * Decisions: the decision and its modes, drafting, nodes, links, notes, comments, conditions, the
 * summary and priced forecasts. Decisions are seen and edited by their organization; a comment only
 * by its author. Every write to an archived decision answers 409 `decision_archived` (archiving
 * again and pricing are allowed); a second drafting run meanwhile answers 409
 * `generation_in_progress`. Calls that use a model share the spec's limit of 10 a minute per key,
 * always on (like the drafting and chat limits). The state machines are `models/decision.ts`.
 * @module
 */
import { DECISION_MODEL_CALLS_PER_MINUTE } from '../../core/limits.js';
import {
  decisionCommentOperations as cops,
  decisionConditionOperations as kops,
  decisionDraftOperations as dops,
  decisionForecastOperations as fops,
  decisionLinkOperations as lops,
  decisionNodeOperations as nops,
  decisionNoteOperations as tops,
  decisionOperations as ops,
  decisionSummaryOperations as sops,
} from '../../resources/decisions/index.js';
import { QuestionDefinition as QuestionDefinitionSchema } from '../../schemas/questions.js';
import type { DecisionDraftQuestion, DecisionForecastEstimate, DecisionForecastRun } from '../../schemas/records/decisions.js';
import { badRequest, conflict, MockHttpError, notFound } from '../http.js';
import { validate } from '../input.js';
import { creditsOf, priceOf } from '../models/credits.js';
import {
  DECISIONS,
  decisionView,
  draftLink,
  startGeneration,
  summaryView,
  writeSummary,
  type DecisionLinkRecord,
  type DecisionRecord,
} from '../models/decision.js';
import { DEFAULT_RUN_MODE, startForecast } from '../models/forecasts/task.js';
import { findVisibleQuestion, insertQuestion, pickDefinition, type QuestionDefinition } from '../models/question.js';
import { cursorPage, offsetPage } from '../paging.js';
import { handlersFor, type HandlerContext } from './types.js';

type Ctx = HandlerContext;

/** The decision of the path, if the caller's organization holds it; else 404. */
function find(ctx: Ctx): DecisionRecord {
  const id = ctx.pathParams['decision_id']!;
  const d = ctx.store.collection(DECISIONS).get(id);
  if (!d || d.organizationId !== ctx.principal.organizationId) throw notFound(`decisionId: no decision ${id}`);
  return d;
}

/**
 * A handler that changes the decision: refused with 409 `decision_archived` while it is archived;
 * the decision's `updatedAt` moves only when the change succeeds.
 */
function write<I>(change: (ctx: HandlerContext<I>, d: DecisionRecord) => unknown): (ctx: HandlerContext<I>) => unknown {
  return (ctx) => {
    const d = find(ctx);
    if (d.status === 'archived') throw conflict(`Decision ${d.id} is archived: unarchive it to change it`, 'decision_archived');
    const before = d.updatedAt;
    d.updatedAt = ctx.timestamp();
    try {
      return change(ctx, d);
    } catch (err) {
      d.updatedAt = before;
      throw err;
    }
  };
}

/** Counts a call that uses a model: 10 a minute per key. */
const modelCall = (ctx: Ctx) => ctx.limit('decision model calls', DECISION_MODEL_CALLS_PER_MINUTE);

/** The item of `list` whose id is the path parameter `param`; else 404 naming it. */
function item<T extends { id: string }>(ctx: Ctx, list: T[], param: string, what: string): T {
  const id = ctx.pathParams[param]!;
  const found = list.find((x) => x.id === id);
  if (!found) throw notFound(`${param.replace('_id', 'Id')}: no ${what} ${id} on this decision`);
  return found;
}

/** Removes `x` from `list`. */
const drop = <T>(list: T[], x: T) => void list.splice(list.indexOf(x), 1);

const view = (ctx: Ctx, d: DecisionRecord) => decisionView(d, ctx.principal.userId);

/** A node of the decision named in the body; 404 naming `field`. */
function nodeOf(d: DecisionRecord, id: string, field: string) {
  const node = d.nodes.find((n) => n.id === id);
  if (!node) throw notFound(`${field}: no node ${id} on this decision`);
  return node;
}

/** `option`, checked against the decision's options (null and undefined pass). */
function checkOption(d: DecisionRecord, option: string | null | undefined): void {
  if (option != null && !d.options.includes(option)) throw badRequest(`must be one of the decision's options: ${d.options.join(', ')}`, 'option');
}

/** A condition's option, checked against its node's question: a multiple choice question needs one of its options. */
function checkConditionOption(ctx: Ctx, d: DecisionRecord, nodeId: string, option: string | null | undefined): void {
  const question = ctx.store.questions.get(nodeOf(d, nodeId, 'nodeId').questionId)?.question;
  if (question?.type === 'multiple_choice' && (option == null || !question.options.includes(option))) {
    throw badRequest(`must be one of the question's options: ${question.options.join(', ')}`, 'option');
  }
}

/** The drafts `draftIds` names (default all); 404 naming the first unknown one. */
function selectDrafts(d: DecisionRecord, draftIds: string[] | undefined) {
  return (draftIds ?? d.drafts.map((x) => x.id)).map((id, i) => {
    const found = d.drafts.find((x) => x.id === id);
    if (!found) throw notFound(`draftIds.${i}: no draft ${id} on this decision`);
    return found;
  });
}

/** The price of forecasting `questionIds` (default: every question on the decision) now. */
function estimate(ctx: Ctx, d: DecisionRecord, input: { questionIds?: string[] | undefined; runMode?: string | undefined }): DecisionForecastEstimate {
  const onDecision = [...new Set(d.nodes.map((n) => n.questionId))];
  input.questionIds?.forEach((id, i) => {
    if (!onDecision.includes(id)) throw badRequest(`${id} is not a question on this decision`, `questionIds.${i}`);
  });
  const questionIds = input.questionIds ? [...new Set(input.questionIds)] : onDecision;
  if (questionIds.length === 0) throw badRequest('the decision has no questions yet: put some on it first', 'questionIds');
  const runMode = input.runMode ?? DEFAULT_RUN_MODE;
  const credits = priceOf(ctx.store, `forecast.${runMode}`);
  return {
    totalCredits: credits * questionIds.length,
    runMode: runMode as DecisionForecastEstimate['runMode'],
    balance: creditsOf(ctx.store, ctx.principal.organizationId).balance,
    items: questionIds.map((questionId) => ({ questionId, credits })),
  };
}

export const decisionHandlers = [
  ...handlersFor(ops, {
    list: (ctx) => {
      const { status } = ctx.input;
      const found = ctx.store.collection(DECISIONS).list((d) => d.organizationId === ctx.principal.organizationId && (!status || d.status === status));
      return offsetPage(found.map((d) => view(ctx, d)), ctx.input);
    },
    create: (ctx) => {
      modelCall(ctx);
      const now = ctx.timestamp();
      const d = ctx.store.collection(DECISIONS).insert({
        id: crypto.randomUUID(),
        ownerId: ctx.principal.userId,
        organizationId: ctx.principal.organizationId,
        title: ctx.input.title,
        description: ctx.input.description ?? '',
        options: ctx.input.options,
        status: 'active',
        archivedAt: null,
        live: false,
        followers: [],
        generation: null,
        nodes: [],
        links: [],
        notes: [],
        drafts: [],
        comments: [],
        conditions: [],
        summary: { text: '', recommendation: null, generatedAt: now, forecasts: [] },
        draftsMade: 0,
        createdAt: now,
        updatedAt: now,
      });
      writeSummary(ctx, d);
      startGeneration(ctx, d);
      return view(ctx, d);
    },
    retrieve: (ctx) => view(ctx, find(ctx)),
    update: write((ctx, d) => {
      const { title, description, options } = ctx.input;
      Object.assign(d, title === undefined ? {} : { title }, description === undefined ? {} : { description });
      if (options) {
        d.options = options;
        for (const x of [...d.nodes, ...d.drafts]) if (x.option !== null && !options.includes(x.option)) x.option = null;
      }
      return view(ctx, d);
    }),
    archive: (ctx) => {
      const d = find(ctx);
      if (d.status === 'active') Object.assign(d, { status: 'archived', archivedAt: ctx.timestamp(), updatedAt: ctx.timestamp() });
      return view(ctx, d);
    },
    unarchive: (ctx) => {
      const d = find(ctx);
      if (d.status === 'archived') Object.assign(d, { status: 'active', archivedAt: null, updatedAt: ctx.timestamp() });
      return view(ctx, d);
    },
    generate: write((ctx, d) => {
      if (d.generation?.status === 'running') {
        throw conflict(`Decision ${d.id} is still drafting (since ${d.generation.startedAt}): wait until generation.status is completed`, 'generation_in_progress');
      }
      modelCall(ctx);
      startGeneration(ctx, d, ctx.input.guidance);
      return view(ctx, d);
    }),
    setLive: write((ctx, d) => {
      d.live = ctx.input.enabled;
      return view(ctx, d);
    }),
    setFollowing: write((ctx, d) => {
      const user = ctx.principal.userId;
      d.followers = d.followers.filter((u) => u !== user).concat(ctx.input.following ? [user] : []);
      return view(ctx, d);
    }),
  }),
  ...handlersFor(dops, {
    update: write((ctx, d) => {
      const draft = item(ctx, d.drafts, 'draft_id', 'draft');
      // The type rules hold for the draft as a whole, so they are checked on the merged fields.
      draft.question = validate(QuestionDefinitionSchema, { ...draft.question, ...pickDefinition(ctx.input) }) as DecisionDraftQuestion;
      return draft;
    }),
    discard: write((ctx, d) => {
      for (const draft of selectDrafts(d, ctx.input.draftIds)) drop(d.drafts, draft);
      return view(ctx, d);
    }),
    keep: write((ctx, d) => {
      const drafts = selectDrafts(d, ctx.input.draftIds);
      modelCall(ctx);
      for (const draft of drafts) {
        const question = insertQuestion(ctx, draft.question as QuestionDefinition);
        d.nodes.push({ id: crypto.randomUUID(), questionId: question.id, option: draft.option, createdAt: ctx.timestamp() });
        drop(d.drafts, draft);
      }
      return view(ctx, d);
    }),
  }),
  ...handlersFor(fops, {
    estimate: (ctx) => estimate(ctx, find(ctx), ctx.input),
    create: write((ctx, d): DecisionForecastRun => {
      const { totalCredits, runMode, items } = estimate(ctx, d, ctx.input);
      const { maxTotalCredits } = ctx.input;
      if (totalCredits > maxTotalCredits) {
        throw conflict(`maxTotalCredits: the batch now costs ${totalCredits} credits, above the ${maxTotalCredits} approved; nothing was charged`, 'max_total_credits_exceeded', {
          totalCredits,
          maxTotalCredits,
        });
      }
      const account = creditsOf(ctx.store, ctx.principal.organizationId);
      if (!account.unlimited && account.balance < totalCredits) {
        throw conflict(`Not enough credits: the batch costs ${totalCredits}, the balance is ${account.balance}; nothing was charged`);
      }
      let creditsCharged = 0;
      const started = items.map(({ questionId }) => {
        try {
          const task = startForecast(ctx, {
            question: findVisibleQuestion(ctx, questionId),
            ownerId: ctx.principal.userId,
            organizationId: ctx.principal.organizationId,
            runMode: runMode as never,
            startedBy: 'api',
          });
          creditsCharged += task.creditsCharged;
          return { questionId, status: 'accepted' as const, taskId: task.id };
        } catch (err) {
          // A question that cannot start (a forecast already running, say) is rejected alone and costs nothing.
          if (!(err instanceof MockHttpError)) throw err;
          return { questionId, status: 'rejected' as const, error: { type: err.type, message: err.message } };
        }
      });
      return { creditsCharged, items: started };
    }),
  }),
  ...handlersFor(nops, {
    create: write((ctx, d) => {
      const { questionId, option } = ctx.input;
      const question = findVisibleQuestion(ctx, questionId);
      checkOption(d, option);
      if (d.nodes.some((n) => n.questionId === question.id)) throw conflict(`questionId: question ${questionId} is already on the decision`);
      const node = { id: crypto.randomUUID(), questionId: question.id, option: option ?? null, createdAt: ctx.timestamp() };
      d.nodes.push(node);
      return node;
    }),
    delete: write((ctx, d) => {
      const node = item(ctx, d.nodes, 'node_id', 'node');
      // Its links and conditions go with it.
      drop(d.nodes, node);
      d.links = d.links.filter((l) => l.fromNodeId !== node.id && l.toNodeId !== node.id);
      d.conditions = d.conditions.filter((c) => c.nodeId !== node.id);
    }),
  }),
  ...handlersFor(lops, {
    create: write((ctx, d) => {
      const { fromNodeId, toNodeId, kind = 'related', label } = ctx.input;
      nodeOf(d, fromNodeId, 'fromNodeId');
      nodeOf(d, toNodeId, 'toNodeId');
      if (kind === 'conditional') modelCall(ctx);
      const now = ctx.timestamp();
      const link: DecisionLinkRecord = { id: crypto.randomUUID(), fromNodeId, toNodeId, kind, status: 'ready', label: label ?? null, statement: null, error: null, createdAt: now, updatedAt: now, attempt: 0 };
      d.links.push(link);
      if (kind === 'conditional') draftLink(ctx, d, link);
      const { attempt: _a, ...shown } = link;
      return shown;
    }),
    update: write((ctx, d) => {
      const link = item(ctx, d.links, 'link_id', 'link');
      if (link.kind !== 'conditional' || link.status !== 'failed') {
        throw conflict(`linkId: only a failed conditional link can be edited; this ${link.kind} link is ${link.status}`);
      }
      const { fromNodeId = link.fromNodeId, toNodeId = link.toNodeId, label } = ctx.input;
      nodeOf(d, fromNodeId, 'fromNodeId');
      nodeOf(d, toNodeId, 'toNodeId');
      if (fromNodeId === toNodeId) throw badRequest('must differ from fromNodeId', 'toNodeId');
      modelCall(ctx);
      Object.assign(link, { fromNodeId, toNodeId, updatedAt: ctx.timestamp() }, label === undefined ? {} : { label });
      draftLink(ctx, d, link);
      const { attempt: _a, ...shown } = link;
      return shown;
    }),
    delete: write((ctx, d) => {
      drop(d.links, item(ctx, d.links, 'link_id', 'link'));
    }),
  }),
  ...handlersFor(tops, {
    create: write((ctx, d) => {
      const now = ctx.timestamp();
      const note = { id: crypto.randomUUID(), text: ctx.input.text, createdAt: now, updatedAt: now };
      d.notes.push(note);
      return note;
    }),
    update: write((ctx, d) => {
      return Object.assign(item(ctx, d.notes, 'note_id', 'note'), { text: ctx.input.text, updatedAt: ctx.timestamp() });
    }),
    delete: write((ctx, d) => {
      drop(d.notes, item(ctx, d.notes, 'note_id', 'note'));
    }),
  }),
  ...handlersFor(cops, {
    list: (ctx) => cursorPage(find(ctx).comments, ctx.input, (c) => c.id),
    create: write((ctx, d) => {
      const now = ctx.timestamp();
      const comment = { id: crypto.randomUUID(), text: ctx.input.text, authorId: ctx.principal.userId, createdAt: now, updatedAt: now };
      d.comments.push(comment);
      return comment;
    }),
    update: write((ctx, d) => Object.assign(ownComment(ctx, d), { text: ctx.input.text, updatedAt: ctx.timestamp() })),
    delete: write((ctx, d) => {
      drop(d.comments, ownComment(ctx, d));
    }),
  }),
  ...handlersFor(kops, {
    list: (ctx) => cursorPage(find(ctx).conditions, ctx.input, (c) => c.id),
    create: write((ctx, d) => {
      const { nodeId, operator, threshold, option, label } = ctx.input;
      checkConditionOption(ctx, d, nodeId, option);
      const now = ctx.timestamp();
      const condition = {
        id: crypto.randomUUID(),
        nodeId,
        operator,
        threshold,
        option: option ?? null,
        label: label ?? null,
        status: 'armed' as const,
        triggeredAt: null,
        triggeredBy: null,
        createdAt: now,
        updatedAt: now,
      };
      d.conditions.push(condition);
      return condition;
    }),
    update: write((ctx, d) => {
      const condition = item(ctx, d.conditions, 'condition_id', 'condition');
      const { armed, operator, threshold, option, label } = ctx.input;
      if (option !== undefined) checkConditionOption(ctx, d, condition.nodeId, option);
      for (const [key, value] of Object.entries({ operator, threshold, option, label })) if (value !== undefined) Object.assign(condition, { [key]: value });
      if (armed !== undefined) Object.assign(condition, { status: armed ? 'armed' : 'disarmed', triggeredAt: null, triggeredBy: null });
      condition.updatedAt = ctx.timestamp();
      return condition;
    }),
    delete: write((ctx, d) => {
      drop(d.conditions, item(ctx, d.conditions, 'condition_id', 'condition'));
    }),
  }),
  ...handlersFor(sops, {
    retrieve: (ctx) => summaryView(ctx, find(ctx)),
    refresh: write((ctx, d) => {
      modelCall(ctx);
      writeSummary(ctx, d);
      return summaryView(ctx, d);
    }),
  }),
];

/** The comment of the path, if the caller wrote it: 403 otherwise. */
function ownComment(ctx: Ctx, d: DecisionRecord) {
  const comment = item(ctx, d.comments, 'comment_id', 'comment');
  if (comment.authorId !== ctx.principal.userId) {
    throw new MockHttpError(403, 'permission_denied', `commentId: only its author may change comment ${comment.id}`);
  }
  return comment;
}
