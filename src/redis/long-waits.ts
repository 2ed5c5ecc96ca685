/**
 * A take or a hold that waited long for the fleet says so once at `info`, with how long and why, so
 * that a slow fleet is no mystery (the client's `logLevel: 'info'` shows it).
 * @module
 */
import type { ClientClock } from '../core/clock.js';
import type { CoordinatedWindow } from '../core/coordination.js';

/** A wait for the fleet this long or longer (on the client's clock) is logged. */
export const LONG_WAIT_MS = 5_000;

const WHY: Record<CoordinatedWindow | 'slots', string> = {
  requests: "the fleet's shared request budget (requestsPerMinute of the key, across every process)",
  modelCalls: "the fleet's shared model-call budget (modelCallsPerMinute of the key, across every process)",
  drafting: "the fleet's shared drafting budget (draftingPerMinute of the key, across every process)",
  chatMessages: "the fleet's shared chat-message budget (chatMessagesPerMinute of the key, across every process)",
  webhookTests: "the fleet's shared budget of webhook tests and replays (webhookTestsPerMinute of the user, across every process)",
  slots: 'an active-forecast slot (maxActive forecasts run at once across the fleet, first come, first served)',
};

/** Runs `work`; when it took {@link LONG_WAIT_MS} or more on `clock`, tells `info` how long and why. @internal */
export async function reportLongWait<T>(clock: ClientClock, info: (message: string) => void, what: CoordinatedWindow | 'slots', work: () => Promise<T>): Promise<T> {
  const started = clock.now();
  try {
    return await work();
  } finally {
    const ms = clock.now() - started;
    if (ms >= LONG_WAIT_MS) info(`${what === 'slots' ? 'a start' : 'a request'} waited ${(ms / 1000).toFixed(1)} s for ${WHY[what]}`);
  }
}
