import { APIResource } from '../core/resource.js';
import { creditOperations } from '../api/account.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { Credits } from '../schemas/records/account.js';

/**
 * The organization's credits: balance, prices per run mode, plan.
 * @example
 * ```ts
 * const { balance, unlimited } = await client.credits.retrieve();
 * ```
 */
export class CreditsResource extends APIResource {
  /**
   * Reads the credits record.
   * @example
   * ```ts
   * const credits = await client.credits.retrieve();
   * console.log(credits.balance, credits.plan.key);
   * ```
   */
  retrieve(options?: RequestOptions): APIPromise<Credits> {
    return this._call(creditOperations.retrieve, [], undefined, options);
  }
}
