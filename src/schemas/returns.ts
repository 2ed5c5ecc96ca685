/**
 * How an operation declares its response: by the name of its record schema. The declaration carries
 * the record's type; the schema itself is loaded only when `validateResponses` is on.
 * @module
 */
import type * as z from 'zod/mini';
import type { ResponseRef } from '../core/operation.js';
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
