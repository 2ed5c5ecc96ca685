/**
 * The coordinator's one subscriber connection, shared by every watch and waiting hold of the
 * process: tasks' final notices, "slots freed" wake-ups, and when a webhook receiver was last heard.
 * @module
 */
import type { TaskFinalNotice } from '../core/coordination.js';
import type { PortSubscriber, RedisPort } from './clients.js';

/**
 * What goes through the channel: final tasks; how many slots may have been freed (waiting holds that
 * many places down the queue try again); whether a receiver sent it; whether Redis lost its data
 * (every process then writes back its tasks' slots).
 */
export interface HubMessage {
  notices: TaskFinalNotice[];
  freed: number;
  receiver: boolean;
  /** The receiver's id in Redis's record of receivers: a claim on the channel counts only once that record confirms it. */
  receiverId?: string | undefined;
  /** Set by the process that found Redis emptied: the new epoch. */
  rewrite?: string | undefined;
}

/** Real-time wait before a failed subscription is made anew. */
const RESUBSCRIBE_MS = 1_000;

/** The most slots one message can say it freed: any larger count is a wrong message, read as one. */
const MAX_FREED = 10_000;

/** A message's count of freed slots: a whole number up to {@link MAX_FREED}; `true` (an older version's) is one. */
function freedOf(value: unknown): number {
  if (value === true) return 1;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? Math.min(value, MAX_FREED) : 0;
}

const isNotice = (value: unknown): value is TaskFinalNotice =>
  typeof value === 'object' && value !== null && typeof (value as { taskId?: unknown }).taskId === 'string';

/** A W3C traceparent: anything else a message names as one is dropped. */
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** A notice's known fields, of their types (anyone on the prefix can publish). */
const cleanNotice = ({ taskId, status, traceparent }: TaskFinalNotice): TaskFinalNotice => ({
  taskId,
  ...(typeof status === 'string' && status.length <= 100 ? { status } : {}),
  ...(typeof traceparent === 'string' && TRACEPARENT.test(traceparent) ? { traceparent } : {}),
});

/** Reads a channel message; anything else on the channel (another version, a stray PUBLISH) is ignored. */
export function parseHubMessage(text: string): HubMessage | undefined {
  try {
    const value = JSON.parse(text) as Partial<HubMessage>;
    if (!Array.isArray(value.notices) || !value.notices.every(isNotice)) return undefined;
    const rewrite = typeof value.rewrite === 'string' && value.rewrite.length <= 100 ? value.rewrite : undefined;
    const receiverId = typeof value.receiverId === 'string' && value.receiverId.length <= 100 ? value.receiverId : undefined;
    return {
      notices: value.notices.map(cleanNotice),
      freed: freedOf(value.freed),
      receiver: value.receiver === true,
      ...(rewrite === undefined ? {} : { rewrite }),
      ...(receiverId === undefined ? {} : { receiverId }),
    };
  } catch {
    return undefined;
  }
}

/** @internal */
export class EventHub {
  readonly #watchers = new Map<string, Set<(notice: TaskFinalNotice) => void>>();
  #subscriber: PortSubscriber | undefined;
  #closed = false;
  #stopWatchingPrimary: (() => void) | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  /** Grows by the slots each message may have freed: a waiting hold compares it across its attempt to know whether freed slots could reach its place. */
  freedCount = 0;
  readonly #onFreed = new Set<(interrupted: boolean) => void>();
  #receiverAt = -Infinity;

  constructor(
    private readonly redis: RedisPort,
    private readonly now: () => number,
    /** Told every task any process reported final (the coordinator forgets them as its own). */
    private readonly onFinal: (taskIds: readonly string[]) => void = () => undefined,
    /** Told when a process found Redis emptied (the new epoch): the coordinator writes back its tasks' slots. */
    private readonly onRewrite: (epoch: string) => void = () => undefined,
    /** Told when the subscriber lost Redis while the main connection is down as well. */
    private readonly onDown: (error: unknown) => void = () => undefined,
    /** Told a receiver's claim heard on the channel: the coordinator checks it, then calls {@link sawReceiver}. */
    private readonly onReceiverClaim: (receiverId: string) => void = () => undefined,
  ) {}

  /**
   * Subscribes once, in the background: until then (or while Redis is down) waits fall back to their
   * timers. A subscription that fails (Redis went away while it was being made: the clients
   * resubscribe by themselves only what they had subscribed) is made anew a second later, on a new
   * connection. Nothing is opened after {@link close}.
   */
  start(channel: string): void {
    if (this.#subscriber || this.#closed) return;
    this.#stopWatchingPrimary ??= this.redis.onNewPrimary(() => {
      // A new primary: the subscription is made anew there (what was published meanwhile is made up by the tries it wakes).
      this.#subscriber?.close();
      this.#subscriber = undefined;
      this.start(channel);
    });
    const subscriber = (this.#subscriber = this.redis.subscriber());
    // The clients emit connection errors here and reconnect (and resubscribe) by themselves. When the
    // main connection is down too, Redis is: the coordinator turns local now, not at its next command.
    subscriber.onError((error: unknown) => {
      if (!this.redis.ready()) this.onDown(error);
    });
    // A message published before the subscription took hold is lost to this process: once it holds,
    // every waiting hold tries again, so none waits for its timer for a slot freed meanwhile.
    subscriber.subscribe(channel, (text) => this.receive(text)).then(
      () => {
        // Closed (or replaced) while subscribing: this connection must not outlive it.
        if (this.#closed || this.#subscriber !== subscriber) return subscriber.close();
        this.interrupt();
      },
      () => {
        if (this.#closed || this.#subscriber !== subscriber) return;
        subscriber.close();
        this.#subscriber = undefined;
        this.#retry = setTimeout(() => this.start(channel), RESUBSCRIBE_MS);
        this.#retry.unref?.();
      },
    );
  }

  /** Hands a message to this process's watchers and waiting holds (from the channel, or at once for its own). */
  receive(message: string | HubMessage): void {
    const parsed = typeof message === 'string' ? parseHubMessage(message) : message;
    if (!parsed) return;
    // A receiver's claim from the channel is checked against Redis's record (anyone on the prefix can
    // publish, and a forged claim would send every wait to the slow safety cadence); this process's own counts at once.
    if (parsed.receiver) {
      if (typeof message !== 'string') this.#receiverAt = this.now();
      else if (parsed.receiverId !== undefined) this.onReceiverClaim(parsed.receiverId);
    }
    if (parsed.notices.length > 0) this.onFinal(parsed.notices.map((n) => n.taskId));
    // Watchers stay until their watch stops: a notice is a hint to read the task, and one that proves
    // early (a replica behind, a stray message on the channel) must not cost the real one.
    for (const notice of parsed.notices) for (const onFinal of [...(this.#watchers.get(notice.taskId) ?? [])]) onFinal(notice);
    if (parsed.rewrite !== undefined) this.onRewrite(parsed.rewrite);
    const freed = Math.max(parsed.freed, parsed.notices.length > 0 ? 1 : 0);
    if (freed > 0) {
      this.freedCount += freed;
      for (const wake of [...this.#onFreed]) wake(false);
    }
  }

  /** Records when a receiver was last seen by another route (the shared record, read at start). */
  sawReceiver(at: number): void {
    this.#receiverAt = Math.max(this.#receiverAt, at);
  }

  receiverSeenWithin(ms: number): boolean {
    const now = this.now();
    // A clock stepped back counts from now: a receiver seen "in the future" would count as seen for that long.
    if (this.#receiverAt > now) this.#receiverAt = now;
    return now - this.#receiverAt < ms;
  }

  /** Calls `onFinal` each time a task of `taskIds` is told final, until the returned function stops the watch. */
  watch(taskIds: readonly string[], onFinal: (notice: TaskFinalNotice) => void): () => void {
    // Its own function per watch, so stopping one watch leaves another of the same task in place. A
    // watcher that throws is its own failure: the others of the message, and its wakes, still run.
    const once = (notice: TaskFinalNotice) => {
      try {
        onFinal(notice);
      } catch {
        // Nothing to tell: the watcher's caller owns its errors.
      }
    };
    for (const id of taskIds) {
      let set = this.#watchers.get(id);
      if (!set) this.#watchers.set(id, (set = new Set()));
      set.add(once);
    }
    return () => {
      for (const id of taskIds) {
        const set = this.#watchers.get(id);
        set?.delete(once);
        if (set?.size === 0) this.#watchers.delete(id);
      }
    };
  }

  /** Calls `wake(false)` on every "slots freed", and `wake(true)` on {@link interrupt}, until the returned function is called. */
  onFreed(wake: (interrupted: boolean) => void): () => void {
    this.#onFreed.add(wake);
    return () => this.#onFreed.delete(wake);
  }

  /** Wakes every waiting hold whatever its place: Redis stopped answering (each goes on local limits now), or the subscription just took hold. */
  interrupt(): void {
    for (const wake of [...this.#onFreed]) wake(true);
  }

  close(): void {
    this.#closed = true;
    this.#stopWatchingPrimary?.();
    clearTimeout(this.#retry);
    this.#subscriber?.close();
    this.#subscriber = undefined;
  }
}
