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
 * The issue's budget: the complete client at most 1.25× openai-node's, measured in the same run, on
 * what an app loads at start. zod, the params schemas and the check that reads them are a chunk the
 * client loads with its first call that checks params (like the record schemas for
 * `validateResponses`, and the coordination and tracing code for a client that uses them); the
 * CHANGELOG reports, beside this figure, what a client has loaded once a call has checked params.
 */
const PER_OPERATION_BUDGET = 140;
const PROJECTED_RATIO_BUDGET = 1.25;

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

  it('keeps the cost of each operation, and the complete client projected from it, inside their budgets', () => {
    expect(sizes.perOperation).toBeLessThan(PER_OPERATION_BUDGET);
    expect(sizes.projected / sizes.openai.gzip).toBeLessThan(PROJECTED_RATIO_BUDGET);
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
