/**
 * The public face of the SDK's event emitters: typed `on`/`once`/`off`. The implementation is
 * eventemitter3, bundled into `dist`; this interface keeps the published type declarations free of
 * it, so they import nothing but the package's own files and its dependencies.
 * @module
 */

/**
 * A typed event emitter, for example `client.forecasts.progress`.
 * @example
 * ```ts
 * const onDone = (p: ForecastProgress) => console.log(p.taskId, p.status);
 * client.forecasts.progress.on('done', onDone);
 * client.forecasts.progress.off('done', onDone);
 * ```
 */
export interface TypedEmitter<Events extends { [E in keyof Events]: (...args: never[]) => void }> {
  /** Calls `listener` on every `event`. */
  on<E extends keyof Events>(event: E, listener: Events[E]): this;
  /** Calls `listener` on the next `event` only. */
  once<E extends keyof Events>(event: E, listener: Events[E]): this;
  /** Removes `listener` (or, without one, every listener of `event`). */
  off<E extends keyof Events>(event: E, listener?: Events[E]): this;
  /** Removes every listener of `event`, or of every event. */
  removeAllListeners(event?: keyof Events): this;
  /** How many listeners `event` has. */
  listenerCount(event: keyof Events): number;
}
