/**
 * Sharing and notifications: a question's share links (a revoked link stays readable, as revoked)
 * and the caller's subscription to a question. The spec shows no bodies: the shapes are the SDK's
 * (`schemas/records/sharing.ts`).
 * @module
 */
import { shareLinkOperations as ops, subscriptionOperations as subs } from '../../api/sharing.js';
import type { ShareLink } from '../../schemas/records/sharing.js';
import { badRequest, conflict, notFound } from '../http.js';
import { findVisibleQuestion } from '../models/question.js';
import { cursorPage } from '../paging.js';
import { SHARE_LINKS, SUBSCRIPTIONS } from '../models/sharing.js';
import { handlersFor, type HandlerContext } from './types.js';
import { toBase64Url } from '../base64url.js';

const questionOf = (ctx: HandlerContext) => findVisibleQuestion(ctx, ctx.pathParams['question_id']!);

function findLink(ctx: HandlerContext): ShareLink {
  const question = questionOf(ctx);
  const id = ctx.pathParams['link_id']!;
  const link = ctx.store.collection(SHARE_LINKS).get(id);
  if (!link || link.questionId !== question.id) throw notFound(`linkId: no share link ${id} on question ${question.id}`);
  return link;
}

/** `expiresAt` as the service keeps it (UTC with milliseconds); a time already past answers 400. */
function expiry(ctx: HandlerContext, value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const at = Date.parse(value);
  if (at <= ctx.clock.now()) throw badRequest('must be in the future', 'expiresAt');
  return new Date(at).toISOString();
}

export const sharingHandlers = [
  ...handlersFor(ops, {
    list: (ctx) => {
      const question = questionOf(ctx);
      return cursorPage(ctx.store.collection(SHARE_LINKS).list((l) => l.questionId === question.id), ctx.input, (l) => l.id);
    },
    create: (ctx) => {
      const question = questionOf(ctx);
      const now = ctx.timestamp();
      const token = toBase64Url(crypto.getRandomValues(new Uint8Array(18)));
      return ctx.store.collection(SHARE_LINKS).insert({
        id: crypto.randomUUID(),
        questionId: question.id,
        // The address a person opens, on the host the request came to.
        url: `${new URL(ctx.request.url).origin}/share/${token}`,
        label: ctx.input.label ?? null,
        revoked: false,
        revokedAt: null,
        expiresAt: expiry(ctx, ctx.input.expiresAt) ?? null,
        createdAt: now,
        updatedAt: now,
      });
    },
    retrieve: (ctx) => findLink(ctx),
    update: (ctx) => {
      const link = findLink(ctx);
      if (link.revoked) throw conflict('linkId: a revoked share link cannot change; create a new one');
      const expiresAt = expiry(ctx, ctx.input.expiresAt);
      return Object.assign(link, {
        ...(ctx.input.label !== undefined && { label: ctx.input.label }),
        ...(expiresAt !== undefined && { expiresAt }),
        updatedAt: ctx.timestamp(),
      });
    },
    delete: (ctx) => {
      ctx.store.collection(SHARE_LINKS).delete(findLink(ctx).id);
    },
    revoke: (ctx) => {
      const link = findLink(ctx);
      // Revoking again changes nothing.
      if (!link.revoked) Object.assign(link, { revoked: true, revokedAt: ctx.timestamp(), updatedAt: ctx.timestamp() });
      return link;
    },
  }),
  ...handlersFor(subs, {
    retrieve: (ctx) => {
      const found = ctx.store.collection(SUBSCRIPTIONS).get(`${ctx.principal.userId}:${questionOf(ctx).id}`);
      if (!found) throw notFound('You do not follow this question');
      return found.subscription;
    },
    follow: (ctx) => {
      const { question } = questionOf(ctx);
      const all = ctx.store.collection(SUBSCRIPTIONS);
      const id = `${ctx.principal.userId}:${question.id}`;
      const found = all.get(id);
      if (found) return found.subscription;
      const subscription = { id: crypto.randomUUID(), follows: { type: 'question' as const, id: question.id, title: question.title }, createdAt: ctx.timestamp() };
      return all.insert({ id, userId: ctx.principal.userId, subscription }).subscription;
    },
    unfollow: (ctx) => {
      if (!ctx.store.collection(SUBSCRIPTIONS).delete(`${ctx.principal.userId}:${questionOf(ctx).id}`)) throw notFound('You do not follow this question');
    },
  }),
];
