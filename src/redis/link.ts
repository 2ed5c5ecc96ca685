/**
 * The coordinator's line to Redis: scripts by digest, a time limit on every command, and the switch
 * to `local` mode when Redis does not answer (one warning, a probe in the background, one warning
 * when it is back). No error text of Redis reaches the warning (it may name the host or the user):
 * a code or a fixed phrase does (reasons.ts).
 * @module
 */
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { whenAborted } from '../core/abort.js';
import { coordinatorChannel, type CoordinatorMessage } from '../core/channels.js';
import type { RedisPort } from './clients.js';
import { reasonOf } from './reasons.js';

/**
 * A reply of Redis that is not the shape the coordinator's script or command gives: another server
 * on the port, a proxy, a script of another version. It counts as a failure of the link (the
 * coordinator turns `local`, with one warning), never as a number to wait on. @internal
 */
export class UnexpectedReplyError extends Error {
  override name = 'UnexpectedReplyError';
}

const unexpected = (what: string): never => {
  throw new UnexpectedReplyError(`Redis answered ${what} with an unexpected reply`);
};

/** `reply` as an integer from `min` to `max`, else an {@link UnexpectedReplyError}. @internal */
export function integerReply(reply: unknown, what: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  return typeof reply === 'number' && Number.isInteger(reply) && reply >= min && reply <= max ? reply : unexpected(what);
}

/** `reply` as an array of at least `length` items, else an {@link UnexpectedReplyError}. @internal */
export function arrayReply(reply: unknown, what: string, length = 0): unknown[] {
  return Array.isArray(reply) && reply.length >= length ? (reply as unknown[]) : unexpected(what);
}

/** `reply` as an array of strings, else an {@link UnexpectedReplyError}. @internal */
export function stringsReply(reply: unknown, what: string): string[] {
  const items = arrayReply(reply, what);
  return items.every((item): item is string => typeof item === 'string') ? items : unexpected(what);
}

/** `reply` when it is one of `values`, else an {@link UnexpectedReplyError}. @internal */
export function oneOfReply<T extends string>(reply: unknown, what: string, values: readonly T[]): T {
  return values.includes(reply as T) ? (reply as T) : unexpected(what);
}

/** The mode `stats()` reports. */
/**
 * The controller whose signal every call waiting on local limits listens to (one listener each): as
 * many as a process has calls in flight, so Node's leak warning past 10 listeners is no leak here.
 */
function backSignal(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

export type LinkMode = 'shared' | 'local';

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

/** A failure this soon (real ms) after Redis came back belongs to the same outage. */
const FLAP_MS = 10_000;
/** The longest wait between probes while Redis keeps failing right after it came back. */
const MAX_PROBE_MS = 60_000;

/** @internal */
export class RedisLink {
  #mode: LinkMode = 'shared';
  /** When (real time) the link last turned local. */
  #downAt = 0;
  readonly #digests = new Map<string, string>();
  #probe: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  /** Aborted when Redis answers again: what waits on local limits meanwhile goes back to the shared ones. */
  #back = backSignal();
  /** When Redis last came back (real time), and how many times in a row it failed again soon after. */
  #backAt = -Infinity;
  #flaps = 0;

  constructor(
    private readonly redis: RedisPort,
    /** A key of the coordinator's hash tag: where a cluster sends a command that names no key (PING). */
    private readonly route: () => string,
    private readonly warn: (message: string) => void,
    private readonly probeIntervalMs: number,
    private readonly commandTimeoutMs: number,
    /** Told when Redis stops answering (`down`) and when it answers again after that (`back`). */
    private readonly on: { down?: () => void; back?: () => void } = {},
  ) {}

  /** The command the scripts publish on the channel with (`SPUBLISH` on a cluster: sharded pub/sub). */
  get publishCommand(): string {
    return this.redis.publishCommand;
  }

  get mode(): LinkMode {
    return this.#mode;
  }

  /** A signal that aborts once Redis answers again (at once when it answers now). */
  get back(): AbortSignal {
    return this.#back.signal;
  }

  /**
   * Runs `shared` on Redis; on any failure turns local and answers with `local` instead, so no caller
   * fails for Redis. An abort of `signal` is the caller's, not Redis's failure: it rejects.
   */
  async either<T>(shared: () => Promise<T>, local: () => T | Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.#mode === 'local') return local();
    try {
      return await shared();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      this.failed(error);
      return local();
    }
  }

  /**
   * One command, failing at once when the client is offline and after `commandTimeoutMs` otherwise.
   * node-redis's own `timeout` ends only a command not yet written, so a written one that gets no
   * answer is raced here too; its late answer is dropped (a late window entry or pending slot
   * expires on its own). An abort of `signal` rejects at once with its reason, however stalled Redis is.
   */
  send(args: readonly string[], { signal, route }: { signal?: AbortSignal | undefined; route?: string | undefined } = {}): Promise<unknown> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (!this.redis.ready()) return Promise.reject(Object.assign(new Error('offline'), { code: 'OFFLINE' }));
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopListening: (() => void) | undefined;
    const ended = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error('no answer in time'), { name: 'TimeoutError' })), this.commandTimeoutMs);
      timer.unref?.();
      if (signal) stopListening = whenAborted(signal, () => reject(signal.reason));
    });
    // On a cluster, the node that holds `route`'s slot answers (the user's namespace by default).
    const answer = this.redis.send(args, route ?? this.route(), this.commandTimeoutMs);
    return Promise.race([answer, ended]).finally(() => {
      clearTimeout(timer);
      stopListening?.();
    });
  }

  /** Runs a script by its digest, sending it whole only when the server does not know it yet (`NOSCRIPT`). */
  async eval(script: string, keys: readonly string[], args: readonly (string | number)[], signal?: AbortSignal): Promise<unknown> {
    let digest = this.#digests.get(script);
    if (digest === undefined) this.#digests.set(script, (digest = sha1(script)));
    const rest = [String(keys.length), ...keys, ...args.map(String)];
    try {
      return await this.send(['EVALSHA', digest, ...rest], { signal, route: keys[0] });
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return this.send(['EVAL', script, ...rest], { signal, route: keys[0] });
    }
  }

  /** Whether the coordinator was closed: the process is leaving, and its memory knows nothing of the fleet. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Stops the probe (the coordinator's `close()`). */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#probe);
  }

  /**
   * Turns local after a failed command (once per outage: one warning) and starts the probe. A Redis
   * that fails again soon after it came back (it answers PING, not the scripts: a wrong key type, an
   * ACL, a replica) is one outage, not many: no new warning, and the probe backs off, doubling up to
   * a minute, so waiting calls do not bounce between local and shared limits.
   */
  failed(error: unknown): void {
    // After close(), a command still on its way fails with the connection the app quit: no outage.
    if (this.#mode === 'local' || this.#closed) return;
    this.#mode = 'local';
    this.#back = backSignal();
    const flapping = Date.now() - this.#backAt < FLAP_MS;
    this.#flaps = flapping ? this.#flaps + 1 : 0;
    const reason = reasonOf(error, this.commandTimeoutMs);
    if (!flapping) this.warn(`forecasting-sdk/redis: Redis did not answer (${reason}); limits now hold per process (together the processes may exceed them), and a webhook event is handled once per process (another process may run it again), until it answers again.`);
    this.#downAt = Date.now();
    if (coordinatorChannel?.hasSubscribers) coordinatorChannel.publish({ mode: 'local', errorType: reason } satisfies CoordinatorMessage);
    this.#schedule();
    this.on.down?.();
  }

  // Real time on purpose: a probe on the client's clock would move a manual mock clock by itself.
  #schedule(): void {
    if (this.#closed) return;
    const delay = Math.min(this.probeIntervalMs * 2 ** this.#flaps, Math.max(this.probeIntervalMs, MAX_PROBE_MS));
    this.#probe = setTimeout(() => void this.#tryBack(), delay);
    this.#probe.unref?.();
  }

  async #tryBack(): Promise<void> {
    try {
      // Only Redis's own answer counts: a server that answers anything else is still not Redis.
      oneOfReply(await this.send(['PING']), 'PING', ['PONG']);
    } catch {
      return this.#schedule();
    }
    if (this.#closed) return;
    this.#mode = 'shared';
    // Said once per outage: the "did not answer" of a flap was not said either.
    if (this.#flaps === 0) this.warn('forecasting-sdk/redis: Redis answers again; limits are shared again.');
    this.#backAt = Date.now();
    if (coordinatorChannel?.hasSubscribers) coordinatorChannel.publish({ mode: 'shared', outageMs: this.#backAt - this.#downAt } satisfies CoordinatorMessage);
    this.#back.abort();
    this.on.back?.();
  }
}
