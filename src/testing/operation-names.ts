/**
 * The names a test gives the mock for an operation or a path (a fault rule, a request-log filter),
 * checked against the declarations: a typo is refused naming the closest known one, never a rule
 * that silently matches nothing.
 * @module
 */
import { declaredOperations, type OperationName } from '../api/index.js';
import { operationIdOf } from '../api/operation-id.js';
import { clip } from '../core/text.js';
import { editDistance } from '../core/validate.js';
import { API_PREFIX } from './router.js';

/** Verbs users reach for, to the SDK's: `questions.get` means `questions.retrieve`. */
const SYNONYMS: Record<string, string> = { get: 'retrieve', fetch: 'retrieve', read: 'retrieve', show: 'retrieve', all: 'list', add: 'create', new: 'create', edit: 'update', patch: 'update', remove: 'delete', del: 'delete' };

/** Every accepted operation name (the dotted `sdkMethod` and the OpenAPI `operationId`) → its `sdkMethod`. */
let operationNames: Map<string, OperationName> | undefined;
function operationOf(name: string): OperationName | undefined {
  if (!operationNames) {
    operationNames = new Map();
    for (const declared of declaredOperations) {
      const sdkMethod = declared.sdkMethod as OperationName; // the declarations' own names (see OperationName)
      operationNames.set(sdkMethod, sdkMethod);
      operationNames.set(operationIdOf(sdkMethod), sdkMethod);
    }
  }
  return operationNames.get(name);
}

/**
 * The `sdkMethod` of an operation named by its SDK name or `operationId`; an unknown one throws a
 * `TypeError` naming the closest known. `field` names where it was given (`operation`). @internal
 */
export function knownOperation(name: unknown, field = 'operation'): OperationName {
  const found = typeof name === 'string' ? operationOf(name) : undefined;
  if (found !== undefined) return found;
  if (typeof name !== 'string') throw new TypeError(`${field}: must be an operation's name (text), got ${name === null ? 'null' : typeof name}`);
  const near = closestOperation(name);
  const example = near ?? 'questions.create';
  throw new TypeError(
    `${field}: unknown operation ${clip(JSON.stringify(name), MAX_NAME_COMPARED)}; ${near === undefined ? 'no operation is named like it.' : `did you mean "${near}"?`} ` +
      `Name it as the SDK does ("${example}") or by its OpenAPI operationId ("${operationIdOf(example)}"); \`operations\` (from forecasting-sdk) lists them all. ` +
      "A fault rule or a request filter matches one request's operation: a client helper (createAndWait, waitMany, runMany) makes requests of several, which the request log names.",
  );
}

/**
 * The known operation closest to `name`: the longest one that begins it (a client helper such as
 * `forecasts.createAndWait` names the operation it starts with), else same namespace first, a
 * synonym's verb, then the fewest edits; `undefined` when even that one is no typo of it.
 */
function closestOperation(name: string): string | undefined {
  const lower = name.toLowerCase();
  const begins = declaredOperations.filter(({ sdkMethod }) => lower.startsWith(sdkMethod.toLowerCase()));
  if (begins.length > 0) return begins.reduce((a, b) => (b.sdkMethod.length > a.sdkMethod.length ? b : a)).sdkMethod;
  const parts = name.replace(/([a-z])([A-Z])/g, '$1.$2').toLowerCase().split('.');
  const verb = parts.at(-1)!;
  const wanted = [...parts.slice(0, -1), SYNONYMS[verb] ?? verb].join('.');
  return nearest(wanted, declaredOperations.map(({ sdkMethod }) => sdkMethod), (s) => s.toLowerCase());
}

/**
 * A path as a fault rule matches it: below the API prefix. A template (it has a `{param}`) must be
 * one a route declares, since it is compared as written: `/question/{id}` would match nothing. A
 * concrete path may be any, one no route knows included. @internal
 */
export function checkedPath(path: string): string {
  if (typeof path !== 'string') throw new TypeError(`path: must be a path (text), got ${path === null ? 'null' : typeof path}`);
  if (!path.startsWith('/')) {
    throw new TypeError(`path: must start with "/" (a template such as "/questions/{question_id}", with or without the ${API_PREFIX} prefix), got ${clip(JSON.stringify(path), MAX_NAME_COMPARED)}`);
  }
  const below = path.startsWith(`${API_PREFIX}/`) ? path.slice(API_PREFIX.length) : path;
  if (!/[{}]/.test(below)) return below;
  const templates = [...new Set(declaredOperations.map((op) => op.path))];
  if (templates.includes(below)) return below;
  // Closest by shape first (parameters named alike), then by the names.
  const shape = (t: string) => t.replace(/\{[^/]*\}/g, '{}');
  // The fewest edits; else, far from every one, the longest route's template that begins it.
  const near = nearest(below, templates, shape, (t) => t) ?? templates.filter((t) => below.startsWith(`${t}/`)).sort((a, b) => b.length - a.length)[0];
  throw new TypeError(
    `path: no route has the template ${clip(JSON.stringify(path), MAX_NAME_COMPARED)}; ${near === undefined ? 'none is shaped like it.' : `did you mean "${near}"?`} A template is matched as a route declares it (the operations' paths); a concrete path (/questions/q_1) matches as sent.`,
  );
}

/** Longest name looked at for a near one: a hostile 1 MB name would cost seconds of edits per candidate. */
const MAX_NAME_COMPARED = 200;

/**
 * The candidate with the fewest edits from `wanted`, as seen through `views` (each a tie-break for
 * the one before); `undefined` when it is more edits away than a typo makes (a third of the name,
 * at least 3): `bogus` is not `tags.list` misspelled, and naming it would mislead.
 */
function nearest(given: string, candidates: readonly string[], ...views: ((s: string) => string)[]): string | undefined {
  const wanted = given.slice(0, MAX_NAME_COMPARED);
  let best = candidates[0]!;
  let bestScores = views.map(() => Infinity);
  for (const candidate of candidates) {
    const scores = views.map((view) => editDistance(view(wanted), view(candidate)));
    const i = scores.findIndex((s, j) => s !== bestScores[j]);
    if (i >= 0 && scores[i]! < bestScores[i]!) [best, bestScores] = [candidate, scores];
  }
  return bestScores[0]! <= Math.max(3, Math.ceil(views[0]!(wanted).length / 3)) ? best : undefined;
}
