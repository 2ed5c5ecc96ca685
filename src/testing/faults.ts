/**
 * Fault injection: rules that make chosen requests fail the way networks and servers fail, so a
 * client's retries, timeouts and error handling can be tested.
 * @module
 */
import { defaultErrorType, MockHttpError } from './http.js';
import type { OperationId, OperationName } from '../api/index.js';
import { checkedPath, knownOperation } from './operation-names.js';
import { realClearTimeout, realSetTimeout } from './real-timers.js';

/**
 * A fault to inject. Match by `operation`, or by `method` and/or `path`; every given field must
 * match. Then do one thing: answer `status`, answer a `malformed` body, `drop` the connection, or
 * only wait `delayMs` (which can also precede any of the others).
 *
 * @example
 * ```ts
 * service.faults.add({ operation: 'questions.create', status: 503, retryAfter: 1 });
 * service.faults.add({ method: 'GET', path: '/questions/{question_id}', delayMs: 5_000, times: Infinity });
 * service.faults.add({ operation: 'questions.create', drop: true, afterHandling: true });
 * ```
 */
export interface FaultRule {
  /**
   * The operation: its `sdkMethod` (`questions.create`) or its OpenAPI `operationId`
   * (`questionsCreate`, what a client in another language has). An unknown one is refused, naming
   * the closest known.
   */
  operation?: OperationName | OperationId;
  /** HTTP method (any case). */
  method?: string;
  /**
   * Path template (`/questions/{question_id}`) or concrete path, no query; with or without the
   * `/api/v1/external` prefix. A template no route declares is refused, naming the closest; a
   * concrete path may be one no route knows.
   */
  path?: string;
  /** How many matching requests it applies to (default 1; `Infinity` for all). */
  times?: number;
  /** Answer this status with the error envelope. */
  status?: number;
  /** The envelope's `error.type` (default by status: 503 `overloaded_error`, 500 `api_error`, …). */
  type?: string;
  /** The envelope's `error.message`. */
  message?: string;
  /** `Retry-After` header, in seconds. */
  retryAfter?: number;
  /** Wait this long (real time: it simulates a slow network for client timeouts) before going on. */
  delayMs?: number;
  /** Close the connection without an answer (the client sees a network error). */
  drop?: boolean;
  /** With `drop`: handle the request first, then drop (a reset after the server did the work). */
  afterHandling?: boolean;
  /** Answer a body that is not JSON (status 500 unless `status` is given). */
  malformed?: boolean;
}

/**
 * A rule that was added; shows how often it fired and can be removed.
 * @example
 * ```ts
 * const fault: ActiveFault = service.faults.add({ operation: 'questions.list', status: 500, times: 3 });
 * // … later
 * console.log(fault.hits, fault.remaining);
 * fault.remove();
 * ```
 */
export interface ActiveFault {
  readonly rule: Readonly<FaultRule>;
  /** Matching requests left. */
  readonly remaining: number;
  /** Requests it applied to so far. */
  readonly hits: number;
  remove(): void;
}

/**
 * Thrown by {@link MockService.handle} when a fault drops the connection. The HTTP server destroys
 * the socket; the msw handlers answer a network error.
 *
 * @example
 * ```ts
 * await expect(service.handle(request)).rejects.toBeInstanceOf(MockConnectionDropped);
 * ```
 */
export class MockConnectionDropped extends Error {
  override name = 'MockConnectionDropped';
  constructor(message = 'connection dropped by an injected fault') {
    super(message);
  }
}

/** The most fault rules active at once (the next `add` is a `RangeError`, a 400 over HTTP). @internal */
export const MAX_FAULT_RULES = 1_000;

/** What a request is matched on. */
export interface FaultTarget {
  method: string;
  /** Concrete path below the prefix. */
  path: string;
  /** The matched operation's template and sdkMethod, when a route matched. */
  template: string | undefined;
  operation: string | undefined;
}

class Fault implements ActiveFault {
  hits = 0;
  remaining: number;
  constructor(
    readonly rule: Readonly<FaultRule>,
    private readonly owner: FaultInjector,
  ) {
    this.remaining = rule.times ?? 1;
  }
  remove(): void {
    this.owner.remove(this);
  }
}

/**
 * The service's fault rules; the first matching rule with uses left applies.
 *
 * @example
 * ```ts
 * const fault = service.faults.add({ operation: 'questions.retrieve', status: 500, times: 2 });
 * // ... two requests fail
 * fault.hits; // 2
 * service.faults.clear();
 * ```
 */
export class FaultInjector {
  private rules: Fault[] = [];

  constructor(rules: readonly FaultRule[] = []) {
    for (const rule of rules) this.add(rule);
  }

  add(rule: FaultRule): ActiveFault {
    // The names first: a typo is the likelier mistake, and its message names the fix.
    const named = normalized(rule);
    checkRule(rule);
    // Anyone with a key can add rules over HTTP: 20,000 of them held 400 MB and a list of 78 MB.
    if (this.rules.length >= MAX_FAULT_RULES) throw new RangeError(`at most ${MAX_FAULT_RULES} fault rules are active at once: remove some, or clear them`);
    const fault = new Fault(Object.freeze(named), this);
    this.rules.push(fault);
    return fault;
  }

  /** Rules still active. */
  list(): ActiveFault[] {
    return [...this.rules];
  }

  clear(): void {
    this.rules = [];
  }

  /** @internal */
  remove(fault: ActiveFault): void {
    this.rules = this.rules.filter((f) => f !== fault);
  }

  /** Uses up one application of the first rule matching `target`. @internal */
  take(target: FaultTarget): FaultRule | undefined {
    const fault = this.rules.find((f) => ruleMatches(f.rule, target));
    if (!fault) return undefined;
    fault.hits++;
    fault.remaining--;
    if (fault.remaining <= 0) this.remove(fault);
    return fault.rule;
  }
}

function ruleMatches(rule: FaultRule, t: FaultTarget): boolean {
  return (
    (rule.operation === undefined || rule.operation === t.operation) &&
    (rule.method === undefined || rule.method.toUpperCase() === t.method) &&
    (rule.path === undefined || rule.path === t.template || rule.path === t.path)
  );
}

/** The rule as matched: the operation as its `sdkMethod`, the path below the API prefix. */
function normalized(rule: FaultRule): FaultRule {
  const out = { ...rule };
  if (rule.operation !== undefined) out.operation = knownOperation(rule.operation);
  if (rule.path !== undefined) out.path = checkedPath(rule.path);
  return out;
}

function checkRule(rule: FaultRule): void {
  if (rule.operation === undefined && rule.method === undefined && rule.path === undefined) {
    throw new TypeError('A fault rule needs operation, method or path to match');
  }
  const acts = rule.status !== undefined || rule.drop || rule.malformed || rule.delayMs !== undefined;
  if (!acts) throw new TypeError('A fault rule needs status, drop, malformed or delayMs');
  if (rule.times !== undefined && !(rule.times >= 1)) throw new TypeError(`times must be at least 1, got ${rule.times}`);
  if (rule.afterHandling && !rule.drop) throw new TypeError('afterHandling applies to drop: true only');
  const s = rule.status;
  if (s !== undefined && !rule.malformed && !(s >= 400 && s <= 599)) {
    throw new TypeError(`status must be 400 to 599 for an error answer, got ${s}`);
  }
  if (s !== undefined && rule.malformed && (!(s >= 200 && s <= 599) || [204, 205, 304].includes(s))) {
    throw new TypeError(`status ${s} cannot carry a malformed body`);
  }
}

/** The answer a `status` or `malformed` rule gives, or `undefined` when the rule only delays or drops. */
export function faultResponse(rule: FaultRule): Response | MockHttpError | undefined {
  if (rule.drop) return undefined;
  const headers: Record<string, string> = rule.retryAfter !== undefined ? { 'retry-after': String(rule.retryAfter) } : {};
  if (rule.malformed) {
    // Claims JSON, then breaks off: what a proxy cutting a body or an HTML error page looks like to a parser.
    return new Response('{"type":"error","error":{"type":"api_er', {
      status: rule.status ?? 500,
      headers: { 'content-type': 'application/json', ...headers },
    });
  }
  if (rule.status === undefined) return undefined;
  const message = rule.message ?? `Injected fault: ${rule.status}`;
  return new MockHttpError(rule.status, rule.type ?? defaultErrorType(rule.status), message, {}, headers);
}

/** Waits `ms` on a real timer (one a test's fake timers leave alone), ending early if the client went away. */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = realSetTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      realClearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
