/**
 * The output layer every command shares: results on stdout (plain lines for people and scripts, or
 * JSON with `--json`), progress and errors on stderr. Every line goes out through
 * {@link escapeControls}, so text from the service (a title, an error message) cannot move the
 * cursor, ring the bell, recolour the terminal, reorder text or forge an extra line.
 * @module
 */

/**
 * What must not reach a terminal as it is: the C0 controls (ESC, BEL, CR, LF, TAB, …), DEL, the C1
 * controls (U+0080–U+009F, which some terminals obey as ESC sequences), the bidi embeddings,
 * overrides, isolates and marks (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), the line and
 * paragraph separators, and the invisible ones a look-alike label hides behind (soft hyphen, zero
 * width space, word joiner and invisible operators, byte-order mark, interlinear annotations, the
 * Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the Mongolian vowel separator, tag characters).
 * Zero-width joiners stay: scripts and emoji need them.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u3164\uffa0\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;
const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` with every character of {@link UNSAFE} written as a visible escape: `\n`, `\r`, `\t`, else
 * `\u001b`-style. The escapes are JSON's own, so the function also serves a JSON document (where
 * `JSON.stringify` leaves DEL, C1 and bidi characters raw), and applying it twice changes nothing.
 * Backslashes are left as they are: a title's own `\` reads as written.
 * @example
 * ```ts
 * escapeControls('Rain?\u001b[2J\nforged line'); // 'Rain?\\u001b[2J\\nforged line'
 * ```
 */
export function escapeControls(text: string): string {
  // A tag character is two UTF-16 units: each is written, as JSON writes a pair.
  return text.replace(UNSAFE, (c) => SHORT[c] ?? Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''));
}

/** Each line of `text` escaped, the line breaks kept (a JSON document, a stack trace). */
export function escapeLines(text: string): string {
  return text.split('\n').map(escapeControls).join('\n');
}

/**
 * A field of a record as a line shows it: `-` for one the service left out (or null, or empty),
 * an object as JSON. The service may add or drop fields; a line never says `undefined`.
 */
export function shown(value: unknown): string {
  if (value === undefined || value === null || value === '') return '-';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * `word` as one shell word: as it is when plainly safe, else single-quoted. For a command we suggest
 * with an id the service gave: copied and run, it must run that command and nothing else.
 */
export const shellWord = (word: string): string => (/^[\w.:@%+=,/-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * `forecasting wait` for `ids` as a shell command: each id one word (see {@link shellWord}), and after
 * `--`, `options` before it, when an id begins with `-` (the service's ids are opaque: `-h` or
 * `--cancel-on-interrupt` would be read as an option).
 */
export function waitCommand(ids: readonly string[], options: readonly string[] = []): string {
  const words = ids.map(shellWord);
  return ['forecasting', 'wait', ...(ids.some((id) => id.startsWith('-')) ? [...options, '--', ...words] : [...words, ...options])].join(' ');
}

/** Writes a line to stdout. */
export function out(line: string): void {
  process.stdout.write(`${escapeControls(line)}\n`);
}

/** Writes a line to stderr. */
export function note(line: string): void {
  process.stderr.write(`${escapeControls(line)}\n`);
}

/** Writes a value to stdout as JSON (its strings escaped as above: the document parses to the same value). */
export function json(value: unknown): void {
  process.stdout.write(`${escapeLines(JSON.stringify(value, null, 2))}\n`);
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

/**
 * `x` rounded to 3 decimals; as it is past 2^53 / 1000, where a double holds no finer digits and
 * `x * 1000` would lose some (1e20 read 99999999999999980000, and 1e306 Infinity).
 */
const thousandths = (x: number): string => String(Math.abs(x) < 2 ** 53 / 1000 ? Math.round(x * 1000) / 1000 : x);

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
    const date = (x: number) => {
      const at = new Date(x * 1000);
      // A date out of Date's range (a hostile or broken answer) reads as its number rather than throwing.
      return Number.isNaN(at.getTime()) ? String(x) : at.toISOString().slice(0, 10);
    };
    const fmt = (x: number | undefined) => (typeof x === 'number' ? (d.questionType === 'date' ? date(x) : thousandths(x)) : '?');
    return `median=${fmt(q.p50)} (p10 ${fmt(q.p10)}, p90 ${fmt(q.p90)})`;
  }
  return '';
}

/** A task's final statuses: no status follows them. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

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
