/**
 * Redis's record of webhook receivers, read by a process that hears a receiver's claim on the
 * channel: a claim is a hint, the record is the truth (anyone on the prefix can publish).
 * @module
 */
import type { ClientClock } from '../core/clock.js';
import { integerReply, type RedisLink } from './link.js';
import { RECEIVER_AGE } from './scripts.js';
import { fleetNowArg } from './time.js';

/** Real ms between two reads of the record: a flood of claims (forged or not) costs one read a second at most. */
export const RECEIVER_CHECK_MS = 1_000;

/** @internal */
export class ReceiverRecord {
  #running = false;
  #again = false;
  #lastAt = -Infinity;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly link: RedisLink,
    private readonly key: () => string,
    private readonly clock: () => ClientClock,
    /** Told when, on the client's clock, a receiver last published as the record says. */
    private readonly saw: (at: number) => void,
  ) {}

  /** Reads the record now, or once the last read is {@link RECEIVER_CHECK_MS} old (claims meanwhile share that read). */
  check(): void {
    if (this.#running || this.#timer !== undefined) {
      this.#again = true;
      return;
    }
    const wait = this.#lastAt + RECEIVER_CHECK_MS - Date.now();
    if (wait > 0) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.check();
      }, wait);
      this.#timer.unref?.();
      return;
    }
    this.#running = true;
    this.#again = false;
    this.#lastAt = Date.now();
    void this.#read().finally(() => {
      this.#running = false;
      if (this.#again) this.check();
    });
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#again = false;
  }

  async #read(): Promise<void> {
    const age = await this.link.either(
      async () => integerReply(await this.link.eval(RECEIVER_AGE, [this.key()], [fleetNowArg(this.clock())]), 'RECEIVER_AGE', -1),
      () => -1,
    );
    if (age >= 0) this.saw(this.clock().now() - age);
  }
}
