/**
 * The keys of an operation's params that it names no field for: the SDK's own check, for input read
 * from a file before anything is sent (the CLI's `--from-file` uses it). The schemas and zod load
 * on demand, as the client's own check does, so that importing the package does not load them.
 * @module
 */
import { ForecastingError } from './core/error-base.js';
import { ValidationError } from './core/errors.js';
import { declaredOperations } from './api/index.js';
import { hasBody } from './core/operation.js';

/**
 * A key no field is named after, found by {@link unknownFields}.
 * @example
 * ```ts
 * const found: UnknownField[] = await unknownFields('questions.create', { type: 'binary', title: 'Rain?', titel: 'x' });
 * // [{ field: 'titel', suggestion: 'title', message: 'unknown field `titel` sent as is; did you mean `title`?' }]
 * ```
 */
export interface UnknownField {
  /** Dotted path of the key (clipped to 64 characters, control characters escaped). */
  field: string;
  /** The known field a small edit away (a letter missing, extra, changed or two swapped), as a dotted path. */
  suggestion: string | undefined;
  /** The warning the client logs for it. */
  message: string;
}

/**
 * The keys of `params` that the operation `sdkMethod` names no field for, at any depth where its
 * schema knows the keys (an inline question, batch items), at most ten. Unknown keys are sent as they
 * are (the service may know fields this SDK does not); the client logs each at `warn` level once.
 * Use this to check params read from JSON before sending them. It resolves once the params schemas
 * have loaded (a chunk of their own, loaded once); an unknown `sdkMethod` rejects with `ValidationError`.
 * @param sdkMethod - a dotted client method, as in {@link operations}: `questions.create`
 * @example
 * ```ts
 * for (const { message } of await unknownFields('forecasts.create', JSON.parse(line))) console.warn(message);
 * // unknown field `question.resolutionCriterea` sent as is; did you mean `question.resolutionCriteria`?
 * ```
 */
export async function unknownFields(sdkMethod: string, params: unknown): Promise<UnknownField[]> {
  const op = declaredOperations.find((o) => o.sdkMethod === sdkMethod);
  if (!op) throw new ValidationError('is not a method of this SDK (see `operations`)', 'sdkMethod');
  if (op.params === undefined) return [];
  const { paramsOf, validate: { unknownKeys, unknownKeyMessage } } = await import('./schemas/params.js').catch((err: unknown) => {
    throw new ForecastingError(`could not load the params check, a part of forecasting-sdk: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  });
  return unknownKeys(paramsOf(op)!, params).map((found) => ({ field: found.path, suggestion: found.suggestion, message: unknownKeyMessage(found, hasBody(op)) }));
}
