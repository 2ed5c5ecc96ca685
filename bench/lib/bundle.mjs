// Bundles an entry with everything it imports (as an application would ship it), minified, and
// reports its size. Shared by the size test and the size benchmark.
//
// Code splitting is on, as in every application bundler: a chunk the app only loads on demand (the
// record schemas, loaded when `validateResponses` is on) is counted apart from what loads at start.
// The start-up part is gzipped as one file, like a single-file library such as openai-node.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * @param {string} source - module source to bundle, e.g. `export * from '/abs/dist/index.js'`
 * @param {string} resolveDir - where bare imports resolve from
 * @returns {Promise<{ bytes: number, gzip: number, lazyGzip: number, completeGzip: number, inputs: string[], text: string, withLazy: (suffix: string) => number }>}
 *   bytes/gzip/text: what loads at start; lazyGzip: chunks loaded on demand, each gzipped alone;
 *   completeGzip: every chunk the entry pulls in, at start or on demand, gzipped as one file (the
 *   complete client, as issue 29 measures it); inputs: the modules that
 *   put bytes into the start-up part; withLazy: gzip of the start-up part with one on-demand module
 *   (by the end of its source path) and what it imports
 */
export async function bundleSize(source, resolveDir) {
  const outdir = mkdtempSync(join(tmpdir(), 'bundle-'));
  try {
    const result = await build({
      stdin: { contents: source, resolveDir, loader: 'ts', sourcefile: 'app.ts' },
      bundle: true,
      splitting: true,
      outdir,
      minify: true,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      conditions: ['import', 'module', 'default'],
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
      external: ['node:*'],
    });
    const outputs = result.metafile.outputs;
    const byName = new Map(result.outputFiles.map((f) => [basename(f.path), f.contents]));
    // What loads at start: the entry and the chunks it imports statically, transitively. (A chunk
    // loaded on demand names its own module as its entry point too: the app's is `app.ts`.)
    const entry = Object.keys(outputs).find((k) => outputs[k].entryPoint === 'app.ts');
    const eager = new Set();
    for (const stack = [entry]; stack.length > 0; ) {
      const key = stack.pop();
      if (eager.has(key)) continue;
      eager.add(key);
      for (const i of outputs[key].imports) if (i.kind === 'import-statement' && outputs[i.path]) stack.push(i.path);
    }
    const start = [...eager].map((k) => byName.get(basename(k)));
    const code = Buffer.concat(start);
    // What loads once the lazy module whose source path ends with `suffix` has loaded too (gzip of it
    // all as one file): for the params check, what a client that sends params has loaded.
    const withLazy = (suffix) => {
      const loaded = new Set(eager);
      const first = Object.keys(outputs).find((k) => outputs[k].entryPoint?.endsWith(suffix));
      if (!first) throw new Error(`no chunk is loaded on demand for ${suffix}`);
      for (const stack = [first]; stack.length > 0; ) {
        const key = stack.pop();
        if (loaded.has(key)) continue;
        loaded.add(key);
        for (const i of outputs[key].imports) if (i.kind === 'import-statement' && outputs[i.path]) stack.push(i.path);
      }
      return gzipSync(Buffer.concat([...loaded].map((k) => byName.get(basename(k)))), { level: 9 }).length;
    };
    const lazy = Object.keys(outputs).filter((k) => !eager.has(k) && !k.endsWith('.map'));
    const lazyGzip = lazy.reduce((sum, k) => sum + gzipSync(byName.get(basename(k)), { level: 9 }).length, 0);
    const completeGzip = gzipSync(Buffer.concat([...eager, ...lazy].map((k) => byName.get(basename(k)))), { level: 9 }).length;
    const inputs = [...eager].flatMap((k) => Object.entries(outputs[k].inputs).filter(([, info]) => info.bytesInOutput > 0).map(([name]) => name));
    return { bytes: code.length, gzip: gzipSync(code, { level: 9 }).length, lazyGzip, completeGzip, inputs, text: code.toString('utf8'), withLazy };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** Operations of the minimal client the cost per operation is measured against (`tags.list`, `credits.retrieve`). */
const MINIMAL_OPERATIONS = 2;

/**
 * The size of the complete client against openai-node's, measured in one run, with the cost of one
 * operation and the client's projected size once every operation of the spec is declared.
 * @param {string} root - the repository
 * @param {number} specOperations - the operations the spec lists
 */
export async function clientSizes(root, specOperations) {
  const { createRequire } = await import('node:module');
  const require = createRequire(join(root, 'package.json'));
  const openaiEntry = join(require.resolve('openai'), '..', 'index.mjs');
  const path = (p) => JSON.stringify(join(root, p));
  const client = await bundleSize(`import { ForecastingClient } from ${path('dist/index.js')}; export const c = new ForecastingClient({ apiKey: 'k', baseURL: 'https://a.example' });`, root);
  const openai = await bundleSize(`import OpenAI from ${JSON.stringify(openaiEntry)}; export const c = new OpenAI({ apiKey: 'sk-x' });`, root);
  // The cost of one more operation: the whole client from source against a client of two small
  // namespaces (tags and credits), which already holds the pipeline, zod and the shared schema pieces.
  const full = await bundleSize(`import { ForecastingClient } from ${path('src/client.ts')}; export const c = new ForecastingClient({ apiKey: 'k', baseURL: 'https://a.example' });`, root);
  const minimal = await bundleSize(
    `import { BaseClient } from ${path('src/core/base-client.ts')}; import { Tags } from ${path('src/resources/tags.ts')}; import { CreditsResource } from ${path('src/resources/credits.ts')};
     const base = new BaseClient({ apiKey: 'k', baseURL: 'https://a.example' }); export const c = [new Tags(base), new CreditsResource(base)];`,
    root,
  );
  const { operations } = await import(join(root, 'dist/index.js'));
  const declared = operations.length;
  const perOperation = (full.gzip - minimal.gzip) / (declared - MINIMAL_OPERATIONS);
  const projected = client.gzip + (specOperations - declared) * perOperation;
  // Once a call has checked params, the client has loaded zod and the params schemas as well.
  const checked = full.withLazy('src/schemas/params.ts');
  return { client, openai, minimal, declared, perOperation, projected, checked };
}
