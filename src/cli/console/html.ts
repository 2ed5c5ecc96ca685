/**
 * HTML built from template literals where every value is escaped unless it is already {@link Html}:
 * text from the service (a title, an option, an error message) can never become markup.
 * @module
 */

import { escapeControls } from '../output.js';

/** Markup known to be safe: built by {@link html}, or SVG from the console's own renderers. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text as XML or HTML text or an attribute value. What a terminal must not get as it is, a page must
 * not either: control characters and the bidi and invisible ones (an override that makes `0.6` read
 * `6.0`) show as visible escapes, as the CLI prints them; a lone surrogate (XML cannot hold it) as U+FFFD.
 * @example
 * ```ts
 * escapeXml('<b class="x">'); // '&lt;b class=&quot;x&quot;&gt;'
 * ```
 */
export const escapeXml = (text: string): string =>
  escapeControls(text)
    .replace(/[\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/[&<>"']/g, (c) => ESCAPES[c]!);

function piece(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(piece).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeXml(String(value));
}

/** A fragment of HTML: values escaped, {@link Html} and arrays of it kept, `undefined`/`null`/`false` left out. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += piece(value) + strings[i + 1]!;
  });
  return new Html(out);
}

/** Markup made elsewhere and known to be safe (the SVG renderers escape their own text). */
export const trusted = (markup: string): Html => new Html(markup);
