/**
 * Webhook event claims on Redis, in two states: `running` while one process's handler runs (a short
 * time to live, so a claim of a process that died frees before the service's next retry) and `done`
 * once it succeeded (kept `eventRetentionMs`, so every later repeat is known). While Redis does not
 * answer, the claims are kept in the process's memory the same way; once the coordinator is closed,
 * a claim Redis cannot take is answered `running` (retry later), never taken from memory.
 * @module
 */
import type { ClientClock } from '../core/clock.js';
import type { EventClaim } from '../core/coordination.js';
import { ValidationError } from '../core/errors.js';
import type { CoordinatorKeys } from './keys.js';
import { integerReply, oneOfReply, type RedisLink } from './link.js';
import type { ResolvedOptions } from './options.js';
import { CLAIM } from './scripts.js';

/**
 * How long a `running` claim lives. The service wants an answer within 10 seconds and retries a
 * delivery after 30 s, 2 min, …: a claim of a process that died mid-handler frees before the retry
 * at 2 minutes, while a run that is slow but alive is not run a second time next to it.
 */
export const RUNNING_CLAIM_TTL_MS = 60_000;

/** What claims need of their coordinator. @internal */
export interface ClaimContext {
  link: RedisLink;
  options: ResolvedOptions;
  clock(): ClientClock;
  keys(): CoordinatorKeys;
}

/** An event's id, as the receivers pass it: else `undefined` would claim the key `…:event:undefined` for every such call. */
function checkEventId(eventId: unknown): void {
  if (typeof eventId !== 'string' || eventId === '') throw new ValidationError(`must be a non-empty string (the event's id), got ${eventId === '' ? '""' : typeof eventId}`, 'eventId');
}

/** @internal */
export class EventClaims {
  readonly #local = new Map<string, { state: 'running' | 'done'; until: number }>();
  /** Repeats this process saw while Redis did not answer (the shared count is in Redis). */
  deduplicatedLocally = 0;

  constructor(private readonly ctx: ClaimContext) {}

  async claim(eventId: string): Promise<EventClaim> {
    checkEventId(eventId);
    const keys = this.ctx.keys();
    const ttl = Math.min(RUNNING_CLAIM_TTL_MS, this.ctx.options.eventRetentionMs);
    return this.ctx.link.either(
      async () => oneOfReply(await this.ctx.link.eval(CLAIM, [keys.event(eventId), keys.counters], [ttl]), 'CLAIM', ['claimed', 'running', 'done'] as const),
      // After close(), a claim Redis cannot take is not this process's: its memory knows nothing of what the
      // fleet handled. `running` has the receiver answer 503 with Retry-After, and the service's retry meets
      // a process that knows (a repeat, or a first run), never a second run here.
      () => (this.ctx.link.closed ? 'running' : this.#claimLocally(eventId, ttl)),
    );
  }

  /** The handler succeeded: `running` becomes `done`, kept `eventRetentionMs` (also when a slow run outlived its `running` claim). */
  async finish(eventId: string): Promise<void> {
    checkEventId(eventId);
    const retention = this.ctx.options.eventRetentionMs;
    const key = this.ctx.keys().event(eventId);
    await this.ctx.link.either(
      async () => void oneOfReply(await this.ctx.link.send(['SET', key, 'done', 'PX', String(retention)]), 'SET', ['OK']),
      () => void this.#local.set(eventId, { state: 'done', until: this.ctx.clock().now() + retention }),
    );
  }

  /** The handler failed: the claim goes, so the service's retry runs it again. */
  async unclaim(eventId: string): Promise<void> {
    checkEventId(eventId);
    this.#local.delete(eventId);
    const key = this.ctx.keys().event(eventId);
    await this.ctx.link.either(async () => void integerReply(await this.ctx.link.send(['DEL', key]), 'DEL'), () => undefined);
  }

  #claimLocally(eventId: string, ttl: number): EventClaim {
    const now = this.ctx.clock().now();
    for (const [id, { until }] of this.#local) if (until <= now) this.#local.delete(id);
    const known = this.#local.get(eventId);
    if (known?.state === 'done') this.deduplicatedLocally++;
    if (known) return known.state;
    this.#local.set(eventId, { state: 'running', until: now + ttl });
    return 'claimed';
  }
}
