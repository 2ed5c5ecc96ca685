// The wrong-secret warning of the ready-made receivers (a real Express app on 127.0.0.1, the
// fetch-style verifier and route): a fresh, well-formed signature that matches no secret is what a missed
// rotation looks like. Warned the first time, then at most once a minute, per receiver, on its clock.
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signWebhook, WebhookVerificationError } from '../../src/index.js';
import { webhookMiddleware } from '../../src/webhooks/express.js';
import { createWebhookHandler, createWebhookVerifier, type WebhookReceiverOptions } from '../../src/webhooks/fetch.js';

const SECRET = 'whsec_current_secret_of_the_receiver';
const ROTATED = 'whsec_new_secret_the_receiver_missed';
const MARKER = 'body-marker-never-logged';
const body = JSON.stringify({ createdAt: '2026-01-01T00:00:00.000Z', data: { note: MARKER, test: true }, id: 'evt:webhook.test:d1', type: 'webhook.test' });
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Posts `body` with this signature header (none when `undefined`); answers the status. */
type Receiver = (signature: string | undefined) => Promise<number>;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  vi.restoreAllMocks();
});

async function expressReceiver(options: WebhookReceiverOptions): Promise<Receiver> {
  const app = express();
  app.post('/hooks', webhookMiddleware(SECRET, options), (_req, res) => res.sendStatus(200));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  servers.push(server);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return async (signature) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(signature ? { 'x-service-signature': signature } : {}) };
    return (await fetch(url, { method: 'POST', headers, body })).status;
  };
}

async function fetchReceiver(options: WebhookReceiverOptions): Promise<Receiver> {
  const verify = createWebhookVerifier(SECRET, options);
  return async (signature) => {
    const request = new Request('https://receiver.example/hooks', { method: 'POST', body, headers: signature ? { 'x-service-signature': signature } : {} });
    try {
      await verify(request);
      return 200;
    } catch (err) {
      if (err instanceof WebhookVerificationError) return 400;
      throw err;
    }
  };
}

/** The fetch-style route: a refused call is its 400, as the service sees it. */
async function routeReceiver(options: WebhookReceiverOptions): Promise<Receiver> {
  const route = createWebhookHandler(SECRET, () => undefined, options);
  return async (signature) => (await route(new Request('https://receiver.example/hooks', { method: 'POST', body, headers: signature ? { 'x-service-signature': signature } : {} }))).status;
}

describe.each([
  ['webhookMiddleware (Express)', expressReceiver],
  ['createWebhookVerifier (fetch)', fetchReceiver],
  ['createWebhookHandler (fetch)', routeReceiver],
])('%s', (_name, make) => {
  /** A call a minute less 1 ms after the last warning is held back; the next, at the minute, warns. */
  async function aMinuteLater(receive: (header: string) => Promise<number>, wrong: string, clock: { ms: number }, warnings: string[]) {
    const told = warnings.length;
    clock.ms += 59_999;
    await receive(wrong);
    expect(warnings).toHaveLength(told);
    clock.ms += 1;
    await receive(wrong);
    expect(warnings).toHaveLength(told + 1);
  }

  /** A receiver with a recording logger on a clock the test moves. */
  async function setUp(options: WebhookReceiverOptions = {}) {
    const clock = { ms: 1_000_000 };
    const warnings: string[] = [];
    const receive = await make({ logger: { warn: (message) => void warnings.push(message) }, clock: () => clock.ms, ...options });
    return { receive, warnings, clock };
  }

  it('warns the first time a fresh signature matches no secret, then at most once a minute, counting the quiet ones', async () => {
    const { receive, warnings, clock } = await setUp();
    const wrong = await signWebhook(body, ROTATED);
    expect(await receive(wrong)).toBe(400);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toBe(
      '[forecasting-sdk] webhook refused (no_matching_signature): a fresh signature matches none of the 1 secret(s): ' +
        'a missed rotation (pass [newSecret, oldSecret]), or a changed body? (At most one such warning a minute.)',
    );
    await receive(wrong);
    await aMinuteLater(receive, wrong, clock, warnings);
    expect(warnings[1]).toMatch(/\(At most one such warning a minute; 2 more since the last\.\)$/);
    await receive(wrong);
    clock.ms += 60_000;
    await receive(wrong);
    expect(warnings.at(-1)).toMatch(/; 1 more since the last\.\)$/);
  });

  // A clock stepped back (the system's can be, by an hour) kept every warning back until it had
  // caught up with the last one: an hour of silence. The minute starts again where it stepped to:
  // at most a minute of silence, and a clock that keeps going back cannot flood the log.
  it('starts the minute again when the clock steps back', async () => {
    const { receive, warnings, clock } = await setUp();
    const wrong = await signWebhook(body, ROTATED);
    await receive(wrong);
    clock.ms -= 3_600_000;
    await receive(wrong);
    await aMinuteLater(receive, wrong, clock, warnings);
    expect(warnings[1]).toMatch(/; 2 more since the last\.\)$/);
    for (let i = 0; i < 50; i++) {
      clock.ms -= 1_000;
      await receive(wrong);
    }
    expect(warnings).toHaveLength(2);
  });

  // A clock that threw (`performance.now` passed unbound) lost every warning in silence.
  it('warns on the system clock when the clock throws', async () => {
    const { receive, warnings } = await setUp({ clock: () => { throw new TypeError('Illegal invocation'); } });
    const wrong = await signWebhook(body, ROTATED);
    for (let i = 0; i < 3; i++) expect(await receive(wrong)).toBe(400);
    expect(warnings).toHaveLength(1);
  });

  // A clock that gave NaN (or nothing) made every gap NaN, never under a minute: each refusal warned,
  // the flood the limit is there to stop (held a defect). Such a clock counts as the system's.
  it.each([['NaN', Number.NaN], ['nothing', undefined], ['Infinity', Number.POSITIVE_INFINITY]])('keeps the limit on a clock that gives %s', async (_name, value) => {
    const { receive, warnings } = await setUp({ clock: () => value as number });
    const wrong = await signWebhook(body, ROTATED);
    for (let i = 0; i < 3; i++) expect(await receive(wrong)).toBe(400);
    expect(warnings).toHaveLength(1);
  });

  it('never puts a secret or the body in the warning', async () => {
    const { receive, warnings } = await setUp();
    await receive(await signWebhook(body, ROTATED));
    expect(warnings).toHaveLength(1);
    for (const secretOrBody of [SECRET, ROTATED, SECRET.slice(6, 14), ROTATED.slice(6, 14), MARKER]) expect(warnings[0]).not.toContain(secretOrBody);
  });

  it('stays quiet for what strangers send: no signature, a garbled one, a v1 that is not a signature, an old one', async () => {
    // The receiver's own clock, so that a slow second cannot bring the calls 301 s off into the tolerance.
    const t = nowSeconds();
    const { receive, warnings } = await setUp({ now: t });
    expect(await receive(undefined)).toBe(400);
    expect(await receive('v1=abc')).toBe(400);
    expect(await receive(`t=${t},v1=not-hex`)).toBe(400);
    expect(await receive(`t=${t}`)).toBe(400);
    expect(await receive(await signWebhook(body, ROTATED, { timestamp: t - 301 }))).toBe(400); // old, and another secret
    expect(await receive(await signWebhook(body, ROTATED, { timestamp: t + 301 }))).toBe(400); // from the future
    expect(await receive(await signWebhook(body, SECRET, { timestamp: t - 301 }))).toBe(400);
    expect(await receive(await signWebhook(body, SECRET, { timestamp: t }))).toBe(200);
    expect(warnings).toEqual([]);
  });

  it("judges freshness by the receiver's own now and toleranceSeconds", async () => {
    const { receive, warnings } = await setUp({ now: 2_000_000_000, toleranceSeconds: 10 });
    expect(await receive(await signWebhook(body, ROTATED, { timestamp: 2_000_000_000 - 11 }))).toBe(400);
    expect(warnings).toEqual([]);
    expect(await receive(await signWebhook(body, ROTATED, { timestamp: 2_000_000_000 - 10 }))).toBe(400);
    expect(warnings).toHaveLength(1);
  });

  it('limits each receiver on its own', async () => {
    const one = await setUp();
    const two = await setUp();
    const wrong = await signWebhook(body, ROTATED);
    await one.receive(wrong);
    await two.receive(wrong);
    await one.receive(wrong);
    expect([one.warnings.length, two.warnings.length]).toEqual([1, 1]);
  });

  it.each([[{}], [{ logger: null, clock: null }]])('warns to console by default, on the system clock (%j)', async (options) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const receive = await make(options as WebhookReceiverOptions);
    const wrong = await signWebhook(body, ROTATED);
    await receive(wrong);
    await receive(wrong);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/^\[forecasting-sdk\] webhook refused \(no_matching_signature\): a fresh signature/);
  });
});
