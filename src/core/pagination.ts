/**
 * One iterator for both paging styles: cursor (`nextCursor` + `hasMore`) and offset (`limit` + `offset`).
 * Only one page is held at a time, so memory stays flat over any number of items.
 * @module
 */
import { APIPromise, type WithResponse } from './api-promise.js';
import type { Paging } from './operation.js';

/** Query parameters a page may carry. */
export type PageParams = Record<string, unknown>;

/** Fetches the page for the given params. @internal */
export type PageFetcher<Item> = (params: PageParams) => Promise<WithResponse<Page<Item>>>;

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

  /** @internal */
  constructor(envelope: ListEnvelope<Item>, paging: Paging, params: PageParams, fetchPage: PageFetcher<Item>) {
    this.data = envelope.data;
    this.hasMore = envelope.hasMore;
    this.nextCursor = envelope.nextCursor ?? null;
    this.#paging = paging;
    this.#params = params;
    this.#fetch = fetchPage;
  }

  /** Whether {@link getNextPage} has a page to fetch. */
  hasNextPage(): boolean {
    if (!this.hasMore) return false;
    return this.#paging === 'offset' ? this.data.length > 0 : Boolean(this.nextCursor);
  }

  /** Fetches the next page. Throws when there is none; check {@link hasNextPage} first. */
  async getNextPage(): Promise<Page<Item>> {
    const params = this.nextPageParams();
    if (!params) throw new Error('No next page: check hasNextPage() first.');
    return (await this.#fetch(params)).data;
  }

  /** Query of the next page, or `null` when this is the last one. @internal */
  nextPageParams(): PageParams | null {
    if (!this.hasNextPage()) return null;
    if (this.#paging === 'offset') {
      const offset = Number(this.#params['offset'] ?? 0) + this.data.length;
      return { ...this.#params, offset };
    }
    return { ...this.#params, cursor: this.nextCursor };
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
   * Collects items from this page on into an array, stopping at `limit` (default 1000) so a long list
   * cannot exhaust memory.
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

  /** Collects items across pages into an array, stopping at `limit` (default 1000). */
  async toArray(options: { limit?: number } = {}): Promise<Item[]> {
    return collect(await this, options.limit);
  }
}

async function collect<Item>(items: AsyncIterable<Item>, limit = 1000): Promise<Item[]> {
  const out: Item[] = [];
  if (limit <= 0) return out;
  for await (const item of items) {
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}
