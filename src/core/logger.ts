/**
 * Leveled logging through a user-supplied logger. Callers pass only safe fields: no key, no body.
 * @module
 */
import { ValidationError } from './errors.js';

/**
 * Severity levels, least to most severe, plus `off`.
 * @example
 * ```ts
 * new ForecastingClient({ logLevel: 'debug' }); // 'debug' | 'info' | 'warn' (default) | 'error' | 'off'
 * ```
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/**
 * Anything with console-like methods (console, pino, winston).
 * @example
 * ```ts
 * const logger: Logger = { debug() {}, info: console.info, warn: console.warn, error: console.error };
 * new ForecastingClient({ logger, logLevel: 'info' });
 * ```
 */
export interface Logger {
  debug(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
}

/** The levels, least to most severe: a logger has a function for each but `off`. @internal */
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'off'];

/** A logger that drops lines below its level. @internal */
export interface LeveledLogger extends Logger {
  /** Whether lines of `level` are written: callers skip building a message nobody reads. */
  enabled(level: Exclude<LogLevel, 'off'>): boolean;
}

/** `logger` at `level`; a `ValidationError` on `logger` when it lacks a function of a level logged. @internal */
export function leveled(logger: Logger, level: LogLevel): LeveledLogger {
  const enabled = (name: Exclude<LogLevel, 'off'>) => LOG_LEVELS.indexOf(name) >= LOG_LEVELS.indexOf(level);
  const at = (name: Exclude<LogLevel, 'off'>) => {
    // Else the first line logged at this level fails the call that logs it, with a bare TypeError
    // (a level below `level` is never called: a logger without it is taken, as before).
    if (enabled(name) && typeof logger[name] !== 'function') throw new ValidationError('must be a logger (with debug, info, warn, error), such as console', 'logger');
    return (message: string, meta?: Record<string, unknown>) => {
      if (!enabled(name)) return;
      // A logger that throws loses its line, never the call that logs it. No second argument when
      // there is no meta: console would print a stray `undefined`.
      try {
        if (meta === undefined) logger[name](`[forecasting-sdk] ${message}`);
        else logger[name](`[forecasting-sdk] ${message}`, meta);
      } catch {}
    };
  };
  return { enabled, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
