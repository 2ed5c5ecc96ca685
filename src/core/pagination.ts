/**
 * One iterator for both paging styles: cursor (`nextCursor` + `hasMore`) and offset (`limit` + `offset`).
 * Only one page is held at a time, so memory stays flat over any number of items. A server that
 * would make the walk loop forever (a cursor given twice, `hasMore` with no way on, page after empty
 * page) stops it with a {@link ForecastingError} that says why.
 * @module
 */
import { APIPromise } from './api-promise.js';
import { ForecastingError, ValidationError } from './errors.js';
import type { Paging } from './operation.js';

/** Query parameters a page may carry. */
export type PageParams = Record<string, unknown>;

/** Fetches the page for the given params. @internal */
export type PageFetcher<Item> = (params: PageParams, walk: PageWalk) => PromiseLike<Page<Item>>;

/**
 * Empty pages in a row, each with `hasMore: true` and a new cursor, after which a walk stops: a
 * service that pages correctly does not answer this many empty pages in a row.
 * @example
 * ```ts
 * // A server answering empty pages with hasMore: true stops a walk after this many, with a ForecastingError.
 * console.log(MAX_EMPTY_PAGES_IN_A_ROW); // 10
 * ```
 */
export const MAX_EMPTY_PAGES_IN_A_ROW = 10;

/** What a walk through the pages of one list call remembers, to notice a loop. @internal */
export class PageWalk {
  /** Cursors already followed. */
  readonly cursors = new Set<string>();
  /** Empty pages in a row so far. */
  emptyInARow = 0;
  /** The ends (first and last item) of the last offset page, to catch a service that ignores `offset`. */
  lastOffsetPageEnds: string | undefined = undefined;
}

/** The first and last item of a page as text: two pages at different offsets never share both. */
const pageEnds = (data: readonly unknown[]): string => JSON.stringify([data[0], data[data.length - 1]]);

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
   * {@link MAX_EMPTY_PAGES_IN_A_ROW} empty pages in a row.
   */
  async getNextPage(): Promise<Page<Item>> {
    const params = this.nextPageParams();
    if (!params) throw new ForecastingError('No next page: check hasNextPage() first.');
    return this.#fetch(params, this.#walk);
  }

  /** Query of the next page, or `null` when this is the last one; throws where following would loop. @internal */
  nextPageParams(): PageParams | null {
    if (!this.hasMore) return null;
    const walk = this.#walk;
    walk.emptyInARow = this.data.length === 0 ? walk.emptyInARow + 1 : 0;
    if (this.#paging === 'offset') {
      if (this.data.length === 0) stop('an empty page with hasMore: true (the next offset would ask for the same page again)');
      const ends = pageEnds(this.data);
      if (ends === walk.lastOffsetPageEnds) stop('the same page again at the next offset (the service ignores offset)');
      walk.lastOffsetPageEnds = ends;
      const offset = Number(this.#params['offset'] ?? 0) + this.data.length;
      return { ...this.#params, offset };
    }
    const cursor = this.nextCursor;
    if (cursor === null) stop('hasMore: true without a nextCursor');
    if (walk.cursors.has(cursor)) stop(`the cursor ${JSON.stringify(cursor.slice(0, 64))} a second time`);
    if (walk.emptyInARow >= MAX_EMPTY_PAGES_IN_A_ROW) stop(`${walk.emptyInARow} empty pages in a row, each with hasMore: true`);
    walk.cursors.add(cursor);
    return { ...this.#params, cursor };
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
  async toArray(options: { limit?: number } = {}): Promise<Item[]> {
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
  async toArray(options: { limit?: number } = {}): Promise<Item[]> {
    return collect(await this, options.limit);
  }
}

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
