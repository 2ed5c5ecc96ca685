/**
 * The console's question pages: the list (and search), a question with its latest forecast drawn
 * and its history as a chart, and a task with its progress and its forecast.
 * @module
 */
import { FINAL_STATUSES, numberSummary } from '../output.js';
import { html, trusted, type Html } from './html.js';
import type { Answer, Context } from './routes.js';
import { forecastSvg, historySvg, type HistoryPoint } from './svg.js';
import { liveEvery, postButton, status, when } from './view.js';


/** `GET /questions?q=…`: yours newest first, or a search of those you can see. */
export async function questionsPage({ client, url }: Context): Promise<Answer> {
  const q = url.searchParams.get('q')?.trim() ?? '';
  const cursor = url.searchParams.get('cursor') ?? undefined;
  const offset = Math.max(0, Math.floor(Number(url.searchParams.get('offset')) || 0));
  const page = q ? await client.questions.browse({ q, limit: 50, offset }) : await client.questions.list({ limit: 50, ...(cursor ? { cursor } : {}) });
  // The next page: by cursor for your questions, by offset for a search.
  const older = !page.hasMore ? undefined : q ? `/questions?${new URLSearchParams({ q, offset: String(offset + page.data.length) })}` : page.nextCursor ? `/questions?${new URLSearchParams({ cursor: page.nextCursor })}` : undefined;
  const rows = page.data.map(
    (question) => html`<tr><td><a href="/questions/${encodeURIComponent(question.id)}">${question.title}</a></td><td>${question.type}</td><td class="muted">${when(question.createdAt)}</td></tr>`,
  );
  const body = html`<h1>Questions</h1>
<form method="get" action="/questions" role="search"><input type="search" name="q" value="${q}" placeholder="Search titles" aria-label="Search questions"> <button type="submit">Search</button></form>
${rows.length === 0 ? html`<p class="muted">${q ? 'No question matches.' : 'No question yet.'}</p>` : html`<table><thead><tr><th>Title</th><th>Type</th><th>Created</th></tr></thead><tbody>${rows}</tbody></table>`}
${older ? html`<p><a href="${older}" rel="next">Older questions</a></p>` : ''}`;
  return { title: 'Questions', body };
}

/** What a read answers, or `undefined` for a 404 (a question without a schedule or a watch). */
const absent = <T>(read: Promise<T>): Promise<T | undefined> =>
  read.catch((err: unknown) => {
    if ((err as { status?: unknown } | null)?.status === 404) return undefined;
    throw err;
  });

/** A chart in its frame, or a line saying why there is none. */
const chart = (svg: string, none: string): Html => (svg ? html`<div class="chart">${trusted(svg)}</div>` : html`<p class="muted">${none}</p>`);

/** `GET /questions/:id`: the question, its latest forecast drawn, and its history (forecasts of every origin: by hand, schedule, watch). */
export async function questionPage({ client }: Context, [id]: string[]): Promise<Answer> {
  const [question, forecasts, schedule, watch] = await Promise.all([
    client.questions.retrieve(id!),
    client.questions.forecasts.list(id!, { limit: 100 }),
    absent(client.questions.schedule.retrieve(id!)),
    absent(client.questions.watch.retrieve(id!)),
  ]);
  const items = forecasts.data;
  const done = items.filter((f) => f.status === 'completed' && f.forecastData);
  const latest = done[0];
  const points: HistoryPoint[] = done.flatMap((f) => (f.createdAt ? [{ at: Date.parse(f.createdAt), data: f.forecastData }] : [])).sort((a, b) => a.at - b.at);
  const rows = items.map(
    (f) => html`<tr><td><a class="id" href="/tasks/${encodeURIComponent(f.taskId)}">${f.taskId}</a></td><td>${status(f.status)}</td><td>${f.autoforecast ?? 'by hand'}</td><td>${numberSummary(f.forecastData)}</td><td class="muted">${when(f.createdAt)}</td></tr>`,
  );
  const body = html`<h1>${question.title}</h1>
<p class="muted"><code>${question.id}</code> · ${question.type} · created ${when(question.createdAt)}</p>
<p class="muted">${schedule ? `Schedule: every ${schedule.intervalCount} ${schedule.intervalUnit}, ${schedule.occurrenceCount} run so far, next ${when(schedule.nextDueAt)}` : 'No schedule'} · ${
    watch ? `Watch: ${watch.enabled ? 'on' : 'off'}${typeof watch.changeThreshold === 'number' ? `, change threshold ${watch.changeThreshold}` : ''}` : 'No watch'
  }</p>
<h2>Latest forecast</h2>
${latest ? html`<p>${numberSummary(latest.forecastData)} <span class="muted">(${when(latest.createdAt)})</span></p>` : ''}
${chart(latest ? forecastSvg(latest.forecastData, { title: question.title }) : '', 'No completed forecast yet.')}
<h2>History</h2>
${chart(historySvg(points), 'No history yet: it grows with each completed forecast, by hand, by schedule or by watch.')}
<h2>Forecasts</h2>
${rows.length === 0 ? html`<p class="muted">None yet.</p>` : html`<table><thead><tr><th>Task</th><th>Status</th><th>Started</th><th>Number</th><th>Created</th></tr></thead><tbody>${rows}</tbody></table>`}`;
  return { title: question.title, body };
}

/** A task's progress: a bar of subforecasts done of planned. */
export const progress = (done: number | undefined, planned: number | undefined): Html =>
  planned ? html`<progress value="${done ?? 0}" max="${planned}"></progress> <span class="muted">${done ?? 0}/${planned}</span>` : html`<span class="muted">—</span>`;

/** A completed task's report: its short text once written, else where it stands (being written, or failed). */
function reportOf(report: { status: string; short: string | null } | undefined): Html | string {
  if (!report) return '';
  if (report.short) return html`<h2>Report</h2><p>${report.short}</p>`;
  const said: Record<string, string> = { failed: 'The report failed: the forecast stands without it.', pending: 'The report is not written yet.', writing: 'The report is being written.' };
  return html`<h2>Report</h2><p class="muted">${said[report.status] ?? `Report: ${report.status}`}</p>`;
}

/** `GET /tasks/:id`: status and progress (live while it runs), its forecast drawn once completed, or why it failed. */
export async function taskPage({ client }: Context, [id]: string[]): Promise<Answer> {
  const task = await client.forecasts.retrieve(id!);
  const final = FINAL_STATUSES.has(task.status);
  const data = task.forecast?.forecastData;
  const body = html`<h1>Task <code>${task.id}</code></h1>
<p>${status(task.status)} ${progress(task.completedSubforecastCount, task.plannedSubforecastCount)} ${final ? '' : postButton(`/tasks/${encodeURIComponent(task.id)}/cancel`, 'Cancel', `/tasks/${encodeURIComponent(task.id)}`, {}, true)}</p>
${task.progressMessage && task.progressMessage !== task.error?.message ? html`<p class="muted">${task.progressMessage}</p>` : ''}
<p class="muted">Question <a href="/questions/${encodeURIComponent(task.question.id)}">${task.question.title}</a> · run mode ${task.runMode} · created ${when(task.createdAt)}</p>
${task.status === 'failed' && task.error ? html`<div class="error">${task.error.message}</div>` : ''}
${data ? html`<h2>Forecast</h2><p>${numberSummary(data)}</p>${chart(forecastSvg(data), '')}` : ''}
${reportOf(task.forecast?.report)}`;
  return { title: `Task ${task.id}`, body, ...(final ? {} : { live: liveEvery(1) }) };
}
