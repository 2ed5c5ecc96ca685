// forecasting-sdk/testing and forecasting-sdk/testing/msw in a browser bundle (msw in front-end
// tests): they bundle for the browser with no Node module, and the bundled mock runs with web
// globals alone.
import { build } from 'esbuild';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Bundles `source` (resolved from the repo root, so `forecasting-sdk` is this package) for the browser. */
async function browserBundle(source: string, format: 'esm' | 'iife') {
  const result = await build({
    stdin: { contents: source, resolveDir: root, loader: 'js' },
    bundle: true,
    format,
    platform: 'browser',
    external: ['msw'],
    write: false,
    logLevel: 'silent',
    metafile: true,
  });
  const [output] = Object.values(result.metafile.outputs);
  return { text: result.outputFiles[0]!.text, inputs: Object.keys(output!.inputs) };
}

/** A static or dynamic import, or a require, of a `node:` module. */
const NODE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']node:/;

describe('the testing entries in a browser bundle', () => {
  it('bundle forecasting-sdk/testing and forecasting-sdk/testing/msw with no node: import', async () => {
    const { text, inputs } = await browserBundle(
      `export * from 'forecasting-sdk/testing'; export * from 'forecasting-sdk/testing/msw';`,
      'esm',
    );
    expect(text).not.toMatch(NODE_IMPORT);
    expect(inputs.some((i) => i.includes('dist/testing/'))).toBe(true);
    // The whole service and the handlers are in it, msw left to the app.
    for (const name of ['MockService', 'createMockService', 'mockHandlers', 'startMockServer']) expect(text).toMatch(new RegExp(`\\b${name}\\b`));
    expect(text).toMatch(/from ["']msw["']/);
  });

  it('run the bundled mock with web globals only: no process, Buffer or setImmediate', async () => {
    const { text } = await browserBundle(
      `import { createMockService, clientClockFor, startMockServer } from 'forecasting-sdk/testing';
       globalThis.run = async () => {
         const service = createMockService();
         const auth = { authorization: 'Bearer ' + service.apiKey, 'content-type': 'application/json' };
         const url = (path) => 'https://forecasting.example/api/v1/external' + path;
         for (const title of ['Will it run in a browser?', 'Will it page?']) {
           await service.handle(new Request(url('/questions'), { method: 'POST', headers: auth, body: JSON.stringify({ type: 'binary', title }) }));
         }
         const page = await (await service.handle(new Request(url('/questions?limit=1'), { headers: auth }))).json();
         const next = await (await service.handle(new Request(url('/questions?limit=1&cursor=' + page.nextCursor), { headers: auth }))).json();
         const hook = await (await service.handle(new Request(url('/webhooks'), { method: 'POST', headers: auth, body: JSON.stringify({ url: 'https://hooks.example/x' }) }))).json();
         const time = clientClockFor(service.clock);
         const before = time.now();
         await time.sleep(60_000);
         const server = await startMockServer().then(() => 'started', (err) => err.message);
         return { titles: [page.data[0].title, next.data[0].title], secret: hook.signingSecret.slice(0, 6), waited: time.now() - before, server };
       };`,
      'iife',
    );
    const web = {
      Request, Response, Headers, URL, URLSearchParams, ReadableStream, TextEncoder, TextDecoder, AbortController, AbortSignal,
      crypto, atob, btoa, console, setTimeout, clearTimeout, queueMicrotask, structuredClone, fetch, Promise,
    };
    const context: Record<string, unknown> = { ...web };
    context['globalThis'] = context;
    runInNewContext(text, context);
    const result = await (context['run'] as () => Promise<unknown>)();
    expect(result).toEqual({
      titles: ['Will it page?', 'Will it run in a browser?'],
      secret: 'whsec_',
      waited: 60_000,
      server: expect.stringMatching(/startMockServer needs Node\.js .*mockHandlers from forecasting-sdk\/testing\/msw/),
    });
  });
});
