/**
 * Idempotency keys for the four operations that accept one.
 * @module
 */
import { ValidationError } from './errors.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from './limits.js';
import type { Operation } from './operation.js';

/**
 * The key to send with `op`: the caller's, checked, or a new random one. `undefined` for operations
 * that ignore the header. Chosen once per call, so every retry carries the same key.
 * @internal
 */
export function idempotencyKeyFor(op: Operation, given: string | undefined): string | undefined {
  if (!op.idempotent) return undefined;
  if (given === undefined) return `sdk-${crypto.randomUUID()}`;
  if (typeof given !== 'string' || given.length === 0 || given.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new ValidationError(`must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`, 'idempotencyKey');
  }
  return given;
}
