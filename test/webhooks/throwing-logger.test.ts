// A receiver's warnings run as a call is refused: a logger (or clock) of the caller's that throws
// must lose the warning, never the call's answer. Before, `webhookMiddleware` left a call signed
// with another secret (or one whose body another parser read) unanswered, its rejection unhandled,
// and `createWebhookHandler` answered 500 (retried) rather than 400.
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER, signWebhook } from '../../src/webhooks/index.js';
import { webhookMiddleware } from '../../src/webhooks/express.js';
import { createWebhookHandler } from '../../src/webhooks/fetch.js';

const SECRET = 'whsec_throwing_logger_tests';
const BODY = JSON.stringify({ createdAt: '2026-01-01T00:00:00.000Z', data: { test: true }, id: 'evt:webhook.test:l1', type: 'webhook.test' });
const throwing = {
  'a logger whose warn throws': { logger: { debug() {}, info() {}, warn: (): void => {
        throw new Error('logger down');
      }, error() {} } },
  'a clock that throws': { logger: { debug() {}, info() {}, warn() {}, error() {} }, clock: (): number => { throw new Error('clock down'); } },
};

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function post(app: express.Express, headers: Record<string, string>): Promise<[number, string]> {
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: BODY, signal: AbortSignal.timeout(5_000) });
  return [res.status, await res.text()];
}

describe.each(Object.entries(throwing))('%s', (_, options) => {
  it('webhookMiddleware answers a call signed with another secret 400, and one whose body a parser read 500', async () => {
    const other = { [SIGNATURE_HEADER]: await signWebhook(BODY, 'whsec_another_secret_entirely') };
    const app = express();
    app.post('/hooks', webhookMiddleware(SECRET, options), (_req, res) => void res.sendStatus(200));
    expect(await post(app, other)).toEqual([400, 'no_matching_signature']);
    await new Promise((resolve) => server!.close(resolve));
    const parsed = express();
    parsed.post('/hooks', express.json(), webhookMiddleware(SECRET, options), (_req, res) => void res.sendStatus(200));
    expect(await post(parsed, { [SIGNATURE_HEADER]: await signWebhook(BODY, SECRET) })).toEqual([500, 'body_already_read']);
  });

  it('createWebhookHandler answers a call signed with another secret 400', async () => {
    const handle = createWebhookHandler(SECRET, () => {}, options);
    const request = new Request('http://127.0.0.1/hooks', { method: 'POST', headers: { [SIGNATURE_HEADER]: await signWebhook(BODY, 'whsec_another_secret_entirely') }, body: BODY });
    const answer = await handle(request);
    expect([answer.status, await answer.text()]).toEqual([400, 'no_matching_signature']);
  });
});
