/**
 * What the client hands the core of the spec for a generic call (`client.post('/decisions/…')` names
 * no operation), found by path: the spec's error codes and the unknown-code rules the groups declare,
 * and whether the operation there may be sent again once sent (keyed, or a cancel). Apart from
 * `errors.ts` because it reads the registry, which imports the groups, which import the errors.
 * @module
 */
import type { ErrorRules, UnknownCodeRule } from '../core/errors.js';
import type { Operation } from '../core/operation.js';
import type { DeclaredAt } from '../core/pipeline.js';
import { SPEC_ERROR_CODES } from './errors.js';
import { declaredOperations } from './index.js';

/** `decisions` for `/decisions/{decision_id}`. */
const firstSegment = (path: string): string => path.split('/')[1] ?? '';

/**
 * The unknown-code rules of `ops` by first path segment: only where every operation under that
 * segment carries the same rule, so a segment shared with an operation without it gets none. @internal
 */
export function rulesBySegment(ops: readonly Operation[]): ReadonlyMap<string, UnknownCodeRule> {
  const rules = new Map<string, UnknownCodeRule>();
  const without = new Set<string>();
  for (const op of ops) {
    const segment = firstSegment(op.path);
    const known = rules.get(segment);
    if (!op.unknownCode || (known && known !== op.unknownCode)) without.add(segment);
    else rules.set(segment, op.unknownCode);
  }
  for (const segment of without) rules.delete(segment);
  return rules;
}

const RULES = rulesBySegment(declaredOperations);

/** The spec's errors, as the core takes them. @internal */
export const SPEC_ERRORS: ErrorRules = {
  codes: SPEC_ERROR_CODES,
  unknownCodeAt: (path) => RULES.get(firstSegment(path)),
};

/** The declared operations whose repeat is safe, each with its path as a pattern (an id is one segment). */
const REPEATABLE = declaredOperations
  .filter((op) => op.idempotent || op.repeatable)
  .map((op) => ({ op, at: new RegExp(`^${op.path.replace(/\{\w+\}/g, '[^/]+')}$`) }));

/**
 * The declared operation a generic call names, when it is one a retry may repeat (keyed, or a
 * cancel): `client.post('/questions', { idempotencyKey })` is not retried once sent, as the service
 * ignores the key there. @internal
 */
export const declaredAt: DeclaredAt = (method, path) => REPEATABLE.find((r) => r.op.method === method && r.at.test(path))?.op;
