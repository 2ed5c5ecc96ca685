/**
 * The mock's own record of API-started forecasts per user: how many ran at once at most (and when),
 * how many started, and how many starts it refused, by reason. What a test reads to prove a client
 * kept inside the 50-active limit and never met a refusal it should have avoided.
 * @module
 */
import { collectionKey, type MockStore } from '../../store.js';

/**
 * One user's record of API-started forecasts (`id` is the user id), kept by the mock as it starts
 * and refuses them. Read it with `service.forecastControls.activity()`.
 * @example
 * ```ts
 * const { maxActive, refused } = service.forecastControls.activity();
 * expect(maxActive).toBeLessThanOrEqual(50);
 * expect(refused['too_many_active_forecasts'] ?? 0).toBe(0);
 * ```
 */
export interface ForecastActivityRecord {
  id: string;
  /** Forecasts started through the API (single, batch item or on a question). */
  started: number;
  /** The most API-started forecasts that were running at once, counted at each start. */
  maxActive: number;
  /** Mock-clock time (ms) the high-water mark was first reached, or `null` before any start. */
  maxActiveAt: number | null;
  /**
   * Starts refused, by reason: the error type (`too_many_active_forecasts`, `forecast_already_running`,
   * `context_not_ready`, …), or `insufficient_credits` for a balance too low (answered as a 409
   * `invalid_request_error`).
   */
  refused: Record<string, number>;
}
/**
 * The activity records, by user id: what `service.forecastControls.activity()` reads.
 * @example
 * ```ts
 * const record = service.store.collection(FORECAST_ACTIVITY).get('u_1');
 * console.log(record?.maxActive, record?.refused['too_many_active_forecasts'] ?? 0);
 * ```
 */
export const FORECAST_ACTIVITY = collectionKey<ForecastActivityRecord>('forecastActivity');

/** The user's record, created empty on first use. @internal */
export function activityOf(store: MockStore, userId: string): ForecastActivityRecord {
  const records = store.collection(FORECAST_ACTIVITY);
  return records.get(userId) ?? records.insert({ id: userId, started: 0, maxActive: 0, maxActiveAt: null, refused: {} });
}

/** Counts a start, with the number now running (the new one included). @internal */
export function recordStart(store: MockStore, userId: string, running: number, at: number): void {
  const record = activityOf(store, userId);
  record.started++;
  if (running > record.maxActive) {
    record.maxActive = running;
    record.maxActiveAt = at;
  }
}

/** Counts a refused start. @internal */
export function recordRefusal(store: MockStore, userId: string, reason: string): void {
  const record = activityOf(store, userId);
  record.refused[reason] = (record.refused[reason] ?? 0) + 1;
}
