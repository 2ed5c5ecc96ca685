/**
 * The list envelope and the two paging styles, shared by every list handler.
 * @module
 */
import {
  DEFAULT_OFFSET_PAGE_SIZE,
  DEFAULT_PAGE_SIZE,
} from '../api/limits.js';
import { badRequest } from './http.js';
import { fromBase64Url, toBase64Url } from './base64url.js';

/** The spec's list envelope. */
export interface ListEnvelope<T> {
  type: 'list';
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** Paging fields of a validated query (their ranges were checked by the operation's schema). */
export interface CursorQuery {
  limit?: number | undefined;
  cursor?: string | undefined;
}

export interface OffsetQuery {
  limit?: number | undefined;
  offset?: number | undefined;
}

// The cursor is opaque to clients; inside it is the key of the last item of the previous page.
const encodeCursor = (key: string) => toBase64Url(new TextEncoder().encode(JSON.stringify({ after: key })));

function decodeCursor(cursor: string): string {
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(fromBase64Url(cursor)));
    if (parsed && typeof parsed === 'object' && 'after' in parsed && typeof parsed.after === 'string') {
      return parsed.after;
    }
  } catch {
    // fall through to the error below
  }
  throw badRequest('is not a cursor this list returned', 'cursor');
}

/**
 * One page of `items` (already in list order) after the cursor. `keyOf` gives each item a stable key;
 * a page starts after the item the cursor names, so items added meanwhile never shift a page.
 *
 * @example
 * ```ts
 * return cursorPage(records.map((r) => r.question), query, (q) => q.id);
 * ```
 */
export function cursorPage<T>(items: readonly T[], query: CursorQuery, keyOf: (item: T) => string): ListEnvelope<T> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  let start = 0;
  if (query.cursor !== undefined) {
    const after = decodeCursor(query.cursor);
    const index = items.findIndex((item) => keyOf(item) === after);
    if (index < 0) throw badRequest('names an item that is no longer in this list', 'cursor');
    start = index + 1;
  }
  const data = items.slice(start, start + limit);
  const hasMore = start + limit < items.length;
  const last = data[data.length - 1];
  return { type: 'list', data, hasMore, nextCursor: hasMore && last !== undefined ? encodeCursor(keyOf(last)) : null };
}

/**
 * One page of `items` by `limit` and `offset` (`/questions/browse`, `/decisions`).
 *
 * @example
 * ```ts
 * return offsetPage(questions, query);
 * ```
 */
export function offsetPage<T>(items: readonly T[], query: OffsetQuery): ListEnvelope<T> {
  const limit = query.limit ?? DEFAULT_OFFSET_PAGE_SIZE;
  const offset = query.offset ?? 0;
  const data = items.slice(offset, offset + limit);
  return { type: 'list', data, hasMore: offset + limit < items.length, nextCursor: null };
}
