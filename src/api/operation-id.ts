/**
 * The OpenAPI `operationId` of an operation, from its dotted SDK name: one spelling for the document
 * and for the mock, which accepts both.
 * @module
 */

/** `questions.forecasts.create` → `questionsForecastsCreate`. @internal */
export const operationIdOf = (sdkMethod: string): string => sdkMethod.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase());
