/**
 * A forecast drawn in the terminal, under its task's line: a bar per outcome, or a histogram of the
 * probability mass with p10, p50 and p90 marked. Unicode blocks on a terminal (eighths of a cell,
 * so small differences show), plain ASCII when piped or with `NO_COLOR` or `TERM=dumb`; never
 * wider than the terminal.
 * @module
 */
import { escapeControls, out, taskLine, type TaskLike } from './output.js';
import { axisFraction, axisLabel, endLabels, maxOf, percent, resample, shapeOf, type Bar, type Shape } from './shapes.js';

/** How to draw: the width to fit and the characters to use. */
export interface DrawStyle {
  /** Columns the lines must fit in. */
  width: number;
  /** Unicode block characters (a terminal), or ASCII only. */
  unicode: boolean;
}

/** The narrowest and widest drawing: past 120 columns a picture gains nothing but length. */
const MIN_WIDTH = 20;
const MAX_WIDTH = 120;
const INDENT = '  ';
const ROWS = 8;
/** Eighths of a cell, from the left (bars) and from the bottom (columns). */
const LEFT_EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
const LOW_EIGHTHS = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/** The locale the environment names (`LC_ALL`, then `LC_CTYPE`, then `LANG`), when one does. */
const localeOf = (env: NodeJS.ProcessEnv) => env['LC_ALL'] || env['LC_CTYPE'] || env['LANG'] || '';

/**
 * The style for a stream: Unicode when it is a terminal and neither `NO_COLOR` (set, not empty),
 * `TERM=dumb` nor a locale that is not UTF-8 (`LANG=C`) says otherwise; its width, or `COLUMNS`, or 80.
 */
export function drawStyle(stream: { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv = process.env): DrawStyle {
  const locale = localeOf(env);
  const unicode = stream.isTTY === true && !env['NO_COLOR'] && env['TERM'] !== 'dumb' && (locale === '' || /utf-?8/i.test(locale));
  // A terminal that reports 0 columns (some pseudo-terminals) counts as not saying.
  const columns = (stream.isTTY === true ? stream.columns : undefined) || Number(env['COLUMNS']) || 80;
  return { unicode, width: Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, Math.floor(columns))) };
}

/** Characters a terminal shows two columns wide: CJK, Hangul, full-width forms, most emoji. */
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u;
/** Marks drawn on the character before them: no column of their own. */
const ZERO = /[\u0300-\u036f\u200c\u200d\ufe00-\ufe0f]/u;

/** Code points a cut text keeps per column at most (a letter and its accents). */
const MARKS_PER_COLUMN = 4;

/** The columns one character takes on a terminal. */
const columnsOfChar = (c: string): number => (ZERO.test(c) ? 0 : WIDE.test(c) ? 2 : 1);

/** The columns `text` takes on a terminal. */
export function columnsOf(text: string): number {
  let n = 0;
  for (const c of text) n += columnsOfChar(c);
  return n;
}

/**
 * `text` cut to `width` columns, marked as cut; in one pass, so a long label costs its length. Marks
 * of no column count too, {@link MARKS_PER_COLUMN} a column: a label of thousands of them (a hostile
 * answer) would take no room but flood the line.
 */
function clip(text: string, width: number, unicode: boolean): string {
  const mark = unicode ? '…' : '...';
  const most = width * MARKS_PER_COLUMN;
  let columns = 0;
  let points = 0;
  let kept = '';
  for (const c of text) {
    columns += columnsOfChar(c);
    points += 1;
    if (columns > width || points > most) return width > mark.length ? `${kept}${mark}` : text.slice(0, width);
    // What fits with the mark after it, should the text turn out too long.
    if (columns <= width - mark.length && points <= most - mark.length) kept += c;
  }
  return text;
}

/** `text` padded with spaces to `width` columns. */
const padTo = (text: string, width: number) => text + ' '.repeat(Math.max(0, width - columnsOf(text)));

function barLines(bars: readonly Bar[], single: boolean, style: DrawStyle): string[] {
  const room = style.width - INDENT.length;
  const pct = 6;
  // Measured as the terminal shows them: escaped first (a control character prints as `\u001b`), wide characters as two.
  const labels = bars.map((b) => escapeControls(b.label));
  const labelWidth = Math.max(1, Math.min(maxOf(labels.map(columnsOf)), Math.floor(room * 0.35)));
  const barWidth = Math.max(3, room - labelWidth - pct - 4);
  return bars.map(({ p }, i) => {
    let bar: string;
    if (style.unicode) {
      const eighths = Math.round(p * barWidth * 8);
      bar = '█'.repeat(Math.floor(eighths / 8)) + LEFT_EIGHTHS[eighths % 8]!;
    } else bar = '#'.repeat(Math.round(p * barWidth));
    bar = bar.padEnd(barWidth, single ? (style.unicode ? '░' : '.') : ' ');
    return `${INDENT}${padTo(clip(labels[i]!, labelWidth, style.unicode), labelWidth)}  ${bar}  ${percent(p).padStart(pct)}`;
  });
}

/** Words placed at columns of a line when they fit without touching another; the rest are left out. */
function placed(width: number, words: ReadonlyArray<{ at: number; text: string }>): string {
  const line = new Array<string>(width).fill(' ');
  for (const { at, text } of words) {
    const start = Math.min(width - text.length, Math.max(0, at - Math.floor(text.length / 2)));
    if (start < 0 || line.slice(Math.max(0, start - 1), start + text.length + 1).some((c) => c !== ' ')) continue;
    for (let i = 0; i < text.length; i++) line[start + i] = text[i]!;
  }
  return line.join('').trimEnd();
}

function histogramLines(shape: Extract<Shape, { kind: 'histogram' }>, style: DrawStyle): string[] {
  const width = Math.max(10, style.width - INDENT.length);
  const columns = resample(shape, width);
  const top = maxOf(columns);
  const lines: string[] = [];
  for (let row = ROWS - 1; row >= 0; row--) {
    const cells = columns.map((m) => {
      const level = top > 0 ? (m / top) * ROWS : 0;
      if (!style.unicode) return Math.round(level) > row ? '#' : row === 0 && m > 0 ? '.' : ' ';
      const eighths = Math.round((level - row) * 8);
      return LOW_EIGHTHS[Math.min(8, Math.max(0, eighths))]!;
    });
    lines.push(`${INDENT}${cells.join('')}`.trimEnd());
  }
  const marks = (['p10', 'p50', 'p90'] as const).flatMap((name) => {
    const x = shape.marks[name];
    return x === undefined ? [] : [{ name, x, at: Math.min(width - 1, Math.floor(axisFraction(shape, x) * width)) }];
  });
  const base = new Array<string>(width).fill(style.unicode ? '─' : '-');
  for (const { at } of marks) base[at] = style.unicode ? '┬' : '+';
  lines.push(`${INDENT}${base.join('')}`);
  lines.push(`${INDENT}${placed(width, marks.map(({ name, at }) => ({ at, text: name })))}`.trimEnd());
  const [lo, hi] = endLabels(shape);
  lines.push(`${INDENT}${lo}${hi.padStart(Math.max(hi.length + 1, width - lo.length))}`);
  const values = marks.map(({ name, x }) => `${name} ${axisLabel(shape, x)}`);
  if (shape.log) values.push('log scale');
  if (values.length > 0) lines.push(`${INDENT}${values.join('   ')}`);
  // Said when there is some to say: a share that rounds to 0.0% is left out.
  const some = (p: number) => percent(p) !== percent(0);
  const beyond = [some(shape.below) ? `below ${lo}: ${percent(shape.below)}` : '', some(shape.above) ? `above ${hi}: ${percent(shape.above)}` : ''].filter(Boolean);
  if (beyond.length > 0) lines.push(`${INDENT}${beyond.join('   ')}`);
  return lines;
}

/**
 * The lines that draw a shape, each at most `style.width` characters.
 * @example
 * ```ts
 * drawShape({ kind: 'bars', bars: [{ label: 'YES', p: 0.42 }], single: true }, { width: 40, unicode: false });
 * // ['  YES  ###########...............   42.0%']
 * ```
 */
export function drawShape(shape: Shape, style: DrawStyle): string[] {
  const lines = shape.kind === 'bars' ? barLines(shape.bars, shape.single, style) : histogramLines(shape, style);
  return lines.map((line) => clip(line, style.width, style.unicode));
}

/** The lines that draw a forecast's `forecastData`; none when it cannot be drawn (an unknown type, a payload that does not fit together). */
export function drawForecast(data: unknown, style: DrawStyle): string[] {
  const shape = shapeOf(data);
  return shape ? drawShape(shape, style) : [];
}

/** Writes a task's result line and, when it completed with a number that can be drawn, its picture under it (for stdout's style). */
export function outTask(task: TaskLike, picture = true): void {
  out(taskLine(task));
  if (!picture || task.status !== 'completed') return;
  for (const line of drawForecast(task.forecast?.forecastData ?? task.forecastData, drawStyle(process.stdout))) out(line);
}
