/**
 * The traced runs of waits on the `forecasting-sdk:wait` channel (`channels.ts`): loaded only once
 * someone subscribes, so a client nobody observes carries none of it.
 * @module
 */
import { told, waitChannel, type Tracing, type WaitMessage } from './channels.js';
import type { WaitOutcome, WaitScope } from './polling.js';
import { inTrace } from './traced.js';

/** What {@link traceWait} runs. @internal */
export interface TracedWait<T> {
  kind: WaitMessage['kind'];
  taskIds: readonly string[];
  scope: WaitScope;
  body: () => Promise<T>;
  outcome: (value: T) => WaitOutcome;
  questionId: string | undefined;
}

/** Runs a wait inside the channel's trace; `poll` counts on `scope.trace`. @internal */
export function traceWait<T>(channel: Tracing, w: TracedWait<T>): Promise<T> {
  const message: WaitMessage = { kind: w.kind, taskIds: [...w.taskIds], reads: 0, wakes: { poll: 0, event: 0 }, links: [], ...(w.questionId === undefined ? {} : { questionId: w.questionId }) };
  w.scope.trace = message;
  return inTrace(channel, message, async () => {
    const value = await w.body();
    told(() => ended(message, w.outcome(value)));
    return value;
  });
}

/** Sets what a wait ended with on its message. */
function ended(message: WaitMessage, outcome: WaitOutcome): void {
  if (outcome.status !== undefined) message.status = outcome.status;
  if (outcome.taskIds !== undefined) message.taskIds = outcome.taskIds;
  if (outcome.finalStatuses !== undefined) message.statuses = countStatuses(outcome.finalStatuses);
}

/** A wait on the `wait` channel whose events are published one by one (`runMany`, an async generator). @internal */
export interface WaitTrace {
  readonly message: WaitMessage;
  /** The wait is over: `asyncEnd` with what it ended with. */
  end(outcome: Partial<Pick<WaitMessage, 'status' | 'statuses' | 'endedBy'>>): void;
  /** The wait failed: `error`, then `asyncEnd`. */
  fail(error: unknown): void;
}

/** Opens a {@link WaitTrace} while someone subscribes to the `wait` channel (else `undefined`: nothing is built). @internal */
export function openWaitTrace(kind: WaitMessage['kind']): WaitTrace | undefined {
  const channel = waitChannel;
  if (!channel?.hasSubscribers) return undefined;
  const message: WaitMessage = { kind, taskIds: [], reads: 0, wakes: { poll: 0, event: 0 }, links: [] };
  channel.start.publish(message);
  channel.end.publish(message);
  let open = true;
  const close = () => {
    if (!open) return false;
    open = false;
    channel.asyncStart.publish(message);
    return true;
  };
  return {
    message,
    end(outcome) {
      told(() => Object.assign(message, outcome));
      if (close()) channel.asyncEnd.publish(message);
    },
    fail(error) {
      if (!open) return;
      told(() => (message.error = error));
      channel.error.publish(message);
      if (close()) channel.asyncEnd.publish(message);
    },
  };
}

/** How many of `statuses` are each status. @internal */
export function countStatuses(statuses: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

