/**
 * The schemas of the OpenAPI document: zod's JSON Schema output of the record, request and event
 * schemas, with what the document adds (formats, the spec's integer fields, the ids' `uuid` format),
 * and every exported schema of every group's records module as a shared component.
 * @module
 * @internal
 */
import * as z from 'zod/mini';
import type { Json } from './openapi-recorded.js';
import { Timestamp } from './schemas/common.js';
import { ForecastBatchParams, ForecastCreateParams } from './schemas/forecasts.js';
import { DateGiven } from './schemas/date-bounds.js';
import { QuestionCreateParams } from './schemas/questions.js';
import { recordSchemas } from './schemas/records/index.js';
import * as forecastRecords from './schemas/records/forecasts.js';
import * as questionRecords from './schemas/records/questions.js';

export type Schema = z.core.JSONSchema.BaseSchema;
type $ZodType = z.core.$ZodType;

/** What zod could not express goes in as `{}` (any value) with this note. */
const UNEXPRESSED = 'not expressible in JSON Schema (a check the SDK runs in code): any value is accepted here';

export function ref(name: string): Schema {
  return { $ref: `#/components/schemas/${name}` };
}

/**
 * What the document adds to the zod schemas, by schema: formats and the integer type the spec
 * states (the SDK's checks stay lenient), and the cross-field rule of `POST /forecasts`, which the
 * SDK checks in code.
 */
const annotations = z.registry<Record<string, unknown>>();
annotations.add(Timestamp, { format: 'date-time' });
annotations.add(forecastRecords.ActiveForecastTask.shape.creditsCharged, { type: 'integer' });
annotations.add(forecastRecords.ActiveForecastTask.shape.creditsRefunded, { type: 'integer' });
// Objects the records leave open on purpose, described as the spec does.
annotations.add(forecastRecords.ActiveForecastTask.shape.question, {
  description: 'The question forecast: the spec shows `{id, type, title}` in its samples, and every question field is present.',
  allOf: [ref('Question')],
});
// NormalizeResult is typed as its definition (`DraftedQuestion`); the object zod reads is underneath.
const normalizeRead = questionRecords.NormalizeResult as unknown as z.ZodMiniObject<{ question: z.ZodMiniOptional<z.ZodMiniType> }>;
annotations.add(normalizeRead.shape.question._zod.def.innerType, {
  description: 'The drafted question, not saved: it can be passed to `POST /questions` or, as `question`, to `POST /forecasts`.',
  allOf: [ref('QuestionCreateParams')],
});
annotations.add(ForecastCreateParams, {
  description: 'Exactly one of `questionId` or `question`, and the run options.',
  oneOf: [{ required: ['questionId'] }, { required: ['question'] }],
});

/** Request schemas written once, as components: where they appear in a body, a `$ref`. */
const requestRefs = new Map<unknown, string>([
  [ForecastCreateParams, 'ForecastCreateParams'],
  // Typed as a forecast body and checked by the service item by item: the SDK's schema takes any object.
  [ForecastBatchParams.shape.items._zod.def.element, 'ForecastCreateParams'],
  [QuestionCreateParams, 'QuestionCreateParams'],
]);

export function requestComponents(): Record<string, Schema> {
  return {
    ForecastCreateParams: schemaOf(ForecastCreateParams, 'input', false, ForecastCreateParams),
    QuestionCreateParams: schemaOf(QuestionCreateParams, 'input', false, QuestionCreateParams),
  };
}


/**
 * Every record schema (each exported schema of each group's records module, by its export name) as
 * a component, and the event bodies `events`: where one holds another (`Tag` inside `Question`,
 * `PresetNote` inside `Preset`), a `$ref` instead of a copy.
 */
export function recordComponents(events: Readonly<Record<string, z.ZodMiniType>>): Record<string, Schema> {
  const registry = z.registry<{ id: string }>();
  for (const [name, schema] of Object.entries({ ...recordSchemas, ...events })) registry.add(schema as z.ZodMiniType, { id: name });
  const { schemas } = z.toJSONSchema(registry, {
    io: 'output',
    uri: (id: string) => `#/components/schemas/${id}`,
    metadata: annotations,
    unrepresentable: unexpressed(false),
  });
  const eventNames = new Set(Object.keys(events));
  const out: Record<string, Schema> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    const cleaned = clean(schema);
    // An event's own `id` is `<prefix>:<kind>:<id>`, not a UUID: only the ids in its `data` are.
    if (eventNames.has(name)) uuidIds((cleaned.properties as Record<string, Schema>)['data']!);
    else uuidIds(cleaned);
    out[name] = cleaned;
  }
  return out;
}

/**
 * The spec's general rule, "ids are UUID strings": a string field named `id` or `…Id` (and the items
 * of a `…Ids` array) of what the service answers gets `format: uuid`.
 */
function uuidIds(schema: Schema): void {
  const strings = (s: Schema): Schema[] =>
    s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string')) ? [s] : ((s.anyOf ?? []) as Schema[]).filter((b) => b.type === 'string');
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    const s = value as Schema;
    for (const [name, property] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
      if (name === 'id' || /[a-z]Id$/.test(name)) for (const target of strings(property)) target.format ??= 'uuid';
      if (/[a-z]Ids$/.test(name) && property.type === 'array' && property.items) for (const target of strings(property.items as Schema)) target.format ??= 'uuid';
    }
    for (const child of Object.values(s)) visit(child);
  };
  visit(schema);
}

/**
 * One schema, inline (no `$schema`); what zod cannot express becomes `{}` with a `$comment`, or a file
 * in a multipart body. The request components appear as `$ref`s, except `self`: the one being written.
 */
export function schemaOf(schema: $ZodType, io: 'input' | 'output', multipart: boolean, self?: unknown): Schema {
  return clean(
    z.toJSONSchema(schema, {
      io,
      metadata: annotations,
      unrepresentable: unexpressed(multipart),
      override: (ctx) => {
        const name = ctx.zodSchema === self ? undefined : requestRefs.get(ctx.zodSchema);
        if (name) {
          for (const key of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as Json)[key];
          Object.assign(ctx.jsonSchema, ref(name));
        }
      },
    }),
  );
}

function unexpressed(multipart: boolean) {
  return ({ zodSchema }: { zodSchema: $ZodType }): Schema =>
    // A `Date` bound is sent as seconds: no JSON value is a Date (the branch is dropped by `clean`).
    zodSchema === DateGiven
      ? NO_VALUE
      : multipart && zodSchema._zod.def.type === 'custom'
        ? { type: 'string', contentMediaType: 'application/octet-stream', description: 'The file: its bytes, as a multipart file part.' }
        : { $comment: UNEXPRESSED };
}

/** The schema no value matches: a union branch of it is left out. */
const NO_VALUE: Schema = { not: {} };

/** Drops the keys that belong to a standalone JSON Schema document, not to a schema inside OpenAPI. */
function clean(schema: Schema): Schema {
  const { $schema: _schema, $id: _id, ...rest } = schema as Schema & { $schema?: string; $id?: string };
  tidyIntegers(rest);
  dropNoValueBranches(rest);
  return rest;
}

/** Leaves out the `anyOf` branches no value matches; a union left with one branch becomes that branch. */
function dropNoValueBranches(root: unknown): void {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    const s = value as Schema;
    Object.values(s).forEach(visit);
    if (!Array.isArray(s.anyOf)) return;
    const kept = (s.anyOf as Schema[]).filter((b) => JSON.stringify(b) !== JSON.stringify(NO_VALUE));
    if (kept.length === s.anyOf.length) return;
    delete s.anyOf;
    if (kept.length === 1) Object.assign(s, kept[0]);
    else s.anyOf = kept;
  };
  visit(root);
}

/** Integer fields that count or index something: never negative. */
const COUNTS = /(?:Count|Index|^index|^total|^accepted|^rejected|^cancelled|^alreadyFinished|^calls)$/;

/**
 * zod's `z.int()` writes the safe-integer range as bounds (`minimum: -9007199254740991`): noise to a
 * reader, and wrong for a count. They go; a count or an index gets `minimum: 0`.
 */
function tidyIntegers(root: unknown): void {
  const visit = (value: unknown, name: string): void => {
    if (Array.isArray(value)) return value.forEach((v) => visit(v, name));
    if (typeof value !== 'object' || value === null) return;
    const s = value as Schema;
    if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
    if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
    if (s.type === 'integer' && s.minimum === undefined && COUNTS.test(name)) s.minimum = 0;
    for (const [key, child] of Object.entries(s)) {
      if (key === 'properties') for (const [field, property] of Object.entries(child as Record<string, unknown>)) visit(property, field);
      else visit(child, key === 'items' || key === 'anyOf' || key === 'oneOf' || key === 'allOf' ? name : key);
    }
  };
  visit(root, '');
}

/** The properties of an object schema, or of the branches of a union of objects (required only when every branch requires it). */
export function propertiesOf(schema: Schema): Record<string, { schema: Schema; required: boolean }> {
  const branches = (schema.anyOf ?? schema.oneOf ?? [schema]) as Schema[];
  const out: Record<string, { schema: Schema; required: boolean }> = {};
  branches.forEach((branch, i) => {
    for (const [name, property] of Object.entries((branch.properties ?? {}) as Record<string, Schema>)) {
      const required = (branch.required ?? []).includes(name) && (i === 0 || out[name]?.required === true);
      out[name] ??= { schema: property, required };
      out[name].required = required;
    }
  });
  // A property some branch lacks is never required.
  for (const name of Object.keys(out)) if (!branches.every((b) => name in ((b.properties ?? {}) as object))) out[name]!.required = false;
  return out;
}


export function isArrayish(schema: Schema): boolean {
  return schema.type === 'array' || ((schema.anyOf ?? []) as Schema[]).some((s) => s.type === 'array');
}

/**
 * Keeps the document open to new values without letting a known value skip its shape. The records'
 * unions end in an open branch (an unknown `status`, an unknown question `type`), which would also
 * accept a known value in a broken shape (a `completed` task with no `forecast`). For each union of
 * objects, a property that other branches fix (`const` or `enum`) is, in a branch that leaves it a
 * plain string, made to exclude those values: a known value must match its own branch. Changes
 * `root` (by default `schemas`, where `$ref`s resolve) in place. @internal
 */
export function closeOpenBranches(schemas: Record<string, Schema>, root: unknown = schemas): void {
  const resolve = (s: Schema): Schema => (typeof s.$ref === 'string' ? resolve(schemas[s.$ref.split('/').pop()!] ?? {}) : s);
  const fixed = (p: Schema | undefined): unknown[] => (p === undefined ? [] : p.const !== undefined ? [p.const] : Array.isArray(p.enum) ? p.enum : []);
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    const node = value as Schema;
    const branches = (node.anyOf ?? []) as Schema[];
    if (branches.length > 1) {
      const objects = branches.map(resolve).filter((b) => b.properties !== undefined);
      const names = new Set(objects.flatMap((b) => Object.keys(b.properties as object)));
      for (const name of names) {
        const known = objects.flatMap((b) => fixed((b.properties as Record<string, Schema>)[name]));
        if (known.length === 0) continue;
        for (const branch of branches) {
          // Only an inline open branch is changed: a $ref'd component stays as it is for its other uses.
          const property = (branch.properties as Record<string, Schema> | undefined)?.[name];
          if (property && property.type === 'string' && fixed(property).length === 0 && property.not === undefined) property.not = { enum: [...new Set(known)] as Schema['enum'] };
        }
      }
    }
    for (const child of Object.values(node)) visit(child);
  };
  visit(root);
}
