/**
 * How a client answers its coordinator's "which of these held tasks are final?": from the service.
 * @module
 */
import type { ReconcileWith } from '../core/base-client.js';
import type { Page } from '../core/pagination.js';
import { forecastOperations } from './forecasts.js';
import { MAX_PAGE_SIZE } from './limits.js';
import { finalListed, listedTaskIds } from './task-slots.js';

/** Whether a page answers only the ids asked for, whole: each item one of them, and no further page (nor a cursor to one). */
function keptToFilter(page: Page<unknown>, asked: readonly string[]): boolean {
  const wanted = new Set(asked);
  const ids = listedTaskIds(page);
  return !page.hasMore && page.nextCursor === null && ids.length === page.data.length && ids.every((id) => wanted.has(id));
}

/**
 * Whether the filter names `id` as one id: the service splits `taskId` at commas (and may trim), so
 * a list that does not show an id with a comma or edge spaces says nothing about it.
 */
const filterable = (id: string): boolean => !id.includes(',') && id.trim() === id;

/**
 * The forecasts list filtered by task ids, 100 ids a request; the list's answer frees the final
 * tasks' slots as any list does. A held id the answer does not show is no task of the user's (a
 * mock reset since, a deleted task): it runs nothing, and its slot is freed too, but only from an
 * answer that kept to the filter (it shows no task outside those asked, and no further page): a
 * server that ignored the filter would otherwise free the slots of tasks still running. The
 * coordinator asks at a bounded rate, only while a start waits.
 */
export const finalOfHeld: ReconcileWith = (client) => async (taskIds, signal) => {
  const final: string[] = [];
  for (let i = 0; i < taskIds.length; i += MAX_PAGE_SIZE) {
    const asked = taskIds.slice(i, i + MAX_PAGE_SIZE);
    const page = await client._list(forecastOperations.list, [], { taskId: asked.join(','), limit: MAX_PAGE_SIZE }, { signal });
    const listed = new Set(listedTaskIds(page));
    final.push(...finalListed(page).map((n) => n.taskId));
    if (keptToFilter(page, asked)) final.push(...asked.filter((id) => !listed.has(id) && filterable(id)));
  }
  return final;
};
