/**
 * What every decision handler shares: the decision of the path, the write guard (409
 * `decision_archived`), the model-call limit and the lookups of a decision's parts.
 * @module
 */
import { DECISION_MODEL_CALLS_PER_MINUTE } from '../../api/limits.js';
import { conflict, notFound } from '../http.js';
import { DECISIONS, decisionView, type DecisionRecord } from '../models/decision.js';
import type { HandlerContext } from './types.js';

export type Ctx = HandlerContext;

/** The decision of the path, if the caller's organization holds it; else 404. */
export function find(ctx: Ctx): DecisionRecord {
  const id = ctx.pathParams['decision_id']!;
  const d = ctx.store.collection(DECISIONS).get(id);
  if (!d || d.organizationId !== ctx.principal.organizationId) throw notFound(`decisionId: no decision ${id}`);
  return d;
}

/**
 * A handler that changes the decision: refused with 409 `decision_archived` while it is archived;
 * the decision's `updatedAt` moves only when the change succeeds.
 */
export function write<I>(change: (ctx: HandlerContext<I>, d: DecisionRecord) => unknown): (ctx: HandlerContext<I>) => unknown {
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
export const modelCall = (ctx: Ctx) => ctx.limit('decision model calls', DECISION_MODEL_CALLS_PER_MINUTE);

/** The item of `list` whose id is the path parameter `param`; else 404 naming it. */
export function item<T extends { id: string }>(ctx: Ctx, list: T[], param: string, what: string): T {
  const id = ctx.pathParams[param]!;
  const found = list.find((x) => x.id === id);
  if (!found) throw notFound(`${param.replace('_id', 'Id')}: no ${what} ${id} on this decision`);
  return found;
}

/** Removes `x` from `list`. */
export const drop = <T>(list: T[], x: T) => void list.splice(list.indexOf(x), 1);

export const view = (ctx: Ctx, d: DecisionRecord) => decisionView(d, ctx.principal.userId);

/** A node of the decision named in the body; 404 naming `field`. */
export function nodeOf(d: DecisionRecord, id: string, field: string) {
  const node = d.nodes.find((n) => n.id === id);
  if (!node) throw notFound(`${field}: no node ${id} on this decision`);
  return node;
}

