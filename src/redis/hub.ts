/**
 * The coordinator's one subscriber connection, shared by every watch and waiting hold of the
 * process: tasks' final notices, "slots freed" wake-ups, and when a webhook receiver was last heard.
 * @module
 */
import type { TaskFinalNotice } from '../core/coordination.js';
import type { RedisClientLike, RedisSubscriberClient } from './link.js';

/** What goes through the channel: final tasks, whether slots were freed, whether a receiver sent it. */
export interface HubMessage {
  notices: TaskFinalNotice[];
  freed: boolean;
  receiver: boolean;
}

const isNotice = (value: unknown): value is TaskFinalNotice =>
  typeof value === 'object' && value !== null && typeof (value as { taskId?: unknown }).taskId === 'string';

/** Reads a channel message; anything else on the channel (another version, a stray PUBLISH) is ignored. */
export function parseHubMessage(text: string): HubMessage | undefined {
  try {
    const value = JSON.parse(text) as Partial<HubMessage>;
    if (!Array.isArray(value.notices) || !value.notices.every(isNotice)) return undefined;
    return { notices: value.notices, freed: value.freed === true, receiver: value.receiver === true };
  } catch {
    return undefined;
  }
}

/** @internal */
export class EventHub {
  readonly #watchers = new Map<string, Set<(notice: TaskFinalNotice) => void>>();
  #subscriber: RedisSubscriberClient | undefined;
  /** Bumped on every "slots freed": a waiting hold compares it across its attempt to know whether to retry at once. */
  freedCount = 0;
  readonly #onFreed = new Set<() => void>();
  #receiverAt = -Infinity;

  constructor(
    private readonly redis: RedisClientLike,
    private readonly now: () => number,
    /** Told every task any process reported final (the coordinator forgets them as its own). */
    private readonly onFinal: (taskIds: readonly string[]) => void = () => undefined,
  ) {}

  /** Subscribes once, in the background: until then (or while Redis is down) waits fall back to their timers. */
  start(channel: string): void {
    if (this.#subscriber) return;
    const subscriber = (this.#subscriber = this.redis.duplicate());
    // node-redis emits connection errors here and reconnects (and resubscribes) by itself.
    subscriber.on('error', () => undefined);
    subscriber
      .connect()
      .then(() => subscriber.subscribe(channel, (text) => this.receive(text)))
      .catch(() => undefined);
  }

  /** Hands a message to this process's watchers and waiting holds (from the channel, or at once for its own). */
  receive(message: string | HubMessage): void {
    const parsed = typeof message === 'string' ? parseHubMessage(message) : message;
    if (!parsed) return;
    if (parsed.receiver) this.#receiverAt = this.now();
    if (parsed.notices.length > 0) this.onFinal(parsed.notices.map((n) => n.taskId));
    // Watchers stay until their watch stops: a notice is a hint to read the task, and one that proves
    // early (a replica behind, a stray message on the channel) must not cost the real one.
    for (const notice of parsed.notices) for (const onFinal of [...(this.#watchers.get(notice.taskId) ?? [])]) onFinal(notice);
    if (parsed.freed || parsed.notices.length > 0) {
      this.freedCount++;
      for (const wake of [...this.#onFreed]) wake();
    }
  }

  /** Records when a receiver was last seen by another route (the shared record, read at start). */
  sawReceiver(at: number): void {
    this.#receiverAt = Math.max(this.#receiverAt, at);
  }

  receiverSeenWithin(ms: number): boolean {
    return this.now() - this.#receiverAt < ms;
  }

  /** Calls `onFinal` each time a task of `taskIds` is told final, until the returned function stops the watch. */
  watch(taskIds: readonly string[], onFinal: (notice: TaskFinalNotice) => void): () => void {
    // Its own function per watch, so stopping one watch leaves another of the same task in place.
    const once = (notice: TaskFinalNotice) => onFinal(notice);
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

  /** Calls `wake` on every "slots freed" until the returned function is called. */
  onFreed(wake: () => void): () => void {
    this.#onFreed.add(wake);
    return () => this.#onFreed.delete(wake);
  }

  close(): void {
    this.#subscriber?.destroy();
    this.#subscriber = undefined;
  }
}
