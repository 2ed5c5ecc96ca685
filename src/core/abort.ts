/**
 * One abort listener per signal, however many of the SDK's waits and requests share it. A caller
 * often hands one signal to many calls (a shutdown signal, `AbortSignal.timeout()` for a batch):
 * a listener each would make Node warn of a leak past 10 (`MaxListenersExceededWarning`), and
 * `AbortSignal.any` would leave an entry in the caller's signal for every call, which Node 20 never
 * drops.
 * @module
 */

interface Waiting {
  callbacks: Set<() => void>;
  listener: () => void;
}

/** Each signal's callbacks, and the one listener they share. */
const waitingOn = new WeakMap<AbortSignal, Waiting>();

/**
 * Calls `onAbort` when `signal` aborts (not when it has already: the caller checks that first),
 * through the signal's one shared listener. Returns the way to stop listening; the listener goes
 * with the last callback. @internal
 * @example
 * ```ts
 * const stop = whenAborted(signal, () => reject(signal.reason));
 * try { await work(); } finally { stop(); }
 * ```
 */
export function whenAborted(signal: AbortSignal, onAbort: () => void): () => void {
  let entry = waitingOn.get(signal);
  if (entry === undefined) {
    const callbacks = new Set<() => void>();
    const listener = (): void => {
      if (waitingOn.get(signal)?.listener === listener) waitingOn.delete(signal);
      for (const callback of callbacks) {
        try {
          callback();
        } catch (error) {
          // As a listener's throw is reported, and the next callbacks still run.
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    };
    // Kept only once listening: a signal whose addEventListener throws leaves no entry that would hide it.
    signal.addEventListener('abort', listener, { once: true });
    entry = { callbacks, listener };
    waitingOn.set(signal, entry);
  }
  const own = entry;
  // Its own token: the same function registered twice is stopped twice.
  const token = (): void => onAbort();
  own.callbacks.add(token);
  return () => {
    own.callbacks.delete(token);
    if (own.callbacks.size > 0 || waitingOn.get(signal) !== own) return;
    waitingOn.delete(signal);
    signal.removeEventListener('abort', own.listener);
  };
}

/**
 * A signal that aborts when `signal` or `other` does, with the reason of the first, and the way to
 * stop relaying (call it once the wait ends). `other` is the SDK's own (a wait's wake-up, Redis
 * coming back). @internal
 */
export function eitherSignal(signal: AbortSignal, other: AbortSignal): { signal: AbortSignal; stop: () => void } {
  const both = new AbortController();
  if (signal.aborted || other.aborted) {
    both.abort(signal.aborted ? signal.reason : other.reason);
    return { signal: both.signal, stop: () => undefined };
  }
  const stops = [whenAborted(signal, () => both.abort(signal.reason)), whenAborted(other, () => both.abort(other.reason))];
  return { signal: both.signal, stop: () => stops.forEach((stop) => stop()) };
}
