/**
 * What a handler group is: a list of handlers, each bound to a declared operation. A new group is
 * one file exporting such a list, added to `handlers/index.ts`.
 * @module
 */
import type * as z from 'zod/mini';
import type { Operation } from '../../core/operation.js';
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
export type InputOf<O extends Operation> = O extends { params: infer S extends z.ZodMiniType } ? z.output<S> : undefined;

/**
 * A handler bound to its operation. It returns the body (answered with the operation's declared
 * status), a `Reply` for another status or headers, or `undefined` for an empty answer; it throws
 * a `MockHttpError` for an error.
 */
export interface OperationHandler {
  readonly sdkMethod: string;
  readonly handle: (ctx: HandlerContext) => unknown;
}

/**
 * Binds a handler to a declared operation; its `ctx.input` is typed from the operation's schema.
 *
 * @example
 * ```ts
 * export const tagHandlers = [
 *   on(tagOperations.list, (ctx) => cursorPage(tagsVisibleTo(ctx), ctx.input, (t) => t.slug)),
 * ];
 * ```
 */
export function on<O extends Operation>(
  operation: O,
  handle: (ctx: HandlerContext<InputOf<O>>) => unknown,
): OperationHandler {
  return {
    sdkMethod: operation.sdkMethod,
    // The service checked the input with the operation's schema before calling, so the type holds.
    handle: (ctx) => handle(ctx as HandlerContext<InputOf<O>>),
  };
}
