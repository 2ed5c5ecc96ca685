// Budgets on what users ship: the built package bundled with its dependencies, minified, gzipped,
// measured the way bench/size.mjs reports it (code splitting on; what loads at start is the figure).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleSize, clientSizes } from '../../bench/lib/bundle.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = (entry: string) => JSON.stringify(`${root}dist/${entry}`);
const SPEC_OPERATIONS = readFileSync(`${root}spec/operations.tsv`, 'utf8').trim().split('\n').length - 1;

/**
 * Issue 29's budget is the complete client (every chunk a bundler pulls in from the main entry, at
 * start or on demand) at most 1.25× openai-node's, measured in the same run. It is not met (2.18×
 * when last measured, in CHANGELOG) and the issue stays open: meeting it needs a decision (zod is on
 * the design card). So two guards hold meanwhile, and neither is that budget:
 * - what an app loads at start stays within 1.25× (zod, the params schemas and the check that reads
 *   them load with the first call that checks params; the record schemas for `validateResponses`;
 *   the coordination and tracing code for a client that uses them);
 * - the complete client does not grow past `COMPLETE_CEILING` while it is over its budget.
 */
const PER_OPERATION_BUDGET = 140;
const PROJECTED_RATIO_BUDGET = 1.25;
/** Issue 29's budget for the complete client, reported by `bench/size.mjs`; unmet (the issue is open). */
const COMPLETE_RATIO_BUDGET = 1.25;
/**
 * A ceiling, not the budget: the complete client as measured when the budget was found unmet, plus
 * 2 % (2.2×), lowered as the client shrank (2.19×: fewer chunks for a bundler to make, less the
 * fixes of an attacker's review they paid for, 2026-12-01; 2.187×: two chunks fewer and one schema
 * for two uploads, less a review's fixes, 2026-12-01, 61,055 B measured); raised to 2.189× for a
 * review's fixes that did not fit in the 82 B left (`runMany`'s options checked before its first
 * start spends credits, its input closed as `for…of` does, the characters no one sees escaped in
 * messages: about 100 B), 2026-12-02, 61,155 B measured; raised to 2.19× for an attacker's review's
 * fixes that did not fit in the 3 B left once the logger's check had paid for itself (the key redacted from a header
 * name quoted in a refusal; a bad signal or timeout refused on a client's first calls, not a bare
 * TypeError or a 1 ms timer; a logger lacking a function refused when the client is made),
 * 2026-12-02, 61,204 B measured; raised to 2.191× for `JSON.stringify(err)` of an API error writing
 * its message and its headers (20 B: a JSON logger wrote no message and `headers: {}`), which did
 * not fit in the 8 B left, 2026-12-02, 61,231 B measured (61,236 B once a review made its headers'
 * conversion unable to throw).
 */
const COMPLETE_CEILING = 2.191;

describe('bundle size', () => {
  let sizes: Awaited<ReturnType<typeof clientSizes>>;
  beforeAll(async () => {
    sizes = await clientSizes(root, SPEC_OPERATIONS);
  }, 60_000);

  it('bundles ky into the client, and zod/mini only on demand, without zod’s locales', async () => {
    const { text } = sizes.client;
    expect(text).toContain('webhooks.deliveries');
    expect(text).toContain('must not begin with a slash when using');
    // zod loads with the first call that checks params, not at start.
    expect(text).not.toContain('$ZodType');
    const { inputs } = await bundleSize(`import { ForecastingClient } from ${JSON.stringify(`${root}src/client.ts`)}; export const c = new ForecastingClient({ apiKey: 'k', baseURL: 'https://a.example' });`, root);
    const eager = inputs.map((i) => i.replace(/^.*\/(src|node_modules)\//, '$1/'));
    // Of the schemas folder, only the plain lists of values (RUN_MODES, …) load at start.
    expect(eager.filter((i) => i.startsWith('node_modules/zod/') || (i.startsWith('src/schemas/') && i !== 'src/schemas/enums.ts') || i === 'src/core/validate.ts')).toEqual([]);
    // Once loaded: importing 'zod' instead of 'zod/mini' pulls in every locale (its English one says "Too big").
    const all = await build({ stdin: { contents: `export * from ${dist('index.js')};`, resolveDir: root, loader: 'js' }, bundle: true, minify: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'silent', external: ['node:*'] });
    const whole = all.outputFiles[0]!.text;
    expect(whole).toContain('$ZodType');
    expect(whole).not.toContain('Too big');
  });

  it('loads zod and the params schemas with the first call that checks params: a client that has is reported, not hidden', () => {
    expect(sizes.checked).toBeGreaterThan(sizes.client.gzip + 8 * 1024);
  });

  it('keeps the record schemas out of what a client loads at start (they load for validateResponses)', () => {
    // `secretPrefix` is a field only the Webhook record schema names.
    expect(sizes.client.text).not.toContain('secretPrefix');
    expect(sizes.client.lazyGzip).toBeGreaterThan(1024);
  });

  it('keeps the coordination steps and the request budget out of what a client loads at start (they load with a coordinator, or a budget)', async () => {
    const { inputs, lazyGzip } = await bundleSize(`import { ForecastingClient } from ${JSON.stringify(`${root}src/client.ts`)}; export const c = new ForecastingClient({ apiKey: 'k', baseURL: 'https://a.example' });`, root);
    const eager = inputs.map((i) => i.replace(/^.*\/src\//, 'src/'));
    expect(eager).toContain('src/core/pipeline.ts');
    expect(eager.filter((i) => /core\/(pipeline-slots|coordinated-tracker|request-budget|traced)\.ts$/.test(i))).toEqual([]);
    expect(lazyGzip).toBeGreaterThan(0);
  });

  it('keeps the cost of each operation, and what a client loads at start projected from it, inside their budgets', () => {
    expect(sizes.perOperation).toBeLessThan(PER_OPERATION_BUDGET);
    expect(sizes.projected / sizes.openai.gzip).toBeLessThan(PROJECTED_RATIO_BUDGET);
  });

  it('keeps the complete client from growing while it is over its budget (issue 29: 1.25×, unmet)', () => {
    // openai-node loads everything at start: its complete client is what it loads at start.
    expect(sizes.openai.completeGzip).toBe(sizes.openai.gzip);
    const ratio = sizes.client.completeGzip / sizes.openai.gzip;
    expect(ratio).toBeLessThan(COMPLETE_CEILING);
    // When this fails, the budget is met: drop the ceiling and guard the budget itself.
    expect(ratio).toBeGreaterThan(COMPLETE_RATIO_BUDGET);
  });

  it('keeps forecasting-sdk/webhooks under 3 KB gzipped with no runtime dependency', async () => {
    const { gzip, inputs } = await bundleSize(`export * from ${dist('webhooks/index.js')};`, root);
    expect(inputs.filter((i) => i.includes('node_modules'))).toEqual([]);
    expect(gzip).toBeLessThan(3 * 1024);
  });

  it('keeps the webhooks source under 3 KB minified and gzipped, with no import left', async () => {
    const result = await build({
      entryPoints: [new URL('../../src/webhooks/index.ts', import.meta.url).pathname],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'neutral',
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/\bimport\b|require\(/);
    expect(gzipSync(code).length).toBeLessThan(3 * 1024);
  });
});
