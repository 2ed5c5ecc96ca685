/**
 * The request pipeline, in call order: prepare → budget → events → transport → decode.
 *
 * One {@link Call} holds the state of a call from start to end. `prepare` builds its request once;
 * each attempt then runs the {@link AttemptStep}s in order (budget, events, transport), under the
 * retry policy of `retry.ts`; `decode` reads the answer when the caller awaits the data. The steps
 * are plain functions handed in, so a coordinator (a shared budget, active-forecast slots) or a
 * middleware takes a step's place or wraps it without touching the driver.
 * @module
 */
import type { EventEmitter } from 'eventemitter3';
import { attemptChannel, operationChannel, retryChannel, told, type OperationMessage, type RetryMessage } from './channels.js';
import { type APIError, type ErrorRules, type ForecastingError } from './errors.js';
import { clip } from './text.js';
import type { LeveledLogger } from './logger.js';
import type { HttpMethod, Operation } from './operation.js';
import { API_PATH, type RequestOptions, type ResolvedOptions } from './options.js';
import { decideRetry, WAIT_MODE, WaitDeadlineReached, type AttemptOutcome, type WaitMode, type WaitRequestOptions } from './retry.js';
import { MAX_TIMER_MS } from './clock.js';
import { AttemptFailure, errorFromResponse, type PreparedRequest, type Received } from './transport.js';
import type { ClientEvents } from './pipeline-steps.js';

/** The event name of a generic request (`client.get` → `get`): it has no operation to name. */
const GENERIC_NAMES: Readonly<Record<HttpMethod, string>> = { GET: 'get', POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'delete' };

/**
 * One call as it goes through the pipeline: what was asked (fixed), and what the steps fill in.
 * One object per call, reused by every attempt (GET throughput is benchmarked).
 * @internal
 */
export class Call {
  /** The request as sent; set by the prepare step, before any attempt. */
  request!: PreparedRequest;
  /** 1 for the first attempt; set by the driver before each attempt. */
  attempt = 0;
  /** Milliseconds the current attempt may take (0: no limit); set by the driver before each attempt. */
  timeout = 0;
  /** Whether an attempt went to the transport (it may have reached the service); set by the transport step. */
  sent = false;
  /** The ids filled into the path, in its order (for the diagnostics channels); none for a generic request. */
  ids: readonly string[] = [];
  /** The call's message on the `operation` channel while someone subscribes: the parent of its attempts', retries' and queues'. */
  trace: OperationMessage | undefined = undefined;
  /**
   * Ends the call's `operation` trace, called once by the attempts' driver as it returns (with the
   * answer) or throws (with the error), when no step runs around the attempts (`traced.ts`).
   */
  settled: ((received: Received | undefined, error: unknown) => void) | undefined = undefined;

  constructor(
    /** The declared operation; `undefined` for a generic request (`client.get`, `client.post`, …). */
    readonly op: Operation | undefined,
    readonly method: HttpMethod,
    /** Below the base URL, ids filled in. */
    readonly path: string,
    readonly query: Record<string, unknown> | undefined,
    readonly body: unknown,
    readonly options: RequestOptions,
    /** The `Idempotency-Key` sent with every attempt, if any: the call carries it, the headers only show it. */
    readonly idempotencyKey: string | undefined,
    /** The answer is a list envelope (a page). */
    readonly list = false,
  ) {}

  /** What events call it: the dotted client method (`questions.create`), or the generic verb (`get`). */
  get name(): string {
    return this.op ? this.op.sdkMethod : GENERIC_NAMES[this.method];
  }
}

/** Sends the call on from where a step stands: the next steps, ending with the transport. @internal */
export type Next = (call: Call) => Promise<Received>;

/**
 * One step of an attempt. It does its part and hands the call to `next`, or answers by itself without
 * calling `next` (the steps after it and the transport are then skipped). It resolves with any HTTP
 * answer, error statuses included, and rejects with {@link AttemptFailure} when there was none (the
 * retry policy judges both), or with any other error to end the call. @internal
 */
export type AttemptStep = (call: Call, next: Next) => Promise<Received>;

/**
 * A step around all the attempts of a call, run once per call after `prepare`: `attempts` runs them
 * (under the retry policy) and resolves with the successful answer or rejects as the call fails for
 * good. What it takes before `attempts` is held across the call's retries (active-forecast slots).
 * @internal
 */
export type CallStep = (call: Call, attempts: Next) => Promise<Received>;

/** The pipeline's steps, in call order. @internal */
export interface PipelineSteps {
  /** Builds the call's request (headers, query, body), once per call. May throw to refuse the call. */
  prepare(call: Call): PreparedRequest;
  /** Run once per call around its attempts, in this order (the first is outermost). */
  call?: readonly CallStep[];
  /** Run on every attempt, in this order (budget → events → transport); the last one must answer. */
  attempt: readonly AttemptStep[];
  /** Reads a successful answer as the call's result; only when the caller awaits the data. */
  decode: (call: Call, received: Received) => unknown;
}

/** What the driver needs from its client. @internal */
export interface PipelineEnv {
  options: ResolvedOptions;
  log: LeveledLogger;
  events: EventEmitter<ClientEvents>;
  /** The base URL lacks `/api/v1/external`: a 404 then names the URL and the missing path. */
  apiPathMissing: boolean;
  /** The service's error codes and their classes, handed in by the client: the core knows only statuses. */
  errorRules?: ErrorRules | undefined;
  declaredAt?: DeclaredAt | undefined;
}

/**
 * The declared operation at a method and path (ids filled in), for a generic call: whether it takes
 * a key or is safe to repeat decides whether it is retried once sent. Handed in by the client.
 * @internal
 */
export type DeclaredAt = (method: HttpMethod, path: string) => Pick<Operation, 'idempotent' | 'repeatable'> | undefined;

/** The tracing code, loaded the first time someone subscribes to a channel (see `traced.ts`); once loaded, called at once. */
let tracedModule: Promise<typeof import('./traced.js')> | undefined;
let tracedLoaded: typeof import('./traced.js') | undefined;
const traced = (): Promise<typeof import('./traced.js')> => (tracedModule ??= import('./traced.js').then((m) => (tracedLoaded = m)));

const NO_ANSWER: Next = () => Promise.reject(new Error('the last step of an attempt must answer'));

/**
 * The attempt steps as one function, composed once: a step's `next` is the rest of the chain, the
 * same for every call, so running a call allocates nothing for the chain. @internal
 */
export function chain(steps: readonly AttemptStep[]): Next {
  return steps.reduceRight<Next>((next, step) => (call) => step(call, next), NO_ANSWER);
}

/** The driver: prepares a call, runs its attempts through the steps, and retries as `retry.ts` decides. @internal */
export class Pipeline {
  readonly #env: PipelineEnv;
  readonly #steps: PipelineSteps;
  readonly #attempt: Next;
  /** The call steps around the attempts' driver, composed once. */
  readonly #run: Next;
  /** The attempts' driver: `#run` itself when no step runs around it. */
  readonly #driver: Next;

  constructor(env: PipelineEnv, steps: PipelineSteps) {
    this.#env = env;
    this.#steps = steps;
    this.#attempt = chain(steps.attempt);
    const attempts: Next = (this.#driver = (call) => this.#attempts(call));
    this.#run = (steps.call ?? []).reduceRight<Next>((next, step) => (call) => step(call, next), attempts);
  }

  /** Prepares and sends `call`, resolving with its successful answer. Every refusal rejects; nothing throws synchronously. */
  send(call: Call): Promise<Received> {
    try {
      call.request = this.#steps.prepare(call);
      // Published only when someone subscribes: no message is built, and the tracing code (`traced.ts`) not loaded, otherwise.
      const channel = operationChannel;
      if (channel?.hasSubscribers) {
        const baseURL = this.#env.options.baseURL;
        // Without steps around the attempts, their driver ends the trace itself: no promise of the trace's own.
        const inline = this.#run === this.#driver;
        // The steps' decode is a plain function (its traced run reads the answer ahead, `traced.ts`).
        const decode = this.#steps.decode;
        return tracedLoaded ? tracedLoaded.traceCall(call, channel, baseURL, this.#run, decode, inline) : traced().then((t) => t.traceCall(call, channel, baseURL, this.#run, decode, inline));
      }
      return this.#run(call);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** The call's result from its successful answer (see {@link PipelineSteps.decode}). */
  decode(call: Call, received: Received): unknown {
    const ahead = received.decoded;
    return ahead ? ahead[0] : this.#steps.decode(call, received);
  }

  async #attempts(call: Call): Promise<Received> {
    // The call's trace, when it ends here (`settled`), ends as the driver returns or throws.
    try {
      const o = this.#env.options;
      const clock = o.clock;
      const { options, request: req } = call;
      // A long wait's request retries until the wait's deadline rather than `maxRetries` (unless given).
      const wait = (options as WaitRequestOptions)[WAIT_MODE];
      // A stream is read as it is sent: once sent, its bytes are gone, so it is never sent twice.
      const maxRetries = req.body instanceof ReadableStream ? 0 : (options.maxRetries ?? (wait ? Infinity : o.maxRetries));
      const timeout = options.timeout ?? o.timeout;
      // GET, PUT and DELETE are repeatable by nature, a cancel by the spec's word. A key (the option's,
      // or a caller's own header) keeps a request from taking effect twice only where the service
      // reads it: the four keyed operations (others ignore the header, and a retry would repeat them).
      const method = call.method;
      const op = call.op ?? this.#env.declaredAt?.(method, call.path);
      const safeToRepeat = method === 'GET' || method === 'PUT' || method === 'DELETE' || op?.repeatable || (op?.idempotent && (call.idempotencyKey ?? req.headers['idempotency-key']) !== undefined);
      const started = clock.now();
      for (call.attempt = 1; ; call.attempt++) {
        call.timeout = wait ? attemptTimeout(timeout, wait.deadline, clock.now()) : timeout;
        // Real time, for telemetry: an attempt's span drawn after the fact starts here.
        const attemptStartTime = epochNow();
        const message = call.trace;
        // A subscriber may have frozen its message: telemetry never fails a call.
        if (message) told(() => (message.attemptStartTime = attemptStartTime));
        let outcome: AttemptOutcome;
        let error: ForecastingError;
        try {
          const channel = attemptChannel;
          const received = await (!channel?.hasSubscribers ? this.#attempt(call) : tracedLoaded ? tracedLoaded.traceAttempt(call, channel, this.#attempt) : traced().then((t) => t.traceAttempt(call, channel, this.#attempt)));
          if (received.response.ok) {
            call.settled?.(received, undefined);
            return received;
          }
          [outcome, error] = this.#refusal(call, received);
        } catch (err) {
          if (!(err instanceof AttemptFailure)) throw err;
          outcome = err.outcome;
          error = err.error;
        }
        const decision = decideRetry(outcome, {
          attempt: call.attempt,
          maxRetries,
          safeToRepeat: !!safeToRepeat,
          maxRetryAfter: o.maxRetryAfter,
          remaining: wait ? (wait.deadline ?? Infinity) - clock.now() : o.retryDeadline - (clock.now() - started),
          initialDelay: o.initialDelay,
          maxDelay: o.maxDelay,
          random: Math.random,
          now: Date.now(),
          wait: wait !== undefined,
        });
        if (!decision.retry) {
          // Stryker disable next-line ConditionalExpression,OptionalChaining: a deadline decision comes only for a wait with a deadline; the check narrows the type.
          if (decision.deadline && wait?.deadline !== undefined) await this.#deadline(call, wait.deadline, wait.sleepSignal, error);
          if (decision.retryAfterTooLong !== undefined) {
            this.#env.log.warn(`${req.method} ${clip(req.path, 200)}: server asked to wait ${decision.retryAfterTooLong} ms, more than maxRetryAfter; not retrying`);
          }
          throw error;
        }
        await this.#retryLater(call, outcome, error, decision, wait, maxRetries, attemptStartTime);
      }
    } catch (err) {
      call.settled?.(undefined, err);
      throw err;
    }
  }

  /** An error answer as the retry policy sees it, and as the error the call rejects with. */
  #refusal(call: Call, received: Received): [AttemptOutcome, ForecastingError] {
    const apiError = errorFromResponse(received, this.#env.errorRules, call.op?.unknownCode);
    if (apiError.status === 404 && this.#env.apiPathMissing) {
      apiError.message += `; requested ${clip(`${this.#env.options.baseURL}${call.request.path}`, 200)}: is ${API_PATH} missing from baseURL?`;
    }
    const retryAfter = received.response.headers.get('retry-after');
    const retry = (apiError.constructor as typeof APIError).retry;
    return [{ kind: 'response', status: apiError.status, type: apiError.type, retryAfter, retry }, apiError];
  }

  /** A wait times out at its deadline, not before: sleep there, then let the wait say so. */
  async #deadline(call: Call, deadline: number, sleepSignal: AbortSignal | undefined, error: ForecastingError): Promise<never> {
    const clock = this.#env.options.clock;
    await clock.sleep(Math.max(0, deadline - clock.now()), call.options.signal ?? sleepSignal);
    throw new WaitDeadlineReached(`the wait's deadline came while ${call.method} ${clip(call.request.path, 200)} was failing`, { cause: error });
  }

  /** Says a retry is coming (event and log), then sleeps until it is due. */
  async #retryLater(call: Call, outcome: AttemptOutcome, error: ForecastingError, decision: { delay: number; source: 'retry-after' | 'backoff' }, wait: WaitMode | undefined, maxRetries: number, attemptStartTime: number): Promise<void> {
    const { method, path } = call.request;
    const delay = decision.delay;
    // Stryker disable next-line ConditionalExpression: outcomes without an answer have no status either
    const status = outcome.kind === 'response' ? outcome.status : undefined;
    const { attempt, idempotencyKey } = call;
    if (retryChannel?.hasSubscribers) {
      const reason = outcome.kind === 'response' ? 'status' : outcome.kind === 'timeout' ? 'timeout' : 'connection';
      const message: RetryMessage = { operation: call.name, method: call.method, path: call.path, attempt, status, reason, errorType: error.name, delayMs: delay, delaySource: decision.source, attemptStartTime, ...(call.trace ? { parent: call.trace } : {}) };
      retryChannel.publish(message);
    }
    this.#env.events.emit('retry', { operation: call.name, method, path, attempt, idempotencyKey, status, error: error.name, delayMs: delay });
    const line = `${method} ${clip(path, 200)} failed (${status ?? error.name}); retry ${attempt}${wait ? '' : ` of ${maxRetries}`} in ${delay} ms`;
    // A wait retries until its own deadline, without end when it has none: a failure that lasts is
    // said at warn (after 5, 10, 20, … attempts), so a wait stuck on it is never silent.
    if (wait && lasting(attempt)) this.#env.log.warn(`${line}; a wait retries until its timeout${wait.deadline === undefined ? ', and this one has none: give it a `timeout` to bound it' : ''}`);
    else this.#env.log.info(line);
    // On the client's clock, like every other wait (tests against the mock run it on the mock's time).
    // Aborted in it, the call's trace ends with the last answer's status all the same.
    await this.#env.options.clock.sleep(delay, call.options.signal ?? wait?.sleepSignal).catch((err: unknown) => {
      if (call.trace && status) call.trace.status = status;
      throw err;
    });
  }
}

/** Whether a wait's retry `attempt` is one said at warn: the 5th, 10th, 20th, 40th, … */
const lasting = (attempt: number): boolean => attempt % 5 === 0 && ((attempt / 5) & (attempt / 5 - 1)) === 0;

/** Now in milliseconds since the epoch, with a fraction (as OpenTelemetry takes a time); `Date.now()` where the runtime has no time origin. */
const epochNow = (): number => {
  const t = (TIME_ORIGIN ??= performance.timeOrigin) + performance.now();
  return Number.isFinite(t) ? t : Date.now();
};
/** Read once, on first use: the getter asks the runtime each time. */
let TIME_ORIGIN: number | undefined;

/**
 * A long wait's attempt gets at most the time left before the wait's deadline (on the client's
 * clock), and at least a second, so one stuck attempt cannot carry the wait far past it. @internal
 */
export function attemptTimeout(timeout: number, deadline: number | undefined, now: number): number {
  if (deadline === undefined) return timeout;
  // Within what one timer holds (a timeout of days would otherwise fire at once).
  const left = Math.min(MAX_TIMER_MS, Math.max(1000, deadline - now));
  return timeout === 0 ? left : Math.min(timeout, left);
}

