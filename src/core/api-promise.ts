/**
 * The promise every method returns: awaits to the parsed data, and can also give the HTTP `Response`.
 * @module
 */

/** Parsed data next to the HTTP response it came from. */
export interface WithResponse<T> {
  data: T;
  /** The final attempt's response (status, headers such as `Retry-After`, `Idempotent-Replayed`); its body is already read. */
  response: Response;
}

/**
 * A `Promise` of the parsed data with raw access on the side, without a second request.
 *
 * @example
 * ```ts
 * const question = await client.questions.retrieve(id);
 * const { data, response } = await client.questions.retrieve(id).withResponse();
 * response.headers.get('retry-after');
 * ```
 */
export class APIPromise<T> extends Promise<T> {
  // Derived promises (then/catch/finally) are plain Promises.
  static override get [Symbol.species]() {
    return Promise;
  }

  readonly #raw: Promise<WithResponse<T>>;

  /** @internal */
  constructor(raw: Promise<WithResponse<T>>) {
    // The base promise is never settled: then() reads from #raw, so an unobserved rejection is reported once.
    super(() => {});
    this.#raw = raw;
  }

  /** The parsed data together with the HTTP `Response`. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#raw;
  }

  /** The HTTP `Response` alone (its body is already read). */
  asResponse(): Promise<Response> {
    return this.#raw.then((r) => r.response);
  }

  override then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    // One hop, not two: this runs on every call.
    return this.#raw.then(onfulfilled ? (r) => onfulfilled(r.data) : (r) => r.data as unknown as A, onrejected);
  }
}
