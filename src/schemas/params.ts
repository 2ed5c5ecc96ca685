/**
 * Every operation's params schema, by the name its declaration gives (`accepts('QuestionListParams')`).
 * The client loads this module, and zod with it, with its first call that checks params, so a client
 * that is only constructed (or only reads by id) never loads them; the mock service and the OpenAPI
 * document import it directly.
 * @module
 */
import type * as z from 'zod/mini';
import * as chat from './chat.js';
import { isSchema } from './common.js';
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
import { parseOrThrow, unknownKeyMessage, unknownKeys } from '../core/validate.js';

/** The modules whose schemas a declaration may name. */
export const paramModules = { chat, connections, context, decisions, forecasts, presets, questions, schedules, sharing, templates, webhooks };

type Exports = (typeof paramModules)[keyof typeof paramModules];
type SchemaExports<M> = { [K in keyof M as M[K] extends z.ZodMiniType ? K : never]: M[K] };
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The params schemas by name: every schema the modules export, found by the name a declaration gives it. */
export type ParamSchemas = UnionToIntersection<SchemaExports<Exports>>;

/** A name `accepts` takes: a schema one of the params modules exports. */
export type ParamsName = keyof ParamSchemas & string;

/** Every exported schema by name, built once when the check loads (a module's re-export is the same schema). */
export const paramSchemas: ReadonlyMap<string, z.ZodMiniType> = new Map(
  Object.values(paramModules).flatMap((m) => Object.entries(m).filter((entry): entry is [string, z.ZodMiniType] => isSchema(entry[1]))),
);

/**
 * The code that reads the schemas, handed over with them: loaded on demand only through this module,
 * so that a bundler makes no chunk of its own to load it by.
 */
export const validate = { parseOrThrow, unknownKeys, unknownKeyMessage };

/** The params schema declared as `name`; `undefined` for a name no schema has. */
export function paramsSchemaOf(name: string): z.ZodMiniType | undefined {
  return paramSchemas.get(name);
}

/**
 * The params schema an operation declares, for the mock service and the OpenAPI document, which load
 * them all; a name no schema has is a mistake of the declarations, and throws.
 */
export function paramsOf(op: { readonly params?: string | undefined; readonly sdkMethod: string }): z.ZodMiniType | undefined {
  if (op.params === undefined) return undefined;
  const schema = paramsSchemaOf(op.params);
  if (!schema) throw new TypeError(`${op.sdkMethod} declares params \`${op.params}\`, which no schema has`);
  return schema;
}
