// A user's strict tsconfig (exactOptionalPropertyTypes, noUncheckedIndexedAccess) against the built
// declarations: a wrapper forwarding `T | undefined` settings to the options compiles (it was
// TS2379 on every option); and the same calls run, `undefined` being an option left out.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ForecastingClient } from '../../src/index.js';
import { createDeliveryDeduper, signWebhook, verifyWebhook } from '../../src/webhooks/index.js';
import { startMockServer } from '../../src/testing/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'forecasting-sdk-exact-optional-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('options under exactOptionalPropertyTypes', () => {
  it('compiles a wrapper that forwards `T | undefined` settings, against dist/', async () => {
    const compilerOptions = { strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noEmit: true, skipLibCheck: true, target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', types: ['node'], typeRoots: [join(root, 'node_modules/@types')], paths: Object.fromEntries(['', '/webhooks', '/webhooks/express', '/webhooks/fetch', '/testing', '/redis'].map((e) => [`forecasting-sdk${e}`, [join(root, `dist${e || ''}/index.d.ts`)]])) };
    const config = join(work, 'tsconfig.json');
    writeFileSync(config, JSON.stringify({ compilerOptions, files: [join(root, 'test/types/exact-optional/forwarding.ts')] }));
    const out = await promisify(execFile)(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', config], { encoding: 'utf8' }).then(
      () => '',
      (e: { stdout: string }) => e.stdout,
    );
    expect(out).toBe('');
  }, 120_000);

  it('runs the same calls: undefined is an option left out', async () => {
    const mock = await startMockServer();
    try {
      const u = undefined;
      const client = new ForecastingClient({ apiKey: mock.apiKey, baseURL: mock.baseURL, timeout: u, maxRetries: u, logger: u, logLevel: u, clock: u, fetch: u, defaultHeaders: u, retryBackoff: u, validateResponses: u });
      const question = await client.questions.create({ type: 'binary', title: 'Will it rain in Paris on 1 June 2027?' }, { idempotencyKey: u });
      const task = await client.forecasts.create({ questionId: question.id }, { signal: u, idempotencyKey: u, timeout: u, headers: u, maxRetries: u });
      const done = await client.forecasts.wait(task.id, { timeout: u, signal: u, onProgress: u, requestOptions: u, waitForReport: u, fields: u, maxRetries: u });
      expect(done.status).toBe('completed');
      const [again] = await client.forecasts.waitMany([task.id], { timeout: u, full: u });
      expect(again?.status).toBe('completed');
      const headers = await signWebhook('{"id":"e1","type":"x","createdAt":"t","data":{}}', 'whsec_abc', { timestamp: u });
      await expect(verifyWebhook('{"id":"e1","type":"x","createdAt":"t","data":{}}', { 'x-service-signature': headers }, 'whsec_abc', { now: u, toleranceSeconds: u })).resolves.toMatchObject({ id: 'e1' });
      expect(createDeliveryDeduper({ maxEntries: u, ttlMs: u, now: u }).seen('e1')).toBe(false);
    } finally {
      await mock.close();
    }
  }, 60_000);
});
