/**
 * The holds of one process that wait in the shared queue, in their queue order. The queue grants
 * only its head, so of this process's holds only the first can be granted next: it alone tries
 * again (on its timer and when freed slots could reach it), and its tries keep the others' places
 * alive. The fleet's Redis traffic then grows with its processes, not with its waiting starts.
 * @module
 */
import { whenAborted } from '../core/abort.js';

/** @internal */
export class WaitingLine {
  readonly #ids: string[] = [];
  readonly #turns = new Map<string, () => void>();
  /** Every hold of the process from its first try to its end, queued or not (yet). */
  readonly #live = new Set<string>();

  /** Counts `id` as a hold of this process until {@link end}: its queue entry is not {@link stale}. */
  begin(id: string): void {
    this.#live.add(id);
  }

  /** The hold ended (granted, aborted, or gone local): it leaves the line, and an entry left of it in Redis is stale. */
  end(id: string): void {
    this.#live.delete(id);
    this.leave(id);
  }

  /**
   * Whether `id`, an entry of Redis's queue, is this process's (`owner` is its id) but of no hold of
   * it: a write that removed it was lost (a failover promotes a replica that had not yet seen a
   * grant), or a try that timed out ran after all. Only its own process can tell: it is alive and
   * renews its place, so nothing else would drop the entry before its heartbeat lapses.
   */
  stale(id: string, owner: string): boolean {
    return id.startsWith(`${owner}.`) && !this.#live.has(id);
  }

  /** Adds a hold that Redis has queued (in reply order, which is the queue's order). */
  join(id: string): void {
    if (!this.#ids.includes(id)) this.#ids.push(id);
  }

  /** Removes a hold (granted, aborted, or gone local); the next one's turn starts at once. */
  leave(id: string): void {
    const at = this.#ids.indexOf(id);
    if (at < 0) return;
    this.#ids.splice(at, 1);
    if (at === 0 && this.#ids.length > 0) this.#turns.get(this.#ids[0]!)?.();
  }

  /** Moves `id`, when it is in line, to the front (Redis serves it first), and starts its turn. */
  promote(id: string): void {
    const at = this.#ids.indexOf(id);
    if (at <= 0) return;
    this.#ids.splice(at, 1);
    this.#ids.unshift(id);
    this.#turns.get(id)?.();
  }

  /** Whether `id` is this process's first waiting hold (or not in line at all). */
  isFirst(id: string): boolean {
    const at = this.#ids.indexOf(id);
    return at <= 0;
  }

  /** The holds queued behind `id` when it is first (their heartbeats its tries renew); none otherwise. */
  behind(id: string): string[] {
    return this.#ids[0] === id ? this.#ids.slice(1) : [];
  }

  /** Resolves when `id` is first; rejects with the abort reason when `signal` aborts first. */
  turn(id: string, signal: AbortSignal | undefined): Promise<void> {
    if (this.isFirst(id)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const stop = signal ? whenAborted(signal, () => (done(), reject(signal.reason))) : undefined;
      const done = () => {
        this.#turns.delete(id);
        stop?.();
      };
      this.#turns.set(id, () => {
        done();
        resolve();
      });
    });
  }
}
