/**
 * Account: the organization's credits record.
 * @module
 */
import { creditOperations as ops } from '../../api/account.js';
import { creditsOf, creditsView } from '../models/credits.js';
import { handlersFor } from './types.js';

export const creditHandlers = handlersFor(ops, {
  retrieve: (ctx) => creditsView(creditsOf(ctx.store, ctx.principal.organizationId), ctx.store),
});
