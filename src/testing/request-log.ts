/**
 * The record of requests that reached the mock service, for tests to count and inspect.
 * @module
 */
import type { OperationId, OperationName } from '../api/index.js';
import { knownOperation } from './operation-names.js';

/**
 * One request as the mock saw it.
 *
 * @example
 * ```ts
 * const [first] = service.requests.list({ operation: 'questions.create' });
 * first?.status; // 201
 * ```
 */
export interface RecordedRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** Path below `/api/v1/external`, with the query (for example `/questions?limit=2`). */
  path: string;
  /** The operation's `sdkMethod` (`questions.create`), or `undefined` when no route matched. */
  operation: string | undefined;
  /** Status answered; `null` when the connection was dropped before an answer was made. */
  status: number | null;
  /** True when a fault dropped the connection (the client saw no answer, even if `status` is set). */
  dropped: boolean;
  /** The `Idempotency-Key` header, if sent. */
  idempotencyKey: string | undefined;
  /** Request headers, lower-case names, with the API key replaced by `[redacted]`. */
  headers: Record<string, string>;
  /**
   * Parsed JSON body, the raw text when it was not JSON, or `undefined` when empty. A body over
   * `MAX_LOGGED_BODY_BYTES` (64 KiB) is kept as a string: `[JSON body of N bytes, clipped] ` and its
   * first 1,024 characters; a refused or multipart body as a short `[…]` description.
   */
  body: unknown;
  /** Clock time the request arrived, in ms since the epoch. */
  at: number;
  /** The `x-request-id` the mock answered with. */
  requestId: string;
  /** The answer's `Retry-After` header (seconds, as sent), when it carried one. */
  retryAfter?: string | undefined;
  /** True when the answer replayed an earlier one for the same `Idempotency-Key` (`Idempotent-Replayed: true`). */
  replayed?: boolean;
}

/**
 * Which requests to pick: every given field must match.
 * @example
 * ```ts
 * const filter: RequestFilter = { operation: 'forecasts.retrieve', status: 200 };
 * expect(service.requests.count(filter)).toBeLessThan(50);
 * ```
 */
export interface RequestFilter {
  /**
   * The operation, as fault rules take it: its `sdkMethod` (`questions.create`) or its OpenAPI
   * `operationId` (`questionsCreate`). An unknown one throws a `TypeError` naming the closest known,
   * rather than count nothing.
   */
  operation?: OperationName | OperationId;
  method?: string;
  /** Path without the query. */
  path?: string;
  status?: number | null;
}

/** How many requests the log keeps by default (`requestLogLimit`): past it, the oldest is dropped. @internal */
export const DEFAULT_REQUEST_LOG_LIMIT = 10_000;

/**
 * The most memory the kept requests may take together, as {@link weightOf} reckons it, under a
 * finite `requestLogLimit`: past it the oldest are dropped too (counted in `dropped`). A count alone
 * bounds nothing: a body up to 64 KiB is kept parsed, and `[{},{},…]` of that size takes some 1.3 MB
 * of heap, so 10,000 of them (sent by anyone, before any key check) were about 13 GB. 10,000
 * ordinary requests (headers and a body of a few KiB each) stay well within it. @internal
 */
export const MAX_REQUEST_LOG_BYTES = 128 * 1024 * 1024;

/** What one object, array or property costs the heap besides its contents, about (64-bit V8). */
const OBJECT_BYTES = 64;
/** What a number, boolean or null, or one slot of an array, costs, about. */
const SLOT_BYTES = 16;

/**
 * Requests that reached the service, oldest first: the latest `requestLogLimit` of them (default
 * 10,000), fewer when those would take over 128 MiB, so a mock served for hours holds a bounded log.
 *
 * @example
 * ```ts
 * service.requests.clear();
 * await client.questions.create(body);
 * expect(service.requests.count({ operation: 'questions.create' })).toBe(1);
 * ```
 */
export class RequestLog implements Iterable<RecordedRequest> {
  /**
   * The kept entries from `head` on, oldest first: a queue. Dropping the oldest clears its slot and
   * moves `head`; the cleared slots are cut off now and then, never one shift of the whole array each.
   */
  private entries: (RecordedRequest | undefined)[] = [];
  /** Each entry's weight, as `entries`. */
  private weights: number[] = [];
  private head = 0;
  private weight = 0;
  private droppedCount = 0;
  private readonly limit: number;

  /** @internal */
  constructor(
    limit: number = DEFAULT_REQUEST_LOG_LIMIT,
    private readonly maxBytes: number = MAX_REQUEST_LOG_BYTES,
  ) {
    this.limit = checkedLimit(limit);
  }

  /** @internal */
  add(entry: RecordedRequest): void {
    // Infinity keeps every request, as asked: no weight to reckon.
    const weight = this.limit === Infinity ? 0 : weightOf(entry);
    this.entries.push(entry);
    this.weights.push(weight);
    this.weight += weight;
    // The newest stays, however heavy: the log always shows the latest request.
    while (this.length > this.limit || (this.weight > this.maxBytes && this.length > 1)) this.dropOldest();
  }

  /** Requests matching `filter` (all when omitted), oldest first. */
  list(filter: RequestFilter = {}): RecordedRequest[] {
    filter = checkedFilter(filter);
    return this.kept().filter((e) => matches(e, filter));
  }

  /** How many requests match `filter` (all when omitted). */
  count(filter: RequestFilter = {}): number {
    filter = checkedFilter(filter);
    let n = 0;
    for (let i = this.head; i < this.entries.length; i++) if (matches(this.entries[i]!, filter)) n++;
    return n;
  }

  /** The latest request matching `filter`. */
  last(filter: RequestFilter = {}): RecordedRequest | undefined {
    filter = checkedFilter(filter);
    for (let i = this.entries.length - 1; i >= this.head; i--) {
      const e = this.entries[i]!;
      if (matches(e, filter)) return e;
    }
    return undefined;
  }

  /** How many requests the log keeps now (at most `requestLogLimit`). */
  get length(): number {
    return this.entries.length - this.head;
  }

  /**
   * How many requests were dropped, oldest first, to keep the log within `requestLogLimit` (and its
   * memory within 128 MiB), since the service started or the last `clear()` / `reset()`.
   * `length + dropped` is every request since.
   * @example
   * ```ts
   * const seen = service.requests.length + service.requests.dropped; // every request, kept or not
   * ```
   */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Empties the log and sets `dropped` back to 0. */
  clear(): void {
    this.entries = [];
    this.weights = [];
    this.head = 0;
    this.weight = 0;
    this.droppedCount = 0;
  }

  [Symbol.iterator](): Iterator<RecordedRequest> {
    return this.kept()[Symbol.iterator]();
  }

  /** A copy of the kept entries, oldest first. */
  private kept(): RecordedRequest[] {
    return this.entries.slice(this.head) as RecordedRequest[];
  }

  private dropOldest(): void {
    this.weight -= this.weights[this.head]!;
    // The slot let go at once, for the collector; the array is cut once half of it is such slots.
    this.entries[this.head] = undefined;
    this.head++;
    this.droppedCount++;
    if (this.head >= 1024 && this.head * 2 >= this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.weights = this.weights.slice(this.head);
      this.head = 0;
    }
  }
}

/** About what an entry takes of the heap: its fixed fields, path, headers and body (a walk of the parsed JSON). */
function weightOf(entry: RecordedRequest): number {
  let bytes = 8 * OBJECT_BYTES + 2 * entry.path.length;
  for (const [name, value] of Object.entries(entry.headers)) bytes += OBJECT_BYTES + 2 * (name.length + value.length);
  const stack: unknown[] = [entry.body];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') bytes += SLOT_BYTES + 2 * value.length;
    else if (typeof value !== 'object' || value === null) bytes += SLOT_BYTES;
    else if (Array.isArray(value)) {
      bytes += OBJECT_BYTES + SLOT_BYTES * value.length;
      for (const item of value) stack.push(item);
    } else {
      bytes += OBJECT_BYTES;
      for (const [key, item] of Object.entries(value)) {
        bytes += OBJECT_BYTES + 2 * key.length;
        stack.push(item);
      }
    }
  }
  return bytes;
}

/** `requestLogLimit` as given: a positive whole number, or `Infinity` to keep every request. */
function checkedLimit(limit: unknown): number {
  const shown = typeof limit === 'number' ? String(limit) : typeof limit === 'string' ? JSON.stringify(limit) : typeof limit;
  const message = `requestLogLimit must be a positive whole number or Infinity, got ${shown}`;
  if (typeof limit !== 'number') throw new TypeError(message);
  if (!(limit === Infinity || (Number.isInteger(limit) && limit >= 1))) throw new RangeError(message);
  return limit;
}

/** The filter as matched: its operation as the `sdkMethod` entries carry, after a check of the name. */
function checkedFilter(filter: RequestFilter): RequestFilter {
  return filter.operation === undefined ? filter : { ...filter, operation: knownOperation(filter.operation) };
}

function matches(e: RecordedRequest, f: RequestFilter): boolean {
  return (
    (f.operation === undefined || e.operation === f.operation) &&
    (f.method === undefined || e.method === f.method.toUpperCase()) &&
    (f.path === undefined || e.path.split('?')[0] === f.path) &&
    (f.status === undefined || e.status === f.status)
  );
}
