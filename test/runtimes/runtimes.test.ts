// Every runtime the README lists, proven on every build: Node 22 and 24, Bun and Deno each run the
// core path (create a question, forecast and wait with the default options, page through a list,
// verify the signed webhook the mock sent) against the built dist/, as an ES module and as CommonJS,
// talking to the mock service on this Node over 127.0.0.1. The runtimes come from the npm registry,
// pinned, and are cached outside the repository (see _runtimes.ts). workerd: workerd.test.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/testing/index.js';
import { EXPECTED, ensureRuntime, removeDenoDir, RUNTIMES, runProgram, startRelay, type CorePathResult } from './_runtimes.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const BUN_GUARD = fileURLToPath(new URL('../_setup/loopback-child.mjs', import.meta.url));

type Name = 'node22' | 'node24' | 'bun' | 'deno';
/** How each runtime runs a program; `null` where it cannot. */
const COMMANDS: Record<Name, Record<'esm' | 'cjs', ((file: string) => string[]) | null>> = {
  node22: { esm: (f) => [f], cjs: (f) => [f] },
  node24: { esm: (f) => [f], cjs: (f) => [f] },
  // Bun reads no NODE_OPTIONS: the tests' guard (nothing beyond loopback) is preloaded by hand.
  bun: { esm: (f) => ['--preload', BUN_GUARD, f], cjs: (f) => ['--preload', BUN_GUARD, f] },
  deno: {
    // No permission but the network of 127.0.0.1: the SDK needs no other (key and address are given).
    esm: (f) => ['run', '--no-prompt', '--no-lock', '--allow-net=127.0.0.1', f],
    // Deno's require() reads the files it loads itself, so CommonJS also needs reading the package.
    cjs: (f) => ['run', '--no-prompt', '--no-lock', '--allow-net=127.0.0.1', `--allow-read=${root}`, f],
  },
};

const bins: Partial<Record<Name, string>> = {};
let relay: Awaited<ReturnType<typeof startRelay>>;

beforeAll(async () => {
  // Cold: an npm install per runtime, in parallel (about 20 s with a warm npm cache); warm: nothing.
  await Promise.all(
    (Object.keys(COMMANDS) as Name[]).map(async (name) => {
      bins[name] = (await ensureRuntime(RUNTIMES[name])).path;
    }),
  );
  relay = await startRelay();
}, 600_000);
afterAll(() => {
  removeDenoDir();
  return relay?.close();
});

const runs = (Object.keys(COMMANDS) as Name[]).flatMap((name) => (['esm', 'cjs'] as const).map((module) => [name, module] as const));

describe.concurrent('the core path on other runtimes, against the mock on Node 20', () => {
  it.for(runs)('%s runs it as %s', { timeout: 120_000 }, async ([name, module], { expect }) => {
    // A mock of its own per run (the webhook limit is per user, and the pages count the questions).
    const mock = await startMockServer({ webhooks: { allowLoopbackReceivers: true } });
    try {
      const config = { baseURL: mock.baseURL, apiKey: mock.apiKey, relayURL: relay.url, tag: `${name}-${module}` };
      const args = COMMANDS[name][module]!(`${fixtures}main.${module === 'esm' ? 'mjs' : 'cjs'}`);
      const { code, stdout, stderr } = await runProgram(bins[name]!, [...args, JSON.stringify(config)], { cwd: fixtures, timeout: 100_000 });
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as CorePathResult;
      expect(result).toMatchObject({ module, ...EXPECTED });
      expect(result.probability).toBeGreaterThan(0);
      // Every one of them has tracing channels (Bun's lack a `hasSubscribers` of their own): they tell of each operation.
      expect(result.traced).toEqual(['forecasts.create', 'forecasts.retrieve', 'questions.create', 'questions.list', 'webhooks.create']);
      expect(mock.service.requests.count({ operation: 'forecasts.retrieve' })).toBeGreaterThan(0);
    } finally {
      await mock.close();
    }
  });

  it('runs the runtimes it was asked for, at their pinned versions', async () => {
    const version = async (name: Name, flag: string) => (await runProgram(bins[name]!, [flag], { cwd: fixtures, timeout: 30_000 })).stdout;
    expect(await version('node22', '--version')).toBe(`v${RUNTIMES.node22.version}\n`);
    expect(await version('node24', '--version')).toBe(`v${RUNTIMES.node24.version}\n`);
    expect(await version('bun', '--version')).toBe(`${RUNTIMES.bun.version}\n`);
    expect(await version('deno', '--version')).toContain(`deno ${RUNTIMES.deno.version} `);
  }, 60_000);

  it('holds Bun, Node 22 and Node 24 to the tests\' guard: a fetch beyond loopback is refused, and reported to the test', async () => {
    // A log of its own: the other tests here run at the same time, and the guard reads the shared one after each.
    const dir = mkdtempSync(join(tmpdir(), 'guard-'));
    const env = { FORECASTING_TEST_LOOPBACK_LOG: join(dir, 'refused.log') };
    const program = `fetch('http://192.0.2.1:8080/').then(() => console.log('reached'), () => console.log('refused'))`;
    try {
      for (const [name, args] of [['bun', ['--preload', BUN_GUARD, '-e', program]], ['node22', ['-e', program]], ['node24', ['-e', program]]] as const) {
        expect((await runProgram(bins[name]!, [...args], { cwd: fixtures, timeout: 30_000, env })).stdout, name).toBe('refused\n');
      }
      expect(readFileSync(env.FORECASTING_TEST_LOOPBACK_LOG, 'utf8').split('\n').filter(Boolean).map((line) => line.split(' ')[0])).toEqual(['192.0.2.1:8080', '192.0.2.1:8080', '192.0.2.1:8080']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  // A newcomer on Deno: `new ForecastingClient()` without `--allow-env` threw Deno's own NotCapable error.
  it('ends a client with no key given, on Deno without --allow-env, in a ValidationError of apiKey that says why', async () => {
    const { stdout, stderr } = await runProgram(bins.deno!, ['run', '--no-prompt', '--no-lock', `${fixtures}no-env.mjs`], { cwd: fixtures, timeout: 60_000 });
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^true apiKey apiKey: not given, and FORECASTING_API_KEY could not be read \(Requires env access to "FORECASTING_API_KEY".*\)\n$/);
  }, 60_000);

  it('holds Deno to its permissions: without the network of 127.0.0.1 the same program is refused', async () => {
    const mock = await startMockServer();
    try {
      const config = { baseURL: mock.baseURL, apiKey: mock.apiKey, relayURL: relay.url, tag: 'deno-denied' };
      const { code, stderr } = await runProgram(bins.deno!, ['run', '--no-prompt', '--no-lock', '--allow-net=example.com', `${fixtures}main.mjs`, JSON.stringify(config)], {
        cwd: fixtures,
        timeout: 60_000,
      });
      expect(code).not.toBe(0);
      expect(stderr).toMatch(/Requires net access to "127\.0\.0\.1:\d+"/);
    } finally {
      await mock.close();
    }
  }, 60_000);
});
