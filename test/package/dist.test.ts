// The built package as users load it: both module formats, every entry, one class identity.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = (args: string[], code: string) => execFileSync(process.execPath, [...args, code], { cwd: root, encoding: 'utf8' }).trim();

describe('built package', () => {
  it('requires cleanly from CommonJS, ky included, and keeps one class identity across entries', () => {
    const out = run(['-e'], `
      const sdk = require('forecasting-sdk');
      const webhooks = require('forecasting-sdk/webhooks');
      const testing = require('forecasting-sdk/testing');
      const client = new sdk.ForecastingClient({ apiKey: 'pre_x', baseURL: 'https://api.example/api/v1/external' });
      webhooks.verifyWebhook('{}', {}, 'whsec_x').catch((err) => {
        console.log(JSON.stringify({
          identity: webhooks.WebhookVerificationError === sdk.WebhookVerificationError,
          instance: err instanceof sdk.WebhookVerificationError && err instanceof sdk.ForecastingError,
          client: typeof client.questions.create,
          mock: typeof testing.startMockServer,
        }));
      });
    `);
    expect(JSON.parse(out)).toEqual({ identity: true, instance: true, client: 'function', mock: 'function' });
  });

  it.each([
    ['CommonJS', ['-e'], "const { ForecastingClient } = require('forecasting-sdk'); const { startMockServer } = require('forecasting-sdk/testing'); const { ForecastingInstrumentation } = require('forecasting-sdk/otel'); const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');"],
    ['ESM', ['--input-type=module', '-e'], "import { ForecastingClient } from 'forecasting-sdk'; import { startMockServer } from 'forecasting-sdk/testing'; import { ForecastingInstrumentation } from 'forecasting-sdk/otel'; import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';"],
  ])('records a span of a call with forecasting-sdk/otel from the built package (%s)', (_format, args, imports) => {
    const out = run(args as string[], `${imports}
      (async () => {
        const exporter = new InMemorySpanExporter();
        const instrumentation = new ForecastingInstrumentation();
        instrumentation.setTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
        const mock = await startMockServer();
        await new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL }).credits.retrieve();
        await mock.close();
        instrumentation.disable();
        console.log(JSON.stringify(exporter.getFinishedSpans().map((s) => s.name)));
      })();
    `);
    expect(JSON.parse(out)).toEqual(['credits.retrieve']);
  });

  it.each([
    ['CommonJS', ['-e'], "const { ForecastingClient } = require('forecasting-sdk'); const { startMockServer } = require('forecasting-sdk/testing');"],
    ['ESM', ['--input-type=module', '-e'], "import { ForecastingClient } from 'forecasting-sdk'; import { startMockServer } from 'forecasting-sdk/testing';"],
  ])('runs a client with a coordinator from the built package (%s)', (_format, args, imports) => {
    const out = run(args as string[], `${imports}
      (async () => {
        const mock = await startMockServer();
        const log = [];
        const coordinator = {
          attach() {}, take: async (w) => { log.push('take ' + w); return () => log.push('end ' + w); },
          hold: async (n) => { log.push('hold ' + n); return { count: n, bind: async (ids) => log.push('bind ' + ids.length), release: async () => log.push('release') }; },
          settle: async () => {}, watch: () => () => {}, receiving: () => false, stats: async () => ({}),
        };
        const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, coordinator });
        const q = await client.questions.create({ type: 'binary', title: 'A coordinated start' });
        log.length = 0;
        await client.forecasts.create({ questionId: q.id, runMode: 'light' });
        console.log(log.join(', '));
        await mock.close();
      })();
    `);
    expect(out).toBe('hold 1, take requests, end requests, bind 1');
  });

  it('imports cleanly as ESM with the same identity guarantees', () => {
    const out = run(['--input-type=module', '-e'], `
      import * as sdk from 'forecasting-sdk';
      import * as webhooks from 'forecasting-sdk/webhooks';
      const err = await webhooks.verifyWebhook('{}', {}, 'whsec_x').catch((e) => e);
      console.log(JSON.stringify({
        identity: webhooks.WebhookVerificationError === sdk.WebhookVerificationError,
        instance: err instanceof sdk.WebhookVerificationError,
        code: err.code,
        operations: sdk.operations.length > 0,
      }));
    `);
    expect(JSON.parse(out)).toEqual({ identity: true, instance: true, code: 'missing_header', operations: true });
  });

  it('loads forecasting-sdk/redis without loading redis (it uses the client it is given), in both formats', () => {
    const cjs = run(['-e'], `
      const Module = require('node:module');
      const resolve = Module._resolveFilename;
      Module._resolveFilename = function (request, ...rest) {
        if (/^(redis|@redis\\/|ioredis)/.test(request)) throw new Error('loaded ' + request);
        return resolve.call(this, request, ...rest);
      };
      console.log(typeof require('forecasting-sdk/redis').createRedisCoordinator);
    `);
    expect(cjs).toBe('function');
    // ESM: every file the entry imports, followed through the chunks, names only node:* and its own files.
    const bare = new Set<string>();
    const seen = new Set<string>();
    const stack = [join(root, 'dist/redis/index.js')];
    while (stack.length > 0) {
      const file = stack.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"]([^'"]+)['"]/g)) {
        if (spec!.startsWith('.')) stack.push(join(file, '..', spec!));
        else bare.add(spec!);
      }
    }
    expect(seen.size).toBeGreaterThan(1);
    expect([...bare].filter((s) => !s.startsWith('node:'))).toEqual([]);
  });

  it('exports every pinned name from the root', async () => {
    const sdk = (await import(`${root}dist/index.js`)) as Record<string, unknown>;
    const pinned = ['ForecastingClient', 'operations', 'verifyWebhook', 'ForecastingError', 'APIError', 'BadRequestError', 'AuthenticationError', 'PermissionDeniedError', 'NotFoundError', 'ConflictError', 'RateLimitError', 'InternalServerError', 'APIConnectionError', 'APITimeoutError', 'ValidationError', 'WebhookVerificationError', 'ContextFileFailedError'];
    expect(pinned.filter((name) => sdk[name] === undefined)).toEqual([]);
    const { APITimeoutError, APIConnectionError } = sdk as { APITimeoutError: { prototype: object }; APIConnectionError: new () => object };
    expect(APITimeoutError.prototype).toBeInstanceOf(APIConnectionError);
  });
});

// The published declarations stand alone: a `.d.ts`/`.d.cts` may import only the package's own files
// and what its users are sure to have for that entry. zod is not among them: it is bundled, and the
// declarations are plain (scripts/plain-declarations.ts). publint and attw do not check this (a d.ts that
// imports an undeclared package passes both); test/package/consumer.test.ts compiles a real consumer.
describe('published declarations', () => {
  /** The bare packages each entry's declarations may import, by `exports` key. */
  const allowed: Record<string, (specifier: string) => boolean> = {
    '.': none,
    './webhooks': none,
    './webhooks/express': none, // express is an optional peer, and its types (@types/express) are not declared at all
    './webhooks/fetch': none,
    './testing': isNode, // the mock server is node:http: its users have Node's types
    './testing/msw': (s) => isNode(s) || s === 'msw' || s === 'msw/node', // builds on ./testing; msw is an optional peer
    './redis': none, // redis is an optional peer: the entry takes a client of the shape it uses, no redis types
    './otel': (s) => s === '@opentelemetry/api', // an optional peer, which every user of this entry has
  };
  const forbidden = ['eventemitter3', 'ky', 'express', 'zod'];

  it('lets each declaration file import only its own files and (for ./testing and ./testing/msw) node:* and msw: no zod', () => {
    const graph = declarationGraph();
    const entries = declarationEntries();
    expect(Object.keys(entries).sort()).toEqual(Object.keys(allowed).sort());
    // A chunk shared by several entries may import only what all of them allow.
    const reachedBy = new Map<string, string[]>();
    for (const [entry, files] of Object.entries(entries)) {
      for (const file of reachable(graph, files)) reachedBy.set(file, [...(reachedBy.get(file) ?? []), entry]);
    }
    const problems: string[] = [];
    for (const [file, { bare }] of graph) {
      const by = reachedBy.get(file) ?? [];
      if (by.length === 0) problems.push(`${file}: reached from no entry of package.json exports`);
      for (const s of bare) {
        const refusedBy = by.filter((entry) => !allowed[entry]!(s));
        if (refusedBy.length > 0) problems.push(`${file}: imports '${s}', which is not allowed for ${refusedBy.join(', ')}`);
      }
    }
    expect(problems).toEqual([]);
    expect([...graph.values()].flatMap((f) => f.bare).filter((s) => forbidden.includes(packageName(s)))).toEqual([]);
    // The audit reads what it should: msw's types are imported (so the parse found imports).
    const all = new Set([...graph.values()].flatMap((f) => f.bare));
    expect(all).toContain('msw');
  });

  // TypeScript 5.7 prints a byte array as `Uint8Array<ArrayBufferLike>`, which compilers before 5.7
  // refuse (TS2315, a newcomer's TypeScript 5.0 and 5.4 with skipLibCheck: false): the upload params did.
  it('names byte arrays without the type argument older compilers refuse', () => {
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter(isDeclaration);
    expect(files.length).toBeGreaterThan(10);
    const found = files.filter((f) => /\b(Uint8Array|Buffer)<ArrayBufferLike>/.test(readFileSync(join(dist, f), 'utf8')));
    expect(found).toEqual([]);
    expect(readFileSync(join(dist, 'index.d.ts'), 'utf8')).toContain('file: File | Blob | ArrayBuffer | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;');
  });

  it('reads imports as TypeScript does: every form, nothing in comments or strings', () => {
    const text = `/// <reference types="node" />
      /** @example
       * import { ForecastingClient } from 'forecasting-sdk';
       */
      // import x from 'in-a-line-comment';
      import { a } from 'zod/mini';
      import type { B } from "./chunk-1.js";
      import 'side-effect';
      export { c } from 'reexported';
      export * from './chunk-2.js';
      import eq = require('import-equals');
      declare module 'augmented' { interface X { y: typeof import('import-type').Z } }
      declare const s: "import z from 'in-a-string'";
      declare function f(): import('node:http').Server;`;
    expect(importsOf('x.d.ts', text).sort()).toEqual(
      ['./chunk-1.js', './chunk-2.js', 'augmented', 'import-equals', 'import-type', 'node', 'node:http', 'reexported', 'side-effect', 'zod/mini'].sort(),
    );
  });
});

function none(): boolean {
  return false;
}
function isNode(s: string): boolean {
  return s.startsWith('node:') || s === 'node'; // `node`: a `/// <reference types="node" />`
}
/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function packageName(s: string): string {
  return s.split('/').slice(0, s.startsWith('@') ? 2 : 1).join('/');
}

/** Every module a declaration file names: imports, re-exports, `import("…")` types, `import = require`, module augmentations, `/// <reference types>`. */
function importsOf(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found = file.typeReferenceDirectives.map((d) => d.fileName);
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      found.push(node.moduleReference.expression.text);
    } else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) {
      found.push(node.name.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const dist = join(root, 'dist');
const isDeclaration = (f: string) => f.endsWith('.d.ts') || f.endsWith('.d.cts') || f.endsWith('.d.mts');

/** Each declaration file of dist/ (path relative to the package) with its bare imports and the package files it imports. */
function declarationGraph(): Map<string, { bare: string[]; own: string[] }> {
  const graph = new Map<string, { bare: string[]; own: string[] }>();
  for (const name of readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter(isDeclaration)) {
    const file = `dist/${name.split(sep).join('/')}`;
    const specifiers = importsOf(file, readFileSync(join(root, file), 'utf8'));
    const own = specifiers.filter((s) => s.startsWith('.')).map((s) => declarationOf(posix.join(posix.dirname(file), s), file));
    graph.set(file, { bare: specifiers.filter((s) => !s.startsWith('.')), own });
  }
  return graph;
}

/** The declaration file a relative import of `from` names (`./x.js` → `./x.d.ts`, `./x.cjs` → `./x.d.cts`); it must exist. */
function declarationOf(target: string, from: string): string {
  const candidates = /\.(c|m)?js$/.test(target)
    ? [target.replace(/\.(c|m)?js$/, (_, k: string | undefined) => `.d.${k ?? ''}ts`)]
    : [`${target}.d.ts`, `${target}/index.d.ts`];
  const found = candidates.find((c) => existsSync(join(root, c)));
  if (!found) throw new Error(`${from} imports ${target}, which has no declaration file (looked for ${candidates.join(', ')})`);
  return found;
}

/** The declaration files each `exports` key points at (its import and require conditions). */
function declarationEntries(): Record<string, string[]> {
  const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  const entries: Record<string, string[]> = {};
  for (const [key, target] of Object.entries(exports)) {
    const types = JSON.stringify(target).match(/"types":"[^"]+"/g)?.map((m) => posix.normalize(m.slice('"types":"'.length, -1))) ?? [];
    if (types.length > 0) entries[key] = types;
  }
  return entries;
}

function reachable(graph: Map<string, { own: string[] }>, from: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...from];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...(graph.get(file)?.own ?? []));
  }
  return seen;
}
