/**
 * Turns zod's issues into {@link ValidationError}s that name the field in words a user reads.
 * The SDK uses it before sending; the mock service uses it on receipt.
 * @module
 */
import type * as z from 'zod/mini';
import { ValidationError, type ValidationIssue } from './errors.js';
import { clip } from './text.js';

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
  let result: ReturnType<typeof target.safeParse>;
  try {
    result = target.safeParse(value);
  } catch (err) {
    // zod hands a list's issues on as the arguments of one call: a list of some hundred thousand
    // wrong items overflows the stack, as a very deep input does. Named by the longest list.
    if (!(err instanceof RangeError)) throw err;
    const field = clip([prefix, ...longestList(value)].filter(Boolean).join('.'), MAX_FIELD_SHOWN);
    throw new ValidationError([{ field, message: 'is too large or too deeply nested to check' }]);
  }
  if (result.success) return result.data as z.output<S>;
  const issues = describeIssues(result.error.issues, value, prefix);
  // The same line once: a size check also runs on text given where a list is due (`options: 'a'`).
  // A set, not a search per issue: a hostile input holds hundreds of thousands of them.
  const seen = new Set<string>();
  throw new ValidationError(issues.filter((i) => !seen.has(`${i.field}\0${i.message}`) && seen.add(`${i.field}\0${i.message}`)));
}

/** Longest path named for an input too large to check (a deep one's path is as long as it is deep). */
const MAX_FIELD_SHOWN = 200;

/** Most values {@link longestList} takes up: an input zod could not check is large. */
const MAX_WALKED = 1_000_000;

/**
 * The path of the longest list in `value` (none when it holds no list), walked without recursion,
 * each object once (a cycle, or one list shared a million times, is walked once), a million values
 * at most; a getter that throws ends the walk with what it found.
 */
function longestList(value: unknown): string[] {
  // Each node links to its parent: copying paths would cost a deep input's depth per node.
  interface Step { node: unknown; key: string; up: Step | undefined }
  let best: Step | undefined;
  let most = -1;
  const seen = new WeakSet<object>();
  try {
    // The pushes are counted, not the pops: one object with millions of keys stops at the cap too.
    for (let stack: Step[] = [{ node: value, key: '', up: undefined }], walked = 0; stack.length > 0; ) {
      const step = stack.pop()!;
      const { node } = step;
      // A typed array's items are no fields.
      if (node === null || typeof node !== 'object' || seen.has(node) || ArrayBuffer.isView(node)) continue;
      seen.add(node);
      if (Array.isArray(node) && node.length > most) [best, most] = [step, node.length];
      for (const key of Object.keys(node)) {
        if (++walked > MAX_WALKED) break;
        stack.push({ node: (node as Record<string, unknown>)[key], key, up: step });
      }
    }
  } catch {
    // A getter that throws, a revoked proxy: the longest list found so far.
  }
  const path: string[] = [];
  for (let step = best; step?.up; step = step.up) path.push(step.key);
  return path.reverse();
}

/** @internal */
export function describeIssues(issues: readonly Issue[], input: unknown, prefix = ''): ValidationIssue[] {
  return issues.flatMap((issue) => {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a union issue with no branches has no best branch either, and is reported as it is below
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      // Report the branch the input was meant for: the one that fails least on absent fields.
      const base = issue.path.map(String);
      const branch = bestBranch(issue.errors, valueAt(input, base));
      // A discriminator left out (a record's `type`) may be the value of any branch that refused no
      // value given: all those values are named. One given was refused by the branch chosen.
      const leftOut = (i: Issue) => i.code === 'invalid_value' && valueAt(input, [...base, ...i.path.map(String)]) === undefined;
      const open = issue.errors.filter((b) => b.every((o) => o.code !== 'invalid_value' || leftOut(o)));
      const valuesAt = (path: string) => open.flatMap((b) => b.flatMap((o) => (o.code === 'invalid_value' && `${o.path}` === path ? o.values : [])));
      const moved = (i: Issue): Issue => {
        const at = { ...i, path: [...issue.path, ...i.path] } as Issue;
        return i.code === 'invalid_value' && leftOut(i) ? ({ ...at, values: [...new Set([...i.values, ...valuesAt(`${i.path}`)])] } as Issue) : at;
      };
      // Stryker disable next-line ConditionalExpression: with at least one branch (checked above) there is always a best one
      if (branch) return describeIssues(branch.map(moved), input, prefix);
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
  // A value given but not one the branch takes (its `status` or `type`) says the input is another
  // branch's: a completed task without its forecast is the completed branch's, missing `forecast`.
  const mismatched = (issues: readonly Issue[]) => issues.filter((i) => i.code === 'invalid_value' && valueAt(input, i.path.map(String)) !== undefined).length;
  return [...branches].sort((a, b) => elsewhere(a) - elsewhere(b) || mismatched(a) - mismatched(b) || missing(a) - missing(b) || a.length - b.length)[0];
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
  const custom = issue.message && issue.message !== 'Invalid input' ? issue.message : undefined;
  // A field left out is missing, not wrong: say so first ("numeric questions need …" alone reads as a
  // bad value), then what it takes.
  if (value === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value')) {
    const takes = custom?.replace(/^must be /, '') ?? (issue.code === 'invalid_value' ? oneOf(issue.values) : undefined);
    return takes === undefined ? 'is required' : `is required (${takes})`;
  }
  if (custom !== undefined) return custom;
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${article(issue.expected)}, got ${describe(value, issue.expected)}`;
    case 'too_big':
      return `${verb(issue.origin)} at most ${issue.maximum}${unit(issue.origin)}`;
    case 'too_small':
      // An empty string is what happened (a variable that held nothing), not "at least 1 characters".
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
      return `${verb(issue.origin)} at least ${issue.minimum}${unit(issue.origin)}`;
    case 'invalid_value':
      return `must be ${oneOf(issue.values)}`;
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

const oneOf = (values: readonly unknown[]): string => `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;

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

/** A number refused as a number (1.5 for a whole one, Infinity from `1e400`) is shown: "got number" would not say why. */
function describe(value: unknown, expected: string): string {
  if (typeof value === 'number' && (expected === 'number' || expected === 'int')) return String(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/** An input key no schema field is named after: where it is, and the known key it most resembles. @internal */
export interface UnknownKey {
  /** Dotted path, for example `question.resolutionCriterea` (a key clipped and escaped). */
  path: string;
  /** The path with array places as `*`: one warning per key, whichever item holds it. */
  pattern: string;
  /** The known key at the same place whose name is a small edit away, as a dotted path. */
  suggestion: string | undefined;
  /** A key named `__proto__`: a body, the checked params' objects built anew, leaves it out (it would set a prototype); a query sends it. */
  dropped?: true;
}

interface Def {
  type: string;
  shape?: Record<string, z.ZodMiniType>;
  options?: readonly z.ZodMiniType[];
  discriminator?: string;
  element?: z.ZodMiniType;
  innerType?: z.ZodMiniType;
  in?: z.ZodMiniType;
  out?: z.ZodMiniType;
}
const defOf = (schema: z.ZodMiniType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Object schemas that stand for another's keys (an item typed loosely, checked by the service). */
const KEYS_OF = new WeakMap<object, z.ZodMiniType>();
/** The names of an object schema's fields, worked out once per schema. */
const KEY_SETS = new WeakMap<object, ReadonlySet<string>>();

/**
 * Declares that `schema` (a loose object that checks nothing) holds the keys of `keysFrom`, for
 * {@link unknownKeys} only. Returns `schema`. @internal
 */
export function withKeysOf<S extends z.ZodMiniType>(schema: S, keysFrom: z.ZodMiniType): S {
  KEYS_OF.set(schema, keysFrom);
  return schema;
}

/** Longest key quoted in a warning: a hostile 1 MB key must not make a 1 MB log line. */
const MAX_KEY_IN_MESSAGE = 64;
/** What `JSON.stringify` leaves raw that a terminal still acts on: DEL, C1 controls, bidi controls, line separators. */
const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** Most unknown keys reported for one input. */
const MAX_UNKNOWN_KEYS = 10;

/**
 * The keys of `value` that `schema` names no field for, at any depth where the schema knows its
 * keys (objects, the branch a union chooses, array items). Open maps (`z.record`) and loose objects
 * with no fields are skipped. At most ten. Known keys cost a set lookup each. @internal
 */
export function unknownKeys(schema: z.ZodMiniType, value: unknown): UnknownKey[] {
  const found: UnknownKey[] = [];
  walk(schema, value, '', '', found);
  return found;
}

function walk(schema: z.ZodMiniType, value: unknown, path: string, pattern: string, found: UnknownKey[]): void {
  if (found.length >= MAX_UNKNOWN_KEYS || value === null || typeof value !== 'object') return;
  const target = KEYS_OF.get(schema) ?? ('selectBranch' in schema ? (schema as z.ZodMiniType & BranchSelecting).selectBranch(value) : schema);
  const def = defOf(target);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return walk(def.innerType!, value, path, pattern, found);
    case 'pipe':
      // A pipe from a transform reads as what it gives (the date bounds); any other, as what it takes.
      return walk(defOf(def.in!).type === 'transform' ? def.out! : def.in!, value, path, pattern, found);
    case 'array':
      if (!Array.isArray(value)) return;
      value.forEach((item, i) => walk(def.element!, item, join(path, String(i)), join(pattern, '*'), found));
      return;
    case 'union': {
      const branch = branchFor(def, value);
      if (branch) walk(branch, value, path, pattern, found);
      return;
    }
    case 'object':
      return walkObject(target, def, value as Record<string, unknown>, path, pattern, found);
    default:
      return;
  }
}

function walkObject(schema: z.ZodMiniType, def: Def, value: Record<string, unknown>, path: string, pattern: string, found: UnknownKey[]): void {
  const shape = def.shape!;
  let known = KEY_SETS.get(schema);
  if (!known) KEY_SETS.set(schema, (known = new Set(Object.keys(shape))));
  // A loose object with no fields knows no keys: nothing is unknown to it.
  if (known.size === 0 || Array.isArray(value)) return;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (known.has(key)) {
      const child = value[key];
      if (child !== null && typeof child === 'object') walk(shape[key]!, child, join(path, key), join(pattern, key), found);
      continue;
    }
    const shown = clip(JSON.stringify(key).slice(1, -1).replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`), MAX_KEY_IN_MESSAGE);
    const near = nearest(key, known);
    found.push({ path: join(path, shown), pattern: join(pattern, shown), suggestion: near === undefined ? undefined : join(path, near), ...(key === '__proto__' && { dropped: true }) });
    if (found.length >= MAX_UNKNOWN_KEYS) return;
  }
}

/** The branch of a union the value belongs to: by its discriminator, else the first that accepts it. */
function branchFor(def: Def, value: unknown): z.ZodMiniType | undefined {
  const options = def.options ?? [];
  if (def.discriminator !== undefined) {
    const tag = (value as Record<string, unknown>)[def.discriminator];
    return options.find((o) => (o as unknown as { _zod: { propValues?: Record<string, Set<unknown>> } })._zod.propValues?.[def.discriminator!]?.has(tag));
  }
  return options.find((o) => o.safeParse(value).success);
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/**
 * The known key a small edit away from `key` (a letter missing, extra, changed or two swapped;
 * case ignored): at most 1 edit for keys up to 4 letters, 2 beyond. `undefined` when none is near.
 */
function nearest(key: string, known: ReadonlySet<string>): string | undefined {
  // A key much longer than every known one is no typo of them: no distance is worked out for it.
  // (This check and the length check below only save work: a distance is never under the difference in length.)
  // Stryker disable next-line ConditionalExpression,EqualityOperator: see above
  if (key.length > MAX_KEY_IN_MESSAGE) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const limit = candidate.length <= 4 ? 1 : 2;
    // Stryker disable next-line ConditionalExpression: see above
    if (Math.abs(candidate.length - key.length) > limit) continue;
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (d <= limit && d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. @internal */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The warning for an unknown key: "unknown field `x` sent as is; did you mean `y`?" (a `__proto__`
 * key of a body is "left out", as it is).
 * @internal
 */
export function unknownKeyMessage(found: UnknownKey, body: boolean): string {
  const hint = found.suggestion === undefined ? '' : `; did you mean \`${found.suggestion}\`?`;
  return `unknown field \`${found.path}\` ${found.dropped && body ? 'left out' : 'sent as is'}${hint}`;
}
