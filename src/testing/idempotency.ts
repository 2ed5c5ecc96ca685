/**
 * The spec's idempotency rules, for every operation declared `idempotent` (not forecast-specific):
 * 1. same key, same body: the first answer again, with `Idempotent-Replayed: true`;
 * 2. same key, different body: 400;
 * 3. same key while the first request is still handled: 409 `idempotency_in_progress`;
 * 4. the first request failed: the key is free again;
 * 5. other operations ignore the header (the service only asks here for keyed operations).
 * Keys are kept 24 hours of mock-clock time, per API key: at most `MAX_IDEMPOTENCY_KEYS` of them,
 * and answers of `MAX_IDEMPOTENCY_ANSWER_BYTES` in all, the oldest forgotten first (the spec sets no
 * such limit; a mock that anyone can call must not grow without one).
 * @module
 */
import { IDEMPOTENCY_RETENTION_MS, MAX_IDEMPOTENCY_KEY_LENGTH } from '../api/limits.js';
import { keyOf } from './auth.js';
import type { MockClock } from './clock.js';
import { badRequest, errorResponse, MockHttpError } from './http.js';

/** The most keys the mock keeps at once, across API keys. */
export const MAX_IDEMPOTENCY_KEYS = 100_000;
/** The most bytes of answers kept for replay, in all. */
export const MAX_IDEMPOTENCY_ANSWER_BYTES = 64 * 1024 * 1024;

interface Entry {
  fingerprint: string;
  at: number;
  answer: { status: number; body: string; headers: [string, string][] } | undefined;
}

/** What to do with a keyed request: answer at once, or go on and `settle` (or `release`) the key. */
export type Claim =
  | { kind: 'answer'; response: Response }
  | { kind: 'proceed'; settle(response: Response): Promise<void>; release(): void };

/** @internal */
export class IdempotencyLedger {
  private readonly entries = new Map<string, Entry>();
  /** The bytes of the answers kept. */
  private bytes = 0;

  constructor(private readonly clock: MockClock) {}

  /**
   * Claims the request's `Idempotency-Key`, or `undefined` when it carries none. `fingerprint`
   * identifies the request (method, path and body).
   */
  claim(headers: Headers, fingerprint: string): Claim | undefined {
    const key = headers.get('idempotency-key');
    if (key === null) return undefined;
    if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
      return { kind: 'answer', response: errorResponse(badRequest(`must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`, 'Idempotency-Key')) };
    }
    const id = `${keyOf(headers) ?? ''}\u0000${key}`;
    const now = this.clock.now();
    this.forgetExpired(now);
    const found = this.entries.get(id);
    if (found && found.at + IDEMPOTENCY_RETENTION_MS > now) {
      if (found.fingerprint !== fingerprint) {
        return { kind: 'answer', response: errorResponse(badRequest('was already used with a different request body', 'Idempotency-Key')) };
      }
      if (!found.answer) {
        const busy = new MockHttpError(409, 'idempotency_in_progress', 'The first request with this Idempotency-Key is still being handled');
        return { kind: 'answer', response: errorResponse(busy) };
      }
      const { status, body, headers: saved } = found.answer;
      const replay = new Response(body, { status, headers: saved });
      replay.headers.set('idempotent-replayed', 'true');
      return { kind: 'answer', response: replay };
    }
    const entry: Entry = { fingerprint, at: now, answer: undefined };
    this.forget(id); // re-inserted at the end, so the map stays in claim order
    this.entries.set(id, entry);
    this.keepWithinLimits();
    const release = () => {
      if (this.entries.get(id) === entry) this.forget(id);
    };
    return {
      kind: 'proceed',
      release,
      settle: async (response) => {
        // A failed first request frees the key; a success is kept to be replayed.
        if (response.status >= 400) return release();
        const body = await response.clone().text();
        // Forgotten meanwhile (the limits, a reset): nothing to keep.
        if (this.entries.get(id) !== entry) return;
        entry.answer = { status: response.status, body, headers: [...response.headers].filter(([name]) => name !== 'x-request-id') };
        this.bytes += body.length;
        this.keepWithinLimits();
      },
    };
  }

  /** How many keys are kept. @internal */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Drops keys past their 24 hours, oldest first, so a long-running mock does not keep every key it
   * ever saw. Stops at the first kept one: entries are in claim order (a clock set back only delays this).
   */
  private forgetExpired(now: number): void {
    for (const [id, entry] of this.entries) {
      if (entry.at + IDEMPOTENCY_RETENTION_MS > now) return;
      this.forget(id);
    }
  }

  /**
   * Forgets the oldest keys while there are too many, or their answers take too much room (counted
   * in characters); for room, only keys with an answer: one still in progress holds none, and
   * forgetting it would let a retry run the request twice.
   */
  private keepWithinLimits(): void {
    for (const [id, entry] of this.entries) {
      const tooMany = this.entries.size > MAX_IDEMPOTENCY_KEYS;
      if (!tooMany && this.bytes <= MAX_IDEMPOTENCY_ANSWER_BYTES) return;
      if (tooMany || entry.answer) this.forget(id);
    }
  }

  private forget(id: string): void {
    this.bytes -= this.entries.get(id)?.answer?.body.length ?? 0;
    this.entries.delete(id);
  }

  /** Forgets every key. */
  reset(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
