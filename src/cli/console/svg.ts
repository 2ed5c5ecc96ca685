/**
 * Forecasts as SVG for the local console: the latest forecast drawn from its {@link shapeOf} (bars,
 * or a histogram with p10, p50 and p90 marked) and a question's forecasts over time. Pure strings,
 * no DOM. The page's Content-Security-Policy allows no inline style, script or outside reference,
 * so the markup carries presentation attributes (readable on its own) and class names (coloured by
 * the console's style sheet, which wins over the attributes). Every text from the service, and
 * every attribute value, goes through {@link escapeXml}: an option label can never become markup.
 * @module
 */
import { axisFraction, axisLabel, endLabels, maxOf, percent, resample, shapeOf, type Shape } from '../shapes.js';
import { escapeXml } from './html.js';

type Histogram = Extract<Shape, { kind: 'histogram' }>;
type Bars = Extract<Shape, { kind: 'bars' }>;
type Attrs = Readonly<Record<string, string | number | undefined>>;
/** A y tick: where it sits (0 bottom to 1 top of the plot) and what it reads. */
interface Tick {
  f: number;
  text: string;
}

/** Colours for a chart seen without the console's style sheet (its CSS overrides them by class). */
const INK = 'currentColor';
const MUTED = '#5d6876';
const ACCENT = '#2f6fdb';
const TRACK = '#d5dbe3';
const SERIES = ['#2f6fdb', '#d9822b', '#1f8a4c', '#c9372c', '#7b52c7'];
const PAD = 10;
/** One line of 12px text, and the width of an average character of it (to fit labels without measuring). */
const LINE = 16;
const CHAR = 7;
const COLUMNS = 60;
const DAY = 86_400;

export { escapeXml };

/** A coordinate rounded to 2 decimals (never `-0`). */
const fixed = (x: number): string => String(Math.round(x * 100) / 100 || 0);

/** An element; numbers rounded, strings escaped, `content` already markup. */
function tag(name: string, attrs: Attrs, content?: string): string {
  const list = Object.entries(attrs)
    .map(([k, v]) => (v === undefined ? '' : ` ${k}="${typeof v === 'number' ? fixed(v) : escapeXml(v)}"`))
    .join('');
  return content === undefined ? `<${name}${list}/>` : `<${name}${list}>${content}</${name}>`;
}

/** A label: the only way text enters a chart, so it is always escaped. */
const text = (x: number, y: number, content: string, attrs: Attrs = {}): string => tag('text', { class: 'label', x, y, fill: INK, ...attrs }, escapeXml(content));
/** A hover tooltip for the element it is put in. */
const tooltip = (content: string): string => `<title>${escapeXml(content)}</title>`;

/** `text` cut to `chars` characters (whole code points), marked as cut. */
function clip(content: string, chars: number): string {
  const points = Array.from(content);
  return points.length <= chars ? content : `${points.slice(0, Math.max(0, chars - 1)).join('')}…`;
}

function root(kind: string, width: number, height: number, label: string, body: readonly string[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${fixed(width)} ${fixed(height)}" role="img" aria-label="${escapeXml(label)}" class="${kind}">${tooltip(label)}<g font-family="system-ui, sans-serif" font-size="12">${body.join('')}</g></svg>`;
}

/** A size asked for, or the default when it is not a usable number; never so small the layout folds. */
const size = (asked: number | undefined, fallback: number, least: number): number => (asked !== undefined && Number.isFinite(asked) && asked > 0 ? Math.max(least, asked) : fallback);

/** Points of a polyline or polygon. */
const pointList = (points: ReadonlyArray<readonly [number, number]>): string => points.map(([x, y]) => `${fixed(x)},${fixed(y)}`).join(' ');

/** The words the chart says, for screen readers and as its tooltip: the few largest bars, or the median and the 80% range. */
function describe(shape: Shape): string {
  if (shape.kind === 'bars') {
    if (shape.single) return `YES ${percent(shape.bars[0]!.p)}`;
    const top = [...shape.bars].sort((a, b) => b.p - a.p).slice(0, 5);
    return top.map((b) => `${b.label} ${percent(b.p)}`).join(', ') + (shape.bars.length > top.length ? ', …' : '');
  }
  const { p10, p50, p90 } = shape.marks;
  const parts = [p50 === undefined ? '' : `median ${axisLabel(shape, p50)}`, p10 === undefined || p90 === undefined ? '' : `80% between ${axisLabel(shape, p10)} and ${axisLabel(shape, p90)}`];
  const said = parts.filter(Boolean).join(', ');
  return said || `distribution from ${axisLabel(shape, shape.edges[0]!)} to ${axisLabel(shape, shape.edges.at(-1)!)}`;
}

/** A row per bar: its label, the bar (over its track for a binary), its percentage. */
function barsSvg(shape: Bars, width: number, height: number | undefined, label: string): string {
  const { bars, single } = shape;
  const pctWidth = 56;
  const longest = maxOf(bars.map((b) => Array.from(b.label).length));
  const labelWidth = Math.min(width * 0.35, Math.max(40, longest * CHAR + 14));
  const h = height ?? PAD * 2 + bars.length * (bars.length > 12 ? 20 : 26);
  const row = (h - PAD * 2) / bars.length;
  const full = width - labelWidth - pctWidth - PAD;
  const body = bars.flatMap((b, i) => {
    const mid = PAD + (i + 0.5) * row;
    const barHeight = Math.max(2, row * 0.64);
    const y = mid - barHeight / 2;
    return [
      text(labelWidth - 8, mid, clip(b.label, Math.floor((labelWidth - 14) / CHAR)), { 'text-anchor': 'end', dy: '0.35em' }),
      single ? tag('rect', { class: 'track', x: labelWidth, y, width: full, height: barHeight, fill: TRACK }) : '',
      tag('rect', { class: 'bar', x: labelWidth, y, width: full * b.p, height: barHeight, fill: ACCENT }, tooltip(`${b.label}: ${percent(b.p)}`)),
      text(width - PAD, mid, percent(b.p), { 'text-anchor': 'end', dy: '0.35em' }),
    ];
  });
  return root('forecast-chart', width, h, label, body);
}

/** p10, p50 and p90 where given: each label centred on its line, on the first row where it touches no other, so close percentiles stack instead of overlapping. */
function placeMarks(shape: Histogram, x0: number, x1: number) {
  const rows: Array<Array<readonly [number, number]>> = [];
  return (['p10', 'p50', 'p90'] as const).flatMap((name) => {
    const value = shape.marks[name];
    if (value === undefined) return [];
    const words = `${name} ${axisLabel(shape, value)}`;
    const half = (words.length * CHAR) / 2;
    const at = x0 + axisFraction(shape, value) * (x1 - x0);
    const centre = Math.min(x1 - half, Math.max(x0 + half, at));
    let row = rows.findIndex((spans) => spans.every(([a, b]) => centre + half + 6 < a || centre - half - 6 > b));
    if (row < 0) row = rows.push([]) - 1;
    rows[row]!.push([centre - half, centre + half]);
    return [{ name, words, at, centre, row }];
  });
}

/** Columns of mass over the axis, the percentiles as dashed lines, the bounds at both ends, and what falls outside them. */
function histogramSvg(shape: Histogram, width: number, height: number | undefined, label: string): string {
  const x0 = PAD;
  const x1 = width - PAD;
  const marks = placeMarks(shape, x0, x1);
  const top = PAD + (marks.length === 0 ? 0 : (maxOf(marks.map((m) => m.row)) + 1) * LINE + 4);
  const [lo, hi] = endLabels(shape);
  // A share that rounds to 0.0% is not worth a caption.
  const some = (p: number) => percent(p) !== percent(0);
  const outside = [some(shape.below) ? `below ${lo}: ${percent(shape.below)}` : '', some(shape.above) ? `above ${hi}: ${percent(shape.above)}` : ''].filter(Boolean);
  const bottom = LINE + (outside.length > 0 ? LINE : 0) + PAD;
  const h = Math.max(height ?? 240, top + bottom + 40);
  const base = h - bottom;
  // A bar per bucket when there are few (a finer grid would draw more detail than the data holds).
  const count = shape.mass.length <= 2 * COLUMNS ? shape.mass.length : COLUMNS;
  const columns = resample(shape, count);
  const most = maxOf(columns);
  const step = (x1 - x0) / count;
  const body = columns.map((m, i) => {
    const ch = most > 0 ? (m / most) * (base - top) : 0;
    return ch <= 0 ? '' : tag('rect', { class: 'column', x: x0 + i * step, y: base - ch, width: step > 3 ? step - 1 : step, height: ch, fill: ACCENT });
  });
  for (const m of marks) {
    const y = top - 4 - m.row * LINE;
    body.push(tag('line', { class: 'mark', x1: m.at, y1: y + 2, x2: m.at, y2: base, stroke: INK, 'stroke-dasharray': '4 3' }));
    body.push(text(m.centre, y, m.words, { 'text-anchor': 'middle' }));
  }
  body.push(tag('line', { class: 'axis', x1: x0, y1: base, x2: x1, y2: base, stroke: MUTED }));
  body.push(text(x0, base + LINE - 2, lo), text(x1, base + LINE - 2, hi, { 'text-anchor': 'end' }));
  if (shape.log) body.push(text((x0 + x1) / 2, base + LINE - 2, 'log scale', { 'text-anchor': 'middle', class: 'label muted' }));
  if (outside.length > 0) body.push(text(x0, base + 2 * LINE - 2, outside.join(' · '), { class: 'label muted' }));
  return root('forecast-chart', width, h, label, body);
}

/**
 * A forecast's `forecastData` drawn as SVG: a bar of YES over its track (binary), a bar per option
 * largest first (multiple choice) or per value (discrete with up to 40), else a histogram of the
 * mass with p10, p50 and p90 marked. `''` when it cannot be drawn.
 * @example
 * ```ts
 * const svg = forecastSvg(task.forecast.forecastData, { title: task.question.title });
 * ```
 */
export function forecastSvg(data: unknown, options: { width?: number; height?: number; title?: string } = {}): string {
  const shape = shapeOf(data);
  if (!shape) return '';
  const width = size(options.width, 640, 200);
  const height = options.height === undefined ? undefined : size(options.height, 240, 40);
  const label = `${options.title ? options.title : 'Forecast'}: ${describe(shape)}`;
  return shape.kind === 'bars' ? barsSvg(shape, width, height, label) : histogramSvg(shape, width, height, label);
}

/** A forecast in the history: when it was made (ms since the epoch) and its `forecastData`. */
export interface HistoryPoint {
  at: number;
  data: unknown;
}

/** What a point of the history says: the chance of YES, a chance per option, or the 80% range and median. */
type Reading =
  | { type: 'binary'; p: number }
  | { type: 'multiple_choice'; probs: ReadonlyMap<string, number> }
  | { type: 'numeric' | 'date' | 'discrete'; p10: number; p50: number; p90: number; log: boolean };

function reading(data: unknown): Reading | undefined {
  const type = (data as { questionType?: unknown } | null | undefined)?.questionType;
  if (type === 'numeric' || type === 'date' || type === 'discrete') {
    const payload = (data as { payload?: { percentiles?: unknown; scaleType?: unknown } | null }).payload;
    const q = (payload?.percentiles ?? {}) as Record<string, unknown>;
    const [p10, p50, p90] = [q['p10'], q['p50'], q['p90']];
    const ok = typeof p10 === 'number' && typeof p50 === 'number' && typeof p90 === 'number' && Number.isFinite(p10) && Number.isFinite(p90) && p10 <= p50 && p50 <= p90;
    return ok ? { type, p10, p50, p90, log: payload?.scaleType === 'logarithmic' } : undefined;
  }
  const shape = shapeOf(data);
  if (shape?.kind !== 'bars') return undefined;
  if (type === 'binary') return { type, p: shape.bars[0]!.p };
  return type === 'multiple_choice' ? { type, probs: new Map(shape.bars.map((b) => [b.label, b.p])) } : undefined;
}

/** A time as `YYYY-MM-DD`, with `HH:MM` when asked (a span under 3 days). */
function dateText(ms: number, withTime: boolean): string {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return String(ms);
  const iso = date.toISOString();
  return withTime ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10);
}

/** 1, 2, 2.5 or 5 times a power of ten, at least `x`: a step ticks read well at (3 to 6 ticks for a sixth of the range). */
function niceStep(x: number): number {
  const power = 10 ** Math.floor(Math.log10(x));
  return ([1, 2, 2.5, 5].find((m) => x <= m * power) ?? 10) * power;
}

/**
 * Round values for a log axis from `e^lo` to `e^hi`: powers of ten when the range holds at least
 * three (every second, third… when it holds more than eight), else 1, 2 and 5 times them, else 1,
 * 1.5, 2, 3, 5 and 7; a range narrower than those ticks at nice steps, as a linear one. Decades are
 * counted from `lo` and `hi` themselves, within what a double holds: `e^lo` may be 0, `e^hi` Infinity.
 */
function logTicks(lo: number, hi: number): number[] {
  const [a, b] = [Math.exp(lo), Math.exp(hi)];
  const from = Math.max(-324, Math.floor(lo / Math.LN10));
  const to = Math.min(309, Math.ceil(hi / Math.LN10));
  if (!(from <= to)) return [];
  for (const marks of [[1], [1, 2, 5], [1, 1.5, 2, 3, 5, 7]]) {
    const inside: number[] = [];
    for (let p = from; p <= to; p++) {
      for (const m of marks) {
        const v = Number((m * 10 ** p).toPrecision(6));
        if (v >= a && v <= b && v > 0 && Number.isFinite(v)) inside.push(v);
      }
    }
    const every = Math.ceil(inside.length / 8);
    if (inside.length >= 3) return inside.filter((_, i) => i % every === 0);
  }
  const step = niceStep((b - a) / 4);
  // Below what a double tells apart (a range of subnormals): no ticks rather than a step of 0.
  if (!(a > 0 && step > 0 && Number.isFinite(b))) return [];
  const linear: number[] = [];
  for (let v = Math.ceil(a / step) * step; v <= b && linear.length < 8; v += step) linear.push(Number(v.toPrecision(6)));
  return linear;
}

/** The value axis of a range chart: where a value sits (0 to 1) and its ticks, in the question's units (dates as dates, log when the question is). */
function valueScale(values: readonly number[], dates: boolean, logAsked: boolean): { f: (v: number) => number; ticks: Tick[] } {
  const log = logAsked && values.every((v) => v > 0);
  const t = log ? Math.log : (v: number) => v;
  let lo = -maxOf(values.map((v) => -t(v)));
  let hi = maxOf(values.map(t));
  // Half the range: from -1e308 to 1e308 the whole one is past what a double holds (its ticks read NaN).
  const half = (a: number, b: number) => b / 2 - a / 2;
  const pad = hi > lo ? half(lo, hi) * 0.1 : dates ? DAY : Math.abs(lo) * 0.1 || 1;
  [lo, hi] = [Math.max(-Number.MAX_VALUE, lo - pad), Math.min(Number.MAX_VALUE, hi + pad)];
  const f = (v: number) => half(lo, t(v)) / half(lo, hi);
  const short = half(lo, hi) < 1.5 * DAY;
  const say = (v: number) => (dates ? dateText(v * 1000, short) : String(Number(v.toPrecision(6))));
  if (log) {
    const round = logTicks(lo, hi);
    // A range no round value falls in (a double's last digits): its two ends.
    return { f, ticks: round.length >= 2 ? round.map((v) => ({ f: f(v), text: say(v) })) : [0, 1].map((k) => ({ f: k, text: String(Number(Math.exp(lo + k * (hi - lo)).toPrecision(3))) })) };
  }
  // Dates tick at whole days (hours when short), numbers at nice steps.
  const unit = dates ? (short ? 3600 : DAY) : 1;
  const step = dates ? Math.max(1, niceStep(half(lo, hi) / unit / 3)) * unit : niceStep(half(lo, hi) / 3);
  const ticks: Tick[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi && ticks.length < 12; v += step) ticks.push({ f: f(v), text: say(v) });
  return { f, ticks: ticks.length >= 2 ? ticks : [0, 1].map((k) => ({ f: k, text: say(k === 0 ? lo : hi) })) };
}

/** Axes of a chart over time: `x` of a time (ms), `y` of a fraction of the value axis (0 bottom, 1 top), and the lines and labels drawn. */
function axes(times: readonly number[], ticks: readonly Tick[], width: number, height: number, top: number) {
  const left = PAD + maxOf(ticks.map((t) => t.text.length)) * CHAR + 6;
  const right = width - PAD;
  const bottom = height - PAD - LINE;
  const [t0, t1] = [times[0]!, times.at(-1)!];
  const x = (at: number) => (t1 === t0 ? (left + right) / 2 : left + ((at - t0) / (t1 - t0)) * (right - left));
  const y = (f: number) => bottom - f * (bottom - top);
  const withTime = t1 - t0 < 3 * DAY * 1000;
  const under = bottom + LINE;
  const parts = ticks.flatMap((t) => [tag('line', { class: 'gridline', x1: left, y1: y(t.f), x2: right, y2: y(t.f), stroke: TRACK }), text(left - 6, y(t.f), t.text, { 'text-anchor': 'end', dy: '0.35em' })]);
  parts.push(tag('line', { class: 'axis', x1: left, y1: top, x2: left, y2: bottom, stroke: MUTED }), tag('line', { class: 'axis', x1: left, y1: bottom, x2: right, y2: bottom, stroke: MUTED }));
  if (t1 === t0) parts.push(text(x(t0), under, dateText(t0, withTime), { 'text-anchor': 'middle' }));
  else {
    parts.push(text(left, under, dateText(t0, withTime)), text(right, under, dateText(t1, withTime), { 'text-anchor': 'end' }));
    // A middle date only where it cannot touch the ends.
    if (right - left > 3 * 17 * CHAR) parts.push(text((left + right) / 2, under, dateText((t0 + t1) / 2, withTime), { 'text-anchor': 'middle' }));
  }
  return { x, y, parts, withTime };
}

/** A series over time: its line (from two points) and a dot per point, each with its tooltip. */
function series(points: ReadonlyArray<readonly [number, number, string]>, cls: string, colour: string): string[] {
  const line = points.length < 2 ? '' : tag('polyline', { class: `line ${cls}`, points: pointList(points.map(([x, y]) => [x, y] as const)), fill: 'none', stroke: colour, 'stroke-width': 2 });
  return [line, ...points.map(([cx, cy, words]) => tag('circle', { class: `dot ${cls}`, cx, cy, r: 3, fill: colour }, tooltip(words)))];
}

const PERCENT_TICKS: Tick[] = [0, 0.25, 0.5, 0.75, 1].map((f) => ({ f, text: `${f * 100}%` }));

/** One line per option, for the 5 options likeliest at the latest forecast, with a legend above. */
function choiceHistory(read: ReadonlyArray<{ at: number; r: Extract<Reading, { type: 'multiple_choice' }> }>, width: number, height: number): string[] {
  const options = [...read.at(-1)!.r.probs].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([name]) => name);
  const ax = axes(read.map((p) => p.at), PERCENT_TICKS, width, height, PAD + LINE + 8);
  const slot = (width - 2 * PAD) / options.length;
  const parts = [...ax.parts];
  options.forEach((name, i) => {
    const cls = `series-${i}`;
    const points = read.flatMap(({ at, r: { probs } }) => {
      const p = probs.get(name);
      return p === undefined ? [] : [[ax.x(at), ax.y(p), `${dateText(at, ax.withTime)} ${name}: ${percent(p)}`] as const];
    });
    parts.push(...series(points, cls, SERIES[i]!));
    const x = PAD + i * slot;
    parts.push(tag('rect', { class: `swatch ${cls}`, x, y: PAD, width: 10, height: 10, fill: SERIES[i]! }), text(x + 14, PAD + 5, clip(name, Math.floor((slot - 20) / CHAR)), { dy: '0.35em' }));
  });
  return parts;
}

/** The 80% range as a shaded band and the median as a line, on an axis in the question's units. */
function rangeHistory(read: ReadonlyArray<{ at: number; r: Extract<Reading, { type: 'numeric' | 'date' | 'discrete' }> }>, width: number, height: number): string[] {
  const last = read.at(-1)!.r;
  const dates = last.type === 'date';
  const scale = valueScale(read.flatMap(({ r: { p10, p90 } }) => [p10, p90]), dates, last.log);
  const ax = axes(read.map((p) => p.at), scale.ticks, width, height, PAD);
  const y = (v: number) => ax.y(scale.f(v));
  const say = (v: number) => (dates ? dateText(v * 1000, false) : String(Number(v.toPrecision(5))));
  const upper = read.map(({ at, r }) => [ax.x(at), y(r.p90)] as const);
  const lower = read.map(({ at, r }) => [ax.x(at), y(r.p10)] as const).reverse();
  const [x, y90] = upper[0]!;
  const band =
    read.length > 1
      ? tag('polygon', { class: 'band', points: pointList([...upper, ...lower]), fill: ACCENT, 'fill-opacity': 0.22 })
      : tag('rect', { class: 'band', x: x - 4, y: y90, width: 8, height: Math.max(1, lower[0]![1] - y90), fill: ACCENT, 'fill-opacity': 0.22 });
  const median = read.map(({ at, r }) => [ax.x(at), y(r.p50), `${dateText(at, ax.withTime)}: median ${say(r.p50)} (p10 ${say(r.p10)}, p90 ${say(r.p90)})`] as const);
  const line = median.length < 2 ? '' : tag('polyline', { class: 'median', points: pointList(median.map(([mx, my]) => [mx, my] as const)), fill: 'none', stroke: ACCENT, 'stroke-width': 2 });
  return [...ax.parts, band, line, ...median.map(([cx, cy, words]) => tag('circle', { class: 'dot', cx, cy, r: 3, fill: ACCENT }, tooltip(words)))];
}

/**
 * A question's forecasts over time as SVG: the chance of YES (binary), the 5 likeliest options
 * (multiple choice), or the median inside its p10–p90 band (numeric, date, discrete). Points that
 * cannot be read, or of another type than the latest, are left out; `''` when none is left.
 * @example
 * ```ts
 * const svg = historySvg(forecasts.map((f) => ({ at: Date.parse(f.createdAt), data: f.forecastData })));
 * ```
 */
export function historySvg(points: readonly HistoryPoint[], options: { width?: number; height?: number } = {}): string {
  const read = points
    .flatMap(({ at, data }) => {
      const r = typeof at === 'number' && !Number.isNaN(new Date(at).getTime()) ? reading(data) : undefined;
      return r ? [{ at, r }] : [];
    })
    .sort((a, b) => a.at - b.at);
  const last = read.at(-1);
  if (!last) return '';
  const same = read.filter((p) => p.r.type === last.r.type);
  const width = size(options.width, 640, 240);
  const height = size(options.height, 240, 120);
  const withTime = last.at - same[0]!.at < 3 * DAY * 1000;
  const span = same.length === 1 ? dateText(last.at, withTime) : `${dateText(same[0]!.at, withTime)} to ${dateText(last.at, withTime)}`;
  let parts: string[];
  let latest: string;
  if (last.r.type === 'binary') {
    const binary = same as Array<{ at: number; r: Extract<Reading, { type: 'binary' }> }>;
    const ax = axes(binary.map((p) => p.at), PERCENT_TICKS, width, height, PAD);
    parts = [...ax.parts, ...series(binary.map(({ at, r }) => [ax.x(at), ax.y(r.p), `${dateText(at, ax.withTime)}: YES ${percent(r.p)}`] as const), 'series-0', SERIES[0]!)];
    latest = `YES ${percent(last.r.p)}`;
  } else if (last.r.type === 'multiple_choice') {
    parts = choiceHistory(same as Array<{ at: number; r: Extract<Reading, { type: 'multiple_choice' }> }>, width, height);
    const [name, p] = [...last.r.probs].sort((a, b) => b[1] - a[1])[0]!;
    latest = `${name} ${percent(p)}`;
  } else {
    parts = rangeHistory(same as Array<{ at: number; r: Extract<Reading, { type: 'numeric' | 'date' | 'discrete' }> }>, width, height);
    latest = `median ${last.r.type === 'date' ? dateText(last.r.p50 * 1000, false) : String(Number(last.r.p50.toPrecision(5)))}`;
  }
  const label = `Forecast history: ${same.length} forecast${same.length === 1 ? '' : 's'}, ${span}; latest ${latest}`;
  return root('history-chart', width, height, label, parts);
}
