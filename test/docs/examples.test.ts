// The code examples of the guides work as written: every TypeScript block type-checks against the
// built package, and the blocks marked `ts run` run to completion. Markers: test/docs/README.md.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../redis/_redis.js';
import { startCluster, startSentinel, type TestCluster, type TestSentinel } from '../redis/_topologies.js';
import { examplesOf, runExample, typecheckExamples } from './harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const requireFromRoot = createRequire(`${root}package.json`);
/** The markdown files whose examples are tested: the README and every guide in docs/, so none is missed. */
const DOCS = ['README.md', ...readdirSync(`${root}docs`).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const examples = DOCS.flatMap((file) => examplesOf(root, file));

// The examples that read REDIS_URL (docs/fleet.md) run against a redis-server the harness starts,
// as the Redis tests do (a missing redis-server fails them, never skips them).
// Those that read REDIS_CLUSTER_URL or REDIS_SENTINEL_URL get a 6-node cluster or a Sentinel set.
const uses = (name: string) => examples.some((e) => e.run && new RegExp(`process\\.env\\.${name}\\b`).test(e.code));
let redis: TestRedis | undefined;
let cluster: TestCluster | undefined;
let sentinel: TestSentinel | undefined;
const environment: Record<string, string> = {};
beforeAll(async () => {
  if (uses('REDIS_URL')) environment['REDIS_URL'] = (redis = await startRedis()).url;
  if (uses('REDIS_CLUSTER_URL')) environment['REDIS_CLUSTER_URL'] = `redis://127.0.0.1:${(cluster = await startCluster()).ports[0]}`;
  if (uses('REDIS_SENTINEL_URL')) {
    sentinel = await startSentinel();
    environment['REDIS_SENTINEL_URL'] = `redis://127.0.0.1:${sentinel.sentinelPorts[0]}`;
    environment['REDIS_SENTINEL_NAME'] = sentinel.name;
  }
}, 90_000);
afterAll(async () => {
  await redis?.close();
  await cluster?.close();
  await sentinel?.close();
});

describe('documentation examples', () => {
  it('finds the examples of every file, some of them runnable', () => {
    // Every file with a TypeScript block yields examples (docs/cli.md and contributing.md hold shell only).
    const withTypeScript = DOCS.filter((file) => /^```ts/m.test(readFileSync(`${root}${file}`, 'utf8')));
    expect(withTypeScript.length).toBeGreaterThan(10);
    for (const file of withTypeScript) expect(examples.filter((e) => e.file === file).length, file).toBeGreaterThan(0);
    expect(examples.some((e) => e.run)).toBe(true);
  });

  it('runs every example that is a whole program against the mock (starts it and closes it, outside a test runner)', () => {
    const whole = examples.filter((e) => !e.preamble && /\bstartMockServer\(/.test(e.code) && /\.close\(\)/.test(e.code) && !/from 'vitest'/.test(e.code));
    expect(whole.filter((e) => !e.run).map((e) => e.name)).toEqual([]);
  });

  it('parses every JavaScript example as an ES module, whose imports resolve', () => {
    const blocks = DOCS.flatMap((file) =>
      [...readFileSync(`${root}${file}`, 'utf8').matchAll(/^```(?:js|javascript)\n([\s\S]*?)^```/gm)].map((m) => ({ file, code: m[1]! })),
    );
    expect(blocks.length).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), 'fsdk-js-'));
    try {
      for (const [i, { file, code }] of blocks.entries()) {
        const path = join(dir, `example-${i}.mjs`);
        writeFileSync(path, code);
        const checked = spawnSync(process.execPath, ['--check', path], { encoding: 'utf8' });
        expect(checked.stderr, file).toBe('');
        // Every package it imports resolves from the repository (the package itself through its exports).
        for (const [, name] of code.matchAll(/^import .* from '([^']+)';$/gm)) expect(() => requireFromRoot.resolve(name!), `${file}: ${name}`).not.toThrow();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('type-checks every TypeScript example (strict, against the built package)', () => {
    expect(typecheckExamples(root, examples)).toEqual([]);
  }, 60_000);

  // What users copy compiles in the strictest project too: node-redis's `url` takes no `undefined`
  // there, nor OpenTelemetry's `enabled`, and Node's own resolution wants a relative import's extension.
  it('type-checks every TypeScript example in a strictest project (exactOptionalPropertyTypes, noUncheckedIndexedAccess, NodeNext)', () => {
    const strictest = { exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
    expect(typecheckExamples(root, examples, strictest)).toEqual([]);
  }, 60_000);

  // Concurrent: most of their time is waiting (a forecast on the mock's running clock, servers).
  it.concurrent.each(examples.filter((e) => e.run).map((e) => [e.name, e] as const))('runs %s', async (_name, example) => {
    const result = await runExample(root, example, 30_000, environment);
    expect(result.timedOut, 'did not finish within 30 s (a server or timer left open?)').toBe(false);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 40_000);
});
