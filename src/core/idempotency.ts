/**
 * Idempotency keys for the four operations that accept one: the one place keys are minted (a new
 * random key, and the keys derived from one for the parts of a call) and checked.
 * @module
 */
import { ValidationError } from './errors.js';
import type { Operation } from './operation.js';

/**
 * Longest key the check lets through: the spec's 128 (`api/limits.ts`; a test keeps the two equal), a
 * constant of the core's own so the core reads no spec table. @internal
 */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 128;

/**
 * The key to send with `op`: the caller's, checked, or a new random one. `undefined` for operations
 * that ignore the header. Chosen once per call, so every retry carries the same key.
 * @internal
 */
export function idempotencyKeyFor(op: Pick<Operation, 'idempotent'>, given: unknown): string | undefined {
  if (!op.idempotent) return undefined;
  if (given === undefined) return newIdempotencyKey();
  return checkIdempotencyKey(given);
}

/** A caller's key: text of 1 to 128 characters that can go in a header. @internal */
export function checkIdempotencyKey(given: unknown): string {
  if (typeof given !== 'string' || given.length === 0 || given.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    const got = typeof given === 'string' ? `${given.length} characters` : typeof given;
    throw new ValidationError(`must be text of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, got ${got}`, 'idempotencyKey');
  }
  if (/[\u0000-\u001f\u007f-\uffff]/.test(given)) {
    throw new ValidationError('must be printable ASCII text with no line break or control character', 'idempotencyKey');
  }
  return given;
}

/**
 * A new random key, `<prefix>-<uuid>`: `sdk-…` for a call's key, `run-…` for a `runMany` run id.
 * @internal
 */
export const newIdempotencyKey = (prefix = 'sdk'): string => `${prefix}-${crypto.randomUUID()}`;

/**
 * The key of part `n` of a keyed call (a batch of a `createMany` or a `runMany`): `<key>:<n>`, so a
 * rerun of the same call under the same key replays each part. @internal
 */
export const partKey = (key: string, n: number): string => `${key}:${n}`;

/**
 * The key of the `k`th resend of items from the part keyed `origin` (items refused only because the
 * service was full): `<origin>:r<k>`, one level deep however often it happens. @internal
 */
export const resendKey = (origin: string, k: number): string => `${origin}:r${k}`;
