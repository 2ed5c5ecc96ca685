/**
 * What the mock's models work on: the world (store, clock, events) and, for a call, who makes it.
 * Models take these, never a handler's context, so they sit below the handlers and the controls.
 * @module
 */
import type { Principal } from './auth.js';
import type { MockClock } from './clock.js';
import type { MockEventBus } from './events.js';
import type { MockStore } from './store.js';

/** The mock's world: what every model, control and the webhook engine reads and changes. */
export interface MockEnv {
  store: MockStore;
  clock: MockClock;
  /** Forecast events: emit here, the webhook engine and the decisions listen. */
  events: MockEventBus;
}

/** The world as one call sees it: who calls, the time as the spec writes it, the caller's limits. */
export interface CallEnv extends MockEnv {
  /** Who is calling. */
  principal: Principal;
  /** `clock.now()` as the spec's timestamp: ISO 8601 UTC with milliseconds. */
  timestamp(): string;
  /**
   * Counts a call against a named per-key limit; throws 429 `rate_limit_error` with `Retry-After`
   * when over `perMinute`.
   */
  limit(name: string, perMinute: number): void;
}
