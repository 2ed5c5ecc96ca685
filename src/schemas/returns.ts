/**
 * How an operation declares its params and its response: by the names of their schemas. The
 * declaration carries their types; the params schemas load with the first call that checks params,
 * the record schemas only when `validateResponses` is on.
 * @module
 */
import type * as z from 'zod/mini';
import type { ParamsRef, ResponseRef } from '../core/operation.js';
import type { ParamSchemas, ParamsName } from './params.js';
import type { RecordName, recordSchemas } from './records/index.js';

/**
 * The response of an operation: the record `name` (for a list, the record of one item).
 * @example
 * ```ts
 * defineOperations('tags', { list: { method: 'GET', path: '/tags', scope: 'questions:read', response: returns('Tag'), paging: 'cursor' } });
 * ```
 */
export function returns<N extends RecordName>(name: N): ResponseRef<z.output<(typeof recordSchemas)[N]>> {
  return name;
}

/**
 * The params of an operation, by the name of their schema in `params.ts`. The declaration carries
 * the schema's type; the schema itself loads with the client's first call that checks params.
 * @example
 * ```ts
 * defineOperations('tags', { list: { method: 'GET', path: '/tags', params: accepts('TagListParams'), response: returns('Tag'), paging: 'cursor' } });
 * ```
 */
export function accepts<N extends ParamsName>(name: N): ParamsRef<ParamSchemas[N]> {
  return name;
}
