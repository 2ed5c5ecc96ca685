/**
 * The promise every method returns: awaits to the parsed data, and can also give the HTTP `Response`.
 * @module
 */
import { redactedHeaders } from './redact.js';
import type { Received } from './transport.js';

/**
 * Parsed data next to the HTTP response it came from.
 * @example
 * ```ts
 * const { data: question, response } = await client.questions.create(body).withResponse();
 * console.log(response.status, question.id); // 201 …
 * ```
 */
export interface WithResponse<T> {
  data: T;
  /**
   * The final attempt's response (status, headers such as `Retry-After`, `Idempotent-Replayed`),
   * with its body unread: `await response.json()` works.
   */
  response: Response;
}

/** Statuses whose responses cannot carry a body. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * A `Promise` of the parsed data with raw access on the side, without a second request.
 *
 * The SDK reads the body within the call's `timeout` in every case, so that a slow body cannot hold
 * a call open; `asResponse()` and `withResponse()` then give an unread copy of the response.
 *
 * @example
 * ```ts
 * const question = await client.questions.retrieve(id);
 * const { data, response } = await client.questions.retrieve(id).withResponse();
 * response.headers.get('retry-after');
 * const raw = await client.questions.retrieve(id).asResponse();
 * const json: unknown = await raw.json();
 * ```
 */
export class APIPromise<T> extends Promise<T> {
  // Derived promises (then/catch/finally) are plain Promises.
  // Stryker disable next-line BlockStatement: a species of undefined also makes derived promises plain Promises
  static override get [Symbol.species]() {
    return Promise;
  }

  readonly #received: Promise<Received>;
  readonly #parse: (received: Received) => T | PromiseLike<T>;
  #data: Promise<T> | undefined;

  /** @internal */
  constructor(received: Promise<Received>, parse: (received: Received) => T | PromiseLike<T>) {
    // The base promise is never settled: then() reads from #received, so an unobserved rejection is reported once.
    super(() => {});
    this.#received = received;
    this.#parse = parse;
  }

  /** Parsed once, however many times the promise is awaited (every await sees the same object). */
  #parsed(): Promise<T> {
    return (this.#data ??= this.#received.then(this.#parse));
  }

  /** The parsed data together with the HTTP `Response` (its body unread). */
  withResponse(): Promise<WithResponse<T>> {
    return this.#parsed().then((data) => this.#received.then((received) => ({ data, response: unreadCopy(received) })));
  }

  /**
   * The HTTP `Response` of a successful call, its body unread, as in openai-node: `(await p.asResponse()).json()`.
   * The data is not parsed, so an answer the SDK could not read still comes through. An error
   * answer rejects as usual.
   */
  asResponse(): Promise<Response> {
    return this.#received.then(unreadCopy);
  }

  override then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#parsed().then(onfulfilled, onrejected);
  }
}

/**
 * A response like `received.response`, whose body (the text already read) can be read again; the
 * key redacted from its headers and reason phrase as from its text (a server may echo it anywhere).
 */
function unreadCopy({ response, text, redact }: Received): Response {
  const { status, statusText, headers, url } = response;
  const copy = new Response(NULL_BODY_STATUSES.has(status) ? null : text, { status, headers: redactedHeaders(headers, redact) });
  // Set after: fetch takes a reason phrase the Response constructor refuses (a control character, `✓`).
  Object.defineProperty(copy, 'statusText', { value: redact ? redact(statusText) : statusText });
  // Stryker disable next-line ConditionalExpression: a new Response's url is already '' when the original had none
  if (url) Object.defineProperty(copy, 'url', { value: url });
  return copy;
}
