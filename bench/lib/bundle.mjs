// Bundles an entry with everything it imports (as an application would ship it), minified, and
// reports its raw and gzipped size. Shared by the size test and the size benchmark.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';

/**
 * @param {string} source - module source to bundle, e.g. `export * from '/abs/dist/index.js'`
 * @param {string} resolveDir - where bare imports resolve from
 * @returns {Promise<{ bytes: number, gzip: number, inputs: string[], text: string }>} inputs: the modules that contribute bytes
 */
export async function bundleSize(source, resolveDir) {
  const result = await build({
    stdin: { contents: source, resolveDir, loader: 'js' },
    bundle: true,
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
  const code = result.outputFiles[0].contents;
  // Only the modules that put bytes into the bundle (a re-exported namespace may be parsed, then shaken out).
  const [output] = Object.values(result.metafile.outputs);
  const inputs = Object.entries(output.inputs).filter(([, info]) => info.bytesInOutput > 0).map(([name]) => name);
  return { bytes: code.length, gzip: gzipSync(code, { level: 9 }).length, inputs, text: new TextDecoder().decode(code) };
}
