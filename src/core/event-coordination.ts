/**
 * The webhook receivers' side of coordination: exactly-once handling and the fan-out of events. Apart
 * from `coordination.ts` so the webhook entries (and their published declarations) reach only this.
 * @module
 */

/**
 * Where a claim of a webhook event stands: `claimed` (this call runs the handler), `running` (a
 * handler in some process took it and has not answered yet) or `done` (a handler succeeded: a repeat).
 * @example
 * ```ts
 * const claim: EventClaim = await coordinator.claimEvent(event.id);
 * ```
 */
export type EventClaim = 'claimed' | 'running' | 'done';

/**
 * What a webhook receiver uses of a coordinator: exactly-once handling and the fan-out of events.
 * Kept apart so `forecasting-sdk/webhooks` needs no client. A claim has two states: `running` while
 * a handler runs (a short time to live, so a claim of a process that died frees before the service's
 * next retry), then `done` once it succeeded (kept for the retention); a failure deletes it.
 * @example
 * ```ts
 * const claim = await coordinator.claimEvent(event.id);
 * if (claim === 'claimed') {
 *   try {
 *     await handle(event);
 *     await coordinator.finishEvent(event.id); // repeats are now answered 200
 *   } catch (err) {
 *     await coordinator.unclaimEvent(event.id); // the service's retry runs it again
 *     throw err;
 *   }
 * }
 * // 'running': answer a status the service retries (503); 'done': answer 200 without handling.
 * ```
 */
export interface EventCoordinator {
  /**
   * Claims `eventId` for this process's handler: `claimed` when no process holds it, `running` while
   * another process's handler has it and has not answered, `done` for a repeat of a handled event.
   */
  claimEvent(eventId: string): Promise<EventClaim>;
  /** The handler succeeded: the claim becomes `done`, so every later delivery is a repeat (for the retention). */
  finishEvent(eventId: string): Promise<void>;
  /** Gives a claim back after the handler failed, so the service's retry runs it again. */
  unclaimEvent(eventId: string): Promise<void>;
  /**
   * Publishes a verified event to every process and records that a receiver is live. `final` says
   * whether the event ends its task (`forecast.completed`, `forecast.failed`, …), which frees the
   * task's slot and wakes its waiters. `traceparent`: the receipt's trace, when a tracer observed it;
   * a wait it wakes names it.
   */
  publish(event: { id: string; type: string; taskId?: string | undefined; status?: string | undefined; final: boolean; traceparent?: string | undefined }): Promise<void>;
}
