/**
 * Reading option values: whole numbers and seconds for the CLI's own options (a bad one is a
 * usage error naming the flag), and the question fields, passed on as typed as they can be so
 * that the SDK's checks give the message for a bad one.
 * @module
 */
import { CliError } from './exit-codes.js';

/** Plain decimal digits, as a person types a count: not `0x50`, `1e3`, ` 5` or `-0`. */
const DIGITS = /^\d+$/;
/** A plain decimal number of seconds or a scale (`90`, `1.5`, `.5`): not `0x10`, `1e3` or `Infinity`. */
const DECIMAL = /^(\d+\.?\d*|\.\d+)$/;

/**
 * A whole number from `min` to `max` from `--flag`, written in decimal digits, or `undefined` when
 * absent. `Number()` alone took `0x50` as 80 and an empty value as 0 (`--port ''`: any free port).
 */
export function wholeNumber(value: unknown, flag: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !DIGITS.test(value) || !(n >= min && n <= max)) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new CliError(`${flag} must be a whole number ${range}, got "${String(value)}"`);
  }
  return n;
}

/** A positive number of seconds from `--flag`, in ms, or `undefined` when absent. */
export function secondsAsMs(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !DECIMAL.test(value) || !Number.isFinite(n)) {
    throw new CliError(`${flag} must be a number of seconds, got "${String(value)}"`);
  }
  return Math.round(n * 1000);
}

/** A positive number from `--flag` (such as a time scale), or `undefined` when absent. */
export function positiveNumber(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !DECIMAL.test(value) || !(n > 0) || !Number.isFinite(n)) {
    throw new CliError(`${flag} must be a positive number, got "${String(value)}"`);
  }
  return n;
}

/**
 * A number for a question field: the number written, or for a date bound an ISO date as whole Unix
 * seconds. Anything else is passed on as written, so the SDK's `ValidationError` names the field.
 */
export function fieldNumber(value: string | undefined, type: unknown): number | string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed !== '' && Number.isFinite(Number(trimmed))) return Number(trimmed);
  if (type === 'date' && /^\d{4}-\d{2}-\d{2}/.test(trimmed)) {
    const ms = Date.parse(trimmed);
    if (Number.isFinite(ms)) return Math.floor(ms / 1000);
  }
  return value;
}

/** A boolean for a question field: `true`/`false` (also yes/no, 1/0; a bare flag is true); anything else as written, for the SDK to refuse. */
export function fieldBoolean(value: string | boolean | undefined): boolean | string | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  const v = value.trim().toLowerCase();
  if (['true', 'yes', '1'].includes(v)) return true;
  if (['false', 'no', '0'].includes(v)) return false;
  return value;
}
