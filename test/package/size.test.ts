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
 * Guards against growth, not targets: the issue's target is the complete client no bigger than
 * openai-node's, and today it projects to about 1.55× (zod and ky are most of the difference; see
 * the CHANGELOG). A later group must keep its cost per operation, and so the projection, inside these.
 * Raised from 1.55 when the client gained, at about 5 KB gzipped in all, the one address check the
 * mock shares (every non-public IPv4 and IPv6 form), the run-time warning on unknown keys with its
 * "did you mean", and waits that ride out outages. Raised from 1.6 when the client gained, at about
 * 1.8 KB gzipped, the coordinator's steps (a shared budget, active-forecast slots, slots freed by
 * final tasks) and the waits woken by webhook events (1.66× with them). Lowered to 1.65 when those
 * steps, the request budget and the coordinated waits began to load only with a coordinator (or a
 * budget): 1.647×. Raised to 1.665 for the diagnostics channels' hooks in the core (0.4 KB gzipped;
 * the tracing code itself loads only once someone subscribes): 1.661×. Raised to 1.675 for the
 * waits' hooks on the `forecasting-sdk:wait` channel (their counts in the poll loop; the traced
 * waits load only once someone subscribes): 1.670×. The issue's budget is 1.25×, not met (see the
 * CHANGELOG).
 */
const PER_OPERATION_BUDGET = 140;
const PROJECTED_RATIO_BUDGET = 1.675;

describe('bundle size', () => {
  let sizes: Awaited<ReturnType<typeof clientSizes>>;
  beforeAll(async () => {
    sizes = await clientSizes(root, SPEC_OPERATIONS);
  }, 60_000);

  it('bundles ky and zod/mini into the client, and not zod’s locales', () => {
    const { text } = sizes.client;
    expect(text).toContain('webhooks.deliveries');
    expect(text).toContain('must not begin with a slash when using');
    expect(text).toContain('$ZodType');
    // Importing 'zod' instead of 'zod/mini' pulls in every locale (its English one says "Too big").
    expect(text).not.toContain('Too big');
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
