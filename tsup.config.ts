import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, relative, sep } from 'node:path';
import { build, defineConfig, type Options } from 'tsup';
import { plainDeclarations } from './scripts/plain-declarations.js';
import { openApiDocument } from './src/openapi.js';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * The CLI uses the SDK as its users do: its imports of the public entries (`src/index.ts`,
 * `src/testing/index.ts`, `src/webhooks/index.ts`) become imports of the package itself
 * (`forecasting-sdk`, `forecasting-sdk/testing`, …), resolved by Node's self-reference to the files
 * the library build writes. No second copy of the SDK in dist/, one class identity, and an import of
 * anything else of src/ outside the CLI (an internal module) fails the build.
 */
const selfReference: EsbuildPlugin = {
  name: 'cli-self-reference',
  setup(build) {
    const entries: Record<string, string> = {
      'src/index': 'forecasting-sdk',
      'src/testing/index': 'forecasting-sdk/testing',
      'src/webhooks/index': 'forecasting-sdk/webhooks',
      'src/redis/index': 'forecasting-sdk/redis',
    };
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      // The CLI's bundled libraries import their own files.
      if (/[\\/]node_modules[\\/]/.test(args.importer)) return undefined;
      const target = relative(process.cwd(), resolve(args.resolveDir, args.path)).split(sep).join('/').replace(/\.js$/, '');
      if (entries[target]) return { path: entries[target], external: true };
      if (target.startsWith('src/cli/') || target === 'src/version') return undefined;
      return { errors: [{ text: `The CLI may import only the package's public entries, not ${target} (from ${args.importer})` }] };
    });
  },
};


/** Empties the CLI's own output before it is written again (the library build spares it), so no stale chunk stays. */
const cleanCliOutput: EsbuildPlugin = {
  name: 'cli-clean',
  setup(build) {
    build.onStart(() => {
      rmSync('dist/cli', { recursive: true, force: true });
      rmSync('dist/cli.js', { force: true });
    });
  },
};

const libraryEntry = {
  index: 'src/index.ts',
  'webhooks/index': 'src/webhooks/index.ts',
  'webhooks/express': 'src/webhooks/express.ts',
  'webhooks/fetch': 'src/webhooks/fetch.ts',
  'testing/index': 'src/testing/index.ts',
  'testing/msw': 'src/testing/msw.ts',
  'redis/index': 'src/redis/index.ts',
  'otel/index': 'src/otel/index.ts',
};

/**
 * The type declarations of both formats, then made plain (no zod: see scripts/plain-declarations.ts).
 * A build of its own, run once the library's files are written, because tsup's own `dts` runs
 * beside the library build and nothing can follow it.
 */
async function declarations(): Promise<void> {
  await build({
    config: false,
    entry: libraryEntry,
    format: ['esm', 'cjs'],
    outDir: 'dist',
    target: 'node20',
    silent: process.argv.includes('--silent'),
    // stripInternal: members marked @internal (the pipeline hooks, the flows' emitter) stay out of the published types.
    dts: { only: true, compilerOptions: { ignoreDeprecations: '6.0', stripInternal: true } },
    external: ['zod', /^zod\//, 'msw', 'express', 'redis', '@opentelemetry/api'],
  });
  plainDeclarations('dist');
}

/** The entries whose code runs in users' applications: the files they load keep their source maps. */
// Not ./otel: its handlers never throw into the caller (a span lost rather than a call failed), and
// its maps would cost 80 KB of the install's budget.
const MAPPED_ENTRIES = ['index', 'webhooks/index', 'webhooks/express', 'webhooks/fetch', 'redis/index'];

/**
 * Source maps only where they earn their size: the files a client or a webhook handler runs, in
 * both formats, so a stack (`--enable-source-maps`) or a debugger lands on the line of src/ the
 * docs and issues talk about. The mock's own files (./testing) run in tests, and the code is not
 * minified, so it reads as it is there; their maps would add about half as much again as all the code.
 */
function pruneSourceMaps(dir: string): void {
  const keep = new Set<string>();
  const stack = MAPPED_ENTRIES.flatMap((e) => [join(dir, `${e}.js`), join(dir, `${e}.cjs`)]);
  for (let file = stack.pop(); file !== undefined; file = stack.pop()) {
    if (keep.has(file)) continue;
    keep.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:\bfrom|\bimport|\brequire)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) stack.push(join(dirname(file), spec!));
  }
  for (const map of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.map'))) {
    const file = join(dir, map.slice(0, -'.map'.length));
    if (keep.has(file)) {
      sourcesBeside(dir, join(dir, map));
      continue;
    }
    rmSync(join(dir, map));
    // Every such line: a file tsup tree-shakes ends with two.
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^\/\/# sourceMappingURL=.*\n?/gm, ''));
  }
}

/**
 * A kept map still says which line of zod, ky or eventemitter3 a frame is on, but not their text (a
 * third of the maps' bytes): a library's own is in its package. Our src/ files are written once, to
 * dist/src/, and the maps point there instead of each holding a copy: the ESM and CommonJS maps of a
 * file, and every chunk holding part of it, held the same text (half the install's maps). A debugger
 * or `--enable-source-maps` shows the same lines of the same files; the paths now exist.
 */
function sourcesBeside(dir: string, path: string): void {
  const map = JSON.parse(readFileSync(path, 'utf8')) as { sources: string[]; sourcesContent?: Array<string | null> };
  const texts = map.sourcesContent ?? [];
  delete map.sourcesContent;
  const src = resolve('src');
  map.sources = map.sources.map((source, i) => {
    const ours = relative(src, resolve(dirname(path), source));
    if (source.includes('node_modules/') || ours.startsWith('..')) return source;
    const copy = join(dir, 'src', ours);
    if (!existsSync(copy)) {
      mkdirSync(dirname(copy), { recursive: true });
      writeFileSync(copy, texts[i] ?? readFileSync(join(src, ours), 'utf8'));
    }
    return relative(dirname(path), copy).split(sep).join('/');
  });
  writeFileSync(path, JSON.stringify(map));
}

/**
 * In the CommonJS files, a chunk loaded on demand is `require`d in a promise, not `import()`ed:
 * Jest's CommonJS runtime (and any `vm` host without a dynamic-import hook) refuses `import()`, and
 * every call with params loads the params check that way.
 */
function requireChunksInCjs(dir: string): void {
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.cjs'))) {
    const file = join(dir, name);
    const text = readFileSync(file, 'utf8');
    const rewritten = text.replace(/\bimport\((['"])(\.{1,2}\/[^'"]+\.cjs)\1\)/g, (_, quote: string, path: string) => `Promise.resolve().then(() => require(${quote}${path}${quote}))`);
    if (rewritten !== text) writeFileSync(file, rewritten);
  }
}

const library: Options = {
  entry: libraryEntry,
  format: ['esm', 'cjs'],
  // One shared chunk per format keeps one class identity across entries (CJS included).
  splitting: true,
  treeshake: true,
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // Keep `node:http` as written: a bare `http` does not resolve on Deno or in edge bundlers.
  removeNodeProtocol: false,
  platform: 'neutral',
  // ky, zod/mini and eventemitter3 are bundled (tree-shaken): one file loads far faster than zod's
  // hundred modules, and the CJS build needs no require(esm) of ky. The package has no dependency:
  // its declarations name no zod (see declarations()).
  noExternal: ['ky', 'zod', 'eventemitter3'],
  external: ['msw', 'express', 'redis', '@opentelemetry/api', /^node:/],
  onSuccess: async () => {
    // The OpenAPI document of the service, derived from the same declarations (forecasting-sdk/openapi.json);
    // compact (a third of its size indented): tools read it, and `jq .` indents it for a person.
    writeFileSync('dist/openapi.json', `${JSON.stringify(openApiDocument())}\n`);
    pruneSourceMaps('dist');
    requireChunksInCjs('dist');
    await declarations();
  },
};

/**
 * The `forecasting` binary: ESM only, one small entry (`dist/cli.js`, the command table) and a chunk
 * per command under `dist/cli/`, loaded when that command runs. Its libraries (commander,
 * log-update and its dependencies) are bundled into these files, so a library user's install has
 * none of them; log-update stays in the chunk that draws the bars.
 */
const cli: Options = {
  entry: { cli: 'src/cli/index.ts' },
  format: ['esm'],
  splitting: true,
  treeshake: true,
  dts: false,
  // None: its stacks show only with --debug, and most of a map would be commander's and log-update's code.
  sourcemap: false,
  // The library build empties dist/ (sparing these files), so this one never cleans.
  clean: false,
  target: 'node20',
  platform: 'node',
  removeNodeProtocol: false,
  noExternal: ['commander', 'log-update'],
  // redis: the optional peer that only `fleet status` loads, from the user's install.
  external: [/^forecasting-sdk(\/|$)/, /^node:/, 'redis'],
  // commander is CommonJS: its require() of Node's modules needs a `require` in these ES modules.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  esbuildPlugins: [cleanCliOutput, selfReference],
  esbuildOptions(options) {
    options.chunkNames = 'cli/[name]-[hash]';
  },
};

export default defineConfig([{ ...library, clean: ['!cli.js', '!cli/**'] }, cli]);
