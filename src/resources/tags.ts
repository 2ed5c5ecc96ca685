import { APIResource } from '../core/resource.js';
import { tagOperations } from '../api/questions.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/options.js';
import type { TagListParams } from '../schemas/questions.js';
import type { Tag } from '../schemas/records/questions.js';

/**
 * Tags used on your questions.
 * @example
 * ```ts
 * for await (const tag of client.tags.list()) console.log(tag.slug);
 * ```
 */
export class Tags extends APIResource {
  /**
   * Lists tags. Filters beyond paging are not shown in the spec.
   * @example
   * ```ts
   * const { data } = await client.tags.list();
   * ```
   */
  list(params?: TagListParams, options?: RequestOptions): PagePromise<Tag> {
    return this._list(tagOperations.list, [], params, options);
  }
}
