/**
 * The record of requests that reached the mock service, for tests to count and inspect.
 * @module
 */

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
  operation?: string;
  method?: string;
  /** Path without the query. */
  path?: string;
  status?: number | null;
}

/** How many requests the log keeps by default (`requestLogLimit`): past it, the oldest is dropped. @internal */
export const DEFAULT_REQUEST_LOG_LIMIT = 10_000;

/**
 * Requests that reached the service, oldest first: the latest `requestLogLimit` of them (default
 * 10,000), so a mock served for hours holds a bounded log.
 *
 * @example
 * ```ts
 * service.requests.clear();
 * await client.questions.create(body);
 * expect(service.requests.count({ operation: 'questions.create' })).toBe(1);
 * ```
 */
export class RequestLog implements Iterable<RecordedRequest> {
  /** A ring once full: dropping the oldest is one overwrite, never a shift of the whole array. */
  private ring: RecordedRequest[] = [];
  /** Where the oldest kept entry is in `ring` (0 until the ring is full). */
  private start = 0;
  private droppedCount = 0;
  private readonly limit: number;

  /** @internal */
  constructor(limit: number = DEFAULT_REQUEST_LOG_LIMIT) {
    this.limit = checkedLimit(limit);
  }

  /** @internal */
  add(entry: RecordedRequest): void {
    if (this.ring.length < this.limit) {
      this.ring.push(entry);
      return;
    }
    this.ring[this.start] = entry;
    this.start = (this.start + 1) % this.ring.length;
    this.droppedCount++;
  }

  /** Requests matching `filter` (all when omitted), oldest first. */
  list(filter: RequestFilter = {}): RecordedRequest[] {
    return this.kept().filter((e) => matches(e, filter));
  }

  count(filter: RequestFilter = {}): number {
    let n = 0;
    for (const e of this.ring) if (matches(e, filter)) n++;
    return n;
  }

  /** The latest request matching `filter`. */
  last(filter: RequestFilter = {}): RecordedRequest | undefined {
    // Newest first, from the slot before the oldest backwards round the ring.
    for (let i = 1; i <= this.ring.length; i++) {
      const e = this.ring[(this.start - i + this.ring.length) % this.ring.length]!;
      if (matches(e, filter)) return e;
    }
    return undefined;
  }

  /** How many requests the log keeps now (at most `requestLogLimit`). */
  get length(): number {
    return this.ring.length;
  }

  /**
   * How many requests were dropped, oldest first, to keep the log within `requestLogLimit`, since
   * the service started or the last `clear()` / `reset()`. `length + dropped` is every request since.
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
    this.ring = [];
    this.start = 0;
    this.droppedCount = 0;
  }

  [Symbol.iterator](): Iterator<RecordedRequest> {
    return this.kept()[Symbol.iterator]();
  }

  /** A copy of the kept entries, oldest first. */
  private kept(): RecordedRequest[] {
    return this.start === 0 ? this.ring.slice() : [...this.ring.slice(this.start), ...this.ring.slice(0, this.start)];
  }
}

/** `requestLogLimit` as given: a positive whole number, or `Infinity` to keep every request. */
function checkedLimit(limit: unknown): number {
  const shown = typeof limit === 'number' ? String(limit) : typeof limit === 'string' ? JSON.stringify(limit) : typeof limit;
  const message = `requestLogLimit must be a positive whole number or Infinity, got ${shown}`;
  if (typeof limit !== 'number') throw new TypeError(message);
  if (!(limit === Infinity || (Number.isInteger(limit) && limit >= 1))) throw new RangeError(message);
  return limit;
}

function matches(e: RecordedRequest, f: RequestFilter): boolean {
  return (
    (f.operation === undefined || e.operation === f.operation) &&
    (f.method === undefined || e.method === f.method.toUpperCase()) &&
    (f.path === undefined || e.path.split('?')[0] === f.path) &&
    (f.status === undefined || e.status === f.status)
  );
}
