/**
 * Redis's record of webhook receivers, read by a process that hears a receiver's claim on the
 * channel: a claim is a hint, the record is the truth (anyone on the prefix can publish).
 * @module
 */
import type { ClientClock } from '../core/clock.js';
import { CoalescedRead } from './coalesce.js';
import { integerReply, type RedisLink } from './link.js';
import { RECEIVER_AGE } from './scripts.js';
import { fleetNowArg } from './time.js';

/** @internal */
export class ReceiverRecord {
  readonly #read: CoalescedRead;

  constructor(
    private readonly link: RedisLink,
    private readonly key: () => string,
    private readonly clock: () => ClientClock,
    /** Told when, on the client's clock, a receiver last published as the record says. */
    private readonly saw: (at: number) => void,
    /** The receivers' time to live: a record further ahead of now than this is not believed. */
    private readonly ttlMs: number,
  ) {
    this.#read = new CoalescedRead(() => this.#age());
  }

  /** Reads the record now, or once the last read is a second old (claims meanwhile share that read). */
  check(): void {
    this.#read.trigger();
  }

  close(): void {
    this.#read.close();
  }

  async #age(): Promise<void> {
    const age = await this.link.either(
      async () => integerReply(await this.link.eval(RECEIVER_AGE, [this.key()], [fleetNowArg(this.clock()), this.ttlMs]), 'RECEIVER_AGE', -1),
      () => -1,
    );
    if (age >= 0) this.saw(this.clock().now() - age);
  }
}
