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

/**
 * Requests that reached the service, oldest first.
 *
 * @example
 * ```ts
 * service.requests.clear();
 * await client.questions.create(body);
 * expect(service.requests.count({ operation: 'questions.create' })).toBe(1);
 * ```
 */
export class RequestLog implements Iterable<RecordedRequest> {
  private readonly entries: RecordedRequest[] = [];

  /** @internal */
  add(entry: RecordedRequest): void {
    this.entries.push(entry);
  }

  /** Requests matching `filter` (all when omitted), oldest first. */
  list(filter: RequestFilter = {}): RecordedRequest[] {
    return this.entries.filter((e) => matches(e, filter));
  }

  count(filter: RequestFilter = {}): number {
    return this.list(filter).length;
  }

  /** The latest request matching `filter`. */
  last(filter: RequestFilter = {}): RecordedRequest | undefined {
    return this.list(filter).at(-1);
  }

  get length(): number {
    return this.entries.length;
  }

  clear(): void {
    this.entries.length = 0;
  }

  [Symbol.iterator](): Iterator<RecordedRequest> {
    return this.entries.slice()[Symbol.iterator]();
  }
}

function matches(e: RecordedRequest, f: RequestFilter): boolean {
  return (
    (f.operation === undefined || e.operation === f.operation) &&
    (f.method === undefined || e.method === f.method.toUpperCase()) &&
    (f.path === undefined || e.path.split('?')[0] === f.path) &&
    (f.status === undefined || e.status === f.status)
  );
}
