/**
 * Decisions: the decision and its modes, drafting, nodes, links, notes, comments, conditions, the
 * summary and priced forecasts. Decisions are seen and edited by their organization; a comment only
 * by its author. Every write to an archived decision answers 409 `decision_archived` (archiving
 * again and pricing are allowed); a second drafting run meanwhile answers 409
 * `generation_in_progress`. Calls that use a model share the spec's limit of 10 a minute per key,
 * always on (like the drafting and chat limits). The state machines are `models/decision.ts`.
 * @module
 */
import {
  decisionDraftOperations as dops,
  decisionForecastOperations as fops,
  decisionOperations as ops,
} from '../../api/decisions.js';
import { QuestionDefinition as QuestionDefinitionSchema } from '../../schemas/questions.js';
import type { DecisionDraftQuestion, DecisionForecastEstimate, DecisionForecastRun } from '../../schemas/records/decisions.js';
import { badRequest, conflict, MockHttpError, notFound } from '../http.js';
import { validate } from '../input.js';
import { creditsOf, priceOf } from '../models/credits.js';
import { DECISIONS, startGeneration, writeSummary, type DecisionRecord } from '../models/decision.js';
import { DEFAULT_RUN_MODE, startForecast } from '../models/forecasts/task.js';
import { findVisibleQuestion, insertQuestion, pickDefinition, type QuestionDefinition } from '../models/question.js';
import { offsetPage } from '../paging.js';
import { decisionPartHandlers } from './decision-parts.js';
import { drop, find, item, modelCall, view, write, type Ctx } from './decision-steps.js';
import { handlersFor } from './types.js';

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
  ...decisionPartHandlers,
];
