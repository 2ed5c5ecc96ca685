// Compiled by `tsc --noEmit` in `npm test` (never run): a group's handler table must name every
// operation of the group, and only those, and each handler's input is typed from its operation.
import { expectTypeOf } from 'vitest';
import { tagOperations } from '../../src/api/questions.js';
import { shareLinkOperations } from '../../src/api/sharing.js';
import { handlersFor, type HandlerTable } from '../../src/testing/handlers/types.js';

export function complete(): void {
  // Every operation has its handler: compiles.
  handlersFor(tagOperations, { list: () => [] });
}

export function missing(): void {
  // @ts-expect-error -- `revoke` (and the others) have no handler
  handlersFor(shareLinkOperations, { list: () => [] });
}

export function misspelt(): void {
  handlersFor(tagOperations, {
    list: () => [],
    // @ts-expect-error -- no operation is called `lst`
    lst: () => [],
  });
}

export function typedInput(): void {
  handlersFor(shareLinkOperations, {
    list: (ctx) => expectTypeOf(ctx.input.limit).toEqualTypeOf<number | undefined>(),
    create: (ctx) => {
      expectTypeOf(ctx.input.label).toEqualTypeOf<string | null | undefined>();
      // @ts-expect-error -- the create body has no `revoked`
      return ctx.input.revoked;
    },
    retrieve: () => undefined,
    update: () => undefined,
    delete: () => undefined,
    revoke: () => undefined,
  });
}

export function part(): void {
  // A part of a table kept in another file is a Pick: it too must be complete for its names.
  // @ts-expect-error -- `revoke` is picked but has no handler
  const part: Pick<HandlerTable<typeof shareLinkOperations>, 'delete' | 'revoke'> = { delete: () => undefined };
  void part;
}
