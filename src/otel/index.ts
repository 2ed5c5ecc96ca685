/**
 * `forecasting-sdk/otel`: OpenTelemetry traces and metrics of the client's calls, attempts, retries,
 * waits, fleet queues and webhook receivers. {@link ForecastingInstrumentation} subscribes to the
 * diagnostics channels the SDK publishes on (`CHANNELS` of `forecasting-sdk`) and turns their
 * messages into spans and metrics through `@opentelemetry/api`, an optional peer dependency: a user
 * without OpenTelemetry installs nothing more, and a client nobody observes pays nothing.
 *
 * @example
 * ```ts
 * import { NodeSDK } from '@opentelemetry/sdk-node';
 * import { ForecastingInstrumentation } from 'forecasting-sdk/otel';
 *
 * new NodeSDK({ instrumentations: [new ForecastingInstrumentation()] }).start();
 * ```
 * @module
 */
import diagnostics from 'node:diagnostics_channel';
import { metrics, trace, type Meter, type MeterProvider, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { CHANNELS, type CoordinatorMessage, type OperationMessage, type QueueMessage, type RetryMessage, type WaitMessage, type WebhookMessage } from '../core/channels.js';
import { VERSION } from '../version.js';
import { bindCallContext } from './active.js';
import { instruments, type Instruments } from './instruments.js';
import { Telemetry } from './telemetry.js';

/**
 * Options of {@link ForecastingInstrumentation}, as OpenTelemetry's instrumentations take them.
 * @example
 * ```ts
 * const instrumentation = new ForecastingInstrumentation({ enabled: false }); // registerInstrumentations enables it
 * ```
 */
export interface ForecastingInstrumentationConfig {
  /** Subscribe to the channels at construction (default `true`), as OpenTelemetry's instrumentations do. */
  enabled?: boolean | undefined;
}

/** The handlers of one tracing channel, as `node:diagnostics_channel` takes them. */
type TracingHandlers = Parameters<ReturnType<typeof diagnostics.tracingChannel>['subscribe']>[0];

const NAME = 'forecasting-sdk';

/**
 * The OpenTelemetry instrumentation of forecasting-sdk. Register it as any other: with
 * `registerInstrumentations({ instrumentations: [new ForecastingInstrumentation()] })` or
 * `new NodeSDK({ instrumentations: [new ForecastingInstrumentation()] })`. It uses the global tracer
 * and meter providers, or those given to it (`setTracerProvider`, `setMeterProvider`, which
 * `registerInstrumentations` calls); `disable()` unsubscribes it.
 *
 * It makes one CLIENT span per operation call (named after the operation, `forecasts.create`), one
 * per HTTP attempt inside a call that retried, an event per retry, one span per wait with its reads inside, one per
 * wait in the fleet's queues, one SERVER span per webhook call answered by a ready-made receiver; and
 * the metrics `forecasting.client.operation.duration`, `forecasting.client.retries`,
 * `forecasting.wait.duration`, `forecasting.fleet.queue.duration` and `forecasting.webhook.deliveries`.
 * Every name and attribute is listed in docs/observability.md.
 *
 * @example
 * ```ts
 * import { registerInstrumentations } from '@opentelemetry/instrumentation';
 * import { ForecastingInstrumentation } from 'forecasting-sdk/otel';
 *
 * const instrumentation = new ForecastingInstrumentation();
 * registerInstrumentations({ instrumentations: [instrumentation] });
 * // … later, to stop:
 * instrumentation.disable();
 * ```
 */
export class ForecastingInstrumentation {
  /** The instrumentation's name (its tracer's and meter's): `forecasting-sdk`. */
  readonly instrumentationName = NAME;
  /** The package's version. */
  readonly instrumentationVersion = VERSION;
  #enabled = false;
  #tracerProvider: TracerProvider | undefined;
  #meterProvider: MeterProvider | undefined;
  #tracer: Tracer | undefined;
  #instruments: Instruments | undefined;
  readonly #telemetry = new Telemetry(
    () => (this.#tracer ??= (this.#tracerProvider ?? trace.getTracerProvider()).getTracer(NAME, VERSION)),
    () => (this.#instruments ??= instruments(this.#meter())),
  );
  /** Makes a call's span the active one while it runs, when `fetch` is instrumented (`active.ts`). */
  readonly #callContext = (m: OperationMessage) => this.#telemetry.callContext(m);
  /** Unsubscribes what starts spans (and the plain channels): undone by `disable()` at once. */
  #starts: Array<() => void> = [];
  /** Unsubscribes what ends them: undone once the spans open at `disable()` have ended. */
  #ends: Array<() => void> = [];

  /** @param config - `enabled: false` to subscribe only once registered (or `enable()` is called) */
  constructor(config: ForecastingInstrumentationConfig = {}) {
    if (config.enabled !== false) this.enable();
  }

  /** Uses this tracer provider from now on (else the global one). */
  setTracerProvider(provider: TracerProvider): void {
    this.#tracerProvider = provider;
    this.#tracer = undefined;
    // `registerInstrumentations` calls it once the app has set its providers (and context manager).
    if (this.#enabled) bindCallContext(this.#callContext, true);
  }

  /** Uses this meter provider from now on (else the global one); the instruments are made anew on it. */
  setMeterProvider(provider: MeterProvider): void {
    this.#meterProvider = provider;
    this.#instruments = undefined;
  }

  /**
   * `{ enabled }`: whether it is subscribed now (`registerInstrumentations` enables one that is not).
   * Always set: OpenTelemetry's `Instrumentation` type takes no `undefined` there under `exactOptionalPropertyTypes`.
   */
  getConfig(): { enabled: boolean } {
    return { enabled: this.#enabled };
  }

  /** Enables (`enabled: true`) or disables it. */
  setConfig(config: ForecastingInstrumentationConfig = {}): void {
    if (config.enabled === false) this.disable();
    else if (config.enabled === true) this.enable();
  }

  /** Subscribes to the SDK's channels (again after `disable()`). */
  enable(): void {
    if (this.#enabled) return;
    this.#enabled = true;
    const t = this.#telemetry;
    // Spans a `disable()` left open may still be ending: their end handlers stay, and are not doubled.
    t.whenIdle(undefined);
    const ends = this.#ends.length === 0;
    const active = () => this.#enabled && bindCallContext(this.#callContext, true);
    // Also once the code that enabled it has run (NodeSDK sets its context manager after), and as
    // each call starts (for the calls after it).
    active();
    queueMicrotask(active);
    const operationStart = (m: OperationMessage) => {
      active();
      t.operationStart(m);
    };
    this.#traced<OperationMessage>(CHANNELS.operation, operationStart, (m) => t.operationEnd(m), ends);
    this.#traced<WaitMessage>(CHANNELS.wait, (m) => t.waitStart(m), (m) => t.waitEnd(m), ends);
    this.#traced<QueueMessage>(CHANNELS.queue, (m) => t.queueStart(m), (m) => t.queueEnd(m), ends);
    this.#traced<WebhookMessage>(CHANNELS.webhook, (m) => t.webhookStart(m), (m) => t.webhookEnd(m), ends);
    this.#plain<RetryMessage>(CHANNELS.retry, (m) => t.retry(m));
    this.#plain<CoordinatorMessage>(CHANNELS.coordinator, (m) => t.coordinator(m));
  }

  /**
   * Unsubscribes: no span starts from now on. A span open now (a call or a wait under way) still
   * ends with its outcome, when it does; then nothing more is read. Never ended, it would be lost
   * with the spans drawn inside it left without their parent.
   */
  disable(): void {
    if (!this.#enabled) return;
    this.#enabled = false;
    bindCallContext(this.#callContext, false);
    for (const stop of this.#starts.splice(0)) stop();
    this.#telemetry.whenIdle(() => {
      // Unless enabled again meanwhile (its spans end through these same handlers).
      if (!this.#enabled) for (const stop of this.#ends.splice(0)) stop();
    });
  }

  #meter(): Meter {
    return (this.#meterProvider ?? metrics.getMeterProvider()).getMeter(NAME, VERSION);
  }

  /**
   * Subscribes to a tracing channel. A message names its parent's (a call's for its retries, a
   * wait's for its reads): no async context of ours runs, which would cost every promise of the
   * process (async hooks, on Node 20).
   */
  #traced<M extends object>(name: string, start: (m: M) => void, end: (m: M) => void, withEnd: boolean): void {
    const channel = diagnostics.tracingChannel(name);
    const guard = (f: (m: M) => void) => (message: unknown) => {
      // A subscriber that throws would throw into the client's call: telemetry never fails a call.
      try {
        f(message as M);
      } catch {
        // Nothing to do: a span lost is better than a call failed.
      }
    };
    // Only the events it reads: an event nobody subscribes to costs its publisher nothing.
    const starts = { start: guard(start) } as Partial<TracingHandlers> as TracingHandlers;
    channel.subscribe(starts);
    this.#starts.push(() => void channel.unsubscribe(starts));
    if (!withEnd) return;
    const ends = { asyncEnd: guard(end) } as Partial<TracingHandlers> as TracingHandlers;
    channel.subscribe(ends);
    this.#ends.push(() => void channel.unsubscribe(ends));
  }

  #plain<M>(name: string, on: (m: M) => void): void {
    const handler = (message: unknown) => {
      try {
        on(message as M);
      } catch {
        // Telemetry never fails the code that publishes.
      }
    };
    diagnostics.subscribe(name, handler);
    this.#starts.push(() => void diagnostics.unsubscribe(name, handler));
  }
}
