/**
 * A forecast's number as a picture to draw, the same for the terminal and the console's SVG: bars
 * (binary, multiple choice, discrete with few values) or a histogram of probability mass over an
 * axis (numeric, date, discrete with many values). Reads `forecastData` defensively: a payload of
 * an unknown type, or one whose arrays do not fit together, gives no picture rather than a wrong one.
 * @module
 */

/** One bar: its label and its chance (0 to 1). */
export interface Bar {
  label: string;
  p: number;
}

/** The 10th, 50th and 90th percentiles, where the forecast gives them. */
export interface Marks {
  p10?: number;
  p50?: number;
  p90?: number;
}

/** What a forecast draws as. */
export type Shape =
  | { kind: 'bars'; bars: Bar[]; /** One bar out of a whole (binary): drawn with its track. */ single: boolean }
  | {
      kind: 'histogram';
      /** Probability mass per bucket, `edges.length - 1` of them. */
      mass: number[];
      /** Bucket edges, ascending, in the question's units (Unix seconds for dates). */
      edges: number[];
      marks: Marks;
      /** Mass below the first edge and above the last. */
      below: number;
      above: number;
      /** Values are Unix seconds. */
      dates: boolean;
      /** The axis is logarithmic (every edge positive). */
      log: boolean;
      /** The values named at the ends of the axis, when not its edges (a discrete question's first and last value, not its cells' boundaries). */
      bounds?: [number, number];
    };

/** A discrete question with more values than this is drawn as a histogram: a bar each would scroll off the screen. */
export const MAX_BARS = 40;
/** Options drawn at most (the spec allows 200): past it, the smallest share one bar, so a hostile answer cannot flood a page. */
export const MAX_OPTIONS_DRAWN = 200;

/** The largest of `values` (a loop: spreading a huge array overflows the stack), or -Infinity. */
export function maxOf(values: readonly number[]): number {
  let most = -Infinity;
  for (const v of values) if (v > most) most = v;
  return most;
}

type Payload = Record<string, unknown>;

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const numbers = (x: unknown): number[] | undefined => (Array.isArray(x) && x.every(isNum) ? (x as number[]) : undefined);
const chance = (x: number) => Math.min(1, Math.max(0, x));

function marksOf(p: Payload): Marks {
  const raw = (p['percentiles'] ?? {}) as Record<string, unknown>;
  const marks: Marks = {};
  for (const k of ['p10', 'p50', 'p90'] as const) if (isNum(raw[k])) marks[k] = raw[k];
  return marks;
}

/** A histogram when the edges ascend and there is one mass per bucket; else none. */
function histogram(mass: number[] | undefined, edges: number[] | undefined, p: Payload, dates: boolean, log: boolean): Extract<Shape, { kind: 'histogram' }> | undefined {
  if (!mass || !edges || edges.length < 2 || mass.length !== edges.length - 1) return undefined;
  if (!edges.every((e, i) => i === 0 || e > edges[i - 1]!)) return undefined;
  const inRange = mass.reduce((a, b) => a + chance(b), 0);
  const above = isNum(p['above_upper_probability']) ? chance(p['above_upper_probability']) : 0;
  // The spec gives no "below" figure: what the buckets and the mass above leave, when it is more than rounding.
  const rest = 1 - inRange - above;
  return { kind: 'histogram', mass: mass.map(chance), edges, marks: marksOf(p), below: rest > 0.0005 ? rest : 0, above, dates, log: log && edges[0]! > 0 };
}

/**
 * The shape of a forecast's `forecastData`, or `undefined` when it cannot be drawn.
 * @example
 * ```ts
 * shapeOf({ questionType: 'binary', format: 'probability', payload: { probability: 0.42 } });
 * // { kind: 'bars', bars: [{ label: 'YES', p: 0.42 }], single: true }
 * ```
 */
export function shapeOf(data: unknown): Shape | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  const { questionType, payload } = data as { questionType?: unknown; payload?: unknown };
  if (payload === null || typeof payload !== 'object') return undefined;
  const p = payload as Payload;
  switch (questionType) {
    case 'binary':
      return isNum(p['probability']) ? { kind: 'bars', bars: [{ label: 'YES', p: chance(p['probability']) }], single: true } : undefined;
    case 'multiple_choice': {
      const probs = p['probabilities'];
      if (probs === null || typeof probs !== 'object' || Array.isArray(probs)) return undefined;
      const bars = Object.entries(probs as Record<string, unknown>).flatMap(([label, x]) => (isNum(x) ? [{ label, p: chance(x) }] : []));
      if (bars.length === 0) return undefined;
      bars.sort((a, b) => b.p - a.p);
      if (bars.length > MAX_OPTIONS_DRAWN) {
        const rest = bars.splice(MAX_OPTIONS_DRAWN - 1);
        bars.push({ label: `${rest.length} others`, p: chance(rest.reduce((sum, b) => sum + b.p, 0)) });
      }
      return { kind: 'bars', bars, single: false };
    }
    case 'numeric':
    case 'date':
      return histogram(numbers(p['probability_mass_function']), numbers(p['bucket_edges']), p, questionType === 'date', p['scaleType'] === 'logarithmic');
    case 'discrete': {
      const probs = numbers(p['probabilities']);
      const values = numbers(p['nominal_values']);
      if (!probs || !values || probs.length !== values.length || probs.length === 0) return undefined;
      if (probs.length <= MAX_BARS) return { kind: 'bars', bars: values.map((v, i) => ({ label: String(v), p: chance(probs[i]!) })), single: false };
      const shape = histogram(probs, numbers(p['cell_boundaries']), p, false, false);
      return shape && { ...shape, bounds: [values[0]!, values.at(-1)!] };
    }
    default:
      return undefined;
  }
}

/**
 * The mass of each of `columns` equal slices of the axis (equal in log space on a log axis), each
 * bucket's mass spread evenly over its width: the histogram at any width, from any bucketing.
 */
export function resample(shape: Extract<Shape, { kind: 'histogram' }>, columns: number): number[] {
  const t = (x: number) => (shape.log ? Math.log(x) : x);
  const lo = t(shape.edges[0]!);
  const span = t(shape.edges.at(-1)!) - lo;
  const out = new Array<number>(columns).fill(0);
  shape.mass.forEach((m, i) => {
    const a = ((t(shape.edges[i]!) - lo) / span) * columns;
    const b = ((t(shape.edges[i + 1]!) - lo) / span) * columns;
    for (let c = Math.floor(a); c < Math.min(columns, Math.ceil(b)); c++) out[c]! += (m * (Math.min(b, c + 1) - Math.max(a, c))) / (b - a);
  });
  return out;
}

/** Where `x` falls on the axis, as a fraction from 0 (first edge) to 1 (last), clamped. */
export function axisFraction(shape: Extract<Shape, { kind: 'histogram' }>, x: number): number {
  const t = (v: number) => (shape.log ? Math.log(Math.max(v, Number.MIN_VALUE)) : v);
  const lo = t(shape.edges[0]!);
  return Math.min(1, Math.max(0, (t(x) - lo) / (t(shape.edges.at(-1)!) - lo)));
}

/** A value of the axis as people read it: a date (with the time when the range is under 3 days), or a number of 5 significant digits. */
export function axisLabel(shape: Extract<Shape, { kind: 'histogram' }>, x: number): string {
  const date = new Date(x * 1000);
  if (shape.dates && !Number.isNaN(date.getTime())) {
    const iso = date.toISOString();
    return shape.edges.at(-1)! - shape.edges[0]! < 3 * 86_400 ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10);
  }
  return String(Number(x.toPrecision(5)));
}

/** The labels at the two ends of a histogram's axis: its bounds, as values of the question. */
export function endLabels(shape: Extract<Shape, { kind: 'histogram' }>): [string, string] {
  const [lo, hi] = shape.bounds ?? [shape.edges[0]!, shape.edges.at(-1)!];
  return [axisLabel(shape, lo), axisLabel(shape, hi)];
}

/** A chance as a percentage of one decimal: `42.0%`. */
export const percent = (p: number): string => `${(p * 100).toFixed(1)}%`;
