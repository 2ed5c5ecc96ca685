/**
 * The spec's API key scopes (its Authentication table), and the read/write pairs the groups declare
 * once.
 * @module
 */

/**
 * API key scopes, as in the spec's Authentication table.
 * @example
 * ```ts
 * const needed = new Set<Scope>(operations.filter((o) => o.sdkMethod.startsWith('webhooks.')).map((o) => o.scope));
 * ```
 */
export type Scope =
  | 'questions:read'
  | 'questions:write'
  | 'forecasts:read'
  | 'forecasts:write'
  | 'connections:read'
  | 'connections:write';

/** A group's scopes: a `GET` takes `read`, any other method `write` (see `GroupOptions.scopes`). */
export interface ScopePair {
  read: Scope;
  write: Scope;
}

export const QUESTIONS: ScopePair = { read: 'questions:read', write: 'questions:write' };
export const FORECASTS: ScopePair = { read: 'forecasts:read', write: 'forecasts:write' };
export const CONNECTIONS: ScopePair = { read: 'connections:read', write: 'connections:write' };
