/**
 * Whether the key's webhooks are subscribed to every event kind a wait needs to trust them. A wait
 * woken by webhook events reads a task nothing was told of only at the slow safety cadence; that is
 * safe only when every outcome sends an event a receiver gets. With `forecast.completed` alone (the
 * service's default), a failed or cancelled task sends none, and its wait would sit at the safety
 * cadence: the tracker then polls at the service's `Retry-After` instead.
 * @module
 */
import type { ClientClock } from './clock.js';

/** How long a read of the webhooks holds, on the client's clock: a change of subscriptions is seen within it. */
export const COVERAGE_TTL_MS = 10 * 60_000;
/** After a failed read, the next is tried this much sooner than the TTL (meanwhile: not covered). */
const RETRY_AFTER_FAILURE_MS = 60_000;

/** @internal */
export class WebhookCoverage {
  #covered: boolean | undefined;
  #readAt = -Infinity;
  #reading: Promise<boolean> | undefined;

  /**
   * @param read - the event kinds of each enabled webhook of the key (the resource applies the service's default)
   * @param required - the kinds every outcome of a task sends one of
   */
  constructor(
    private readonly read: () => Promise<ReadonlyArray<readonly string[]>>,
    private readonly required: readonly string[],
    private readonly clock: () => Pick<ClientClock, 'now'>,
  ) {}

  /**
   * Whether the enabled webhooks together subscribe to every required kind. The first call reads
   * them (one request); later calls answer from the last read and refresh it in the background once
   * it is {@link COVERAGE_TTL_MS} old. A read that fails counts as not covered (polling is the safe side).
   */
  async covers(): Promise<boolean> {
    const now = this.clock().now();
    // A clock stepped back (a wall clock set by hand) reads again rather than trust the old read that long.
    if (now < this.#readAt || now - this.#readAt >= COVERAGE_TTL_MS) this.#refresh();
    return this.#covered ?? (await this.#reading) ?? false;
  }

  #refresh(): void {
    if (this.#reading) return;
    const started = this.clock().now();
    this.#reading = this.read()
      .then(
        (hooks) => {
          const kinds = new Set(hooks.flat());
          this.#covered = this.required.every((kind) => kinds.has(kind));
          this.#readAt = started;
          return this.#covered;
        },
        () => {
          this.#covered = false;
          this.#readAt = started - COVERAGE_TTL_MS + RETRY_AFTER_FAILURE_MS;
          return false;
        },
      )
      .finally(() => (this.#reading = undefined));
  }
}
