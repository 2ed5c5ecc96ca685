/**
 * What `ForecastingInstrumentation` makes of each channel's messages: spans and metrics, through the
 * OpenTelemetry API only. Names and attributes follow OpenTelemetry's semantic conventions where
 * one exists (HTTP client, `error.type`); the rest are ours, under `forecasting.` (docs/observability.md).
 * Never a key, a header the client sets, a signature or a body: the messages carry none.
 * @module
 */
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { CoordinatorMessage, OperationMessage, QueueMessage, RetryMessage, WaitMessage, WebhookMessage } from '../core/channels.js';
import { sending, sent } from './active.js';
import { answerIdAttributes, idAttribute, isId } from './ids.js';
import type { Instruments } from './instruments.js';
import { errorTypeOf, fail, failed, outageErrorType, read, succeeded } from './outcomes.js';
import { contextOfTraceparent, injectTraceparent, traceparentOf } from './traceparent.js';

/** A span of ours and when it began (for the duration metrics, on the monotonic clock). */
interface Open {
  span: Span;
  began: number;
  /** A call's latest retry: the call ended in the wait for it (aborted) when no attempt began since. */
  retry?: RetryMessage;
  /** The `traceparent` a call was sent with, as its start read it (its message's headers may be replaced since). */
  traceparent?: string | undefined;
}

/** The client span's name of each kind of wait: the method users call. */
const WAIT_NAMES: Record<WaitMessage['kind'], string> = {
  wait: 'forecasts.wait',
  createAndWait: 'forecasts.createAndWait',
  waitMany: 'forecasts.waitMany',
  runMany: 'forecasts.runMany',
  context: 'questions.files.waitUntilReady',
};

const seconds = (began: number): number => (performance.now() - began) / 1000;

/** Read once: the getter asks the runtime each time. */
const TIME_ORIGIN = performance.timeOrigin;

/** Now, in ms since the epoch with a fraction: a span's time given after the fact. */
const now = (): number => TIME_ORIGIN + performance.now();

/** An attempt's outcome: its answer's status, or the error class of no answer. */
interface AttemptOutcome {
  status: number | undefined;
  errorType: string | undefined;
}

/**
 * One attempt of a call as a span, drawn after the fact from `startTime` to `endTime`: a call that
 * never retries is one span (its own, with the HTTP attributes), and tracing its attempts as they run
 * would cost every call an attempt channel's messages for nothing. OpenTelemetry's `error.type` is
 * the status when an answer came, else the error's class.
 */
function attemptSpan(tracer: Tracer, call: Open, m: OperationMessage | RetryMessage, attempt: number, startTime: number, endTime: number, outcome: AttemptOutcome): void {
  const attributes: Attributes = { 'forecasting.operation': m.operation, 'http.request.method': m.method };
  if (attempt > 1) attributes['http.request.resend_count'] = attempt - 1;
  const span = tracer.startSpan(`${m.method} ${m.operation}`, { kind: SpanKind.CLIENT, startTime, attributes }, trace.setSpan(ROOT_CONTEXT, call.span));
  const { status, errorType: type } = outcome;
  if (status !== undefined) span.setAttribute('http.response.status_code', status);
  const failed = type ?? (status !== undefined && status >= 400 ? String(status) : undefined);
  if (failed !== undefined) span.setAttribute('error.type', failed).setStatus({ code: SpanStatusCode.ERROR, message: failed });
  span.end(endTime);
}

/** What the channels' handlers share: the tracer, the instruments, and the open spans by message. @internal */
export class Telemetry {
  /**
   * The key of each message's open span: kept on the message itself (its documented place for a
   * subscriber's fields), cheaper than a map on every call; one key per instrumentation.
   */
  readonly #key = Symbol('forecasting-sdk/otel span');
  /** The open spans of messages another subscriber froze (or sealed) before this one could write. */
  readonly #beside = new WeakMap<object, Open>();

  /** Spans put and not yet taken: `disable()` keeps reading ends until none is left. */
  #opened = 0;
  /** What runs once none is left, if anything waits for it. */
  #idle: (() => void) | undefined;

  /** Runs `fn` once no span of ours is open: now, or as the last one ends. `undefined` calls off a waiting one. @internal */
  whenIdle(fn: (() => void) | undefined): void {
    this.#idle = undefined;
    if (fn && this.#opened === 0) fn();
    else this.#idle = fn;
  }

  /** One span fewer open; the last one runs what waits (after the publish under way: unsubscribing inside it could skip the next subscriber). */
  #closed(): void {
    if (--this.#opened > 0 || this.#idle === undefined) return;
    const fn = this.#idle;
    this.#idle = undefined;
    queueMicrotask(fn);
  }

  /** The span open for `message`, if any. */
  #open(message: object): Open | undefined {
    return (message as Record<symbol, Open | undefined>)[this.#key] ?? this.#beside.get(message);
  }

  #put(message: object, span: Span): void {
    const open = { span, began: performance.now() };
    this.#opened++;
    if (Object.isExtensible(message)) (message as Record<symbol, Open | undefined>)[this.#key] = open;
    else this.#beside.set(message, open);
  }

  /** The span open for `message`, no longer kept there (set to `undefined`, not deleted: an object keeps its shape). */
  #take(message: object): Open | undefined {
    const own = (message as Record<symbol, Open | undefined>)[this.#key];
    if (own === undefined) {
      const beside = this.#beside.get(message);
      if (beside) {
        this.#beside.delete(message);
        this.#closed();
      }
      return beside;
    }
    this.#closed();
    try {
      (message as Record<symbol, Open | undefined>)[this.#key] = undefined;
    } catch {
      // Frozen since: the ended span stays on it, and it ends once (its end is published once).
    }
    return own;
  }

  constructor(
    private readonly tracer: () => Tracer,
    private readonly metrics: () => Instruments,
  ) {}

  /** The context a span starts in: its parent message's span (a call's, a wait's) when it has one open, else the active context. */
  #parent(message: object | undefined): Context {
    const open = message && this.#open(message);
    return open ? trace.setSpan(context.active(), open.span) : context.active();
  }

  // --- operations

  /**
   * Opens the CLIENT span of a call (once: the bound store may have opened it), and adds its
   * `traceparent` (a request to which the `fetch` instrumentation adds its own sends that one: `active.ts`).
   */
  operationStart(m: OperationMessage): void {
    const parent = this.#parent(m.parent);
    const span = this.#call(m, parent);
    injectTraceparent(parent, span, m.headers);
    const traceparent = m.headers['traceparent'];
    sending(traceparent);
    const open = this.#open(m);
    if (open) open.traceparent = traceparent;
  }

  /** The context a call runs in, its CLIENT span active (for the store `active.ts` binds). */
  callContext(m: OperationMessage): Context {
    const parent = this.#parent(m.parent);
    return trace.setSpan(parent, this.#call(m, parent));
  }

  #call(m: OperationMessage, parent: Context): Span {
    const open = this.#open(m);
    if (open) return open.span;
    const attributes: Attributes = {
      'forecasting.operation': m.operation,
      'http.request.method': m.method,
      'server.address': m.serverAddress,
      'server.port': m.serverPort,
    };
    // A generic request's path is its own, ids and all: no template (one value per id, any length).
    if (m.operation.includes('.')) attributes['url.template'] = m.pathTemplate;
    // The caller's ids, as an answer's are taken: id characters only (no control character reaches a backend).
    for (const name in m.ids) if (isId(m.ids[name]!)) attributes[idAttribute(name)] = m.ids[name]!;
    // On the clock the attempts drawn after the fact use (the core's, `performance`): they stay inside it.
    const span = this.tracer().startSpan(m.operation, { kind: SpanKind.CLIENT, attributes, startTime: now() }, parent);
    this.#put(m, span);
    return span;
  }

  operationEnd(m: OperationMessage): void {
    const open = this.#take(m);
    if (!open) return;
    const { span, retry } = open;
    sent(open.traceparent);
    // Each field read once, on its own: another subscriber may have replaced one (the docs allow it),
    // and one it made unreadable is left out, not the rest; the span ends and the duration is recorded.
    const [operation, answered, error, attempts, attemptStartTime] = [read(m, 'operation'), read(m, 'status'), read(m, 'error'), read(m, 'attempts'), read(m, 'attemptStartTime')];
    // Ended (aborted) while it waited to retry: its last answer is the retried attempt's, drawn already.
    const inRetryWait = retry !== undefined && retry.attemptStartTime === attemptStartTime;
    const status = answered ?? (inRetryWait ? retry.status : undefined);
    let endTime: number | undefined;
    try {
      // The call's own outcome first: a span's attribute count is limited, and the answer's ids come last.
      if (status !== undefined) span.setAttribute('http.response.status_code', status);
      if (attempts !== undefined) span.setAttribute('forecasting.attempts', attempts);
      if (error !== undefined) fail(span, error);
      try {
        const ids = m.answerIds;
        if (ids) span.setAttributes(answerIdAttributes(m, ids));
      } catch {
        // Ids another subscriber replaced with what no id is: left out.
      }
      // A call that retried: its last attempt, ended now (the others were drawn as they failed).
      endTime = now();
      if (attempts !== undefined && attempts > 1 && attemptStartTime !== undefined && !inRetryWait) {
        const errorType = answered === undefined && error !== undefined ? errorTypeOf(error) : undefined;
        attemptSpan(this.tracer(), open, m, attempts, attemptStartTime, endTime, { status: answered, errorType });
      }
    } catch {
      // What could not be read or drawn is left out; the span still ends, its duration still recorded.
    } finally {
      span.end(endTime);
    }
    this.metrics().operationDuration.record(
      seconds(open.began),
      error === undefined ? succeeded(operation!, status) : failed(operation!, error, status),
      // The root context: a duration's record reads nothing from the active one (no lookup per call).
      ROOT_CONTEXT,
    );
  }

  /** A retry: an event on the call's span, and the retries counter. */
  retry(m: RetryMessage): void {
    const attributes: Attributes = {
      'forecasting.retry.reason': m.reason,
      'forecasting.retry.delay_ms': m.delayMs,
      'forecasting.retry.delay_source': m.delaySource,
      'forecasting.retry.attempt': m.attempt,
      'error.type': m.errorType,
      ...(m.status === undefined ? {} : { 'http.response.status_code': m.status }),
    };
    const call = m.parent && this.#open(m.parent);
    if (call) {
      call.retry = m;
      call.span.addEvent('forecasting.retry', attributes);
      // The attempt that failed, as a span of its own: it ended as the retry was decided.
      attemptSpan(this.tracer(), call, m, m.attempt, m.attemptStartTime, now(), { status: m.status, errorType: m.status === undefined ? m.errorType : undefined });
    }
    this.metrics().retries.add(1, { 'forecasting.operation': m.operation, 'forecasting.retry.reason': m.reason, 'error.type': m.errorType });
  }

  // --- waits

  waitStart(m: WaitMessage): void {
    const span = this.tracer().startSpan(WAIT_NAMES[m.kind] ?? `forecasts.${m.kind}`, { kind: SpanKind.INTERNAL, attributes: { 'forecasting.wait.kind': m.kind } }, context.active());
    this.#put(m, span);
  }

  waitEnd(m: WaitMessage): void {
    const open = this.#take(m);
    if (!open) return;
    const { span } = open;
    // Each field read once, on its own, as a call's end reads them (another subscriber may replace one).
    const [kind, status, endedBy, error] = [read(m, 'kind'), read(m, 'status'), read(m, 'endedBy'), read(m, 'error')];
    try {
      // Its outcome first: what comes after may be what another subscriber left unreadable.
      if (error !== undefined) fail(span, error);
      const [wakes, questionId, statuses] = [read(m, 'wakes'), read(m, 'questionId'), read(m, 'statuses')];
      const taskIds = read(m, 'taskIds') ?? [];
      const many = kind === 'waitMany' || kind === 'runMany';
      span.setAttributes({
        'forecasting.wait.reads': read(m, 'reads'),
        'forecasting.wait.wakes.poll': wakes?.poll,
        'forecasting.wait.wakes.event': wakes?.event,
        ...(endedBy === undefined ? {} : { 'forecasting.wait.ended_by': endedBy }),
        ...(status === undefined ? {} : { 'forecasting.task_status': status }),
        ...(questionId !== undefined && isId(questionId) ? { 'forecasting.question_id': questionId } : {}),
        ...(!many && taskIds.length === 1 && isId(taskIds[0]!) ? { 'forecasting.task_id': taskIds[0]! } : {}),
        ...(many ? { 'forecasting.task_count': kind === 'runMany' ? sum(statuses) : taskIds.length } : {}),
        ...Object.fromEntries(Object.entries(statuses ?? {}).map(([s, n]) => [`forecasting.wait.tasks.${s}`, n])),
      });
      // The receipts whose events woke it, here or in another process of the fleet.
      for (const link of read(m, 'links') ?? []) {
        const linked = contextOfTraceparent(link);
        if (linked) span.addLink?.({ context: linked, attributes: { 'forecasting.link': 'webhook' } });
      }
    } catch {
      // As a call's end: what could not be read is left out, the duration still recorded.
    } finally {
      span.end();
    }
    this.metrics().waitDuration.record(seconds(open.began), {
      'forecasting.wait.kind': kind,
      ...(status === undefined ? {} : { 'forecasting.task_status': status }),
      ...(endedBy === undefined ? {} : { 'forecasting.wait.ended_by': endedBy }),
      ...(error === undefined ? {} : { 'error.type': errorTypeOf(error) }),
    });
  }

  // --- the fleet's queues

  queueStart(m: QueueMessage): void {
    const span = this.tracer().startSpan(`forecasting.fleet.${m.kind}`, { kind: SpanKind.INTERNAL, attributes: { 'forecasting.queue.kind': m.kind, 'forecasting.operation': m.operation, ...(m.count === undefined ? {} : { 'forecasting.slots': m.count }) } }, this.#parent(m.parent));
    this.#put(m, span);
  }

  queueEnd(m: QueueMessage): void {
    const open = this.#take(m);
    if (!open) return;
    try {
      if (m.error !== undefined) fail(open.span, m.error);
    } finally {
      open.span.end();
    }
    this.metrics().queueDuration.record(seconds(open.began), { 'forecasting.queue.kind': m.kind });
  }

  /** The fleet turned local (an outage) or shared again: a span of its own, the moment it happened (its `error.type` a code: {@link outageErrorType}). */
  coordinator(m: CoordinatorMessage): void {
    const span = this.tracer().startSpan(
      `forecasting.fleet.${m.mode}`,
      { kind: SpanKind.INTERNAL, attributes: { 'forecasting.fleet.mode': m.mode, ...(m.errorType === undefined ? {} : { 'error.type': outageErrorType(m.errorType) }), ...(m.outageMs === undefined ? {} : { 'forecasting.fleet.outage_ms': m.outageMs }) } },
      ROOT_CONTEXT,
    );
    span.end();
  }

  // --- webhook receivers

  /** Opens the SERVER span of a webhook call, from when the receiver began reading it; its traceparent travels with the event. */
  webhookStart(m: WebhookMessage): void {
    const span = this.tracer().startSpan(
      'forecasting.webhook',
      { kind: SpanKind.SERVER, startTime: m.startTime, attributes: m.deliveryId === undefined ? {} : { 'forecasting.delivery_id': m.deliveryId } },
      context.active(),
    );
    this.#put(m, span);
    m.traceparent = traceparentOf(span);
  }

  webhookEnd(m: WebhookMessage): void {
    const open = this.#take(m);
    if (!open) return;
    const { span } = open;
    const outcome = m.outcome ?? 'refused';
    try {
      if (m.eventType !== undefined) span.updateName(`forecasting.webhook ${m.eventType}`.slice(0, 240));
      span.setAttributes({
        'forecasting.webhook.outcome': outcome,
        ...(m.reason === undefined ? {} : { 'forecasting.webhook.refused_reason': m.reason }),
        ...(m.eventId === undefined ? {} : { 'forecasting.event_id': m.eventId }),
        ...(m.eventType === undefined ? {} : { 'forecasting.event_type': m.eventType }),
        ...(m.taskId === undefined ? {} : { 'forecasting.task_id': m.taskId }),
        ...(m.status === undefined ? {} : { 'http.response.status_code': m.status }),
      });
      if (outcome === 'refused') span.setAttribute('error.type', m.reason ?? 'refused').setStatus({ code: SpanStatusCode.ERROR, message: m.reason ?? 'refused' });
    } finally {
      span.end();
    }
    this.metrics().webhookDeliveries.add(1, { 'forecasting.webhook.outcome': outcome, ...(m.reason === undefined ? {} : { 'forecasting.webhook.refused_reason': m.reason }) });
  }
}

const sum = (counts: Record<string, number> | undefined): number => Object.values(counts ?? {}).reduce((a, b) => a + b, 0);
