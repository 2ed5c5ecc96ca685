/**
 * A client's params check, loaded on demand: the params schemas (and zod) and the code that reads
 * them (`validate.ts`) are chunks of their own, loaded with the first call that has params to check.
 * While they load, every call waits behind them (calls reach the service in the order they were
 * made), and each waiting call still ends on its abort or its timeout.
 * @module
 */
import type * as z from 'zod/mini';
import { whenAborted } from './abort.js';
import { ForecastingError } from './error-base.js';
import { APITimeoutError, ValidationError } from './errors.js';
import { checkRequestOptions, type RequestOptions } from './options.js';
import type { Redact } from './redact.js';
import { clip, thrownText } from './text.js';

/** Loads the params schemas by name and the code that reads them (given by the client: the core names no schema). @internal */
export type ParamsLoader = () => Promise<ParamsCheck>;

/** The params check once loaded: the schemas by name and the code that reads them. @internal */
export interface ParamsCheck {
  schemaOf(name: string): z.ZodMiniType | undefined;
  validate: Pick<typeof import('./validate.js'), 'parseOrThrow' | 'unknownKeys' | 'unknownKeyMessage'>;
}

/** Loads a client's params check once; a failed load is tried again by the next call that needs it. @internal */
export class ParamsChecks {
  /** The check, once loaded. */
  loaded: ParamsCheck | undefined;
  #loading: Promise<ParamsCheck> | undefined;

  constructor(private readonly load: ParamsLoader | undefined) {}

  /** Whether a call must wait before it is built: it needs the check, or another call's load is in flight. */
  mustWait(needs: boolean): boolean {
    return this.loaded === undefined && (needs || this.#loading !== undefined);
  }

  /**
   * Settles when the call may be built: once the check has loaded (a failure to load rejects only a
   * call that `needs` it). Rejects first with the reason of the call's signal, or `APITimeoutError`
   * after its timeout (else the client's `timeout`; 0: none), so a stalled load never holds a call
   * past its own limits. A signal that
   * aborted before the call was made is left to the call (its params are checked first, as once loaded).
   */
  wait(needs: boolean, options: RequestOptions, timeout: number): Promise<void> {
    // The call's signal and timeout only when they are good: a bad one (no AbortSignal, 2^31 ms) is
    // refused as the call is built, as once loaded; meanwhile `timeout` (the client's) holds.
    let signal: AbortSignal | undefined;
    try {
      checkRequestOptions(options);
      ({ signal, timeout = timeout } = options);
    } catch {}
    const loading = this.#start();
    const ready = needs ? loading.then(() => undefined) : loading.then(
      () => undefined,
      () => undefined,
    );
    // A signal aborted already is left to the call, as once loaded: its params are checked first.
    if (signal?.aborted) signal = undefined;
    if (!signal && !(timeout > 0)) return ready;
    return new Promise<void>((resolve, reject) => {
      const timer = timeout > 0 ? setTimeout(() => finish(() => reject(new APITimeoutError(`Request timed out after ${timeout} ms (loading the params check).`))), timeout) : undefined;
      const stop = signal ? whenAborted(signal, () => finish(() => reject(signal!.reason))) : undefined;
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        stop?.();
        settle();
      };
      ready.then(
        () => finish(resolve),
        (err: unknown) => finish(() => reject(err)),
      );
    });
  }

  #start(): Promise<ParamsCheck> {
    const load = this.load;
    if (!load) return Promise.reject(new ForecastingError('this client cannot check params: it was built without the params schemas'));
    return (this.#loading ??= load().then(
      (check) => {
        this.#loading = undefined;
        if (typeof check?.schemaOf !== 'function' || typeof check.validate?.parseOrThrow !== 'function') throw new ForecastingError('the params check loaded in an unexpected shape (a mixed or broken install of forecasting-sdk?)');
        return (this.loaded = check);
      },
      (err: unknown) => {
        this.#loading = undefined;
        throw new ForecastingError(`could not load the params check, a part of forecasting-sdk: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      },
    ));
  }
}

/**
 * A copy of the plain data in `value` (objects of `Object` or no prototype, arrays), anything else
 * kept as it is (a `Date`, a `Blob`, a stream, a signal): what a call waiting for its check reads
 * later is what it was given, even if the caller changes its objects meanwhile. @internal
 */
export function snapshot<T>(value: T, seen = new Map<object, unknown>()): T {
  if (typeof value !== 'object' || value === null) return value;
  const known = seen.get(value);
  if (known !== undefined) return known as T;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(snapshot(item, seen));
    return copy as T;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const copy = Object.create(proto as object | null) as Record<PropertyKey, unknown>;
  seen.set(value, copy);
  // Symbol keys too (a wait's request options carry one). Defined, not assigned: an own `__proto__`
  // key (JSON.parse makes them) stays a key, not a prototype.
  for (const key of Reflect.ownKeys(value)) {
    if (!Object.prototype.propertyIsEnumerable.call(value, key)) continue;
    Object.defineProperty(copy, key, { value: snapshot((value as Record<PropertyKey, unknown>)[key], seen), enumerable: true, writable: true, configurable: true });
  }
  return copy as T;
}

/**
 * What reading a caller's input threw (a getter, a revoked `Proxy`), as the `ValidationError` every
 * refused input gets, with a copy of what was thrown as its `cause` when it is one of JavaScript's
 * own errors: a throw of the SDK's own while building the call is told apart by it. The SDK's own
 * errors as they are. @internal
 */
export function unreadable(err: unknown, redact: Redact | undefined): unknown {
  if (err instanceof ForecastingError) return err;
  // The key is out before the text is cut.
  const text = thrownText(err);
  return new ValidationError(`could not be read: ${clip(redact ? redact(text) : text, 200)}`, 'params', { cause: plainCopy(err, redact) });
}

const NATIVE_ERRORS = [Error, TypeError, RangeError, ReferenceError, SyntaxError, EvalError, URIError];

/**
 * A new error of the same class, message and stack as `err`, read once, when `err` is one of
 * JavaScript's own errors and neither holds the key; else `undefined`. Only a copy: anything else a
 * thrown value holds (bytes, a getter, a private field, a later change) could hide the key where no
 * check reads.
 */
function plainCopy(err: unknown, redact: Redact | undefined): Error | undefined {
  try {
    const Class = NATIVE_ERRORS.find((C) => C.prototype === Object.getPrototypeOf(err));
    const { message, stack } = err as Error;
    if (!Class || typeof message != 'string' || typeof stack != 'string' || (redact && (redact(message) !== message || redact(stack) !== stack))) return undefined;
    const copy = new Class(message);
    copy.stack = stack;
    return copy;
  } catch {
    return undefined;
  }
}
