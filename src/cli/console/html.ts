/**
 * HTML built from template literals where every value is escaped unless it is already {@link Html}:
 * text from the service (a title, an option, an error message) can never become markup.
 * @module
 */

/** Markup known to be safe: built by {@link html}, or SVG from the console's own renderers. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or an attribute value. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

function piece(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(piece).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
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
