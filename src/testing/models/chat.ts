/**
 * The chat model: conversations on a completed forecast and the assistant's answers, written from
 * the forecast's stored number.
 * @module
 */
import type { ChatMessage, ChatThread } from '../../schemas/records/chat.js';
import type { ForecastData } from '../../schemas/records/forecasts.js';
import { collectionKey, type Ownership } from '../store.js';

/** A conversation on a forecast, with its owner. */
export interface ThreadRecord extends Ownership {
  id: string;
  taskId: string;
  questionId: string;
  messages: ChatMessage[];
  createdAt: string;
  updatedAt: string;
}
export const THREADS = collectionKey<ThreadRecord>('chatThreads');

/** A conversation as reads show it. */
export const threadView = ({ ownerId: _o, organizationId: _g, questionId: _q, ...thread }: ThreadRecord): ChatThread => thread;

/** A short, deterministic answer from the forecast's number. */
export function answer(data: ForecastData, question: string): string {
  const p = data.payload as Record<string, unknown>;
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const headline =
    data.questionType === 'binary'
      ? `The forecast gives ${pct(data.payload.probability)} for YES`
      : data.questionType === 'multiple_choice'
        ? `The most likely option is "${Object.entries(data.payload.probabilities).sort((a, b) => b[1] - a[1])[0]?.[0]}"`
        : `The median estimate is ${String((p['percentiles'] as { p50: number }).p50)}`;
  return `${headline} on "${question}". The subforecasts weighed base rates first, then recent news; a surprise in official data would move it most.`;
}
