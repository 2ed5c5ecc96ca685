/**
 * The one wait loop: read, and if not done, sleep as long as the server asked (never less), until
 * done, aborted or out of time. Shared by `forecasts.wait`, `forecasts.waitMany` and later waits
 * (file readiness). It knows no operation's shape: each wait passes its own `read`.
 * @module
 */
import type { ClientClock } from './clock.js';

/** What one read gave: the value, whether waiting is over, and the ms the server asked to wait (if any). */
export type PollStep<T> = [value: T, done: boolean, waitMs?: number];

/**
 * Reads with `read` until it says done. Between reads it sleeps the wait the read asked for (else
 * `interval`): never faster than asked. An abort rejects at once with the signal's reason, mid-read
 * or mid-sleep. Once `timeout` ms have passed it rejects with `onTimeout()`; it sleeps to the
 * deadline rather than giving up early, and never reads past it.
 * @internal
 */
export async function poll<T>(
  read: (signal: AbortSignal | undefined) => Promise<PollStep<T>>,
  clock: ClientClock,
  signal: AbortSignal | undefined,
  timeout: number | undefined,
  interval: number,
  onTimeout: () => Error,
): Promise<T> {
  const deadline = timeout === undefined ? Infinity : clock.now() + timeout;
  for (;;) {
    signal?.throwIfAborted();
    const [value, done, asked] = await read(signal);
    if (done) return value;
    const wait = Math.max(0, asked ?? interval);
    const left = deadline - clock.now();
    await clock.sleep(Math.max(0, Math.min(wait, left)), signal);
    if (wait > left) throw onTimeout();
  }
}
