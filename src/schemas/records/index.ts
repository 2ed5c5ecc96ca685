/**
 * Every record schema by name, and the list envelope around them: what `validateResponses` checks
 * answers against. Loaded on demand (a chunk of its own), so clients that do not validate
 * answers never load these schemas.
 * @module
 */
import * as z from 'zod/mini';
import type { GroupName } from '../../api/groups.js';
import { isSchema } from '../common.js';
import { parseOrThrow } from '../../core/validate.js';
import * as account from './account.js';
import * as chat from './chat.js';
import * as connections from './connections.js';
import * as context from './context.js';
import * as decisions from './decisions.js';
import * as forecasts from './forecasts.js';
import * as presets from './presets.js';
import * as questions from './questions.js';
import * as schedules from './schedules.js';
import * as sharing from './sharing.js';
import * as templates from './templates.js';
import * as webhooks from './webhooks.js';

/**
 * Each group's records module, keyed by the spec's groups (tags and normalize belong to questions,
 * run modes to forecasts, credits to account): the compiler refuses a group left out. Every schema
 * a module exports is a record: the names `response` can give, and components of the OpenAPI document.
 */
export const recordModules = {
  questions,
  forecasts,
  chat,
  schedules,
  account,
  webhooks,
  decisions,
  context,
  presets,
  templates,
  connections,
  sharing,
} satisfies Record<GroupName, object>;

type Modules = typeof recordModules;
/** Every export of every records module, by its name. */
type Exports = { [G in keyof Modules]: (x: Modules[G]) => void }[keyof Modules] extends (x: infer All) => void ? All : never;

/** The record schemas by name: every schema the records modules export. */
export type RecordSchemas = { [K in keyof Exports as Exports[K] extends z.ZodMiniType ? K : never]: Exports[K] };

/** The name of a record schema. */
export type RecordName = keyof RecordSchemas;

export { isSchema } from '../common.js';

/** The record schemas an operation's `response` names: each exported schema of each group's records module. */
export const recordSchemas = Object.fromEntries(
  Object.values(recordModules).flatMap((module) => Object.entries(module).filter(([, value]) => isSchema(value))),
) as RecordSchemas;

/** The list envelope `{type: 'list', data, hasMore, nextCursor}` around `item`. */
export function listEnvelope<T extends z.ZodMiniType>(item: T) {
  return z.looseObject({
    type: z.optional(z.string()),
    data: z.array(item),
    hasMore: z.boolean(),
    nextCursor: z.optional(z.nullable(z.string())),
  });
}

const lists = new Map<string, z.ZodMiniType>();

/**
 * An answer checked against its record schema (or, for a list, its envelope), as `validateResponses`
 * reads it; an answer with no schema as it came. Throws `ValidationError` naming the field.
 */
export function checkRecord(name: string, list: boolean, data: unknown): unknown {
  const schema = schemaOf(name, list);
  return schema ? parseOrThrow(schema, data, 'response') : data;
}

/** The schema to check an answer with: the record, or (for a list) its envelope, built once. */
export function schemaOf(name: string, list: boolean): z.ZodMiniType | undefined {
  const record = (recordSchemas as Record<string, z.ZodMiniType>)[name];
  if (!record || !list) return record;
  let envelope = lists.get(name);
  if (!envelope) lists.set(name, (envelope = listEnvelope(record)));
  return envelope;
}
