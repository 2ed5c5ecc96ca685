/**
 * The Redis coordinator: one request budget, one set of active-forecast slots, one model-call budget
 * and a fan-out of tasks' final events for every client and webhook receiver on the same prefix.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { realClock, serviceMinuteMs, type ClientClock } from '../core/clock.js';
import type { CoordinatedWindow, Coordinator, CoordinatorAttachment, CoordinatorStats, EventClaim, EventCoordinator, HoldOptions, SlotHold, TaskFinalNotice, WindowEnd } from '../core/coordination.js';
import { ValidationError } from '../core/errors.js';
import { EventHub, type HubMessage } from './hub.js';
import { coordinatorKeys, type CoordinatorKeys } from './keys.js';
import { EventClaims } from './claims.js';
import { redisPort, type RedisClientLike } from './clients.js';
import { arrayReply, integerReply, RedisLink } from './link.js';
import { WaitingLine } from './line.js';
import { LocalLimits } from './local.js';
import { prefixFromEnvironment, prefixFromKeyHash, resolveOptions, sha256Hex, WINDOW_LIMITS, windowLimits, type RedisCoordinatorOptions, type ResolvedOptions } from './options.js';
import { CoalescedRead } from './coalesce.js';
import { ReceiverRecord } from './receivers.js';
import { reportLongWait } from './long-waits.js';
import { HELD, PUBLISH, SETTLE, STATS, WINDOW_COUNT } from './scripts.js';
import { fleetNowArg } from './time.js';
import { holdSlots, type SlotContext } from './slots.js';
import { persistentKeys, sharedStats } from './stats.js';
import { takeWindow, type InFlight } from './windows.js';

/** Most started tasks a process remembers for writing back after an outage (far above any `maxActive`). */
const MAX_OWNED = 10_000;

/**
 * A {@link Coordinator} and {@link EventCoordinator} on Redis; made by {@link createRedisCoordinator}.
 * It keeps no API key, only the prefix derived from its hash.
 * @example
 * ```ts
 * const coordinator = createRedisCoordinator(redis);
 * const client = new ForecastingClient({ coordinator });
 * process.on('SIGTERM', () => void coordinator.close());
 * ```
 */
export class RedisCoordinator implements Coordinator, EventCoordinator {
  readonly #options: ResolvedOptions;

  /** The `maxActive` option: API-started forecasts running at once, all processes together. */
  get maxActive(): number {
    return this.#options.maxActive;
  }

  readonly #explicitPrefix: string | undefined;
  readonly #link: RedisLink;
  readonly #hub: EventHub;
  readonly #local: LocalLimits;
  /** This process's id: as a webhook receiver, and in the queue's record of live processes. */
  readonly #processId = randomUUID();
  readonly #claims: EventClaims;
  readonly #receivers: ReceiverRecord;
  #keyHash: string | undefined;
  readonly #reconciling = { last: -Infinity, running: false };
  readonly #line = new WaitingLine();
  /** This process's requests sent and not yet ended (member → its window and when it was last counted). */
  readonly #inFlight: InFlight = new Map();
  readonly #touches = new Set<Promise<void>>();
  readonly #refresh: { stop: (() => void) | undefined } = { stop: undefined };
  readonly #renewals = new Set<() => void>();
  readonly #closed = new AbortController();
  readonly #epochRead = new CoalescedRead(() => this.#confirmEpoch());
  /** Tasks this process started and has not heard of as final: what it writes back after an outage. */
  readonly #owned = new Set<string>();
  /** Final tasks told while Redis did not answer (task id → notice): settled in Redis once it answers again. */
  readonly #settledLocally = new Map<string, TaskFinalNotice>();
  /** Holds that went on local limits after a try was sent (id → count): their traces go when Redis is back. */
  readonly #abandoned = new Map<string, number>();
  /** The epoch of the data this process last saw in Redis (see the HOLD script). */
  #epoch: string | undefined;
  #keys: CoordinatorKeys | undefined;
  readonly #userPrefix: string | undefined;
  #clock: ClientClock = realClock;
  // The client's logger when one attaches; a receiver's coordinator prefixes the lines as the client does.
  #warn: (message: string) => void = (message) => console.warn(`[forecasting-sdk] ${message}`);
  // The client's `info` lines when one attaches (a long wait); none for a receiver.
  #info: (message: string) => void = () => undefined;
  #publishedLocally = 0;
  #listening = false;

  /** Prefer {@link createRedisCoordinator}, which does the same. */
  constructor(redis: RedisClientLike, options: RedisCoordinatorOptions = {}) {
    this.#options = resolveOptions(options);
    // Until a client attaches its own: real time, its minute the service's (a sped-up mock's) minute.
    if (options.serviceTimeScale !== undefined) this.#clock = { ...realClock, serviceTimeScale: options.serviceTimeScale };
    this.#explicitPrefix = options.prefix;
    this.#userPrefix = options.userPrefix;
    const port = redisPort(redis);
    this.#link = new RedisLink(port, () => this.#resolveKeys().slots, (message) => this.#warn(message), this.#options.probeIntervalMs, this.#options.commandTimeoutMs, {
      // Every waiting hold goes on local limits at once, not at its next retry; the local limits
      // start from the tasks this process knows it runs.
      down: () => {
        this.#local.startFrom(this.#owned);
        this.#hub.interrupt();
      },
      back: () => void this.#back(),
    });
    this.#hub = new EventHub(
      port,
      () => this.#clock.now(),
      (taskIds) => void this.#heardFinal(taskIds),
      // A rewrite told on the channel is a hint: Redis's epoch is read, at most once a second.
      (epoch) => {
        if (this.#epoch !== epoch) this.#epochRead.trigger();
      },
      (error) => this.#link.failed(error),
      // A receiver's claim on the channel counts as the record in Redis has it, whoever it names.
      () => this.#receivers.check(),
    );
    this.#receivers = new ReceiverRecord(this.#link, () => this.#resolveKeys().receivers, () => this.#clock, (at) => this.#hub.sawReceiver(at), this.#options.receiverTtlMs);
    this.#local = new LocalLimits({ ...windowLimits(this.#options), maxActive: this.#options.maxActive, pendingHoldTtlMs: this.#options.pendingHoldTtlMs }, () => this.#clock);
    this.#claims = new EventClaims({ link: this.#link, options: this.#options, clock: () => this.#clock, keys: () => this.#resolveKeys() });
  }

  /** `shared` while Redis answers, `local` during an outage. */
  get mode(): 'shared' | 'local' {
    return this.#link.mode;
  }

  attach(attachment: CoordinatorAttachment): void {
    const keyHash = attachment.keyHash(sha256Hex);
    if (this.#keyHash !== undefined && this.#keyHash !== keyHash) {
      throw new ValidationError('Every client of one coordinator must use the same API key: the limits it shares belong to one key.', 'coordinator');
    }
    // A receiver that derived its prefix from FORECASTING_API_KEY before a client attached: the keys must agree.
    if (this.#keys && this.#explicitPrefix === undefined && this.#keys.prefix !== prefixFromKeyHash(keyHash)) {
      throw new ValidationError('This coordinator already uses the namespace of another API key (FORECASTING_API_KEY): pass the client the same key, or `prefix`.', 'coordinator');
    }
    this.#keyHash = keyHash;
    this.#clock = attachment.clock;
    if (attachment.warn) this.#warn = attachment.warn;
    if (attachment.info) this.#info = attachment.info;
  }

  take(window: CoordinatedWindow, signal?: AbortSignal): Promise<WindowEnd | void> {
    // Else a window of no limit: the local budget it fell back to never had room, and looped without yielding.
    if (typeof window !== 'string' || !Object.hasOwn(WINDOW_LIMITS, window)) return Promise.reject(new ValidationError(`must be one of ${Object.keys(WINDOW_LIMITS).join(', ')}, got ${typeof window === 'string' ? JSON.stringify(window.slice(0, 100)) : typeof window}`, 'window'));
    const context = { link: this.#link, local: this.#local, options: this.#options, clock: () => this.#clock, keys: () => this.#resolveKeys(), inFlight: this.#inFlight, touches: this.#touches, refresh: this.#refresh };
    return reportLongWait(this.#clock, this.#info, window, () => takeWindow(context, window, signal));
  }

  hold(count: number, options?: HoldOptions): Promise<SlotHold> {
    // `null` is no options, as `undefined`: else a bare TypeError reading its signal.
    return reportLongWait(this.#clock, this.#info, 'slots', () => holdSlots(this.#slotContext(), count, options ?? undefined));
  }

  async settle(notices: readonly TaskFinalNotice[]): Promise<void> {
    if (!Array.isArray(notices) || !notices.every((n) => typeof (n as TaskFinalNotice | null)?.taskId === 'string')) {
      throw new ValidationError('must be an array of final tasks ({ taskId, status }), each with its task id', 'notices');
    }
    if (notices.length === 0) return;
    const taskIds = notices.map((n) => n.taskId);
    // Each task may have held a slot: holds that many places down the queue try again.
    const message: HubMessage = { notices: notices.map(({ taskId, status }) => ({ taskId, ...(status === undefined ? {} : { status }) })), freed: taskIds.length, receiver: false };
    this.#forget(taskIds);
    const keys = this.#resolveKeys();
    await this.#link.either(
      async () => void integerReply(await this.#link.eval(SETTLE, [keys.slots], [keys.channel, JSON.stringify(message), this.#link.publishCommand, ...taskIds]), 'SETTLE'),
      () => this.#unsent(notices),
    );
    // This process's own waiters hear it once Redis has freed the slots, so their next try finds them.
    this.#hub.receive(message);
  }

  watch(taskIds: readonly string[], onFinal: (notice: TaskFinalNotice) => void): () => void {
    if (!Array.isArray(taskIds) || !taskIds.every((id) => typeof id === 'string')) throw new ValidationError('must be an array of task ids (text)', 'taskIds');
    if (typeof onFinal !== 'function') throw new ValidationError(`must be a function, got ${onFinal === null ? 'null' : typeof onFinal}`, 'onFinal');
    this.#hub.start(this.#resolveKeys().channel);
    return this.#hub.watch(taskIds, onFinal);
  }

  receiving(): boolean {
    // Closed, it hears no event: waits poll by Retry-After, not on the safety interval of a receiver's fleet.
    if (this.#closed.signal.aborted) return false;
    this.#startListening();
    // While Redis is out no event can arrive: waits poll by Retry-After again.
    return this.#link.mode === 'shared' && this.#hub.receiverSeenWithin(this.#options.receiverTtlMs);
  }

  /** `claimed`, `running` (another handler has it, for at most a minute) or `done` (a repeat, kept `eventRetentionMs`). */
  claimEvent(eventId: string): Promise<EventClaim> {
    return this.#claims.claim(eventId);
  }

  finishEvent(eventId: string): Promise<void> {
    return this.#claims.finish(eventId);
  }

  unclaimEvent(eventId: string): Promise<void> {
    return this.#claims.unclaim(eventId);
  }

  async publish(event: { id: string; type: string; taskId?: string | undefined; status?: string | undefined; final: boolean; traceparent?: string | undefined }): Promise<void> {
    // Its ids and status travel as text (a number `taskId` would watch and free no task's slot).
    if (typeof event !== 'object' || event === null || typeof event.id !== 'string' || ![event.taskId, event.status, event.traceparent].every((v) => v === undefined || typeof v === 'string')) throw new ValidationError('must be a verified event ({ id, type, final, … }, its ids and status text)', 'event');
    const taskId = event.final ? event.taskId : undefined;
    const notice = taskId === undefined ? undefined : { taskId, ...(event.status === undefined ? {} : { status: event.status }), ...(event.traceparent === undefined ? {} : { traceparent: event.traceparent }) };
    const message: HubMessage = { notices: notice === undefined ? [] : [notice], freed: taskId === undefined ? 0 : 1, receiver: true, receiverId: this.#processId };
    this.#publishedLocally++;
    if (taskId !== undefined) {
      this.#forget([taskId]);
    }
    const keys = this.#resolveKeys();
    await this.#link.either(
      async () => void integerReply(await this.#link.eval(PUBLISH, [keys.slots, keys.receivers, keys.counters], [keys.channel, JSON.stringify(message), fleetNowArg(this.#clock), this.#processId, taskId ?? '', this.#link.publishCommand, this.#options.receiverTtlMs]), 'PUBLISH'),
      () => this.#unsent(message.notices),
    );
    this.#hub.receive(message);
  }

  async stats(): Promise<CoordinatorStats> {
    const keys = this.#resolveKeys();
    const now = fleetNowArg(this.#clock);
    const shared = await this.#link.either(
      async () =>
        sharedStats(
          await this.#link.eval(STATS, [keys.slots, keys.beats, keys.receivers, keys.counters], [now, this.#options.receiverTtlMs]),
          await this.#link.eval(WINDOW_COUNT, [keys.requests], [now, serviceMinuteMs(this.#clock)]),
        ),
      () => undefined,
    );
    if (shared === undefined) {
      return {
        mode: 'local',
        requestsInWindow: this.#local.requestsInWindow(),
        activeSlots: this.#local.held,
        activeTaskIds: this.#local.taskIds,
        startsWaiting: this.#local.waiting,
        receiversSeen: this.#hub.receiverSeenWithin(this.#options.receiverTtlMs) ? 1 : 0,
        eventsPublished: this.#publishedLocally,
        eventsDeduplicated: this.#claims.deduplicatedLocally,
      };
    }
    return shared;
  }

  /**
   * Whether any process has used this coordinator's namespace on this Redis (any of its keys is
   * there): `false` means a wrong prefix or key, or another database, rather than an idle fleet.
   * Rejects when Redis does not answer.
   * @example
   * ```ts
   * if (!(await coordinator.used())) console.warn('no fleet on this prefix yet');
   * ```
   */
  async used(): Promise<boolean> {
    for (const keys of persistentKeys(this.#resolveKeys())) {
      if (integerReply(await this.#link.send(['EXISTS', ...keys], { route: keys[0] }), 'EXISTS') > 0) return true;
    }
    return false;
  }

  /** Closes the coordinator's own subscriber connection and stops its probe; the client it was given stays open. */
  close(): Promise<void> {
    this.#link.close();
    this.#hub.close();
    this.#receivers.close();
    for (const stop of [...this.#renewals]) stop();
    this.#closed.abort(new Error('The coordinator was closed.'));
    this.#epochRead.close();
    this.#refresh.stop?.();
    this.#refresh.stop = undefined;
    return Promise.resolve();
  }

  /** The keys, once the prefix is known: the option, the attached client's key hash, or FORECASTING_API_KEY. */
  #resolveKeys(): CoordinatorKeys {
    if (this.#keys) return this.#keys;
    const prefix = this.#explicitPrefix ?? (this.#keyHash !== undefined ? prefixFromKeyHash(this.#keyHash) : prefixFromEnvironment());
    return (this.#keys = coordinatorKeys(prefix, this.#userPrefix ?? prefix));
  }

  /** Subscribes and reads when a receiver last published, so `receiving()` knows of one seen before this process started. */
  #startListening(): void {
    const keys = this.#resolveKeys();
    if (this.#listening) return;
    this.#listening = true;
    this.#hub.start(keys.channel);
    this.#receivers.check();
  }

  /**
   * Records tasks this process started; once Redis is back from an outage (perhaps restarted, empty),
   * it writes their slots back, with those started meanwhile on local limits, so the fleet counts
   * them again. A task another process saw final in between is freed again by the next reconcile.
   */
  #own(taskIds: readonly string[], onLocalLimits: boolean): void {
    // Listening from its first task on, the process hears every other's final notices and forgets those tasks.
    if (taskIds.length > 0) this.#hub.start(this.#resolveKeys().channel);
    for (const id of taskIds) {
      // Bounded like the client's memory of settled tasks: the oldest are forgotten first.
      if (this.#owned.size >= MAX_OWNED) this.#owned.delete(this.#owned.values().next().value as string);
      this.#owned.add(id);
    }
    // Bound on local limits after Redis came back (a start that began during the outage): written now.
    if (onLocalLimits && this.#link.mode === 'shared') void this.#writeBack(taskIds);
  }

  /** Remembers final tasks Redis did not hear of (bounded like the owned tasks), for {@link #back}. */
  #unsent(notices: readonly TaskFinalNotice[]): void {
    for (const notice of notices) {
      if (this.#settledLocally.size >= MAX_OWNED) this.#settledLocally.delete(this.#settledLocally.keys().next().value as string);
      this.#settledLocally.set(notice.taskId, notice);
    }
  }

  /**
   * Redis answers again: the tasks that ended meanwhile free their slots (and wake the waiting starts
   * of every process), the queue entries of holds that went local leave, and this process's slots are written back.
   */
  async #back(): Promise<void> {
    const keys = this.#resolveKeys();
    const ended = [...this.#settledLocally.values()];
    this.#settledLocally.clear();
    if (ended.length > 0) void this.settle(ended);
    // Written first, before any start waiting on local limits tries Redis again (its try comes a tick later).
    const written = this.#writeBack([...this.#owned]);
    const left = [...this.#abandoned];
    this.#abandoned.clear();
    if (left.length > 0) {
      const ids = left.map(([id]) => id);
      // A late try may have queued the hold, or granted it pending slots nobody will bind.
      const pending = left.flatMap(([id, count]) => Array.from({ length: count }, (_, i) => `p:${id}:${i + 1}`));
      await this.#link.either(async () => {
        integerReply(await this.#link.send(['ZREM', keys.queue, ...ids]), 'ZREM');
        integerReply(await this.#link.send(['ZREM', keys.beats, ...ids]), 'ZREM');
        integerReply(await this.#link.send(['ZREM', keys.slots, ...pending]), 'ZREM');
      }, () => undefined);
    }
    await written;
  }

  /**
   * The epoch of Redis's data, seen by a hold's try or told on the channel by the try that set it.
   * Another than the last seen means Redis lost its data (a restart without persistence, a flush),
   * perhaps with no outage this process noticed: it writes back its tasks' slots, once per epoch.
   */
  #sawEpoch(epoch: string): void {
    const before = this.#epoch;
    this.#epoch = epoch;
    if (before !== undefined && before !== epoch) void this.#writeBack([...this.#owned]);
  }

  /** Reads the epoch Redis holds (a `rewrite` on the channel is only a hint: anyone on the prefix can publish); a new one means a write-back. */
  async #confirmEpoch(): Promise<void> {
    const held = await this.#link.either(async () => await this.#link.send(['GET', this.#resolveKeys().epoch]), () => undefined);
    if (typeof held === 'string' && held !== this.#epoch) this.#sawEpoch(held);
  }

  /**
   * Tasks another process told final on the channel. Anyone on the prefix can publish, so a task of
   * this process is forgotten only once Redis no longer holds its slot (the scripts that tell free it
   * first): a forged notice must not keep a running task out of a write-back, or free a local slot.
   */
  async #heardFinal(taskIds: readonly string[]): Promise<void> {
    const mine = taskIds.filter((id) => this.#owned.has(id));
    if (mine.length === 0) return;
    const slots = this.#resolveKeys().slots;
    const held = await this.#link.either(async () => arrayReply(await this.#link.eval(HELD, [slots], mine), 'HELD', mine.length), () => undefined);
    if (held) this.#forget(mine.filter((_, i) => held[i] === 0));
  }

  /** Tasks told final (here or by another process): no longer this process's, in Redis's count or in its local limits. */
  #forget(taskIds: readonly string[]): void {
    for (const id of taskIds) this.#owned.delete(id);
    this.#local.settle(taskIds);
  }

  async #writeBack(taskIds: readonly string[]): Promise<void> {
    if (taskIds.length === 0) return;
    const slots = this.#resolveKeys().slots;
    await this.#link.either(async () => void integerReply(await this.#link.send(['ZADD', slots, ...taskIds.flatMap((id) => ['inf', `t:${id}`])]), 'ZADD'), () => undefined);
  }

  #slotContext(): SlotContext {
    return {
      link: this.#link,
      hub: this.#hub,
      local: this.#local,
      options: this.#options,
      clock: () => this.#clock,
      keys: () => this.#resolveKeys(),
      settle: (notices) => this.settle(notices),
      reconciling: this.#reconciling,
      line: this.#line,
      own: (taskIds, onLocalLimits) => this.#own(taskIds, onLocalLimits),
      sawEpoch: (epoch) => this.#sawEpoch(epoch),
      abandon: (holdId, count) => void this.#abandoned.set(holdId, count),
      processId: this.#processId,
      renewals: this.#renewals,
      closed: this.#closed.signal,
    };
  }
}
