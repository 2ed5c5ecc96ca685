/**
 * Time for the mock service: every timestamp, rate-limit window and scheduled transition comes from
 * a {@link MockClock} (the wall clock is read only where a real party checks it: webhook signatures,
 * injected network delays, answer limits). Tests use a {@link ManualClock} and move it by hand;
 * `startMockServer` runs a {@link ScaledClock}, real time made faster.
 * @module
 */
import { realClearTimeout, realNow, realSetTimeout } from './real-timers.js';

/**
 * A callback waiting on the clock; `cancel()` removes it if it has not run yet.
 * @example
 * ```ts
 * const wake: ScheduledCallback = clock.schedule(clock.now() + 60_000, () => console.log('a minute later'));
 * wake.cancel();
 * ```
 */
export interface ScheduledCallback {
  /** Clock time (ms since the epoch) at which it runs. */
  readonly at: number;
  /** Removes the callback; harmless after it ran. */
  cancel(): void;
}

/**
 * The clock the mock service runs on.
 *
 * @example
 * ```ts
 * const clock = new ManualClock();
 * clock.schedule(clock.now() + 60_000, () => console.log('a minute later'));
 * clock.advance(60_000); // logs
 * ```
 */
export interface MockClock {
  /** Current time in ms since the epoch. */
  now(): number;
  /** Moves the clock forward by `ms`, running every callback that falls due, in time order. */
  advance(ms: number): void;
  /** Moves the clock to `ms`; callbacks due by then run. Moving backwards runs nothing. */
  set(ms: number): void;
  /**
   * Runs `callback` once the clock reaches `atMs` (on the next move if already past). During the
   * callback a {@link ManualClock} reads exactly `atMs`; a {@link ScaledClock} reads the actual time,
   * at or after it.
   */
  schedule(atMs: number, callback: () => void): ScheduledCallback;
  /**
   * A wait of `mockMs` on this clock as the mock states it to clients (`Retry-After`): whole real
   * seconds, rounded up, at least 1. Clients sleep real time, so a clock running faster divides by
   * its speed; a {@link ManualClock} counts 1:1.
   */
  realSeconds(mockMs: number): number;
}

/** Whole seconds of `ms`, rounded up, never below 1 (`Retry-After` has no fractions, and 0 means "now"). */
const wholeSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

interface Entry {
  at: number;
  seq: number;
  callback: () => void;
  cancelled: boolean;
}

/**
 * The queue both clocks share: callbacks ordered by time, then by the order they were scheduled.
 * @internal
 */
class Scheduler {
  private queue: Entry[] = [];
  private seq = 0;

  add(at: number, callback: () => void): Entry {
    const entry: Entry = { at, seq: this.seq++, callback, cancelled: false };
    // Binary search keeps the queue sorted; equal times keep scheduling order.
    let lo = 0;
    let hi = this.queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.queue[mid]!.at <= at) lo = mid + 1;
      else hi = mid;
    }
    this.queue.splice(lo, 0, entry);
    return entry;
  }

  remove(entry: Entry): void {
    entry.cancelled = true;
    const i = this.queue.indexOf(entry);
    if (i >= 0) this.queue.splice(i, 1);
  }

  /** Time of the earliest waiting callback. */
  nextAt(): number | undefined {
    return this.queue[0]?.at;
  }

  get size(): number {
    return this.queue.length;
  }

  /**
   * Runs callbacks due by `until` in order, including ones scheduled while running. `enter(at)` is
   * called before each so the clock reads the callback's own time. One callback throwing does not
   * stop the others; the errors are thrown together at the end.
   */
  runDue(until: () => number, enter: (at: number) => void): void {
    const errors: unknown[] = [];
    for (let next = this.queue[0]; next && next.at <= until(); next = this.queue[0]) {
      this.queue.shift();
      enter(next.at);
      try {
        next.callback();
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} scheduled callbacks failed`);
  }
}

/**
 * 2025-01-01T00:00:00.000Z: a fixed start, so timestamps in tests are reproducible.
 * @example
 * ```ts
 * const clock = new ManualClock();
 * clock.now() === DEFAULT_START_MS; // true: 2025-01-01T00:00:00.000Z
 * ```
 */
export const DEFAULT_START_MS = Date.UTC(2025, 0, 1);

/**
 * A clock that moves only when told to. Callbacks run inside {@link ManualClock.advance} and
 * {@link ManualClock.set}, in time order; while one runs, `now()` reads its scheduled time.
 *
 * @example
 * ```ts
 * const clock = new ManualClock(Date.UTC(2030, 0, 1));
 * const service = createMockService({ clock });
 * clock.advance(90 * 60_000); // 1.5 hours pass at once
 * ```
 */
export class ManualClock implements MockClock {
  private time: number;
  private readonly scheduler = new Scheduler();

  /** @param startMs - initial time in ms since the epoch (default 2025-01-01T00:00:00.000Z) */
  constructor(startMs: number = DEFAULT_START_MS) {
    this.time = startMs;
  }

  now(): number {
    return this.time;
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`advance takes a non-negative number of ms, got ${ms}`);
    this.set(this.time + ms);
  }

  set(ms: number): void {
    if (!Number.isFinite(ms)) throw new RangeError(`set takes a finite time in ms, got ${ms}`);
    if (ms < this.time) {
      this.time = ms;
      return;
    }
    try {
      this.scheduler.runDue(
        () => ms,
        (at) => {
          this.time = Math.max(this.time, at);
        },
      );
    } finally {
      this.time = Math.max(this.time, ms);
    }
  }

  schedule(atMs: number, callback: () => void): ScheduledCallback {
    const entry = this.scheduler.add(atMs, callback);
    return { at: atMs, cancel: () => this.scheduler.remove(entry) };
  }

  realSeconds(mockMs: number): number {
    return wholeSeconds(mockMs);
  }

  /** How many callbacks are waiting. */
  get pending(): number {
    return this.scheduler.size;
  }
}

/**
 * Options of {@link ScaledClock}.
 * @example
 * ```ts
 * const clock = new ScaledClock({ timeScale: 3600, startMs: Date.UTC(2030, 0, 1) }); // an hour a second
 * ```
 */
export interface ScaledClockOptions {
  /** How many clock ms pass per real ms; `600` makes 1.5 hours pass in 9 seconds. */
  timeScale: number;
  /** Clock time at creation, in ms since the epoch (default: the real time at creation). */
  startMs?: number | undefined;
  /** The real time source, in ms (default `Date.now` as the SDK loaded, which a test's fake timers leave alone); injectable for tests. */
  source?: (() => number) | undefined;
  /**
   * Told of a scheduled callback that threw while the clock's real timer ran it, where no caller
   * can catch it (default: `console.error`); the clock runs on. From `advance`, `set` and `resume`
   * the error is thrown to their caller instead.
   */
  onError?: ((error: unknown) => void) | undefined;
}

/**
 * A clock that follows real time, sped up by `timeScale`. Scheduled callbacks run on a real timer
 * when due. The timer is unref'd, so a pending callback never keeps the process alive. Its time and
 * timer are the real ones as the SDK loaded: a test's fake timers (`vi.useFakeTimers()`) neither
 * stop nor move it.
 *
 * @example
 * ```ts
 * const clock = new ScaledClock({ timeScale: 600 }); // 1.5 hours in 9 seconds
 * const server = await startMockServer({ clock });
 * ```
 */
export class ScaledClock implements MockClock {
  readonly timeScale: number;
  private readonly source: () => number;
  private readonly onError: (error: unknown) => void;
  private readonly realStart: number;
  private readonly start: number;
  private offset = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private readonly scheduler = new Scheduler();

  constructor(options: ScaledClockOptions) {
    if (!(options.timeScale > 0)) throw new RangeError(`timeScale must be positive, got ${options.timeScale}`);
    this.timeScale = options.timeScale;
    this.source = options.source ?? realNow;
    this.onError = options.onError ?? ((error) => console.error('forecasting-sdk/testing: a callback scheduled on the mock clock failed:', error));
    this.realStart = this.source();
    this.start = options.startMs ?? this.realStart;
  }

  now(): number {
    return this.start + (this.source() - this.realStart) * this.timeScale + this.offset;
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`advance takes a non-negative number of ms, got ${ms}`);
    this.offset += ms;
    this.runDue();
  }

  set(ms: number): void {
    if (!Number.isFinite(ms)) throw new RangeError(`set takes a finite time in ms, got ${ms}`);
    this.offset += ms - this.now();
    this.runDue();
  }

  schedule(atMs: number, callback: () => void): ScheduledCallback {
    const entry = this.scheduler.add(atMs, callback);
    this.arm();
    return {
      at: atMs,
      cancel: () => {
        this.scheduler.remove(entry);
        this.arm();
      },
    };
  }

  realSeconds(mockMs: number): number {
    return wholeSeconds(mockMs / this.timeScale);
  }

  /**
   * Stops the real timer until `resume()` (`startMockServer`'s `close()` stops the clock it made, and
   * serving its service again resumes it): what is scheduled meanwhile, a webhook retry included,
   * waits too. Waiting callbacks stay queued and run on the next `advance`/`set`.
   */
  stop(): void {
    this.stopped = true;
    this.disarm();
  }

  /** Runs the real timer again after `stop()`: what fell due meanwhile runs at once. */
  resume(): void {
    this.stopped = false;
    this.runDue();
  }

  private disarm(): void {
    if (this.timer !== undefined) realClearTimeout(this.timer);
    this.timer = undefined;
  }

  private runDue(): void {
    try {
      this.scheduler.runDue(() => this.now(), () => undefined);
    } finally {
      this.arm();
    }
  }

  /** Sets one real timer for the earliest callback. */
  private arm(): void {
    this.disarm();
    const next = this.scheduler.nextAt();
    if (next === undefined || this.stopped) return;
    const realDelay = Math.max(0, Math.ceil((next - this.now()) / this.timeScale));
    this.timer = realSetTimeout(() => {
      this.timer = undefined;
      // Thrown here, it would be an uncaught exception that ends the process serving the mock.
      try {
        this.runDue();
      } catch (error) {
        this.onError(error);
      }
    }, realDelay);
    this.timer.unref?.();
  }
}
