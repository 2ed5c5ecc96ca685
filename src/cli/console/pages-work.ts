/**
 * The console's working pages: tasks (live, with cancel), webhooks and their deliveries (with the
 * receiver's answers, replay and a test call), credits and limits, and the mock's clock panel.
 * @module
 */
import { FINAL_STATUSES } from '../output.js';
import { html } from './html.js';
import { progress } from './pages-questions.js';
import type { Answer, Context } from './routes.js';
import { FormValueError, liveEvery, postButton, status, when } from './view.js';

/** The spec's limits per user (the CLI uses the package's public entries only, which do not export them). */
const MAX_ACTIVE_FORECASTS = 50;
const MAX_WEBHOOKS = 5;
const REPLAYABLE = new Set(['failed', 'cancelled']);
/** A delivery in one of these moves no more (until a replay, which leads back to its page). */
const DELIVERY_FINAL = new Set(['succeeded', 'failed', 'cancelled']);
const enc = encodeURIComponent;

/** `GET /tasks`: running tasks with their progress and a cancel button, then the recent ones; refreshed live. */
export async function tasksPage({ client }: Context): Promise<Answer> {
  const items = (await client.forecasts.list({ limit: 50 })).data;
  const row = (t: (typeof items)[number]) =>
    html`<tr><td><a class="id" href="/tasks/${enc(t.taskId)}">${t.taskId}</a></td><td>${status(t.status)}</td><td>${progress(t.completedSubforecastCount, t.plannedSubforecastCount)}</td><td class="muted">${t.progressMessage ?? ''}</td><td class="muted">${when(t.createdAt)}</td><td>${
      FINAL_STATUSES.has(t.status) ? '' : postButton(`/tasks/${enc(t.taskId)}/cancel`, 'Cancel', '/tasks', {}, true)
    }</td></tr>`;
  const running = items.filter((t) => !FINAL_STATUSES.has(t.status));
  const recent = items.filter((t) => FINAL_STATUSES.has(t.status));
  const table = (rows: typeof items, none: string) =>
    rows.length === 0 ? html`<p class="muted">${none}</p>` : html`<table><thead><tr><th>Task</th><th>Status</th><th>Progress</th><th></th><th>Created</th><th></th></tr></thead><tbody>${rows.map(row)}</tbody></table>`;
  const body = html`<h1>Tasks</h1><h2>Running (${running.length})</h2>${table(running, 'Nothing running.')}<h2>Recent</h2>${table(recent, 'No finished task yet.')}`;
  return { title: 'Tasks', body, live: liveEvery(1) };
}

/** `POST /tasks/:id/cancel`. */
export async function cancelTask(context: Context, [id]: string[]): Promise<Answer> {
  await context.client.forecasts.cancel(id!);
  return { redirect: context.back(context.form, `/tasks/${enc(id!)}`) };
}

/** `GET /webhooks`: the endpoints (with a test call), and their deliveries newest first (with replay for a failed or cancelled one). */
export async function webhooksPage({ client }: Context): Promise<Answer> {
  const [hooks, deliveries] = await Promise.all([client.webhooks.list({ limit: 100 }), client.webhooks.deliveries.list({ limit: 50 })]);
  const hookRows = hooks.data.map(
    (w) => html`<tr><td><code>${w.url}</code>${w.description ? html`<br><span class="muted">${w.description}</span>` : ''}</td><td>${w.eventKinds.join(', ')}</td><td>${w.enabled ? 'on' : 'off'}</td><td>${status(w.lastDeliveryStatus)}</td><td>${postButton(`/webhooks/${enc(w.id)}/test`, 'Send a test call', '/webhooks')}</td></tr>`,
  );
  const sorted = [...deliveries.data].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  const deliveryRows = sorted.map(
    (d) => html`<tr><td><a class="id" href="/deliveries/${enc(d.id)}">${d.id}</a>${d.isTest ? html` <span class="muted">test</span>` : ''}</td><td>${d.eventKind}</td><td>${status(d.status)}</td><td>${d.attemptCount}</td><td>${d.responseStatus ?? '—'}${d.errorMessage ? html` <span class="muted">${d.errorMessage}</span>` : ''}</td><td class="muted">${when(d.createdAt)}</td><td>${
      REPLAYABLE.has(d.status) ? postButton(`/deliveries/${enc(d.id)}/replay`, 'Replay', '/webhooks') : ''
    }</td></tr>`,
  );
  const body = html`<h1>Webhooks</h1>
<h2>Endpoints (${hooks.data.length} of ${MAX_WEBHOOKS})</h2>
${hookRows.length === 0 ? html`<p class="muted">No webhook. Create one with <code>client.webhooks.create({ url, eventKinds })</code>.</p>` : html`<table><thead><tr><th>Address</th><th>Events</th><th>Enabled</th><th>Last delivery</th><th></th></tr></thead><tbody>${hookRows}</tbody></table>`}
<h2>Deliveries</h2>
${deliveryRows.length === 0 ? html`<p class="muted">No delivery yet.</p>` : html`<table><thead><tr><th>Delivery</th><th>Event</th><th>Status</th><th>Attempts</th><th>Receiver's answer</th><th>Created</th><th></th></tr></thead><tbody>${deliveryRows}</tbody></table>`}`;
  return { title: 'Webhooks', body, live: liveEvery(2) };
}

/** `POST /webhooks/:id/test`: the service sends a test event; its delivery is shown. */
export async function testWebhook(context: Context, [id]: string[]): Promise<Answer> {
  const delivery = await context.client.webhooks.test(id!);
  return { redirect: `/deliveries/${enc(delivery.id)}` };
}

/** `GET /deliveries/:id`: a delivery and each attempt with the receiver's answer; live until it succeeded, failed or was cancelled. */
export async function deliveryPage({ client }: Context, [id]: string[]): Promise<Answer> {
  const [delivery, attempts] = await Promise.all([client.webhooks.deliveries.retrieve(id!), client.webhooks.deliveries.listAttempts(id!, { limit: 100 })]);
  const rows = attempts.data.map(
    (a) => html`<tr><td>${a.attemptNumber ?? '—'}</td><td>${a.responseStatus ?? 'no answer'}</td><td>${a.errorMessage ?? ''}</td><td>${a.durationMs ?? '—'}</td><td class="muted">${when(a.startedAt)}</td></tr>`,
  );
  const body = html`<h1>Delivery <code>${delivery.id}</code></h1>
<p>${status(delivery.status)} · ${delivery.eventKind} to <code>${delivery.endpointUrl}</code> · ${delivery.attemptCount} attempt(s), ${delivery.retriesRemaining} retries left${delivery.nextAttemptAt ? `, next at ${when(delivery.nextAttemptAt)}` : ''}
${REPLAYABLE.has(delivery.status) ? postButton(`/deliveries/${enc(delivery.id)}/replay`, 'Replay', `/deliveries/${enc(delivery.id)}`) : ''}</p>
<h2>Attempts</h2>
${rows.length === 0 ? html`<p class="muted">No attempt yet.</p>` : html`<table><thead><tr><th>#</th><th>Receiver's answer</th><th>Error</th><th>ms</th><th>Started</th></tr></thead><tbody>${rows}</tbody></table>`}
<p><a href="/webhooks">All deliveries</a></p>`;
  return { title: `Delivery ${delivery.id}`, body, ...(DELIVERY_FINAL.has(delivery.status) ? {} : { live: liveEvery(2) }) };
}

/** `POST /deliveries/:id/replay`: sent again, as a new attempt of the same delivery. */
export async function replayDelivery(context: Context, [id]: string[]): Promise<Answer> {
  await context.client.webhooks.deliveries.replay(id!);
  return { redirect: context.back(context.form, `/deliveries/${enc(id!)}`) };
}

/** `GET /credits`: the balance and plan, and the limits of the key as this client counts them. */
export async function creditsPage({ client }: Context): Promise<Answer> {
  const [credits, tasks, hooks] = await Promise.all([client.credits.retrieve(), client.forecasts.list({ limit: 100 }), client.webhooks.list({ limit: 100 })]);
  const active = tasks.data.filter((t) => !FINAL_STATUSES.has(t.status)).length;
  const card = (label: string, value: string, note = '') => html`<div class="card"><span class="muted">${label}</span><b>${value}</b><span class="muted">${note}</span></div>`;
  const body = html`<h1>Credits</h1>
<div class="grid">${card('Balance', credits.unlimited ? 'unlimited' : String(credits.balance), `plan ${credits.plan.name} (${credits.plan.status})`)}${card('Running forecasts', `${active}${tasks.hasMore ? '+' : ''} of ${MAX_ACTIVE_FORECASTS}`, 'per user')}${card('Webhooks', `${hooks.data.length} of ${MAX_WEBHOOKS}`, 'per user')}${card('Requests', '60 a minute', 'per key, unless an operator set another')}</div>
<h2>Prices</h2>
<table><thead><tr><th>What</th><th>Credits</th></tr></thead><tbody>${credits.prices.map((p) => html`<tr><td><code>${p.key}</code></td><td>${p.credits}</td></tr>`)}</tbody></table>`;
  return { title: 'Credits', body };
}

/** `GET /mock`: the mock's clock, buttons to move it, and how a question's later forecasts end. */
export async function mockPage({ mock, client }: Context): Promise<Answer> {
  const [clock, questions] = await Promise.all([mock!.clock(), client.questions.list({ limit: 50 })]);
  const advance = (ms: number, label: string) => postButton('/mock/advance', label, '/mock', { ms: String(ms) });
  const body = html`<h1>Mock clock</h1>
<p>Mock time: <strong id="mock-now">${clock.iso}</strong> <span class="muted">(${clock.kind}${clock.timeScale ? `, ${clock.timeScale}× real time` : ''})</span></p>
<p>${advance(60_000, '+1 minute')} ${advance(600_000, '+10 minutes')} ${advance(3_600_000, '+1 hour')} ${advance(86_400_000, '+1 day')}</p>
<h2>How a question's next forecasts end</h2>
<form method="post" action="/mock/outcome"><input type="hidden" name="back" value="/mock">
<input name="questionId" list="question-ids" size="38" placeholder="question id" aria-label="Question id" required><datalist id="question-ids">${questions.data.map((q) => html`<option value="${q.id}">${q.title}</option>`)}</datalist>
<select name="outcome" aria-label="Outcome"><option value="completed">completed</option><option value="failed">failed</option><option value="cancelled">cancelled</option><option value="report-failed">report failed</option></select>
<input name="message" placeholder="message (failed)" aria-label="Message"> <button type="submit">Set</button></form>`;
  // Not live: a refresh would reset the outcome form while it is being filled in.
  return { title: 'Mock clock', body };
}

/** `POST /mock/advance` with `ms`. */
export async function mockAdvance(context: Context): Promise<Answer> {
  const ms = Number(context.form.get('ms'));
  if (!Number.isInteger(ms) || ms < 0) throw new FormValueError('ms: must be a whole number of milliseconds, 0 or more');
  await context.mock!.advance(ms);
  return { redirect: context.back(context.form, '/mock') };
}

/** `POST /mock/outcome` with `questionId`, `outcome` and `message`. */
export async function mockOutcome(context: Context): Promise<Answer> {
  const questionId = context.form.get('questionId') ?? '';
  const outcome = context.form.get('outcome') ?? '';
  const message = context.form.get('message') || undefined;
  const body = outcome === 'report-failed' ? { report: 'failed' } : { task: outcome, ...(outcome === 'failed' && message ? { message } : {}) };
  await context.mock!.setOutcome(questionId, body);
  return { redirect: context.back(context.form, '/mock') };
}
