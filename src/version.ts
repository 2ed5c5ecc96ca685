/**
 * The package version, sent in `User-Agent`.
 * @example
 * ```ts
 * console.log(`forecasting-sdk ${VERSION}`); // sent as User-Agent: forecasting-sdk/<VERSION>
 * ```
 */
export const VERSION = '0.1.0';
