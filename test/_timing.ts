// Timing helpers the tests share: whether a promise settles in time, and how late a wait saw a task end.
import type { MockServer } from '../src/testing/index.js';

/** Whether `promise` settles (resolves or rejects) within `ms` of real time. */
export const settlesWithin = (promise: Promise<unknown>, ms: number): Promise<boolean> =>
  Promise.race([promise.then(() => true, () => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

/** Real ms from a task's end, on the mock's clock of `timeScale` (600 by default), to `at` (default: the mock's now). */
export function lateBy(mock: MockServer, taskId: string, at = mock.clock.now(), timeScale = 600): number {
  const finishedAt = mock.service.store.forecasts.get(taskId)?.finishedAt;
  if (!finishedAt) throw new Error(`task ${taskId} has not ended on the mock`);
  return (at - Date.parse(finishedAt)) / timeScale;
}
