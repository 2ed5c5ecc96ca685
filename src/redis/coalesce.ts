/**
 * A read of Redis that hints on the channel ask for: at most one in flight and one a second, the
 * hints meanwhile sharing the next. Anyone on the prefix can publish, so a flood of hints (forged or
 * not) costs one read a second per process, never one per message.
 * @module
 */

/** Real ms between two reads. */
export const COALESCE_MS = 1_000;

/** @internal */
export class CoalescedRead {
  #running = false;
  #again = false;
  #lastAt = -Infinity;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly read: () => Promise<void>) {}

  /** Reads now, or once the last read is {@link COALESCE_MS} old (hints meanwhile share that read). */
  trigger(): void {
    if (this.#running || this.#timer !== undefined) {
      this.#again = true;
      return;
    }
    const wait = this.#lastAt + COALESCE_MS - Date.now();
    if (wait > 0) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.trigger();
      }, wait);
      this.#timer.unref?.();
      return;
    }
    this.#running = true;
    this.#again = false;
    this.#lastAt = Date.now();
    void this.read()
      .catch(() => undefined)
      .finally(() => {
        this.#running = false;
        if (this.#again) this.trigger();
      });
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#again = false;
  }
}
