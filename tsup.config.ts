import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'webhooks/index': 'src/webhooks/index.ts',
    'webhooks/express': 'src/webhooks/express.ts',
    'webhooks/fetch': 'src/webhooks/fetch.ts',
    'testing/index': 'src/testing/index.ts',
    'testing/msw': 'src/testing/msw.ts',
  },
  format: ['esm', 'cjs'],
  // One shared chunk per format keeps one class identity across entries (CJS included).
  splitting: true,
  treeshake: true,
  // stripInternal: members marked @internal (the pipeline hooks, the flows' emitter) stay out of the published types.
  dts: { compilerOptions: { ignoreDeprecations: '6.0', stripInternal: true } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  // Keep `node:http` as written: a bare `http` does not resolve on Deno or in edge bundlers.
  removeNodeProtocol: false,
  platform: 'neutral',
  // ky, zod/mini and eventemitter3 are bundled (tree-shaken): one file loads far faster than zod's
  // hundred modules, and the CJS build needs no require(esm) of ky. zod stays a dependency for the types.
  noExternal: ['ky', 'zod', 'eventemitter3'],
  external: ['msw', 'express', /^node:/],
});
