/**
 * Small pieces every console page uses: a status, a time, an action button (a same-origin form
 * post), and an error from the service shown with its request id and never the key.
 * @module
 */
import { html, type Html } from './html.js';

/**
 * How often a live page refreshes, from the service calls one refresh makes: 4 s a call, so an open
 * page makes at most 15 requests a minute, a quarter of the key's 60 (the user's scripts share them).
 */
export const liveEvery = (calls: number): number => calls * 4_000;

/** A status word, coloured by its class. */
export const status = (value: string | null | undefined): Html => html`<span class="status status-${String(value ?? 'unknown').replace(/[^a-z_]/g, '')}">${value ?? '—'}</span>`;

/** A timestamp as `YYYY-MM-DD HH:MM:SS` UTC, or a dash. */
export function when(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A button that posts to `action` (with `back`, where to return, and any hidden fields). */
export function postButton(action: string, label: string, back: string, fields: Record<string, string> = {}, danger = false): Html {
  return html`<form class="inline" method="post" action="${action}"><input type="hidden" name="back" value="${back}">${Object.entries(fields).map(
    ([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`,
  )}<button type="submit"${danger ? html` class="danger"` : ''}>${label}</button></form>`;
}

/** An error shown on a page: its type, message and request id, with the key (if quoted) blanked. */
export function errorBox(err: unknown, redact: (text: string) => string): Html {
  const e = err instanceof Error ? err : new Error(String(err));
  const requestId = (e as { requestId?: unknown }).requestId;
  return html`<div class="error" role="alert"><strong>${e.name}</strong>: ${redact(e.message)}${
    typeof requestId === 'string' ? html` <span class="muted">(request <code>${requestId}</code>)</span>` : ''
  }</div>`;
}

/** A form value the console refuses before doing anything: answered 400, naming the field. */
export class FormValueError extends Error {
  override name = 'FormValueError';
  readonly status = 400;
}

/** The HTTP status to answer for an error: the service's 4xx as it is, a bad value in the page's address (the SDK's `ValidationError`) 400, anything else 502. */
export function statusOf(err: unknown): number {
  if (err instanceof Error && err.name === 'ValidationError') return 400;
  const s = (err as { status?: unknown } | null)?.status;
  return typeof s === 'number' && s >= 400 && s < 500 ? s : 502;
}
