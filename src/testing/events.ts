/**
 * The mock's internal event bus: the forecast state machine announces what happened, and the
 * webhook delivery engine (or a test) listens. Listeners run synchronously, in order.
 * @module
 */

/**
 * A forecast event as the service emits it, before any webhook body is built.
 * @example
 * ```ts
 * service.events.on((event: MockForecastEvent) => console.log(event.type, event.taskId, new Date(event.at)));
 * ```
 */
export interface MockForecastEvent {
  /** The event kind, as in the spec's Events table. */
  type: 'forecast.started' | 'forecast.completed' | 'forecast.failed' | 'forecast.cancelled' | 'forecast.report.completed';
  taskId: string;
  questionId: string;
  /** The forecast's own id; null on started, failed and cancelled. */
  forecastId: string | null;
  /** Only on `forecast.report.completed`: `completed` or `failed`. */
  reportStatus?: 'completed' | 'failed';
  /** Owner of the task (webhooks are per user). */
  ownerId: string;
  /** When it happened, in mock-clock milliseconds. */
  at: number;
}

/**
 * A listener of the {@link MockEventBus}.
 * @example
 * ```ts
 * const listener: MockEventListener = (event) => seen.push(event.type);
 * service.events.on(listener);
 * ```
 */
export type MockEventListener = (event: MockForecastEvent) => void;

/**
 * Where forecast events go inside the mock.
 * @example
 * ```ts
 * service.events.on((event) => console.log(event.type, event.taskId));
 * ```
 */
export class MockEventBus {
  readonly #listeners = new Set<MockEventListener>();

  /** Adds a listener; returns a function that removes it. */
  on(listener: MockEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Announces an event to every listener. */
  emit(event: MockForecastEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}
