/**
 * Text quoted in a message or a log line (a server's text, an id, a path): one line, cut short.
 * @module
 */

/** Whether `value` is a JSON object: not `null`, not an array. @internal */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `text` cut to `max` characters, marking the cut. @internal */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/**
 * What could forge a log line or drive a terminal from a message: line breaks, the other control
 * characters but the tab (C0, DEL, C1), the line and paragraph separators, the bidirectional
 * overrides and isolates; and what no one sees (the soft hyphen, the zero-width space, the word
 * joiner, the BOM): an id pasted with one reads like the one meant. The zero-width joiners stay
 * (emoji and scripts need them).
 */
const UNPRINTABLE = /\r\n?|[\n\0-\b\v-\x1f\x7f-\x9f\xad\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

/** `text` as one line: each line break a space, every other character of {@link UNPRINTABLE} written as `\uXXXX`. @internal */
export const oneLine = (text: string): string => text.replace(UNPRINTABLE, (c) => (/[\r\n]/.test(c) ? ' ' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));

/**
 * `text` for a message or a log line: cut to `max` characters, on {@link oneLine} (a server's text,
 * an id, a path are quoted with it). @internal
 */
export const clip = (text: string, max: number): string => oneLine(cut(text, max));

/** What `err` says (its `message`, else its text), or a note when reading it throws (a getter, a `toString`). @internal */
export function thrownText(err: unknown): string {
  try {
    return String((err as Error)?.message ?? err);
  } catch {
    return 'a value that cannot be read was thrown';
  }
}
