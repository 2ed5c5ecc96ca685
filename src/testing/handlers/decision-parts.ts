/**
 * The parts of a decision: nodes, links, notes, comments, conditions and the summary. Every write
 * goes through `write`, so an archived decision refuses it.
 * @module
 */
import {
  decisionCommentOperations as cops,
  decisionConditionOperations as kops,
  decisionLinkOperations as lops,
  decisionNodeOperations as nops,
  decisionNoteOperations as tops,
  decisionSummaryOperations as sops,
} from '../../api/decisions.js';
import { badRequest, conflict, MockHttpError } from '../http.js';
import { draftLink, summaryView, writeSummary, type DecisionLinkRecord, type DecisionRecord } from '../models/decision.js';
import { findVisibleQuestion } from '../models/question.js';
import { cursorPage } from '../paging.js';
import { drop, find, item, modelCall, nodeOf, write, type Ctx } from './decision-steps.js';
import { handlersFor } from './types.js';

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

/** The comment of the path, if the caller wrote it: 403 otherwise. */
function ownComment(ctx: Ctx, d: DecisionRecord) {
  const comment = item(ctx, d.comments, 'comment_id', 'comment');
  if (comment.authorId !== ctx.principal.userId) {
    throw new MockHttpError(403, 'permission_denied', `commentId: only its author may change comment ${comment.id}`);
  }
  return comment;
}

/** The handlers of the decision parts' groups. */
export const decisionPartHandlers = [
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
