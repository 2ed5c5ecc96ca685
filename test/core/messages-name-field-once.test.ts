// A validation message says what is wrong with its field; `err.field` (and the "field: " before the
// message) already names it, so no message repeats its own field's name ("upperBound: upperBound must…").
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { ValidationError, type ValidationIssue } from '../../src/core/errors.js';
import { parseOrThrow } from '../../src/core/validate.js';
import { declaredOperations } from '../../src/api/index.js';
import { paramsOf } from '../../src/schemas/params.js';
import { QuestionDefinition } from '../../src/schemas/questions.js';

/** Wrong values of every kind: each key of each schema gets each of them. */
const WRONG: unknown[] = [123, -1, 1.5, 1e13, 'x', '', [], ['a', 'a'], {}, null, true];

interface Def {
  type: string;
  shape?: Record<string, unknown>;
  options?: Array<{ _zod: { def: Def } }>;
  innerType?: { _zod: { def: Def } };
  in?: { _zod: { def: Def } };
}
/** The keys an object schema (or a union of them) names. */
function keysOf(schema: z.ZodMiniType): string[] {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  if (def.shape) return Object.keys(def.shape);
  if (def.options) return def.options.flatMap((o) => keysOf(o as unknown as z.ZodMiniType));
  const inner = def.innerType ?? def.in;
  return inner ? keysOf(inner as unknown as z.ZodMiniType) : [];
}

function issuesOf(schema: z.ZodMiniType, input: unknown): ValidationIssue[] {
  try {
    parseOrThrow(schema, input);
    return [];
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return err.issues;
  }
}

/** Inputs that break the rules across fields, beside the generated ones. */
const QUESTION_RULES: unknown[] = [
  { type: 'numeric', title: 't', lowerBound: 5, upperBound: 1, scaleType: 'linear' },
  { type: 'numeric', title: 't', lowerBound: -1, upperBound: 1, scaleType: 'logarithmic' },
  { type: 'numeric', title: 't', lowerBound: 1, upperBound: 2 },
  { type: 'discrete', title: 't', lowerBound: 0, upperBound: 1 },
  { type: 'discrete', title: 't', lowerBound: 0.5, upperBound: 10 },
  { type: 'date', title: 't', lowerBound: Date.UTC(2027, 0, 1), upperBound: Date.UTC(2028, 0, 1) },
  { type: 'date', title: 't', lowerBound: new Date('nonsense'), upperBound: 1_800_000_000 },
  { type: 'multiple_choice', title: 't', options: ['a', 'a'] },
  { type: 'multiple_choice', title: 't', options: ['a'] },
  { type: 'binary', title: 't', options: ['a', 'b'], lowerBound: 1, scaleType: 'linear' },
  { type: 'binar', title: 't' },
];

const repeats = (issue: ValidationIssue) => {
  const name = issue.field.split('.').pop() ?? '';
  return name !== '' && Number.isNaN(Number(name)) && new RegExp(`\\b${name}\\b`).test(issue.message);
};

describe('validation messages name their field once', () => {
  it('no message of any operation repeats its field, for a wrong value of every kind in every field', () => {
    const found: string[] = [];
    for (const op of declaredOperations) {
      const params = paramsOf(op);
      if (!params) continue;
      const inputs: unknown[] = [{}, 'x', ...keysOf(params).flatMap((key) => WRONG.map((value) => ({ [key]: value })))];
      for (const input of inputs) {
        for (const issue of issuesOf(params, input)) if (repeats(issue)) found.push(`${op.sdkMethod} ${issue.field}: ${issue.message}`);
      }
    }
    expect([...new Set(found)]).toEqual([]);
  });

  it('no question rule repeats its field', () => {
    const messages = QUESTION_RULES.flatMap((input) => issuesOf(QuestionDefinition, input));
    expect(messages.length).toBeGreaterThan(QUESTION_RULES.length - 1);
    expect(messages.filter(repeats).map((i) => `${i.field}: ${i.message}`)).toEqual([]);
  });

  it('says "must be greater than lowerBound" at upperBound, once', () => {
    const [issue] = issuesOf(QuestionDefinition, QUESTION_RULES[0]);
    expect(issue).toEqual({ field: 'upperBound', message: 'must be greater than lowerBound' });
  });
});
