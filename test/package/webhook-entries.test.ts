// The webhook handler entries as built: small, dependency-free, and Express never loaded by them.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleSize } from '../../bench/lib/bundle.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const size = (entry: string) => bundleSize(`export * from ${JSON.stringify(`${root}dist/${entry}`)};`, root);

describe('webhook handler entries', () => {
  // 4.5 KB: verification (under 3 KB alone), the body cap, the rate-limited wrong-secret warning, and
  // exactly-once handling with a coordinator (claims, publishing, their time limit: about 0.9 KB).
  // Raised to 4.8 KB for the hook of the `forecasting-sdk:webhook` channel (about 0.3 KB: the
  // channel's lookup and the call sites; the observation itself loads only once someone subscribes).
  // Raised to 4.85 KB for Bun, whose tracing channels have no `hasSubscribers` of their own (about
  // 50 B: the channel is read through its events' channels there, so the webhook channel publishes on Bun).
  // Raised to 4.9 KB for `toleranceSeconds` checked where it is given (about 35 B: a NaN or negative
  // one answered every delivery 400, which the service does not retry; the entries had 9 B to spare).
  // Raised to 4.95 KB for a second secret passed as the options from JavaScript, refused (about 36 B:
  // it was ignored, and every call signed with it refused; the entries had 7 B to spare), then to 5 KB
  // for any options that are no object refused alike (about 30 B: `[oldSecret]`, a number meant as
  // the tolerance; a review of the first fix; 3 B were left).
  it.each(['webhooks/express', 'webhooks/fetch'])('keeps %s under 5 KB gzipped with no runtime dependency', async (entry) => {
    const { gzip, inputs } = await size(`${entry}.js`);
    expect(inputs.filter((i) => i.includes('node_modules'))).toEqual([]);
    expect(gzip).toBeLessThan(5 * 1024);
  });

  it.each(['js', 'cjs'])('never imports or requires express at run time (%s build)', (ext) => {
    const code = readFileSync(`${root}dist/webhooks/express.${ext}`, 'utf8');
    expect(code).not.toMatch(/(from|import\(|require\()\s*['"]express['"]/);
    for (const entry of ['index', 'webhooks/index', 'webhooks/fetch', 'testing/index']) {
      expect(readFileSync(`${root}dist/${entry}.${ext}`, 'utf8'), entry).not.toMatch(/['"]express['"]/);
    }
  });

  it('loads and builds the middleware from CommonJS without loading express', () => {
    const out = execFileSync(process.execPath, ['-e', `
      const { webhookMiddleware, WebhookVerificationError } = require('./dist/webhooks/express.cjs');
      const sdk = require('./dist/index.cjs');
      const middleware = webhookMiddleware('whsec_x');
      const loaded = Object.keys(require.cache).filter((f) => /node_modules[\\/]express/.test(f));
      console.log(JSON.stringify({ arity: middleware.length, loaded, identity: WebhookVerificationError === sdk.WebhookVerificationError }));
    `], { cwd: root, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ arity: 3, loaded: [], identity: true });
  });

  it.each(['d.ts', 'd.cts'])('types req.webhookEvent through the Express request without importing Express types (%s)', (ext) => {
    const types = readFileSync(`${root}dist/webhooks/express.${ext}`, 'utf8');
    expect(types).not.toMatch(/^import[^;]*['"]express['"]/m);
    expect(types).toMatch(/namespace Express \{\s*interface Request \{[^}]*webhookEvent\?: WebhookEvent/);
    expect(types).toMatch(/declare function webhookMiddleware\([^)]*\): WebhookMiddleware;/);
  });
});
