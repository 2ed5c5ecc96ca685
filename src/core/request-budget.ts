/**
 * The opt-in client-side request budget (`rateLimit: { requestsPerMinute }`): every attempt of every
 * call of one client takes a slot, so the client never sends more than the budget in any minute and
 * never meets the service's 429 for it.
 * @module
 */
import { whenAborted } from './abort.js';
import { serviceMinuteMs, type ClientClock } from './clock.js';

/** Slack for network jitter: a request may arrive a little later than it left. */
const MARGIN_MS = 250;

/** A caller waiting for a slot. */
interface Waiter {
  resolve: () => void;
  /** Stops listening for the caller's abort. */
  stop: () => void;
}

/**
 * A sliding one-minute window of request start times, the same rule the service counts by (a start
 * leaves the window a minute and a margin after it). Callers that find it full wait in line, first
 * come, first served; one sleep on the clock, until the oldest start leaves, serves the whole line.
 * A caller aborted while it waits leaves the line at once and takes no slot.
 * @internal
 */
export class RequestBudget {
  /** Start times of the requests in the window, ascending; never more than `perMinute`. */
  readonly #starts: number[] = [];
  readonly #line: Waiter[] = [];
  /** A minute of the service's time on the clock. */
  readonly #windowMs: number;
  /** Ends the sleep until the next slot, while one runs. */
  #sleep: AbortController | undefined;

  constructor(
    readonly perMinute: number,
    private readonly clock: ClientClock,
  ) {
    this.#windowMs = serviceMinuteMs(clock);
  }

  /** Resolves when a request may start (its slot taken); rejects with the signal's reason on abort. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // A shortcut only: #serve would grant an empty line's first caller at once too.
    // Stryker disable next-line ConditionalExpression,BlockStatement: see above
    if (this.#line.length === 0 && this.#room()) {
      this.#starts.push(this.clock.now());
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        // A signal-like object of another make may call a listener it was asked to remove.
        const at = this.#line.indexOf(waiter);
        if (at < 0) return;
        this.#line.splice(at, 1);
        if (this.#line.length === 0) this.#endSleep();
        reject(signal!.reason);
      };
      const waiter: Waiter = { resolve, stop: signal ? whenAborted(signal, onAbort) : () => undefined };
      this.#line.push(waiter);
      this.#serve();
    });
  }

  /** How many requests started within the window (a minute and the margin). */
  get inWindow(): number {
    this.#room();
    return this.#starts.length;
  }

  /** Whether a request may start now; first lets go of the starts that left the window. */
  #room(): boolean {
    const left = this.clock.now() - this.#windowMs - MARGIN_MS;
    while (this.#starts.length > 0 && this.#starts[0]! <= left) this.#starts.shift();
    return this.#starts.length < this.perMinute;
  }

  /** Gives slots to the line while there is room, then sleeps until the oldest start leaves. */
  #serve(): void {
    if (this.#sleep) return;
    while (this.#line.length > 0) {
      if (!this.#room()) {
        const sleep = (this.#sleep = new AbortController());
        this.clock.sleep(this.#starts[0]! + this.#windowMs + MARGIN_MS - this.clock.now(), sleep.signal).then(
          () => {
            // Ended by #endSleep after it was due: the line was empty, nothing to do.
            // Stryker disable next-line ConditionalExpression: see above
            if (this.#sleep !== sleep) return;
            this.#sleep = undefined;
            // The start waited for has left, whatever the clock reads now (a test clock may not move);
            // nothing else changes the starts while the line sleeps.
            this.#starts.shift();
            this.#serve();
          },
          // Ended by #endSleep: nobody waits any more.
          () => undefined,
        );
        return;
      }
      const waiter = this.#line.shift()!;
      waiter.stop();
      this.#starts.push(this.clock.now());
      waiter.resolve();
    }
  }

  /** Ends the sleep: the line is empty (a timer left running would hold a process open for a minute). */
  #endSleep(): void {
    const sleep = this.#sleep;
    this.#sleep = undefined;
    // Stryker disable next-line OptionalChaining: a non-empty line always has its sleep; the check narrows the type
    sleep?.abort();
  }
}
