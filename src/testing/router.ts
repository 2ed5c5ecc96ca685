/**
 * The route table, derived from the operation declarations (never a second hand-written list).
 * @module
 */
import type { ServiceOperation as Operation } from '../api/index.js';

/**
 * The prefix every path of the service starts with.
 * @example
 * ```ts
 * await service.handle(new Request(`http://mock${API_PREFIX}/questions`, { headers: { 'x-api-key': service.apiKey } }));
 * ```
 */
export const API_PREFIX = '/api/v1/external';

/** The outcome of matching a request's method and path. */
export type RouteMatch =
  | { kind: 'operation'; operation: Operation; pathParams: Record<string, string> }
  | { kind: 'not_found' }
  | { kind: 'method_not_allowed'; allow: string[] };

interface Route {
  template: string;
  segments: string[];
  byMethod: Map<string, Operation>;
}

/**
 * Matches requests to declared operations. A literal segment wins over a `{param}` at the same
 * place, so `/questions/browse` never reaches `/questions/{question_id}`.
 *
 * @example
 * ```ts
 * const router = new Router(declaredOperations);
 * router.match('GET', '/api/v1/external/questions/browse'); // questions.browse
 * ```
 */
export class Router {
  private readonly routes: Route[] = [];

  constructor(operations: readonly Operation[]) {
    const byTemplate = new Map<string, Route>();
    for (const op of operations) {
      let route = byTemplate.get(op.path);
      if (!route) {
        route = { template: op.path, segments: op.path.split('/').slice(1), byMethod: new Map() };
        byTemplate.set(op.path, route);
        this.routes.push(route);
      }
      if (route.byMethod.has(op.method)) throw new Error(`Two operations declare ${op.method} ${op.path}`);
      route.byMethod.set(op.method, op);
    }
  }

  /** Matches a full pathname (with the `/api/v1/external` prefix). */
  match(method: string, pathname: string): RouteMatch {
    const found = this.route(pathname);
    if (!found) return { kind: 'not_found' };
    const { route, decoded } = found;
    const operation = route.byMethod.get(method.toUpperCase());
    if (!operation) return { kind: 'method_not_allowed', allow: [...route.byMethod.keys()] };
    const pathParams: Record<string, string> = {};
    route.segments.forEach((s, i) => {
      if (s.startsWith('{')) pathParams[s.slice(1, -1)] = decoded[i]!;
    });
    return { kind: 'operation', operation, pathParams };
  }

  /** The methods declared for a full pathname, or `undefined` when no route has that path. */
  allowed(pathname: string): string[] | undefined {
    const found = this.route(pathname);
    return found && [...found.route.byMethod.keys()];
  }

  private route(pathname: string): { route: Route; decoded: string[] } | undefined {
    if (!pathname.startsWith(`${API_PREFIX}/`)) return undefined;
    // Empty segments (a trailing or doubled slash) match nothing: the spec answers 404.
    const segments = pathname.slice(API_PREFIX.length).split('/').slice(1);
    if (segments.some((s) => s === '')) return undefined;
    let decoded: string[];
    try {
      decoded = segments.map(decodeURIComponent);
    } catch {
      return undefined;
    }
    const route = this.best(decoded);
    return route && { route, decoded };
  }

  /** The matching route whose first literal-vs-param difference is a literal. */
  private best(segments: readonly string[]): Route | undefined {
    let best: Route | undefined;
    for (const route of this.routes) {
      if (route.segments.length !== segments.length) continue;
      if (!route.segments.every((s, i) => s.startsWith('{') || s === segments[i])) continue;
      if (!best || moreLiteral(route.segments, best.segments)) best = route;
    }
    return best;
  }
}

function moreLiteral(a: readonly string[], b: readonly string[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const aParam = a[i]!.startsWith('{');
    const bParam = b[i]!.startsWith('{');
    if (aParam !== bParam) return !aParam;
  }
  return false;
}
