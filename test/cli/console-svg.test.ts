// The console's SVG charts: each question type drawn with the expected elements, well-formed XML,
// hostile labels only ever escaped, nothing the page's Content-Security-Policy would refuse, and
// no chart (never a wrong one) from data that does not fit.
import { describe, expect, it } from 'vitest';
import { escapeXml, forecastSvg, historySvg, type HistoryPoint } from '../../src/cli/console/svg.js';

const HOSTILE = '<script>alert(1)</script>" onload="x';
const HOSTILE_ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;&quot; onload=&quot;x';

const binary = (p: number) => ({ questionType: 'binary', format: 'probability', payload: { probability: p } });
const choice = (probabilities: Record<string, number>) => ({ questionType: 'multiple_choice', format: 'option_probabilities', payload: { probabilities } });
const edges = Array.from({ length: 21 }, (_, i) => 40 + i * 5);
const bell = edges.slice(1).map((_, i) => Math.exp(-(((i - 9.5) / 3) ** 2)));
const total = bell.reduce((a, b) => a + b, 0);
const numeric = (percentiles = { p10: 71, p50: 89, p90: 107 }) => ({
  questionType: 'numeric',
  format: 'probability_mass_function',
  payload: { percentiles, probability_mass_function: bell.map((m) => (m / total) * 0.9), cumulative_distribution_function: [], bucket_edges: edges, above_upper_probability: 0.06, scaleType: 'linear' },
});
const JAN_1_2026 = 1_767_225_600;
const date = {
  questionType: 'date',
  format: 'probability_mass_function',
  payload: { ...numeric().payload, bucket_edges: edges.map((_, i) => JAN_1_2026 + i * 86_400 * 18), percentiles: { p10: 1_772_000_000, p50: 1_777_000_000, p90: 1_782_000_000 }, above_upper_probability: 0, scaleType: null },
};
const discrete = (n: number) => ({
  questionType: 'discrete',
  format: 'discrete_probability_array',
  payload: { probabilities: Array.from({ length: n }, () => 1 / n), nominal_values: Array.from({ length: n }, (_, i) => i), percentiles: { p10: 1, p50: Math.floor(n / 2), p90: n - 2 }, cell_boundaries: Array.from({ length: n + 1 }, (_, i) => i - 0.5) },
});

/**
 * Checks the markup is well-formed XML (every tag closed in order, attributes quoted and unique,
 * only the five entities) and returns its elements with their attributes and their text.
 */
function parse(xml: string): Array<{ name: string; attrs: Record<string, string>; text: string }> {
  const token = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<>]*")*)\s*(\/?)>|([^<>]+)/y;
  const entities = /&(?:amp|lt|gt|quot|#39);/g;
  const stack: Array<{ name: string; attrs: Record<string, string>; text: string }> = [];
  const all: typeof stack = [];
  let pos = 0;
  while (pos < xml.length) {
    token.lastIndex = pos;
    const m = token.exec(xml);
    if (!m) throw new Error(`not XML at ${pos}: ${xml.slice(pos, pos + 60)}`);
    pos = token.lastIndex;
    const [, close, name, attrList, selfClose, text] = m;
    if (text !== undefined) {
      if (text.replace(entities, '').includes('&')) throw new Error(`bare & in ${text}`);
      if (stack.length === 0) throw new Error(`text outside the root: ${text}`);
      stack.at(-1)!.text += text;
      continue;
    }
    if (close) {
      if (stack.pop()?.name !== name) throw new Error(`</${name}> closes nothing open`);
      continue;
    }
    if (stack.length === 0 && all.length > 0) throw new Error('a second root');
    const attrs: Record<string, string> = {};
    for (const [, k, v] of attrList!.matchAll(/([\w:-]+)="([^"]*)"/g)) {
      if (k! in attrs) throw new Error(`${k} twice on <${name}>`);
      if (v!.replace(entities, '').includes('&')) throw new Error(`bare & in ${k}="${v}"`);
      attrs[k!] = v!;
    }
    const element = { name: name!, attrs, text: '' };
    all.push(element);
    if (!selfClose) stack.push(element);
  }
  if (stack.length > 0) throw new Error(`<${stack.at(-1)!.name}> never closed`);
  return all;
}

/** Elements of a chart by tag name and, optionally, one of their classes. */
const find = (svg: string, name: string, cls?: string) => parse(svg).filter((e) => e.name === name && (cls === undefined || (e.attrs['class'] ?? '').split(' ').includes(cls)));
const texts = (svg: string) => find(svg, 'text').map((e) => e.text);
const pairs = (points: string) => points.split(' ').map((p) => p.split(',').map(Number));

describe('forecastSvg', () => {
  it('draws a binary forecast as one bar of YES over its full track, with its percentage', () => {
    const svg = forecastSvg(binary(0.42));
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 ')).toBe(true);
    const [root] = parse(svg);
    expect(root!.attrs).toMatchObject({ role: 'img', class: 'forecast-chart', 'aria-label': 'Forecast: YES 42.0%' });
    expect(find(svg, 'title')[0]!.text).toBe('Forecast: YES 42.0%');
    const [bar, ...more] = find(svg, 'rect', 'bar');
    const [track] = find(svg, 'rect', 'track');
    expect(more).toHaveLength(0);
    // 640 wide: a label column of 40, a percentage column of 56 and a margin of 10 leave 534.
    expect(track!.attrs['width']).toBe('534');
    expect(bar!.attrs['width']).toBe('224.28');
    expect(bar!.attrs['x']).toBe(track!.attrs['x']);
    expect(texts(svg)).toEqual(['YES', '42.0%']);
  });

  it('draws a bar per option, largest first, with its label and percentage, and no track', () => {
    const svg = forecastSvg(choice({ Bob: 0.25, Alice: 0.6, Carol: 0.15 }), { title: 'Who wins?' });
    const bars = find(svg, 'rect', 'bar');
    expect(bars).toHaveLength(3);
    expect(bars.map((b) => Number(b.attrs['width']))).toEqual([...bars.map((b) => Number(b.attrs['width']))].sort((a, b) => b - a));
    expect(Number(bars[0]!.attrs['width']) / Number(bars[1]!.attrs['width'])).toBeCloseTo(0.6 / 0.25, 2);
    expect(find(svg, 'rect', 'track')).toHaveLength(0);
    expect(texts(svg)).toEqual(['Alice', '60.0%', 'Bob', '25.0%', 'Carol', '15.0%']);
    expect(parse(svg)[0]!.attrs['aria-label']).toBe('Who wins?: Alice 60.0%, Bob 25.0%, Carol 15.0%');
  });

  it('draws a discrete question of up to 40 values as a bar per value, in the order of the values', () => {
    const svg = forecastSvg(discrete(7));
    expect(find(svg, 'rect', 'bar')).toHaveLength(7);
    expect(texts(svg).filter((_, i) => i % 2 === 0)).toEqual(['0', '1', '2', '3', '4', '5', '6']);
    expect(find(svg, 'rect', 'bar').every((b) => b.attrs['width'] === find(svg, 'rect', 'bar')[0]!.attrs['width'])).toBe(true);
    expect(find(svg, 'rect', 'column')).toHaveLength(0);
    expect(find(forecastSvg(discrete(40)), 'rect', 'bar')).toHaveLength(40);
  });

  it('draws a numeric forecast as a histogram with p10, p50 and p90 marked, the bounds at both ends and the mass outside', () => {
    const svg = forecastSvg(numeric());
    expect(find(svg, 'rect', 'bar')).toHaveLength(0);
    const columns = find(svg, 'rect', 'column');
    // A column per bucket (20 of them, 31 wide between the margins of 10): the two middle buckets of the bell are the tallest.
    expect(columns).toHaveLength(20);
    const heights = columns.map((c) => Number(c.attrs['height']));
    const tallest = columns.filter((_, i) => heights[i]! > Math.max(...heights) - 0.01).map((c) => c.attrs['x']);
    expect(tallest).toEqual(['289', '320']);
    expect(columns.every((c) => Number(c.attrs['y']) + Number(c.attrs['height']) === Number(find(svg, 'line', 'axis')[0]!.attrs['y1']))).toBe(true);
    const marks = find(svg, 'line', 'mark');
    expect(marks).toHaveLength(3);
    // 71, 89 and 107 on 40 … 140 are 31%, 49% and 67% of the way across the 620 between the margins of 10.
    expect(marks.map((m) => m.attrs['x1'])).toEqual(['202.2', '313.8', '425.4']);
    expect(marks.every((m) => m.attrs['x1'] === m.attrs['x2'])).toBe(true);
    const words = texts(svg);
    expect(words).toEqual(expect.arrayContaining(['p10 71', 'p50 89', 'p90 107', '40', '140']));
    expect(words.at(-1)).toBe('below 40: 4.0% · above 140: 6.0%');
    expect(parse(svg)[0]!.attrs['aria-label']).toBe('Forecast: median 89, 80% between 71 and 107');
  });

  it('labels a date histogram with dates, leaves out a share that rounds to 0.0%, and says when the axis is log', () => {
    const svg = forecastSvg(date);
    const words = texts(svg);
    expect(words).toEqual(expect.arrayContaining(['2026-01-01', '2026-12-27', 'p10 2026-02-25', 'p50 2026-04-24', 'p90 2026-06-21']));
    expect(words.at(-1)).toBe('below 2026-01-01: 10.0%');
    expect(find(svg, 'line', 'mark')).toHaveLength(3);
    const log = { ...numeric(), payload: { ...numeric().payload, bucket_edges: edges.map((_, i) => 10 ** (i / 5)), percentiles: { p10: 10, p50: 100, p90: 1000 }, scaleType: 'logarithmic' } };
    const logSvg = forecastSvg(log);
    expect(texts(logSvg)).toContain('log scale');
    // On a log axis 100 is the middle of 1 … 10000: x = 10 + 620 / 2.
    expect(find(logSvg, 'line', 'mark').map((m) => m.attrs['x1'])).toEqual(['165', '320', '475']);
  });

  it('draws a discrete question of more than 40 values as a histogram', () => {
    const svg = forecastSvg(discrete(100));
    expect(find(svg, 'rect', 'bar')).toHaveLength(0);
    expect(find(svg, 'rect', 'column')).toHaveLength(100);
    expect(find(svg, 'line', 'mark')).toHaveLength(3);
    // The ends name the question's first and last values, not its cells' boundaries.
    expect(texts(svg)).toEqual(expect.arrayContaining(['p10 1', 'p50 50', 'p90 98', '0', '99']));
    expect(texts(svg)).not.toContain('-0.5');
  });

  it('stacks percentile labels that would overlap instead of drawing them over each other', () => {
    const svg = forecastSvg(numeric({ p10: 88, p50: 89, p90: 90 }));
    const labels = find(svg, 'text').filter((t) => /^p\d0 /.test(t.text));
    expect(new Set(labels.map((t) => t.attrs['y'])).size).toBe(3);
  });

  it('honours the size asked for', () => {
    expect(forecastSvg(numeric(), { width: 400, height: 300 })).toContain('viewBox="0 0 400 300"');
    expect(forecastSvg(binary(0.5), { width: 300, height: 50 })).toContain('viewBox="0 0 300 50"');
  });

  it('only ever escapes a hostile label or title', () => {
    const svg = forecastSvg(choice({ [HOSTILE]: 0.7, '&amp; < >': 0.3 }), { title: HOSTILE });
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('" onload');
    expect(svg).toContain(HOSTILE_ESCAPED);
    expect(svg).toContain('&amp;amp; &lt; &gt;');
    const elements = parse(svg);
    expect(elements[0]!.attrs['aria-label']).toBe(`${HOSTILE_ESCAPED}: ${HOSTILE_ESCAPED} 70.0%, &amp;amp; &lt; &gt; 30.0%`);
    expect(elements.some((e) => 'onload' in e.attrs)).toBe(false);
    // A label too long for its column is cut, and still escaped.
    expect(texts(svg)[0]).toBe('&lt;script&gt;alert(1)&lt;/script&gt;&quot; on…');
  });

  it('returns nothing for data it cannot draw', () => {
    for (const data of [undefined, null, 42, 'binary', {}, { questionType: 'binary', payload: { probability: Number.NaN } }, { questionType: 'ranking', payload: {} }, choice({}), { ...numeric(), payload: { ...numeric().payload, bucket_edges: [1, 2] } }]) {
      expect(forecastSvg(data)).toBe('');
    }
  });
});

describe('escapeXml', () => {
  it('escapes the five characters of markup and nothing else', () => {
    expect(escapeXml(`a&b<c>d"e'f é 😀`)).toBe('a&amp;b&lt;c&gt;d&quot;e&#39;f é 😀');
  });

  it('shows control, bidi and invisible characters as visible escapes and replaces what XML cannot hold, so no text can make the document ill-formed or read as another', () => {
    expect(escapeXml('a\u0000b\u001bc\td\ud800e')).toBe('a\\u0000b\\u001bc\\td\ufffde');
    // An override that would make "0.6" read "6.0" shows as the escape it is.
    expect(escapeXml('\u202e)99.0( "oN')).toBe('\\u202e)99.0( &quot;oN');
    expect(escapeXml('look\u200balike\u200fX')).toBe('look\\u200balike\\u200fX');
    expect(() => parse(forecastSvg(choice({ 'x\u0000y': 1 })))).not.toThrow();
  });
});

const DAY_MS = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const history = (datas: unknown[], step = DAY_MS): HistoryPoint[] => datas.map((data, i) => ({ at: T0 + i * step, data }));

describe('historySvg', () => {
  it('draws the chance of YES over time as a line with a dot per forecast, on 0 to 100%', () => {
    const svg = historySvg(history([binary(0.2), binary(0.5), binary(0.4), binary(0.9)]));
    expect(parse(svg)[0]!.attrs).toMatchObject({ class: 'history-chart', role: 'img', viewBox: '0 0 640 240' });
    const [line, ...more] = find(svg, 'polyline');
    expect(more).toHaveLength(0);
    expect(line!.attrs['class']).toBe('line series-0');
    const xy = pairs(line!.attrs['points']!);
    expect(xy).toHaveLength(4);
    expect(find(svg, 'circle', 'dot')).toHaveLength(4);
    // Left to right in time, equally spaced; 50% halfway between the 0% and 100% gridlines.
    expect(xy.map(([x]) => x)).toEqual([...xy.map(([x]) => x!)].sort((a, b) => a - b));
    const grid = find(svg, 'line', 'gridline').map((g) => Number(g.attrs['y1']));
    expect(texts(svg).slice(0, 5)).toEqual(['0%', '25%', '50%', '75%', '100%']);
    expect(xy[1]![1]).toBeCloseTo((grid[0]! + grid[4]!) / 2, 2);
    expect(texts(svg)).toEqual(expect.arrayContaining(['2026-01-01', '2026-01-04']));
    expect(parse(svg)[0]!.attrs['aria-label']).toBe('Forecast history: 4 forecasts, 2026-01-01 to 2026-01-04; latest YES 90.0%');
  });

  it('skips points that do not fit: another type, NaN, a bad time', () => {
    const points = [...history([binary(0.2), binary(Number.NaN), numeric(), binary(0.6), { questionType: 'binary' }, null]), { at: Number.NaN, data: binary(0.3) }, { at: 1e20, data: binary(0.3) }];
    const svg = historySvg(points);
    expect(pairs(find(svg, 'polyline')[0]!.attrs['points']!)).toHaveLength(2);
    expect(find(svg, 'circle')).toHaveLength(2);
    expect(historySvg([{ at: T0, data: binary(Number.NaN) }, { at: T0, data: { questionType: 'ranking', payload: {} } }])).toBe('');
    expect(historySvg([])).toBe('');
  });

  it('draws the points in time order, whatever order they come in', () => {
    const [a, b, c] = history([binary(0.1), binary(0.5), binary(0.9)]);
    const line = find(historySvg([c!, a!, b!]), 'polyline')[0]!;
    expect(line.attrs['points']).toBe(find(historySvg([a!, b!, c!]), 'polyline')[0]!.attrs['points']);
    const ys = pairs(line.attrs['points']!).map(([, y]) => y!);
    expect(ys[0]).toBeGreaterThan(ys[1]!);
    expect(ys[1]).toBeGreaterThan(ys[2]!);
  });

  it('skips a range whose percentiles are out of order or missing', () => {
    const svg = historySvg(history([numeric(), numeric({ p10: 100, p50: 90, p90: 80 }), numeric({ p10: 70, p50: Number.NaN, p90: 110 }), numeric()]));
    expect(pairs(find(svg, 'polyline', 'median')[0]!.attrs['points']!)).toHaveLength(2);
    expect(find(svg, 'circle')).toHaveLength(2);
  });

  it('ticks a log axis at round values, placed by their logarithm: powers of ten, then 1-2-5, then finer, then nice steps', () => {
    const logNumeric = (p10: number, p50: number, p90: number) => {
      const base = numeric({ p10, p50, p90 });
      return { ...base, payload: { ...base.payload, scaleType: 'logarithmic' } };
    };
    const ticksOf = (p10: number, p90: number) => {
      const svg = historySvg(history([logNumeric(p10, Math.sqrt(p10 * p90), p90), logNumeric(p10 * 1.01, Math.sqrt(p10 * p90), p90 * 0.99)]));
      const labels = find(svg, 'text').filter((e) => e.attrs['dy'] === '0.35em').map((e) => e.text);
      const ys = find(svg, 'line', 'gridline').map((e) => Number(e.attrs['y1']));
      return { labels, ys };
    };
    expect(ticksOf(3, 3000).labels).toEqual(['10', '100', '1000']);
    expect(ticksOf(20, 90).labels).toEqual(['20', '30', '50', '70']);
    expect(ticksOf(3, 60).labels).toEqual(['5', '10', '20', '50']);
    expect(ticksOf(2, 9).labels).toEqual(['2', '3', '5', '7']);
    // Fourteen decades once padded: every second power of ten, at most 8 ticks.
    const wide = ticksOf(0.002, 5e9);
    expect(wide.labels).toEqual(['0.001', '0.1', '10', '1000', '100000', '10000000', '1000000000']);
    // Equal ratios, equal distances: the axis is log.
    const gaps = wide.ys.slice(1).map((y, i) => wide.ys[i]! - y);
    for (const gap of gaps) expect(gap).toBeCloseTo(gaps[0]!, 1); // coordinates are written to 0.01
    // What a double barely holds ends, with finite coordinates and at most 8 ticks.
    for (const [p10, p90] of [[1e-320, 1], [1, 1e300], [5e-324, 5e-324], [1e308, 1e308], [5e-324, 1e-323], [1e-300, 1e-290]] as const) {
      const svg = historySvg(history([logNumeric(p10, p10, p90), logNumeric(p10, p90, p90)]));
      const { labels, ys } = ticksOf(p10, p90);
      expect(labels.length).toBeLessThanOrEqual(8);
      for (const y of ys) expect(Number.isFinite(y)).toBe(true);
      expect(svg).not.toMatch(/NaN|Infinity/);
    }
    const narrow = ticksOf(100, 104).labels;
    expect(narrow.length).toBeGreaterThanOrEqual(2);
    for (const label of narrow) expect(label).toMatch(/^\d{2,3}(\.\d)?$/);
  });

  it('draws a single forecast as a dot', () => {
    const svg = historySvg([{ at: T0, data: binary(0.42) }]);
    expect(find(svg, 'polyline')).toHaveLength(0);
    expect(find(svg, 'circle')).toHaveLength(1);
    expect(find(svg, 'circle')[0]!.attrs['cx']).toBe(String((Number(find(svg, 'line', 'axis')[1]!.attrs['x1']) + 630) / 2));
    expect(texts(svg)).toContain('2026-01-01 00:00');
  });

  it('shows the time of day when the forecasts span less than 3 days', () => {
    const svg = historySvg(history([binary(0.2), binary(0.3), binary(0.4)], 6 * 3_600_000));
    expect(texts(svg)).toEqual(expect.arrayContaining(['2026-01-01 00:00', '2026-01-01 12:00']));
  });

  it('draws a numeric history as the p10–p90 band with the median line, on an axis in its units', () => {
    const svg = historySvg(history([numeric({ p10: 70, p50: 90, p90: 110 }), numeric({ p10: 75, p50: 95, p90: 120 }), numeric({ p10: 80, p50: 85, p90: 100 })]));
    const [band] = find(svg, 'polygon', 'band');
    expect(pairs(band!.attrs['points']!)).toHaveLength(6);
    const [median] = find(svg, 'polyline', 'median');
    const mid = pairs(median!.attrs['points']!);
    expect(mid).toHaveLength(3);
    // In SVG y grows downwards: the median sits between p90 (above) and p10 (below).
    const edge = pairs(band!.attrs['points']!);
    mid.forEach(([, y], i) => {
      expect(y).toBeGreaterThan(edge[i]![1]!);
      expect(y).toBeLessThan(edge[5 - i]![1]!);
    });
    expect(texts(svg).slice(0, 6)).toEqual(['70', '80', '90', '100', '110', '120']);
    expect(parse(svg)[0]!.attrs['aria-label']).toBe('Forecast history: 3 forecasts, 2026-01-01 00:00 to 2026-01-03 00:00; latest median 85');
  });

  it('labels a date history axis with dates, and draws a single range as a bar of band', () => {
    const svg = historySvg(history([date, { ...date, payload: { ...date.payload, percentiles: { p10: 1_773_000_000, p50: 1_778_000_000, p90: 1_790_000_000 } } }]));
    expect(find(svg, 'polygon', 'band')).toHaveLength(1);
    expect(texts(svg).filter((t) => /^2026-\d\d-\d\d$/.test(t)).length).toBeGreaterThanOrEqual(4);
    expect(parse(svg)[0]!.attrs['aria-label']).toContain('latest median 2026-05-05');
    const one = historySvg([{ at: T0, data: numeric() }]);
    expect(find(one, 'rect', 'band')).toHaveLength(1);
    expect(find(one, 'polyline')).toHaveLength(0);
    expect(find(one, 'circle')).toHaveLength(1);
  });

  it('draws a line per option for the 5 likeliest at the latest forecast, with a legend', () => {
    const first = { A: 0.3, B: 0.2, C: 0.1, D: 0.1, E: 0.1, F: 0.1, [HOSTILE]: 0.1 };
    const latest = { A: 0.05, B: 0.05, C: 0.3, D: 0.2, E: 0.1, F: 0.05, [HOSTILE]: 0.25 };
    const svg = historySvg(history([choice(first), choice(latest)]));
    const lines = find(svg, 'polyline');
    expect(lines.map((l) => l.attrs['class'])).toEqual(['line series-0', 'line series-1', 'line series-2', 'line series-3', 'line series-4']);
    expect(lines.every((l) => pairs(l.attrs['points']!).length === 2)).toBe(true);
    expect(find(svg, 'rect', 'swatch')).toHaveLength(5);
    const legend = texts(svg).slice(-5);
    expect(legend[0]).toBe('C');
    expect(legend[1]!.startsWith('&lt;script&gt;')).toBe(true);
    expect(legend.slice(2)).toEqual(['D', 'E', 'A']);
    expect(svg).not.toContain('<script');
    expect(svg).toContain(HOSTILE_ESCAPED);
  });
});

describe('every chart', () => {
  const charts = [
    ...[binary(0.42), choice({ [HOSTILE]: 0.5, b: 0.5 }), numeric(), date, discrete(7), discrete(100)].map((d) => forecastSvg(d, { title: HOSTILE })),
    historySvg(history([binary(0.1), binary(0.7)])),
    historySvg(history([numeric(), numeric()])),
    historySvg(history([date])),
    historySvg(history([choice({ [HOSTILE]: 1 })])),
  ];

  it('is well-formed SVG with nothing a strict Content-Security-Policy refuses, and coordinates of at most 2 decimals', () => {
    expect(charts.every(Boolean)).toBe(true);
    for (const svg of charts) {
      const elements = parse(svg);
      expect(elements[0]!.name).toBe('svg');
      expect(elements[0]!.attrs['xmlns']).toBe('http://www.w3.org/2000/svg');
      expect(elements[1]!.name).toBe('title');
      for (const banned of ['style', '<script', 'href', 'foreignObject', 'onload="']) expect(svg).not.toContain(banned);
      for (const e of elements) for (const k of ['x', 'y', 'x1', 'y1', 'x2', 'y2', 'width', 'height', 'cx', 'cy']) if (k in e.attrs) expect(e.attrs[k]).toMatch(/^-?\d+(\.\d{1,2})?$/);
      for (const e of elements) if ('points' in e.attrs) expect(e.attrs['points']).toMatch(/^(-?\d+(\.\d{1,2})?,-?\d+(\.\d{1,2})? ?)+$/);
    }
  });
});
