/**
 * What a handler group is: a table keyed by the names of a group's declared operations, one handler
 * each, which the compiler checks against the group (`handlersFor`). A new group is one file
 * exporting its table, added to `handlers/index.ts`.
 * @module
 */
import type * as z from 'zod/mini';
import type { Operation, ParamsRef } from '../../core/operation.js';
import type { CallEnv } from '../env.js';

/** Everything a handler may use; handlers never read the wall clock or global state. */
export interface HandlerContext<Input = unknown> extends CallEnv {
  /** The operation being answered. */
  operation: Operation;
  /** Path parameters by their template name (`question_id`), decoded. */
  pathParams: Record<string, string>;
  /** The body (POST/PUT/PATCH) or query (GET/DELETE), already checked with the operation's `params`. */
  input: Input;
  /** The original request (for multipart bodies and headers). */
  request: Request;
  /** Whether the caller's organization turned file uploads off (403 `uploads_disabled`). */
  uploadsDisabled: boolean;
}

/** The validated input type of an operation. */
export type InputOf<O extends Operation> = O['params'] extends ParamsRef<infer S> ? (S extends z.ZodMiniType ? z.output<S> : undefined) : undefined;

/**
 * A handler bound to its operation. It returns the body (answered with the operation's declared
 * status), a `Reply` for another status or headers, or `undefined` for an empty answer; it throws
 * a `MockHttpError` for an error.
 */
export interface OperationHandler {
  readonly sdkMethod: string;
  readonly handle: (ctx: HandlerContext) => unknown;
}

/** A group's operation objects, keyed by their names (`questionOperations`, …). */
export type OperationGroup = Readonly<Record<string, Operation>>;

/** What answers one operation: its `ctx.input` typed from the operation's schema. */
export type HandlerOf<O extends Operation> = (ctx: HandlerContext<InputOf<O>>) => unknown;

/**
 * One handler per operation of a group, keyed by the operation's name: a missing or misspelt name
 * is a compile error. `Pick<HandlerTable<G>, 'a' | 'b'>` is a part kept in another file.
 */
export type HandlerTable<G extends OperationGroup> = { readonly [K in keyof G]: HandlerOf<G[K]> };

/**
 * Binds a group's handler table to its operations.
 *
 * @example
 * ```ts
 * export const tagHandlers = handlersFor(tagOperations, {
 *   list: (ctx) => cursorPage(tagsVisibleTo(ctx), ctx.input, (t) => t.slug),
 * });
 * ```
 */
export function handlersFor<G extends OperationGroup>(group: G, table: HandlerTable<G>): readonly OperationHandler[] {
  return Object.keys(group).map((name) => {
    const operation = group[name]!;
    const handle = table[name];
    // A table built outside the compiler's eye (a cast) still fails loudly, at start, not at a request.
    if (typeof handle !== 'function') throw new Error(`No handler for ${operation.sdkMethod}`);
    // The service checked the input with the operation's schema before calling, so the type holds.
    return { sdkMethod: operation.sdkMethod, handle: (ctx: HandlerContext) => handle(ctx as HandlerContext<never>) };
  });
}
