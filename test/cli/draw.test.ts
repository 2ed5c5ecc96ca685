// The pictures of forecasts the CLI draws: each question type, every width, ASCII when not on a
// terminal, and payloads that cannot be drawn (never a crash, never a wrong picture).
import { describe, expect, it } from 'vitest';
import { columnsOf, drawForecast, drawShape, drawStyle } from '../../src/cli/draw.js';
import { numberSummary } from '../../src/cli/output.js';
import { resample, shapeOf } from '../../src/cli/shapes.js';

const ASCII = /^[\x20-\x7e]*$/;
const binary = { questionType: 'binary', format: 'probability', payload: { probability: 0.42 } };
const choice = { questionType: 'multiple_choice', format: 'option_probabilities', payload: { probabilities: { Bob: 0.25, 'Alice Liddell of Oxford, Christ Church': 0.6, Carol: 0.15 } } };
const edges = Array.from({ length: 21 }, (_, i) => 40 + i * 5);
const bell = edges.slice(1).map((_, i) => Math.exp(-(((i - 9.5) / 3) ** 2)));
const total = bell.reduce((a, b) => a + b, 0);
const numeric = {
  questionType: 'numeric',
  format: 'probability_mass_function',
  payload: { percentiles: { p10: 71, p50: 89, p90: 107 }, probability_mass_function: bell.map((m) => (m / total) * 0.9), cumulative_distribution_function: [], bucket_edges: edges, above_upper_probability: 0.06, scaleType: 'linear' },
};
const date = {
  questionType: 'date',
  format: 'probability_mass_function',
  payload: { ...numeric.payload, bucket_edges: edges.map((_, i) => 1_767_225_600 + i * 86_400 * 18), percentiles: { p10: 1_772_000_000, p50: 1_777_000_000, p90: 1_782_000_000 }, above_upper_probability: 0, scaleType: null },
};
const discrete = (n: number) => ({
  questionType: 'discrete',
  format: 'discrete_probability_array',
  payload: { probabilities: Array.from({ length: n }, () => 1 / n), nominal_values: Array.from({ length: n }, (_, i) => i), percentiles: { p10: 1, p50: Math.floor(n / 2), p90: n - 2 }, cell_boundaries: Array.from({ length: n + 1 }, (_, i) => i - 0.5) },
});

describe('drawing a forecast in the terminal', () => {
  it('draws a binary forecast as one bar of YES over its track, with its percentage', () => {
    expect(drawForecast(binary, { width: 40, unicode: false })).toEqual(['  YES  ###########..............   42.0%']);
    const [line] = drawForecast(binary, { width: 40, unicode: true });
    // 25 cells × 0.42 = 10.5 cells: 10 full blocks and half of one.
    expect(line).toBe(`  YES  ${'█'.repeat(10)}▌${'░'.repeat(14)}   42.0%`);
    expect(line).toHaveLength(40);
  });

  it('draws a bar per option, largest first, long labels cut to fit', () => {
    const lines = drawForecast(choice, { width: 60, unicode: false });
    expect(lines.map((l) => l.trim().split(/\s+/).at(-1))).toEqual(['60.0%', '25.0%', '15.0%']);
    // The label column takes at most 35 % of the width: 20 of the 58 columns after the indent.
    expect(lines[0]).toBe(`  Alice Liddell of ...  ${'#'.repeat(17)}${' '.repeat(11)}   60.0%`);
    expect(lines[1]).toBe(`  Bob${' '.repeat(19)}${'#'.repeat(7)}${' '.repeat(21)}   25.0%`);
  });

  it('draws a numeric forecast as a histogram over its range, p10, p50 and p90 marked, and the mass above the range', () => {
    const lines = drawForecast(numeric, { width: 62, unicode: true });
    expect(lines).toHaveLength(13);
    const plot = lines.slice(0, 8);
    // The tallest column is full height; the middle of the range holds it.
    expect(plot[0]!.indexOf('█')).toBeGreaterThan(20);
    expect(plot[0]!.lastIndexOf('█')).toBeLessThan(42);
    const base = lines[8]!;
    expect([...base].filter((c) => c === '┬')).toHaveLength(3);
    // p50 = 89 sits at (89 − 40) / 100 of the 60 columns.
    expect(base.indexOf('┬', base.indexOf('┬') + 1)).toBe(2 + Math.floor(0.49 * 60));
    expect(lines[9]!.trim().split(/\s+/)).toEqual(['p10', 'p50', 'p90']);
    expect(lines[10]).toMatch(/^ {2}40 +140$/);
    expect(lines[11]).toBe('  p10 71   p50 89   p90 107');
    expect(lines[12]).toBe('  below 40: 4.0%   above 140: 6.0%');
  });

  it('labels a date axis with dates, and a log axis says so', () => {
    const lines = drawForecast(date, { width: 80, unicode: false });
    expect(lines.at(-3)).toMatch(/^ {2}2026-01-01 +2026-12-27$/);
    expect(lines.at(-2)).toBe('  p10 2026-02-25   p50 2026-04-24   p90 2026-06-21');
    expect(lines.at(-1)).toBe('  below 2026-01-01: 10.0%');
    const log = { ...numeric, payload: { ...numeric.payload, bucket_edges: edges.map((_, i) => 10 ** (i / 5)), percentiles: { p50: 100 }, scaleType: 'logarithmic' } };
    const logLines = drawForecast(log, { width: 80, unicode: false });
    expect(logLines.find((l) => l.includes('p50 100'))).toBe('  p50 100   log scale');
    // On a log axis 100 is the middle of 1 … 10000.
    expect(logLines[8]!.indexOf('+')).toBe(2 + 39);
  });

  it('draws a bar per value of a discrete question, and a histogram past 40 values', () => {
    const few = drawForecast(discrete(5), { width: 50, unicode: false });
    expect(few.map((l) => l.trim().split(/\s+/)[0])).toEqual(['0', '1', '2', '3', '4']);
    const many = drawForecast(discrete(300), { width: 50, unicode: false });
    expect(many.some((l) => l.includes('p50 150'))).toBe(true);
  });

  it('fits every width from 20 to 200 columns, and uses ASCII only when not on a terminal', () => {
    for (const data of [binary, choice, numeric, date, discrete(7), discrete(100)]) {
      for (const width of [20, 33, 80, 137, 200]) {
        for (const unicode of [true, false]) {
          const style = drawStyle({ isTTY: unicode, columns: width }, unicode ? {} : { COLUMNS: String(width) });
          expect(style.unicode).toBe(unicode);
          const lines = drawForecast(data, style);
          expect(lines.length).toBeGreaterThan(0);
          for (const line of lines) expect(line.length).toBeLessThanOrEqual(width);
          if (!unicode) for (const line of lines) expect(line).toMatch(ASCII);
        }
      }
    }
  });

  it('chooses ASCII on a terminal when NO_COLOR is set or TERM is dumb, and 80 columns when piped without COLUMNS', () => {
    expect(drawStyle({ isTTY: true, columns: 100 }, { NO_COLOR: '1' })).toEqual({ unicode: false, width: 100 });
    expect(drawStyle({ isTTY: true, columns: 100 }, { TERM: 'dumb' })).toEqual({ unicode: false, width: 100 });
    expect(drawStyle({ isTTY: true, columns: 100 }, { NO_COLOR: '' })).toEqual({ unicode: true, width: 100 });
    expect(drawStyle({ isTTY: false, columns: 100 }, {})).toEqual({ unicode: false, width: 80 });
    expect(drawStyle({}, { COLUMNS: '5' }).width).toBe(20);
    // A pseudo-terminal that reports 0 columns counts as not saying.
    expect(drawStyle({ isTTY: true, columns: 0 }, {}).width).toBe(80);
    // A locale that is not UTF-8 gets ASCII; none named, or a UTF-8 one, Unicode.
    expect(drawStyle({ isTTY: true, columns: 100 }, { LANG: 'C' }).unicode).toBe(false);
    expect(drawStyle({ isTTY: true, columns: 100 }, { LC_ALL: 'en_US.ISO-8859-1', LANG: 'en_US.UTF-8' }).unicode).toBe(false);
    expect(drawStyle({ isTTY: true, columns: 100 }, { LC_ALL: 'C.utf8' }).unicode).toBe(true);
  });

  it('fits labels as the terminal shows them: wide characters as two columns, control characters escaped first', () => {
    const labels = { '日本語の選択肢です': 0.4, 'Tab\tand\nnewline': 0.35, 'Ünïcödé': 0.25 };
    for (const unicode of [true, false]) {
      const lines = drawForecast({ questionType: 'multiple_choice', payload: { probabilities: labels } }, { width: 50, unicode });
      for (const line of lines) expect(columnsOf(line)).toBe(50);
      // The percentages line up, whatever the labels.
      expect(new Set(lines.map((l) => columnsOf(l.slice(0, l.lastIndexOf(' ')))))).toEqual(new Set([44]));
      expect(lines.join('\n')).toContain('Tab\\tand');
      expect(lines.join('\n')).not.toMatch(/[\t]/);
    }
    expect(columnsOf('日本a\u0301')).toBe(5);
  });

  it('draws at most 200 options (the smallest share one bar) and never overflows the stack on a huge answer', () => {
    const many = Object.fromEntries(Array.from({ length: 150_000 }, (_, i) => [`option ${i}`, i === 7 ? 0.5 : 0.5 / 149_999]));
    const lines = drawForecast({ questionType: 'multiple_choice', payload: { probabilities: many } }, { width: 60, unicode: false });
    expect(lines).toHaveLength(200);
    expect(lines[0]).toMatch(/^ {2}option 7 /);
    expect(lines[199]).toMatch(/^ {2}149801 others +#* +49\.\d%$/);
  });

  it('names the first and last values at the ends of a discrete histogram, not its cells’ boundaries', () => {
    const lines = drawForecast(discrete(300), { width: 50, unicode: false });
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}0 +299$/));
  });

  it('summarises a date out of range as its number rather than throwing', () => {
    expect(numberSummary({ questionType: 'date', payload: { percentiles: { p10: 0, p50: 1e20, p90: 2e20 } } })).toBe('median=100000000000000000000 (p10 1970-01-01, p90 200000000000000000000)');
  });

  it('draws nothing for what cannot be drawn: an unknown type, mismatched arrays, edges out of order, values not numbers', () => {
    const broken = [
      null,
      'x',
      { questionType: 'ranking', payload: { order: [] } },
      { questionType: 'binary', payload: { probability: '0.4' } },
      { questionType: 'multiple_choice', payload: { probabilities: ['a'] } },
      { ...numeric, payload: { ...numeric.payload, bucket_edges: edges.slice(1) } },
      { ...numeric, payload: { ...numeric.payload, bucket_edges: [...edges].reverse() } },
      { ...numeric, payload: { ...numeric.payload, probability_mass_function: bell.map(() => Number.NaN) } },
      { questionType: 'discrete', payload: { probabilities: [0.5, 0.5], nominal_values: [1] } },
    ];
    for (const data of broken) expect(drawForecast(data, { width: 80, unicode: true })).toEqual([]);
    // Chances outside 0 … 1 are held to it, so a bar never runs past its width.
    const over = drawShape(shapeOf({ questionType: 'binary', payload: { probability: 7 } })!, { width: 30, unicode: false });
    expect(over[0]).toMatch(/#{15} {2}100\.0%$/);
  });

  it('spreads each bucket’s mass over the columns it covers, keeping the total', () => {
    const shape = shapeOf(numeric);
    if (shape?.kind !== 'histogram') throw new Error('expected a histogram');
    for (const columns of [7, 20, 61, 200]) expect(resample(shape, columns).reduce((a, b) => a + b, 0)).toBeCloseTo(0.9, 9);
  });
});
