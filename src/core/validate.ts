/**
 * Turns zod's issues into {@link ValidationError}s that name the field in words a user reads.
 * The SDK uses it before sending; the mock service uses it on receipt.
 * @module
 */
import type * as z from 'zod/mini';
import { ValidationError, type ValidationIssue } from './errors.js';

type Issue = z.core.$ZodIssue;

/** A schema that chooses, from the input, the one branch to check it against (for clearer errors). */
export interface BranchSelecting {
  selectBranch(input: unknown): z.ZodMiniType;
}

/**
 * Checks `value` against `schema`; returns the parsed value or throws {@link ValidationError}.
 * @param prefix - path prepended to every field (for example `response`)
 * @internal
 */
export function parseOrThrow<S extends z.ZodMiniType>(schema: S, value: unknown, prefix = ''): z.output<S> {
  const target = 'selectBranch' in schema ? (schema as S & BranchSelecting).selectBranch(value) : schema;
  const result = target.safeParse(value);
  if (result.success) return result.data as z.output<S>;
  throw new ValidationError(describeIssues(result.error.issues, value, prefix));
}

/** @internal */
export function describeIssues(issues: readonly Issue[], input: unknown, prefix = ''): ValidationIssue[] {
  return issues.flatMap((issue) => {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a union issue with no branches has no best branch either, and is reported as it is below
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      // Report the branch the input was meant for: the one that fails least on absent fields.
      const base = issue.path.map(String);
      const branch = bestBranch(issue.errors, valueAt(input, base));
      // Stryker disable next-line ConditionalExpression: with at least one branch (checked above) there is always a best one
      if (branch) return describeIssues(branch.map((i) => ({ ...i, path: [...issue.path, ...i.path] })), input, prefix);
    }
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    return [{ field: path, message: messageOf(issue, valueAt(input, issue.path.map(String))) }];
  });
}

/**
 * Marks an issue that says "this input belongs to another branch" (a branch for values the SDK does
 * not know, refusing a known one): such a branch is reported only when no other is left. @internal
 */
export const OTHER_BRANCH = 'otherBranch';

function bestBranch(branches: readonly (readonly Issue[])[], input: unknown): readonly Issue[] | undefined {
  const missing = (issues: readonly Issue[]) =>
    issues.filter((i) => valueAt(input, i.path.map(String)) === undefined).length;
  const elsewhere = (issues: readonly Issue[]) => (issues.some((i) => i.code === 'custom' && i.params?.[OTHER_BRANCH] === true) ? 1 : 0);
  return [...branches].sort((a, b) => elsewhere(a) - elsewhere(b) || missing(a) - missing(b) || a.length - b.length)[0];
}

function valueAt(input: unknown, path: readonly string[]): unknown {
  let node = input;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** zod/mini carries no locale (that keeps it small), so generic issues are worded here. */
function messageOf(issue: Issue, value: unknown): string {
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return value === undefined ? 'is required' : `must be ${article(issue.expected)}, got ${describe(value)}`;
    case 'too_big':
      return `${verb(issue.origin)} at most ${issue.maximum}${unit(issue.origin)}`;
    case 'too_small':
      return `${verb(issue.origin)} at least ${issue.minimum}${unit(issue.origin)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `unknown key(s) ${issue.keys.join(', ')}`;
    default:
      return 'is invalid';
  }
}

/** A list "holds" a count, with no unit: the field often names what it holds (`items`, `tags`). */
function verb(origin: string): string {
  return origin === 'array' || origin === 'set' ? 'must hold' : 'must be';
}

function unit(origin: string): string {
  return origin === 'string' ? ' characters' : '';
}

function article(type: string): string {
  if (type === 'int') return 'a whole number';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
