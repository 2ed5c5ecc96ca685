/**
 * Deterministic forecast numbers for each question type: the same question and seed always give the
 * same answer, and every answer makes sense (probabilities in [0, 1] summing to 1, a monotone CDF
 * within the bounds, `p10 <= p50 <= p90`, dates in Unix seconds).
 * @module
 */
import type { ForecastData } from '../../../schemas/records/forecasts.js';
import type { Question } from '../../../schemas/records/questions.js';
import type { MockStore } from '../../store.js';

/** Buckets of a numeric or date distribution. */
const BUCKETS = 20;

/** A seeded random source in [0, 1) (FNV-1a hash of the seed, then mulberry32). */
export function seededRandom(seed: string): () => number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `x` to `digits` decimals; as it is where scaling would overflow (a number that large has none). */
function round(x: number, digits = 6): number {
  const rounded = Math.round(x * 10 ** digits) / 10 ** digits;
  return Number.isFinite(rounded) ? rounded : x;
}

/** Standard normal CDF (Abramowitz and Stegun 7.1.26; error below 1.5e-7). */
function phi(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + y) / 2 : (1 - y) / 2;
}

/** Rounds a distribution and puts the rounding remainder on its largest cell, so it sums to `total`. */
function normalized(weights: number[], total = 1): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const out = weights.map((w) => round((w / sum) * total));
  const largest = out.indexOf(Math.max(...out));
  out[largest] = round(out[largest]! + total - out.reduce((a, b) => a + b, 0));
  return out;
}

/**
 * The point a share `t` of the way from `a` to `b`: `a + (b - a) * t`, which never decreases as `t`
 * grows; where `b - a` overflows (ends near ±Number.MAX_VALUE), a form that stays finite.
 */
function lerp(a: number, b: number, t: number): number {
  const span = b - a;
  return Number.isFinite(span) ? a + span * t : a * (1 - t) + b * t;
}

/** The value at quantile `q` of a distribution given by its CDF over `edges` (linear within a bucket). */

function quantile(q: number, edges: readonly number[], cdf: readonly number[]): number {
  let below = 0;
  for (let i = 0; i < cdf.length; i++) {
    if (cdf[i]! >= q) {
      const share = cdf[i]! - below > 0 ? (q - below) / (cdf[i]! - below) : 0;
      return lerp(edges[i]!, edges[i + 1]!, share);
    }
    below = cdf[i]!;
  }
  return edges[edges.length - 1]!;
}

/**
 * The `forecastData` of a forecast on `question`, derived from `seed`.
 * @example
 * ```ts
 * forecastDataFor(question, taskId).payload; // same question and seed: same payload
 * ```
 */
export function forecastDataFor(question: Question, seed: string): ForecastData {
  return dataFrom(question, seededRandom(`${question.id}:${seed}`));
}

/**
 * The `forecastData` of task `taskId` on `question` as the service shows it (`suffix` names a part,
 * such as a subforecast). Without a service seed it derives from the question and task ids, which
 * are random. With one (`createMockService({ seed })`), it derives from the seed, the question's
 * content and the task's place among the question's forecasts, so a run that asks the same things
 * in the same order gets the same numbers, whatever ids it was given. @internal
 */
export function forecastDataOf(store: MockStore, question: Question, taskId: string, suffix = ''): ForecastData {
  if (store.seed === undefined) return forecastDataFor(question, `${taskId}${suffix}`);
  // Oldest first: the first forecast of a question is number 0.
  const ordinal = store.forecasts.list((r) => r.questionId === question.id).reverse().findIndex((r) => r.id === taskId);
  const content = JSON.stringify([question.type, question.title, question.options, question.lowerBound, question.upperBound, question.scaleType]);
  return dataFrom(question, seededRandom(`${store.seed}:${content}:${ordinal}${suffix}`));
}

function dataFrom(question: Question, random: () => number): ForecastData {
  switch (question.type) {
    case 'binary':
      return { questionType: 'binary', format: 'probability', payload: { probability: round(0.05 + 0.9 * random(), 3) } };
    case 'multiple_choice': {
      const probs = normalized(question.options.map(() => 0.1 + random()));
      return {
        questionType: 'multiple_choice',
        format: 'option_probabilities',
        payload: { probabilities: Object.fromEntries(question.options.map((o, i) => [o, probs[i]!])) },
      };
    }
    case 'discrete':
      return discrete(question, random);
    default:
      return continuous(question, random);
  }
}

/** Numeric and date questions: a normal distribution (log-normal on a log scale) cut into buckets. */
function continuous(q: Question, random: () => number): ForecastData {
  const log = q.scaleType === 'logarithmic';
  const to = (x: number) => (log ? Math.log(x) : x);
  const from = (x: number) => (log ? Math.exp(x) : x);
  const lo = to(q.lowerBound ?? 0);
  const hi = to(q.upperBound ?? 1);
  // Shaped on [0, 1] and mapped onto the bounds last: `hi - lo` overflows for bounds near ±Number.MAX_VALUE.
  const mean = 0.25 + 0.5 * random();
  const sd = 0.08 + 0.17 * random();
  const cut = Array.from({ length: BUCKETS + 1 }, (_, i) => i / BUCKETS);
  const mass = cut.slice(1).map((e, i) => phi((e - mean) / sd) - phi((cut[i]! - mean) / sd));
  // Mass below the lower bound joins the first bucket; above the upper bound it is reported on its own
  // when the bound is open, else it joins the last bucket.
  mass[0]! += phi(-mean / sd);
  const beyond = 1 - phi((1 - mean) / sd);
  const above = q.openUpperBound ? round(beyond) : 0;
  if (!q.openUpperBound) mass[BUCKETS - 1]! += beyond;
  const pmf = normalized(mass, round(1 - above));
  let running = 0;
  const cdf = pmf.map((p) => (running = Math.min(1, round(running + p))));
  // Ends exactly on the bounds (a log scale's round trip moves them), and never a step back.
  const edges = cut.map((t, i) => (i === 0 ? (q.lowerBound ?? 0) : i === BUCKETS ? (q.upperBound ?? 1) : from(lerp(lo, hi, t))));
  for (let i = 1; i < edges.length; i++) edges[i] = Math.max(edges[i]!, edges[i - 1]!);
  const date = q.type === 'date';
  const value = (p: number) => (date ? Math.round(quantile(p, edges, cdf)) : round(quantile(p, edges, cdf)));
  return {
    questionType: date ? 'date' : 'numeric',
    format: 'probability_mass_function',
    payload: {
      percentiles: { p10: value(0.1), p50: value(0.5), p90: value(0.9) },
      probability_mass_function: pmf,
      cumulative_distribution_function: cdf,
      bucket_edges: edges.map((e) => (date ? Math.round(e) : round(e))),
      above_upper_probability: above,
      scaleType: q.scaleType,
    },
  } as ForecastData;
}

/** Discrete questions: a probability for each whole value from the lower to the upper bound. */
function discrete(q: Question, random: () => number): ForecastData {
  const lo = q.lowerBound ?? 0;
  const hi = q.upperBound ?? lo + 2;
  const values = Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  const mean = lo + (0.2 + 0.6 * random()) * (hi - lo);
  const sd = Math.max(0.6, (0.1 + 0.2 * random()) * (hi - lo));
  const probabilities = normalized(values.map((v) => phi((v + 0.5 - mean) / sd) - phi((v - 0.5 - mean) / sd) + 1e-6));
  let running = 0;
  const cdf = probabilities.map((p) => (running += p));
  const at = (p: number) => values[cdf.findIndex((c) => c >= p - 1e-9)] ?? hi;
  return {
    questionType: 'discrete',
    format: 'discrete_probability_array',
    payload: {
      probabilities,
      nominal_values: values,
      percentiles: { p10: at(0.1), p50: at(0.5), p90: at(0.9) },
      cell_boundaries: [...values.map((v) => v - 0.5), hi + 0.5],
    },
  };
}
