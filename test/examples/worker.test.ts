// examples/worker.mjs in workerd (miniflare, from the runtime cache): bundled as a Workers project
// bundles it, served on 127.0.0.1, and fed the mock service's real signed deliveries. It verifies
// each call and reads the forecast it names back from the mock with the client.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { startMockServer, type MockServer } from '../../src/testing/index.js';
import type { Miniflare as MiniflareClass } from '../runtimes/miniflare.js';
import { bundleWorker, COMPATIBILITY_DATE, loadMiniflare } from '../runtimes/_runtimes.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'forecasting-sdk-worker-example-'));
let Miniflare: typeof MiniflareClass;
let script: string;

beforeAll(async () => {
  Miniflare = await loadMiniflare();
  script = await bundleWorker(`${root}examples/worker.mjs`, out, 'worker');
}, 600_000);
afterAll(() => rm(out, { recursive: true, force: true }));

describe.concurrent('examples/worker.mjs in workerd', () => {
  const modes = [{ flags: [] as string[], name: 'no flags' }, { flags: ['nodejs_compat'], name: 'nodejs_compat' }];
  it.for(modes)('receives a forecast.completed delivery and reads the task ($name)', { timeout: 120_000 }, async ({ flags }, { expect }) => {
    const mock: MockServer = await startMockServer({ webhooks: { allowLoopbackReceivers: true } });
    const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL });
    // The secret exists once the webhook does, and the Worker's address once it runs: register at a
    // placeholder address, start the Worker with the secret, then point the webhook at it.
    const hook = await client.webhooks.create({ url: 'https://receiver.example/webhooks/forecasting', eventKinds: ['forecast.completed'] });
    const mf: MiniflareClass = new Miniflare({
      modules: true,
      scriptPath: script,
      modulesRoot: out,
      compatibilityDate: COMPATIBILITY_DATE,
      compatibilityFlags: flags,
      bindings: { WEBHOOK_SECRET: hook.signingSecret, FORECASTING_API_KEY: mock.apiKey, FORECASTING_BASE_URL: mock.baseURL },
      host: '127.0.0.1',
      port: 0,
    });
    try {
      const origin = (await mf.ready).origin;
      await client.webhooks.update(hook.id, { url: `${origin}/webhooks/forecasting` });

      // Start a forecast and never read it here: the only reads of the task are the Worker's.
      const question = await client.questions.create({ type: 'binary', title: 'Will it rain in Paris on 1 June 2027?' });
      const task = await client.forecasts.create({ questionId: question.id, runMode: 'light' });
      const delivered = async () => (await client.webhooks.deliveries.list({ webhookId: hook.id }).toArray())[0];
      const readBack = () => mock.service.requests.list({ operation: 'forecasts.retrieve' }).filter((r) => r.path === `/forecasts/${task.id}`);
      for (let i = 0; i < 300 && (readBack().length === 0 || (await delivered())?.status !== 'succeeded'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(await delivered()).toMatchObject({ eventKind: 'forecast.completed', status: 'succeeded', responseStatus: 200, attemptCount: 1 });
      // The Worker read the task back with the client, after answering (ctx.waitUntil).
      expect(readBack()).toEqual([expect.objectContaining({ method: 'GET', status: 200 })]);

      const forged = await fetch(`${origin}/webhooks/forecasting`, { method: 'POST', body: '{}', headers: { 'x-service-signature': 't=1,v1=00' } });
      expect([forged.status, await forged.text()]).toEqual([400, 'no_matching_signature']);

      // The ready-made route (createWebhookHandler), made on its first call: a second forecast's
      // delivery goes to it, and the Worker reads that task back too; a forged call is refused.
      await client.webhooks.update(hook.id, { url: `${origin}/webhooks/handler` });
      const second = await client.forecasts.create({ questionId: question.id, runMode: 'light' });
      const readBackSecond = () => mock.service.requests.list({ operation: 'forecasts.retrieve' }).filter((r) => r.path === `/forecasts/${second.id}`);
      const firstId = (await delivered())!.id;
      const deliveredSecond = async () => (await client.webhooks.deliveries.list({ webhookId: hook.id }).toArray()).find((d) => d.id !== firstId);
      for (let i = 0; i < 300 && (readBackSecond().length === 0 || (await deliveredSecond())?.status !== 'succeeded'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(await deliveredSecond()).toMatchObject({ status: 'succeeded', responseStatus: 200, attemptCount: 1 });
      expect(readBackSecond()).toEqual([expect.objectContaining({ method: 'GET', status: 200 })]);
      const forgedToHandler = await fetch(`${origin}/webhooks/handler`, { method: 'POST', body: '{}', headers: { 'x-service-signature': 't=1,v1=00' } });
      expect([forgedToHandler.status, await forgedToHandler.text()]).toEqual([400, 'no_matching_signature']);
      expect((await fetch(`${origin}/elsewhere`)).status).toBe(404);
    } finally {
      await mf.dispose();
      await mock.close();
    }
  });
});
