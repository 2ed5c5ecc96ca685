// The built package as users load it: both module formats, every entry, one class identity.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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

  it('exports every pinned name from the root', async () => {
    const sdk = (await import(`${root}dist/index.js`)) as Record<string, unknown>;
    const pinned = ['ForecastingClient', 'operations', 'verifyWebhook', 'ForecastingError', 'APIError', 'BadRequestError', 'AuthenticationError', 'PermissionDeniedError', 'NotFoundError', 'ConflictError', 'RateLimitError', 'InternalServerError', 'APIConnectionError', 'APITimeoutError', 'ValidationError', 'WebhookVerificationError'];
    expect(pinned.filter((name) => sdk[name] === undefined)).toEqual([]);
    const { APITimeoutError, APIConnectionError } = sdk as { APITimeoutError: { prototype: object }; APIConnectionError: new () => object };
    expect(APITimeoutError.prototype).toBeInstanceOf(APIConnectionError);
  });
});
