/**
 * The fleet's time: what the scripts score with (see scripts.ts).
 * @module
 */
import type { ClientClock } from '../core/clock.js';

/**
 * The `now` a script is given: the clock's time when it is simulated (a test's manual clock, shared
 * by every process of the fleet), else `''`, for Redis's own `TIME`, so that no process's clock
 * (slow, fast, or set by hand) decides what the fleet counts. @internal
 */
export const fleetNowArg = (clock: ClientClock): number | '' => (clock.simulated === true ? clock.now() : '');
