// Cloudflare's workerd, through miniflare: a Worker bundled by esbuild for the workerd conditions
// (--platform=neutral, conditions workerd, worker, browser) runs the core path against the mock on
// this Node, once without compatibility flags (no `process`: the Web Crypto path) and once with
// nodejs_compat (Node's crypto). miniflare is pinned and cached like the other runtimes.
// examples/worker.mjs, a webhook receiver, runs the same way in test/examples/.
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/testing/index.js';
import { guardConnections } from '../_setup/loopback-guard.mjs';
import type { Miniflare as MiniflareClass } from './miniflare.js';
import { bundleWorker, COMPATIBILITY_DATE, EXPECTED, loadMiniflare, startRelay, type CorePathResult } from './_runtimes.js';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'forecasting-sdk-workerd-'));

let Miniflare: typeof MiniflareClass;
let relay: Awaited<ReturnType<typeof startRelay>>;
let script: string;

beforeAll(async () => {
  Miniflare = await loadMiniflare();
  script = await bundleWorker(`${fixtures}worker.mjs`, out, 'core-path');
  relay = await startRelay();
}, 600_000);
afterAll(async () => {
  await relay?.close();
  await rm(out, { recursive: true, force: true });
});

describe.concurrent('the core path in a Cloudflare Worker (workerd via miniflare)', () => {
  const modes = [
    { flags: [] as string[], crypto: 'Web Crypto' },
    { flags: ['nodejs_compat'], crypto: 'node:crypto' },
  ];
  it.for(modes)('runs it with compatibility flags $flags, verifying with $crypto', { timeout: 120_000 }, async ({ flags, crypto }, { expect }) => {
    const mock = await startMockServer({ webhooks: { allowLoopbackReceivers: true } });
    const mf = new Miniflare({ modules: true, scriptPath: script, modulesRoot: out, compatibilityDate: COMPATIBILITY_DATE, compatibilityFlags: flags });
    try {
      const config = { baseURL: mock.baseURL, apiKey: mock.apiKey, relayURL: relay.url, tag: `workerd-${flags.join('-') || 'plain'}` };
      const res = await mf.dispatchFetch('http://worker.test/', { method: 'POST', body: JSON.stringify(config) });
      const body = (await res.json()) as CorePathResult & { error?: string };
      expect(body.error).toBeUndefined();
      expect(res.status).toBe(200);
      expect(body).toMatchObject({ module: 'esm', crypto, ...EXPECTED });
    } finally {
      await mf.dispose();
      await mock.close();
    }
  });
});

it('holds a Worker to the tests\' guard: its fetch beyond loopback is refused, and recorded', async () => {
  const mf = new Miniflare({ modules: true, script: `export default { fetch: async () => new Response(String((await fetch('http://192.0.2.1:8080/')).status)) };`, compatibilityDate: COMPATIBILITY_DATE });
  try {
    // miniflare answers the Worker 500 when the outbound service throws (here: the guard's refusal).
    expect(await (await mf.dispatchFetch('http://worker.test/')).text()).toBe('500');
  } finally {
    await mf.dispose();
  }
  expect(guardConnections().refused.splice(0)).toEqual(['192.0.2.1:8080']);
}, 60_000);

it('bundles with no static import of a Node built-in (Node crypto is looked up at run time)', () => {
  const text = readFileSync(script, 'utf8');
  expect(text).not.toMatch(/\bfrom\s*["']node:/);
  expect(text).not.toMatch(/\brequire\(["']node:/);
});
