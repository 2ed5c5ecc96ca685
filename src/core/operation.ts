/**
 * Operation declarations: each of the service's operations is declared once, with its method, path,
 * scope, schemas, paging and idempotency. The client methods, the exported `operations` manifest and
 * the mock service's route table all derive from these declarations.
 * @module
 */
import type * as z from 'zod/mini';
import type { CoordinatedWindow, TaskFinalNotice } from './coordination.js';
import { ValidationError, type APIErrorClass } from './errors.js';

/**
 * HTTP methods the service uses.
 * @example
 * ```ts
 * const writes = operations.filter((o) => (['POST', 'PUT', 'PATCH', 'DELETE'] as HttpMethod[]).includes(o.method));
 * ```
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How a list operation pages: `cursor` (`nextCursor`) or `offset` (`limit` + `offset`). */
export type Paging = 'cursor' | 'offset';

/**
 * The page size an offset list asks for when the caller gives none, on every page, so each page is
 * the same size: the service's own default (the spec's `DEFAULT_OFFSET_PAGE_SIZE`, in `api/limits.ts`).
 * @internal
 */
export const DEFAULT_OFFSET_PAGE_SIZE = 50;

/**
 * A response, declared by the name of its record schema; `T` is the record's type. The name finds
 * the schema only when `validateResponses` is on, so the schemas stay out of the default bundle.
 */
export type ResponseRef<T = unknown> = string & { readonly __record?: T };

/**
 * Params, declared by the name of their schema; `S` is the schema's type. The client loads the
 * schemas with its first call that checks params, so a client that never does stays without them (and zod).
 */
export type ParamsRef<S = unknown> = string & { readonly __params?: S };

/** The type of the params an operation declares (`never` for none). */
export type InputOf<O extends { params?: ParamsRef }> = O['params'] extends ParamsRef<infer S> ? (S extends z.ZodMiniType ? z.input<S> : never) : never;

/** The type of the response an operation declares (`void` for none). */
export type OutputOf<O extends { response?: ResponseRef }> = O['response'] extends ResponseRef<infer T> ? (unknown extends T ? void : T) : void;

/** What a group declares for one operation; `S` is the set of the service's scopes. */
export interface OperationSpec<S extends string = string> {
  method: HttpMethod;
  /** The spec's path template, for example `/questions/{question_id}`. */
  path: string;
  /** The scope the key needs; left out, the group's (see {@link GroupOptions.scopes}). */
  scope?: S;
  /** Schema of the body (POST/PUT/PATCH) or of the query (GET/DELETE), by name (`accepts('QuestionListParams')`). */
  params?: ParamsRef;
  /** The response's record, by name (`returns('Question')`); for a list, of one item. Absent for an empty (204) answer. */
  response?: ResponseRef;
  /** Success status the service answers with (defaults: 201 for creations is declared explicitly, else 200). */
  status?: number;
  paging?: Paging;
  /** Accepts an `Idempotency-Key` header (four operations). */
  idempotent?: boolean;
  /** The spec says sending it again is safe (a cancel): retried after it was sent, as a `GET` is. */
  repeatable?: boolean;
  /** Body is sent as `multipart/form-data`. */
  multipart?: boolean;
  /**
   * Reads an answer whose shape the spec does not show, accepting the obvious alternatives. `from`
   * returns the answer in the declared shape, or `undefined` when nothing fits; the call then
   * rejects with `InvalidResponseError` saying it expected `expects`.
   */
  read?: { expects: string; from(json: unknown): unknown };
  /**
   * The shared per-minute windows a call counts in besides `requests` (decisions' model calls,
   * drafting, chat messages, webhook tests), from its params; read only by a client with a coordinator.
   */
  windows?: readonly CoordinatedWindow[] | ((params: unknown) => readonly CoordinatedWindow[]);
  /** A start of forecasts: see {@link ForecastStart}. Read only by a client with a coordinator. */
  starts?: ForecastStart;
  /**
   * The final tasks an answer shows (a task read, a list page, a cancel result), whose active-forecast
   * slots are then freed; from the decoded answer. Read only by a client with a coordinator.
   */
  finalTasks?: (answer: unknown) => readonly TaskFinalNotice[];
}

/**
 * How an operation starts forecasts: the active-forecast slots it needs before it is sent, from its
 * params, and the tasks it started, from its answer (a refused item has none: its slot is freed).
 * @example
 * ```ts
 * const starts: ForecastStart = { slots: () => 1, taskIds: (task) => [(task as { taskId: string }).taskId] };
 * ```
 */
export interface ForecastStart {
  slots(params: unknown): number;
  /**
   * The param whose length is `slots` exactly (a batch's `items`): a start needing more slots than
   * the coordinator's `maxActive` is refused with a `ValidationError` naming it. Without it the count
   * is a bound (a decision's every question), and a hold of fewer slots is enough.
   */
  countedBy?: string;
  taskIds(answer: unknown): readonly string[];
}

/**
 * What every operation of a group shares.
 * @example
 * ```ts
 * defineOperations('tags', { list: { method: 'GET', path: '/tags', paging: 'cursor' } }, { scopes: { read: 'questions:read', write: 'questions:write' } });
 * ```
 */
export interface GroupOptions<S extends string = string> {
  /** The group's scopes: a `GET` takes `read`, any other method `write`, unless the row names its own. */
  scopes?: { read: S; write: S };
  /**
   * The error class of an answer with this `status` whose code the client's error table does not
   * know, on any of the group's operations (a group whose list of codes the spec leaves open).
   * An answer without a code, or with one of the `except` codes, keeps its status's class.
   */
  unknownCode?: { status: number; error: APIErrorClass; except?: readonly string[] };
}

/** A declared operation, named after the client method that performs it. */
export interface Operation<S extends string = string> extends OperationSpec<S> {
  scope: S;
  /** Dotted client method, for example `questions.retrieve`. */
  sdkMethod: string;
  /** See {@link GroupOptions.unknownCode}. */
  unknownCode?: GroupOptions['unknownCode'];
  /** Names of the path parameters, in path order. */
  pathParams: readonly string[];
  /**
   * By parameter name: literal path segments of sibling operations that the parameter must not take
   * (an id `browse` would turn `GET /questions/{question_id}` into `GET /questions/browse`).
   */
  reservedSegments: ReadonlyMap<string, ReadonlySet<string>>;
  /** The path split around its parameters: literal text at even places, parameter names at odd ones. */
  pathParts: readonly string[];
}

type Declared<NS extends string, S extends string, T extends Record<string, OperationSpec<S>>> = {
  readonly [K in keyof T]: T[K] & Operation<S> & { sdkMethod: `${NS}.${K & string}` };
};

/**
 * Declares a namespace's operations. Keys are the client method names; `group` holds what they share.
 * A row without a scope and a group without scopes is a mistake of the declaration: it throws.
 *
 * @example
 * ```ts
 * const ops = defineOperations('questions', {
 *   retrieve: { method: 'GET', path: '/questions/{question_id}', response: returns('Question') },
 * }, { scopes: { read: 'questions:read', write: 'questions:write' } });
 * ops.retrieve.sdkMethod; // 'questions.retrieve'
 * ops.retrieve.scope; // 'questions:read'
 * ```
 */
export function defineOperations<NS extends string, S extends string, const T extends Record<string, OperationSpec<S>>>(
  namespace: NS,
  specs: T,
  group: GroupOptions<S> = {},
): Declared<NS, S, T> {
  const segmentsOf = (path: string) => path.split('/').slice(1);
  const all = Object.values(specs).map((s) => segmentsOf(s.path));
  const out: Record<string, Operation> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const segments = segmentsOf(spec.path);
    const reserved = new Map<string, Set<string>>();
    segments.forEach((segment, i) => {
      if (!segment.startsWith('{')) return;
      for (const other of all) {
        const sibling = other[i];
        const samePrefix = other.slice(0, i).every((s, j) => s === segments[j] || (s.startsWith('{') && segments[j]?.startsWith('{')));
        if (sibling && !sibling.startsWith('{') && samePrefix) {
          const param = segment.slice(1, -1);
          reserved.set(param, (reserved.get(param) ?? new Set()).add(sibling));
        }
      }
    });
    const scope = spec.scope ?? (spec.method === 'GET' ? group.scopes?.read : group.scopes?.write);
    if (scope === undefined) throw new TypeError(`${namespace}.${name} declares no scope, and its group none either`);
    out[name] = Object.freeze({
      ...spec,
      scope,
      ...(group.unknownCode ? { unknownCode: group.unknownCode } : {}),
      sdkMethod: `${namespace}.${name}`,
      pathParams: segments.filter((s) => s.startsWith('{')).map((s) => s.slice(1, -1)),
      reservedSegments: reserved,
      pathParts: spec.path.split(/\{(\w+)\}/),
    });
  }
  return Object.freeze(out) as Declared<NS, S, T>;
}

/**
 * Refuses a call given the wrong number of path ids, which plain JavaScript allows: an extra id lands
 * where the params or options go (text there), a missing one puts the params in an id's place (an
 * object there). Either way the error says how many ids the method takes, not that the options are wrong.
 * @internal
 */
export function checkIdCount(op: Operation, ids: readonly unknown[], params: unknown, options: unknown): void {
  const expected = op.pathParams.length;
  let got = ids.length;
  // Runs on every call: two typeof checks when the count is right.
  if (typeof params === 'string') got += typeof options === 'string' ? 2 : 1;
  else if (typeof options === 'string') got += 1;
  else {
    // Only after an id: an object in the first place is reported as that id's wrong type.
    let misplaced = 1;
    // Stryker disable next-line EqualityOperator: one step past the end finds no object either, and returns the same
    while (misplaced < ids.length && (typeof ids[misplaced] !== 'object' || ids[misplaced] === null)) misplaced++;
    if (misplaced >= ids.length) return;
    got = misplaced;
  }
  const names = op.pathParams.map(camel).join(', ');
  const takes = expected === 0 ? 'takes no id' : `expected ${expected} id${expected === 1 ? '' : 's'} (${names})`;
  throw new ValidationError(`${op.sdkMethod} ${takes}, got ${got}`);
}

/**
 * Longest id a path takes (the service's are 36-character UUIDs): far above any real one, and a bound
 * on what a request's URL holds, as Node's fetch keeps the last 250 URLs it sent. @internal
 */
export const MAX_ID_LENGTH = 1024;

/** Whether an id the service named (a task it started) can be read back: a non-empty string within {@link MAX_ID_LENGTH}. @internal */
export const isUsableId = (id: unknown): id is string => typeof id === 'string' && id !== '' && id.length <= MAX_ID_LENGTH;

/**
 * Fills a path template with encoded ids. An id that is not a non-empty string, is `.` or `..`, holds
 * `/`, `?`, `#` or `\`, or equals a sibling route's literal segment, is refused before any request.
 * @internal
 */
export function buildPath(op: Operation, ids: readonly unknown[]): string {
  if (ids.length !== op.pathParams.length) {
    throw new ValidationError(
      `${op.sdkMethod} takes ${op.pathParams.length} path parameter(s) (${op.pathParams.join(', ')}), got ${ids.length}`,
    );
  }
  // Runs on every call: plain concatenation, and the field name is only worked out for an error.
  const parts = op.pathParts;
  let path = parts[0]!;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    const name = parts[2 * i + 1]!;
    if (typeof id !== 'string' || id.length === 0) {
      throw new ValidationError(`must be a non-empty string, got ${id === '' ? 'an empty string' : typeof id}`, camel(name));
    }
    if (id.length > MAX_ID_LENGTH) throw new ValidationError(`must be at most ${MAX_ID_LENGTH} characters, got ${id.length}`, camel(name));
    if (id === '.' || id === '..' || /[/?#\\]/.test(id)) {
      throw new ValidationError(`must not be "." or ".." or contain "/", "?", "#" or "\\"`, camel(name));
    }
    if (op.reservedSegments.get(name)?.has(id)) {
      throw new ValidationError(`"${id}" is not an id: it names another route`, camel(name));
    }
    let encoded: string;
    try {
      encoded = encodeURIComponent(id);
    } catch {
      // A lone UTF-16 surrogate has no UTF-8 form (URIError): refused like any other bad id.
      throw new ValidationError('must be well-formed text: it holds a lone UTF-16 surrogate, which has no UTF-8 form', camel(name));
    }
    path += encoded + parts[2 * i + 2]!;
  }
  return path;
}

/**
 * A generic method's path: below the base URL, so the key can only go there. Refused: anything not
 * starting with one `/`, a `.` or `..` segment (also percent-encoded), `\`, `#`, `?` (pass `query`),
 * whitespace and control characters.
 * @internal
 */
export function checkGenericPath(path: unknown): string {
  const fail = (why: string): never => {
    throw new ValidationError(why, 'path');
  };
  if (typeof path !== 'string') return fail(`must be text such as '/<collection>/<id>', got ${typeof path}`);
  if (!path.startsWith('/') || path.startsWith('//')) fail(`must begin with a single "/" (relative to the base URL), such as '/<collection>/<id>'`);
  if (/[\\#\s\u0000-\u001f\u007f]/.test(path)) fail('must not hold "\\", "#", whitespace or control characters');
  if (path.includes('?')) fail('must not hold a query: pass it as `query`');
  for (const segment of path.split('/')) {
    if (/^(\.|%2e){1,2}$/i.test(segment)) fail('must not hold "." or ".." segments');
  }
  return path;
}

/** `question_id` → `questionId`, the name users see. */
function camel(name: string): string {
  return name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
}

/** Whether the operation sends its params as a body (else as the query). @internal */
export function hasBody(op: Pick<Operation, 'method'>): boolean {
  return op.method !== 'GET' && op.method !== 'DELETE';
}
