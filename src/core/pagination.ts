/**
 * One iterator for both paging styles: cursor (`nextCursor` + `hasMore`) and offset (`limit` + `offset`).
 * Only one page is held at a time; to notice a loop the walk keeps a key or two a page (its cursor,
 * its first and last item; a digest of a long one), not the items, so memory grows with
 * pages, by far less than they hold. A server that would make the walk loop forever (a cursor given
 * twice, `hasMore` with no way on, page after empty page, pages coming back) stops it with a
 * {@link ForecastingError} that says why.
 * @module
 */
import { APIPromise } from './api-promise.js';
import { ForecastingError, ValidationError } from './errors.js';
import { clip } from './text.js';
import type { Paging } from './operation.js';

/** Query parameters a page may carry. */
export type PageParams = Record<string, unknown>;

/** Fetches the page for the given params. @internal */
export type PageFetcher<Item> = (params: PageParams, walk: PageWalk) => PromiseLike<Page<Item>>;

/**
 * Empty pages in a row, each with `hasMore: true` and a new cursor, after which a walk stops: a
 * service that pages correctly does not answer this many empty pages in a row (docs/pagination.md
 * states the figure). @internal
 */
export const MAX_EMPTY_PAGES_IN_A_ROW = 10;

/**
 * The cursors followed, in order, by the pages of one walk, each as {@link trailKey} keeps it (the
 * callers pass it so: worked out once per page). A page at depth `d` was reached through
 * the first `d` of them; asking a page for its next page again, or from a second copy of the same
 * page, finds its cursor already at that place and goes on along the same trail. @internal
 */
class CursorTrail {
  readonly #cursors: string[] = [];
  /** Position of each cursor in `#cursors` (a trail never holds a cursor twice). */
  readonly #at = new Map<string, number>();

  /** Whether `cursor` is among the first `depth` cursors: the ones that led to a page at `depth`. */
  seen(cursor: string, depth: number): boolean {
    const at = this.#at.get(cursor);
    return at !== undefined && at < depth;
  }

  /** The trail that follows `cursor` from `depth`: this one, or, where this trail went elsewhere from there, a copy up to `depth`. */
  follow(cursor: string, depth: number): CursorTrail {
    // Sharing a trail only saves copies: a copy up to `depth` holds the same cursors, so a walk that
    // always copied would see the same loops.
    // Stryker disable next-line ConditionalExpression: see above
    if (this.#cursors[depth] === cursor) return this;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: see above
    const trail = this.#cursors.length === depth ? this : new CursorTrail();
    if (trail !== this) for (const c of this.#cursors.slice(0, depth)) trail.#push(c);
    trail.#push(cursor);
    return trail;
  }

  #push(cursor: string): void {
    this.#at.set(cursor, this.#cursors.length);
    this.#cursors.push(cursor);
  }
}

/** Cursors up to this length are kept as they are; a longer one by its length and a 64-bit digest. */
const MAX_KEPT_CURSOR = 256;

/**
 * A cursor as a trail keeps it: a server may send cursors of megabytes, and a walk keeps one per
 * page, so a long one is kept as its length and two 32-bit FNV-style hashes (two cursors that share
 * them would stop the walk as a loop, with a typed error: a server can do that more simply).
 */
function trailKey(cursor: string): string {
  if (cursor.length <= MAX_KEPT_CURSOR) return cursor;
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < cursor.length; i++) {
    const c = cursor.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  // Short, as what it stands for is not: a cursor kept whole that equals it stops the walk as a loop,
  // with a typed error, which a server can bring about more simply.
  return `\u0000${cursor.length}:${(a >>> 0).toString(36)}:${(b >>> 0).toString(36)}`;
}

/**
 * Where a page stands in the walk that led to it, to notice a loop. Never changed once made: the
 * next page's position is worked out from this one, so `getNextPage()` gives the same next page
 * however often it is called. @internal
 */
export class PageWalk {
  private constructor(
    /** The cursors and page ends followed along the walk. */
    private readonly trail: CursorTrail,
    /** How many of `trail`'s entries led to this page. */
    private readonly depth: number,
    /** Empty pages in a row just before this page. */
    private readonly emptyBefore: number,
    /** Pages along the walk that repeated an earlier one's ends. */
    private readonly repeats = 0,
    /** Pages along the walk whose ends were new. */
    private readonly fresh = 0,
  ) {}

  /** The walk of a list call's first page; `cursor` is the one the caller started from, if any. */
  static start(cursor: unknown): PageWalk {
    const trail = new CursorTrail();
    return typeof cursor === 'string' ? new PageWalk(trail.follow(trailKey(cursor), 0), 1, 0) : new PageWalk(trail, 0, 0);
  }

  /** The walk of the page after one holding `data`, reached by `cursor` (cursor lists); throws where following would loop. */
  next(data: readonly unknown[], cursor: string | undefined): PageWalk {
    const empty = data.length === 0 ? this.emptyBefore + 1 : 0;
    // The trail keeps each page's ends beside the cursors (none for an empty page, one too deep to
    // write, or, on a cursor list, one whose ends have no id), so a service that gives its pages
    // again (A, B, A, B, …, ignoring `offset` or the cursor) stops the walk. A few repeats are no
    // loop: items added at the head of an offset list while it is read, or records moved on in a
    // cursor list's order, bring earlier pages back, at most as many as were read; more repeats than
    // new pages are a loop.
    const ends = data.length === 0 ? undefined : pageEnds(data, cursor !== undefined);
    const page = ends === undefined ? undefined : trailKey(ends);
    const again = page !== undefined && this.trail.seen(page, this.depth);
    const repeats = this.repeats + Number(again);
    const [trail, depth, fresh] = page === undefined || again ? [this.trail, this.depth, this.fresh] : [this.trail.follow(page, this.depth), this.depth + 1, this.fresh + 1];
    const looping = repeats > this.fresh;
    if (cursor === undefined) {
      if (data.length === 0) stop('an empty page with hasMore: true (the next offset would ask for the same page again)');
      if (looping) stop('more pages it gave before than new ones (it ignores offset)');
      return new PageWalk(trail, depth, empty, repeats, fresh);
    }
    const key = trailKey(cursor);
    if (this.trail.seen(key, this.depth)) stop(`the cursor ${clip(JSON.stringify(cursor.slice(0, 64)), 100)} a second time`);
    if (looping) stop('more pages it gave before, under new cursors, than new ones (it ignores the cursor)');
    if (empty >= MAX_EMPTY_PAGES_IN_A_ROW) stop(`${empty} empty pages in a row, each with hasMore: true`);
    return new PageWalk(trail.follow(key, depth), depth + 1, empty, repeats, fresh);
  }
}

/** An item's id: its `id`, or a task's `taskId`. */
const idOf = (item: unknown): unknown => {
  const i = item as { id?: unknown; taskId?: unknown } | null;
  return i?.id ?? i?.taskId;
};

/**
 * The first and last item of a page as text, by id (a record read again may differ in `updatedAt`),
 * else whole: two pages at different offsets of one list never share both (a service that answers
 * one of them twice ignores `offset`). With `byId`, none for a page whose ends have no id: items
 * without one may be alike (two watches with the same settings). An item nested too deeply to write
 * back (`JSON.parse` reads any depth, `JSON.stringify` overflows the stack near 5 000 levels) makes
 * the page unlike any other: the walk goes on, never a `RangeError`.
 */
function pageEnds(data: readonly unknown[], byId: boolean): string | undefined {
  const ends = [data[0], data[data.length - 1]];
  if (byId && ends.some((item) => idOf(item) === undefined)) return undefined;
  try {
    return JSON.stringify(ends.map((item) => idOf(item) ?? item));
  } catch {
    return undefined;
  }
}

/** The list envelope as read from the wire. @internal */
export interface ListEnvelope<Item> {
  data: Item[];
  hasMore: boolean;
  nextCursor?: string | null;
}

/**
 * One page of a list, and the way to the next ones. Iterating a page with `for await` walks every
 * item from this page on.
 *
 * @example
 * ```ts
 * let page = await client.questions.list({ limit: 100 });
 * while (true) {
 *   handle(page.data);
 *   if (!page.hasNextPage()) break;
 *   page = await page.getNextPage();
 * }
 * ```
 */
export class Page<Item> implements AsyncIterable<Item> {
  /** Items of this page. */
  readonly data: Item[];
  /** Whether the service has more items after this page. */
  readonly hasMore: boolean;
  /** Cursor of the next page (cursor-paged lists), or `null`. */
  readonly nextCursor: string | null;
  readonly #paging: Paging;
  readonly #params: PageParams;
  readonly #fetch: PageFetcher<Item>;
  readonly #walk: PageWalk;

  /** @internal */
  constructor(envelope: ListEnvelope<Item>, paging: Paging, params: PageParams, fetchPage: PageFetcher<Item>, walk: PageWalk) {
    this.data = envelope.data;
    this.hasMore = envelope.hasMore === true;
    this.nextCursor = typeof envelope.nextCursor === 'string' && envelope.nextCursor !== '' ? envelope.nextCursor : null;
    this.#paging = paging;
    this.#params = params;
    this.#fetch = fetchPage;
    this.#walk = walk;
  }

  /**
   * Whether the service says more items follow (`hasMore`). {@link getNextPage} throws instead of
   * looping when the service gives no way on.
   */
  hasNextPage(): boolean {
    return this.hasMore;
  }

  /**
   * Fetches the next page. Throws `ForecastingError` when there is none (check {@link hasNextPage}
   * first), or when following the service would loop: a cursor it already gave, `hasMore` without a
   * `nextCursor`, an empty offset page, the same offset page twice in a row, or
   * 10 empty pages in a row. It is a plain read of this page: calling
   * it again fetches the same next page.
   */
  async getNextPage(): Promise<Page<Item>> {
    if (!this.hasMore) throw new ForecastingError('No next page: check hasNextPage() first.');
    // Worked out from this page's own place in the walk, so a second call asks for, and checks, the same page.
    if (this.#paging === 'offset') {
      const offset = Number(this.#params['offset'] ?? 0) + this.data.length;
      return this.#fetch({ ...this.#params, offset }, this.#walk.next(this.data, undefined));
    }
    const cursor = this.nextCursor;
    if (cursor === null) stop('hasMore: true without a nextCursor');
    // Sent back in the URL, which Node's fetch keeps (its last 250): megabytes a page would exhaust memory.
    if (cursor.length > MAX_CURSOR_LENGTH) throw new ForecastingError(`Stopped paging: the service answered a nextCursor over ${MAX_CURSOR_LENGTH} characters.`);
    return this.#fetch({ ...this.#params, cursor }, this.#walk.next(this.data, cursor));
  }

  /** Walks this page and every later one, a page at a time. */
  async *iterPages(): AsyncGenerator<Page<Item>, void, undefined> {
    let page: Page<Item> = this;
    yield page;
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      yield page;
    }
  }

  /** Walks every item from this page on, fetching pages as needed. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.iterPages()) yield* page.data;
  }

  /**
   * Collects items from this page on into an array, stopping at `limit` (default 1000; `Infinity`
   * for all) so a long list cannot exhaust memory.
   */
  async toArray(options: { limit?: number | undefined } = {}): Promise<Item[]> {
    return collect(this, options.limit);
  }
}

/**
 * What a list method returns: awaits to the first {@link Page}, and is itself an `AsyncIterable` over
 * every item across pages.
 *
 * @example
 * ```ts
 * const first = await client.questions.list();          // one page
 * for await (const q of client.questions.list()) {}     // every question
 * const some = await client.questions.list().toArray({ limit: 250 });
 * ```
 */
export class PagePromise<Item> extends APIPromise<Page<Item>> implements AsyncIterable<Item> {
  /** Walks every item across pages. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    yield* await this;
  }

  /** Walks the pages, starting with the first. */
  async *iterPages(): AsyncGenerator<Page<Item>, void, undefined> {
    yield* (await this).iterPages();
  }

  /** Collects items across pages into an array, stopping at `limit` (default 1000; `Infinity` for all). */
  async toArray(options: { limit?: number | undefined } = {}): Promise<Item[]> {
    return collect(await this, options.limit);
  }
}

/** Longest `nextCursor` a walk sends back (a real one is far shorter). @internal */
export const MAX_CURSOR_LENGTH = 8192;

function stop(what: string): never {
  throw new ForecastingError(`Stopped paging: the service answered ${what}, so following it would never end.`);
}

async function collect<Item>(items: AsyncIterable<Item>, limit = 1000): Promise<Item[]> {
  if (!(limit >= 0) || (limit !== Infinity && !Number.isInteger(limit))) {
    throw new ValidationError(`must be a whole number >= 0 (or Infinity), got ${String(limit)}`, 'limit');
  }
  const out: Item[] = [];
  if (limit === 0) return out;
  for await (const item of items) {
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}
