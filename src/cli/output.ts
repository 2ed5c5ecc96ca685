/**
 * The output layer every command shares: results on stdout (plain lines for people and scripts, or
 * JSON with `--json`), progress and errors on stderr.
 * @module
 */

/** Writes a line to stdout. */
export function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Writes a line to stderr. */
export function note(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Writes a value to stdout as JSON. */
export function json(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Seconds as `m:ss` (or `h:mm:ss`). */
export function clockTime(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

interface DataLike {
  questionType?: string;
  payload?: { probability?: number; probabilities?: unknown; percentiles?: { p10?: number; p50?: number; p90?: number } };
}

/** The headline of a forecast's number: `probability=0.42`, the likeliest option, or the median with its 80 % range. */
export function numberSummary(data: unknown): string {
  const d = data as DataLike | null | undefined;
  const p = d?.payload;
  if (!p) return '';
  if (typeof p.probability === 'number') return `probability=${p.probability}`;
  if (d.questionType === 'multiple_choice' && p.probabilities && typeof p.probabilities === 'object') {
    const [option, chance] = Object.entries(p.probabilities as Record<string, number>).sort((a, b) => b[1] - a[1])[0] ?? [];
    return option === undefined ? '' : `likeliest=${JSON.stringify(option)} (${chance})`;
  }
  const q = p.percentiles;
  if (q && typeof q.p50 === 'number') {
    const fmt = (x: number | undefined) => (typeof x === 'number' ? (d.questionType === 'date' ? new Date(x * 1000).toISOString().slice(0, 10) : String(Math.round(x * 1000) / 1000)) : '?');
    return `median=${fmt(q.p50)} (p10 ${fmt(q.p10)}, p90 ${fmt(q.p90)})`;
  }
  return '';
}

/** The parts of a task (or a list item) the result line shows. */
export interface TaskLike {
  id?: string;
  taskId?: string;
  status: string;
  completedSubforecastCount?: number | undefined;
  plannedSubforecastCount?: number | undefined;
  forecast?: { forecastData?: unknown } | null;
  forecastData?: unknown;
  error?: { message?: string } | null;
}

/** A task's result line: `<task id>  <status>  <done>/<planned>  <number or failure>`. */
export function taskLine(task: TaskLike): string {
  const id = task.id ?? task.taskId ?? '?';
  const counts = task.plannedSubforecastCount !== undefined ? `${task.completedSubforecastCount ?? 0}/${task.plannedSubforecastCount}` : '';
  const extra = task.status === 'completed' ? numberSummary(task.forecast?.forecastData ?? task.forecastData) : task.status === 'failed' ? (task.error?.message ?? '') : '';
  return [id, task.status, counts, extra].filter((part) => part !== '').join('  ');
}
