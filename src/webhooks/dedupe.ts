/**
 * A small in-memory de-duplicator for webhook deliveries.
 * @module
 */
import { shown } from './verify.js';

/**
 * Options of {@link createDeliveryDeduper}.
 *
 * @example
 * ```ts
 * createDeliveryDeduper({ maxEntries: 50_000, ttlMs: 6 * 60 * 60 * 1000 });
 * ```
 */
export interface DeliveryDeduperOptions {
  /** Most ids remembered, a number >= 1 (`Infinity`: no cap); the oldest are forgotten first. Default 10,000. */
  maxEntries?: number | undefined;
  /** How long an id is remembered, in milliseconds, a number > 0 (`Infinity`: until the cap forgets it). Default 24 hours (retries span about 3 hours; replays come later). */
  ttlMs?: number | undefined;
  /** The clock, in milliseconds, for tests: a function. Default `Date.now`. */
  now?: (() => number) | undefined;
}

/**
 * Remembers delivery ids for {@link createDeliveryDeduper}.
 *
 * @example
 * ```ts
 * if (deduper.seen(deliveryId)) return; // already handled
 * ```
 */
export interface DeliveryDeduper {
  /** `true` when `deliveryId` was seen (and not forgotten or expired); otherwise records it and returns `false`. */
  seen(deliveryId: string): boolean;
  /** Forgets `deliveryId`, so that a retry of a delivery whose handling failed is processed again. */
  forget(deliveryId: string): void;
}

/**
 * Creates a bounded, in-memory record of `X-Service-Delivery-Id`s. Calls can arrive more than once
 * and out of order; the delivery id (kept across retries and replays) identifies duplicates. It lives
 * in one process: with several instances, use a unique key in your database instead. An option
 * that is none of the above (`maxEntries: NaN` or `0`, a `ttlMs` in text) throws a `TypeError` naming
 * it: such a record would keep every id for good, or none.
 *
 * @example
 * ```ts
 * const deduper = createDeliveryDeduper();
 * const deliveryId = request.headers.get(DELIVERY_ID_HEADER) ?? '';
 * if (deduper.seen(deliveryId)) return new Response(null, { status: 200 }); // duplicate: acknowledge, skip
 * try { await handle(event); } catch (err) { deduper.forget(deliveryId); throw err; }
 * ```
 */
export function createDeliveryDeduper(options: DeliveryDeduperOptions = {}): DeliveryDeduper {
  const { maxEntries = 10_000, ttlMs = 24 * 60 * 60 * 1000, now = Date.now } = options ?? {};
  if (!(typeof maxEntries == 'number' && maxEntries >= 1 && typeof ttlMs == 'number' && ttlMs > 0 && typeof now == 'function')) {
    throw new TypeError(`createDeliveryDeduper: \`maxEntries\` must be a number >= 1, \`ttlMs\` a number > 0 and \`now\` a function, got ${shown(maxEntries)}, ${shown(ttlMs)} and ${shown(now)}.`);
  }
  // Insertion order is expiry order (one ttl for all), so expired ids sit at the front.
  const expiries = new Map<string, number>();
  return {
    seen(deliveryId) {
      const t = now();
      // Stryker disable next-line BlockStatement: dropping expired ids only frees memory: an expired id reads as unseen below, and the oldest (expired first) go first when full
      for (const [id, expiresAt] of expiries) {
        // Stryker disable next-line ConditionalExpression,EqualityOperator: as above
        if (expiresAt > t) break;
        expiries.delete(id);
      }
      const expiresAt = expiries.get(deliveryId);
      // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: `undefined > t` is false as well, and the sweep above already dropped every id with expiresAt <= t
      if (expiresAt !== undefined && expiresAt > t) return true;
      expiries.delete(deliveryId); // re-inserted at the end, keeping the order
      expiries.set(deliveryId, t + ttlMs);
      if (expiries.size > maxEntries) expiries.delete(expiries.keys().next().value as string);
      return false;
    },
    forget(deliveryId) {
      expiries.delete(deliveryId);
    },
  };
}
