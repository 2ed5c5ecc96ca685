/**
 * Sliding one-minute windows counted on the mock clock, one per (limit name, key).
 * @module
 */
import type { MockClock } from './clock.js';
import { rateLimited } from './http.js';

const WINDOW_MS = 60_000;

/**
 * The general request limit, or `false` for none.
 * @example
 * ```ts
 * createMockService({ rateLimit: { requestsPerMinute: 60 } }); // the spec's default for a key
 * ```
 */
export type RateLimitSetting = { requestsPerMinute: number } | false;

/**
 * Counts calls per key in the last minute of clock time.
 *
 * @example
 * ```ts
 * const limits = new RateLimiter(clock);
 * limits.hit('drafting', key, 20); // throws a 429 on the 21st call within a minute
 * ```
 */
export class RateLimiter {
  private readonly windows = new Map<string, number[]>();

  constructor(private readonly clock: MockClock) {}

  /**
   * Counts one call of `name` for `key`; over `perMinute`, throws 429 `rate_limit_error` with
   * `Retry-After` set to the real seconds until the oldest counted call leaves the window. A refused
   * call is not counted.
   */
  hit(name: string, key: string, perMinute: number): void {
    const now = this.clock.now();
    const id = `${name}\u0000${key}`;
    const calls = (this.windows.get(id) ?? []).filter((t) => t > now - WINDOW_MS && t <= now);
    if (calls.length >= perMinute) {
      this.windows.set(id, calls);
      const oldest = calls[0] ?? now;
      const retryAfter = this.clock.realSeconds(oldest + WINDOW_MS - now);
      throw rateLimited(`Rate limit of ${perMinute} ${name} per minute exceeded; retry after ${retryAfter} s`, retryAfter);
    }
    calls.push(now);
    this.windows.set(id, calls);
  }

  /** Forgets every count. */
  reset(): void {
    this.windows.clear();
  }
}
