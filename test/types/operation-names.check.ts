// Compiled by `tsc --noEmit` in `npm test` (never run): `OperationName` and `OperationId` are the
// declarations' own names and nothing wider, so a typo in a fault rule, a request filter or a lookup in
// `operations` is a compile error.
import { expectTypeOf } from 'vitest';
import { operations, type OperationId, type OperationName } from '../../src/index.js';
import type { FaultRule, RequestFilter } from '../../src/testing/index.js';
import type { GroupName, groupOperations, OperationBlock } from '../../src/api/index.js';

// The list written out in src/api/operation-names.ts is the declarations' own (`defineOperations`
// keeps each namespace and key as literals): an operation added, renamed or removed fails here.
type NamesOf<B> = B extends OperationBlock ? { [K in keyof B]: B[K]['sdkMethod'] }[keyof B] : never;
type Declared = NamesOf<(typeof groupOperations)[GroupName][number]>;

export function sameAsDeclared(): void {
  expectTypeOf<OperationName>().toEqualTypeOf<Declared>();
  // A name of three dots would need another step in OperationId: none is left with a dot.
  expectTypeOf<Extract<OperationId, `${string}.${string}`>>().toBeNever();
  expectTypeOf<string>().not.toMatchTypeOf<OperationName>();
  expectTypeOf(operations[0]!.sdkMethod).toEqualTypeOf<OperationName>();
}

export function namesAndIds(): void {
  const nested: OperationName = 'questions.forecasts.create';
  const id: OperationId = 'questionsForecastsCreate';
  const rule: FaultRule = { operation: id, status: 503 };
  const filter: RequestFilter = { operation: nested };
  // @ts-expect-error -- a client helper makes requests of several operations and is none itself
  const helper: OperationName = 'forecasts.createAndWait';
  // @ts-expect-error -- the verb is `retrieve`
  const typo: FaultRule = { operation: 'questions.get' };
  // @ts-expect-error -- an operationId is camel case throughout
  const halfCamel: OperationId = 'questions.forecastsCreate';
  void [rule, filter, helper, typo, halfCamel];
}
