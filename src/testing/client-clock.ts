/**
 * Client time tied to the mock's clock, so an SDK wait against the mock takes no real time.
 * @module
 */
import { whenAborted } from '../core/abort.js';
import type { ClientClock } from '../core/clock.js';
import type { ClientOptions } from '../core/options.js';
import { ScaledClock, type MockClock } from './clock.js';
import { realNow, realSetTimeout, realSleep, soon } from './real-timers.js';
import type { MockServer } from './server.js';

/**
 * Real time on the timers as loaded (see real-timers.ts): a test's fake timers would otherwise stall
 * every wait of a client on a scaled clock, or of one on a mock served elsewhere.
 */
const realTime: ClientClock = { now: realNow, sleep: realSleep };

/** Looks at a busy client, one after the other, before looking once a millisecond. */
const BUSY_LOOKS_AT_ONCE = 100;

/**
 * The client's time source for tests against the mock. With a scaled clock it is real time, since
 * the mock already states its waits (`Retry-After`) in real seconds, with the clock's speed as its
 * `serviceTimeScale`: the per-minute limits the client counts itself pass as fast as the mock's. With a manual clock it runs a
 * small discrete-event simulation: a client sleep becomes a wake-up on the mock clock, and the clock
 * moves to the earliest wake-up once `isBusy()` says no request is in flight (so a request is never
 * stamped later than it was sent). A 1.5-hour forecast is then waited for in a few hundred ms of real time
 * (its requests are real round trips), every `Retry-After` honoured on the mock's time. A wait's
 * `timeout` then counts mock time too: bound a test in real time with the runner's timeout or a
 * `signal: AbortSignal.timeout(ms)`. The timers it uses are the real ones as the SDK loaded, so a
 * test's fake timers (`vi.useFakeTimers()`) do not stall it.
 *
 * Given a number instead, the `timeScale` of a mock served elsewhere (`forecasting mock
 * --time-scale 600` in another process), it is that real-time clock: what a client of that mock
 * needs so that the per-minute limits it counts itself (`rateLimit`, a Redis coordinator's) last
 * the mock's minute.
 *
 * @example
 * ```ts
 * const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, clock: clientClockFor(mock.clock) });
 * const elsewhere = new ForecastingClient({ apiKey, baseURL, clock: clientClockFor(600) }); // forecasting mock, default speed
 * ```
 */
export function clientClockFor(clock: MockClock | number, isBusy: () => boolean = () => false): ClientClock {
  if (typeof clock === 'number') {
    if (!(Number.isFinite(clock) && clock > 0)) throw new RangeError(`clientClockFor: a mock's timeScale must be a positive number, got ${String(clock)}`);
    return { ...realTime, serviceTimeScale: clock };
  }
  // Real time, and the service's minute that much shorter on it (the per-minute limits the client counts).
  if (clock instanceof ScaledClock) return { ...realTime, serviceTimeScale: clock.timeScale };
  // Sleepers by the time they wake: one ending (an abort, a wake-up) leaves the others at that time due.
  const waiting = new Map<number, number>();
  const add = (at: number) => void waiting.set(at, (waiting.get(at) ?? 0) + 1);
  const remove = (at: number) => {
    const left = (waiting.get(at) ?? 1) - 1;
    if (left > 0) waiting.set(at, left);
    else waiting.delete(at);
  };
  let driving = false;
  const drive = () => {
    if (driving) return;
    driving = true;
    let looks = 0;
    const step = () => {
      // Let requests in flight land, and woken sleepers send theirs, before time moves on; a request
      // held longer (one waiting real time, see mockClientOptions) is looked at every millisecond,
      // not spun on.
      if (isBusy()) return void (++looks < BUSY_LOOKS_AT_ONCE ? soon(step) : realSetTimeout(step, 1));
      driving = false;
      if (waiting.size === 0) return;
      try {
        clock.set(Math.max(clock.now(), Math.min(...waiting.keys())));
      } finally {
        // A test's own callback on the clock may throw: it is reported, and the later sleepers still wake.
        if (waiting.size > 0) drive();
      }
    };
    soon(step);
  };
  return {
    // The fleet's Redis coordinator then counts on this clock, not on Redis's real time.
    simulated: true,
    now: () => clock.now(),
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        signal?.throwIfAborted();
        // NaN or a negative wait is none, as on the real clock; only `Infinity` is a wait without
        // end, which the clock never moves to and an abort ends.
        const at = clock.now() + (ms > 0 ? ms : 0);
        if (!Number.isFinite(at)) return void (signal && whenAborted(signal, () => reject(signal.reason)));
        let stop: (() => void) | undefined;
        const wake = clock.schedule(at, () => {
          remove(at);
          stop?.();
          resolve();
        });
        stop =
          signal &&
          whenAborted(signal, () => {
            wake.cancel();
            remove(at);
            reject(signal.reason);
            // The sleepers left still need the clock moved to them.
            drive();
          });
        add(at);
        drive();
      }),
  };
}

/**
 * Failed requests in a row to one address (no answer, or a 5xx) after which each next one to it
 * first waits real time: 1 ms, doubling up to {@link MAX_REAL_DELAY_MS}. On a manual clock a
 * client's sleeps move the mock's time, so a wait with no `timeout` against a server closed for
 * good, or a fault without end, would otherwise retry as fast as the loopback answers, a core busy
 * for as long as the process lives (a test that timed out leaves it running in its worker). An
 * outage a test stages lasts far fewer.
 */
const FAILURES_BEFORE_REAL_DELAY = 30;
const MAX_REAL_DELAY_MS = 1_000;
const MAX_FAILING_ADDRESSES = 1_000;

/**
 * Client options for a mock server: its address and key, and its time (see {@link clientClockFor}).
 * On a manual clock the client's requests in flight are tracked, so concurrent waits see exactly the
 * mock time they asked for. `busy` holds the clock too while it says so: a test's own work in
 * flight, such as restarting the server after an outage. On a manual clock, after 30 failed requests
 * in a row to one address (no answer, or a 5xx), each next one to it first waits real time (1 ms,
 * doubling up to 1 s), so that a wait with no `timeout` against a server gone for good does not keep
 * a core busy.
 *
 * @example
 * ```ts
 * const mock = await startMockServer({ clock: new ManualClock() });
 * const client = new ForecastingClient(mockClientOptions(mock));
 * await client.forecasts.createAndWait({ questionId, runMode: 'max' }, { timeout: 2 * 3_600_000 }); // 1.5 h of mock time (the timeout too), ~0.2 s real
 * ```
 */
export function mockClientOptions(
  server: Pick<MockServer, 'baseURL' | 'apiKey' | 'clock'>,
  { busy = () => false }: { busy?: () => boolean } = {},
): Required<Pick<ClientOptions, 'apiKey' | 'baseURL' | 'clock' | 'fetch'>> {
  let inFlight = 0;
  // By method and address: another call's answer says nothing of this one's.
  const failedInARow = new Map<string, number>();
  // Only where the client's sleeps cost no real time: on a scaled clock its backoff already does.
  const manual = !(server.clock instanceof ScaledClock);
  const counted: typeof fetch = async (input, init) => {
    // A scaled clock is real time and looks at no request in flight.
    if (!manual) return globalThis.fetch(input, init);
    inFlight++;
    try {
      const request = input instanceof Request ? input : undefined;
      const signal = init?.signal ?? request?.signal;
      const key = `${init?.method ?? request?.method ?? 'GET'} ${request?.url ?? String(input)}`;
      const failed = failedInARow.get(key) ?? 0;
      // Past a long run of failures, the next request waits real time first (the mock's clock held):
      // see FAILURES_BEFORE_REAL_DELAY.
      if (failed >= FAILURES_BEFORE_REAL_DELAY) await realSleep(Math.min(2 ** (failed - FAILURES_BEFORE_REAL_DELAY), MAX_REAL_DELAY_MS), signal ?? undefined);
      const response = await globalThis.fetch(input, init).catch((error: unknown) => {
        if (!signal?.aborted) failedInARow.set(key, failed + 1);
        throw error;
      });
      if (response.status >= 500) failedInARow.set(key, failed + 1);
      else failedInARow.delete(key);
      // A client calling ever new addresses that all fail: forget them, rather than grow.
      if (failedInARow.size > MAX_FAILING_ADDRESSES) failedInARow.clear();
      return response;
    } finally {
      inFlight--;
    }
  };
  return { apiKey: server.apiKey, baseURL: server.baseURL, clock: clientClockFor(server.clock, () => inFlight > 0 || busy()), fetch: counted };
}
