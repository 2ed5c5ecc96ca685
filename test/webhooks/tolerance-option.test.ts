// `toleranceSeconds` checked where it is given: one that is no number of seconds (NaN, below 0,
// text) would refuse every delivery as `timestamp_out_of_range`, a 400 the service does not retry,
// so every event would be lost for good. The receivers refuse it at construction, `verifyWebhook`
// and `verifyWebhookRequest` on the call, each with a TypeError naming it; 0 and Infinity are
// numbers of seconds and are taken.
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER, signWebhook, verifyWebhook } from '../../src/webhooks/index.js';
import { webhookMiddleware } from '../../src/webhooks/express.js';
import { createWebhookHandler, createWebhookVerifier, verifyWebhookRequest } from '../../src/webhooks/fetch.js';

const SECRET = 'whsec_tolerance_option_tests';
const BODY = JSON.stringify({ createdAt: '2026-01-01T00:00:00.000Z', data: { test: true }, id: 'evt:webhook.test:t1', type: 'webhook.test' });
const must = (caller: string, value: unknown) => new TypeError(`${caller}: \`toleranceSeconds\` must be a number of seconds >= 0, got ${String(value)}.`);
// Text is refused even when it reads as a number: `''` would be a tolerance of 0, refusing nearly every delivery.
const bad: unknown[] = [Number.NaN, -1, -Infinity, 'soon', '', '300', true];

describe('toleranceSeconds', () => {
  it.each(bad)('refuses %s at construction: webhookMiddleware, createWebhookVerifier, createWebhookHandler', (value) => {
    const options = { toleranceSeconds: value as number };
    expect(() => webhookMiddleware(SECRET, options)).toThrow(must('webhookMiddleware', value));
    expect(() => createWebhookVerifier(SECRET, options)).toThrow(must('createWebhookVerifier', value));
    expect(() => createWebhookHandler(SECRET, () => {}, options)).toThrow(must('createWebhookHandler', value));
  });

  it.each(bad)('refuses %s on the call, before reading the body: verifyWebhook and verifyWebhookRequest', async (value) => {
    const header = await signWebhook(BODY, SECRET);
    const options = { toleranceSeconds: value as number };
    await expect(verifyWebhook(BODY, { [SIGNATURE_HEADER]: header }, SECRET, options)).rejects.toThrow(must('verifyWebhook', value));
    const request = new Request('http://127.0.0.1/hooks', { method: 'POST', headers: { [SIGNATURE_HEADER]: header }, body: BODY });
    await expect(verifyWebhookRequest(request, SECRET, options)).rejects.toThrow(must('verifyWebhookRequest', value));
    expect(request.bodyUsed).toBe(false);
  });

  it.each([0, 1, Infinity])('takes %s: a fresh call signed now verifies', async (toleranceSeconds) => {
    const now = 1_800_000_000;
    const header = await signWebhook(BODY, SECRET, { timestamp: now });
    await expect(verifyWebhook(BODY, { [SIGNATURE_HEADER]: header }, SECRET, { toleranceSeconds, now })).resolves.toMatchObject({ type: 'webhook.test' });
    expect(() => webhookMiddleware(SECRET, { toleranceSeconds })).not.toThrow();
    expect(() => createWebhookVerifier(SECRET, { toleranceSeconds })).not.toThrow();
  });
});

describe('now', () => {
  const ms = 1_800_000_000_000;
  const nowMust = (caller: string, got: string) => new TypeError(`${caller}: \`now\` must be Unix seconds, got ${got}.`);
  const throwing = { toString: () => { throw new Error('the caller\'s'); }, valueOf: () => ms };
  // [the value, as the message shows it]: none would verify a call; each would refuse every one.
  const wrong: Record<string, [unknown, string]> = {
    'milliseconds': [ms, String(ms)],
    'NaN': [Number.NaN, 'NaN'],
    'Infinity': [Infinity, 'Infinity'],
    'a time before 1970': [-1, '-1'],
    'performance.now()': [298.5, '298.5'],
    'a time before 2001': [0, '0'],
    'a function': [() => ms / 1000, 'function'],
    'text': ['1800000000', '1800000000'],
    'a bigint': [1_800_000_000n, '1800000000'],
    'a symbol': [Symbol('now'), 'Symbol(now)'],
    'an object whose text throws': [throwing, 'object'],
  };

  it.each(Object.keys(wrong))('refuses %s where it is given, verifying nothing', async (name) => {
    const [now, got] = wrong[name]!;
    const options = { now: now as number };
    expect(() => webhookMiddleware(SECRET, options)).toThrow(nowMust('webhookMiddleware', got));
    expect(() => createWebhookVerifier(SECRET, options)).toThrow(nowMust('createWebhookVerifier', got));
    expect(() => createWebhookHandler(SECRET, () => {}, options)).toThrow(nowMust('createWebhookHandler', got));
    const header = await signWebhook(BODY, SECRET, { timestamp: ms / 1000 });
    await expect(verifyWebhook(BODY, { [SIGNATURE_HEADER]: header }, SECRET, options)).rejects.toThrow(nowMust('verifyWebhook', got));
    const request = new Request('http://127.0.0.1/hooks', { method: 'POST', headers: { [SIGNATURE_HEADER]: header }, body: BODY });
    await expect(verifyWebhookRequest(request, SECRET, options)).rejects.toThrow(nowMust('verifyWebhookRequest', got));
    expect(request.bodyUsed).toBe(false);
  });

  it('names a toleranceSeconds that is an object by its type (its text is the caller\'s code, which may throw)', async () => {
    await expect(verifyWebhook(BODY, {}, SECRET, { toleranceSeconds: throwing as never })).rejects.toThrow(must('verifyWebhook', 'object'));
  });

  it('takes the same time in seconds, and one from 2001 up to the year 5138', async () => {
    for (const now of [ms / 1000, 1e9, 1e11]) {
      const header = await signWebhook(BODY, SECRET, { timestamp: now });
      await expect(verifyWebhook(BODY, { [SIGNATURE_HEADER]: header }, SECRET, { now })).resolves.toMatchObject({ type: 'webhook.test' });
    }
  });
});

describe('options changed after a receiver was made', () => {
  // Every receiver reads its options once, where they are given: a tolerance made NaN since changes
  // nothing (no call unanswered, no rejection unhandled, no other answer).
  it('webhookMiddleware still answers a call signed with another secret 400 no_matching_signature', async () => {
    const options = { toleranceSeconds: 300, logger: { debug() {}, info() {}, warn() {}, error() {} } };
    const app = express();
    app.post('/hooks', webhookMiddleware(SECRET, options), (_req, res) => void res.sendStatus(200));
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    options.toleranceSeconds = Number.NaN;
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: await signWebhook(BODY, 'whsec_another_secret_entirely') },
        body: BODY,
        signal: AbortSignal.timeout(5_000),
      });
      expect([res.status, await res.text()]).toEqual([400, 'no_matching_signature']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('createWebhookVerifier and createWebhookHandler still refuse such a call as no_matching_signature, and keep the tolerance, cap and logger they were given', async () => {
    const warned: string[] = [];
    const options = { toleranceSeconds: 3_600, maxBodyBytes: 1_024, logger: { warn: (m: string) => warned.push(m) } };
    const verify = createWebhookVerifier(SECRET, options);
    const handle = createWebhookHandler(SECRET, () => new Response(null, { status: 204 }), options);
    Object.assign(options, { toleranceSeconds: Number.NaN, maxBodyBytes: 1, logger: { warn: () => warned.push('the later logger') } });
    const post = (header: string) => new Request('http://127.0.0.1/hooks', { method: 'POST', headers: { [SIGNATURE_HEADER]: header }, body: BODY });
    const otherSecret = () => signWebhook(BODY, 'whsec_another_secret_entirely');
    await expect(verify(post(await otherSecret()))).rejects.toMatchObject({ code: 'no_matching_signature' });
    const refused = await handle(post(await otherSecret()));
    expect([refused.status, await refused.text()]).toEqual([400, 'no_matching_signature']);
    // Signed 1,000 s ago: the hour given still holds (NaN would refuse it), and so does the cap (1 byte would).
    const old = await signWebhook(BODY, SECRET, { timestamp: Math.floor(Date.now() / 1000) - 1_000 });
    await expect(verify(post(old))).resolves.toMatchObject({ type: 'webhook.test' });
    expect((await handle(post(old))).status).toBe(204);
    expect(warned.length).toBeGreaterThan(0);
    expect(warned).not.toContain('the later logger');
  });
});

describe('options an object inherits', () => {
  // Checked at construction, they must be the ones used too: a spread copy keeps own properties only,
  // and used the default 300 s while the check had taken the inherited hour.
  const inherited = <T extends object>(proto: T): T => Object.create(proto) as T;
  const hourAgo = async () => signWebhook(BODY, SECRET, { timestamp: Math.floor(Date.now() / 1000) - 1_000 });

  it('webhookMiddleware verifies with an inherited toleranceSeconds', async () => {
    const app = express();
    app.post('/hooks', webhookMiddleware(SECRET, inherited({ toleranceSeconds: 3_600 })), (_req, res) => void res.sendStatus(204));
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: await hourAgo() },
        body: BODY,
        signal: AbortSignal.timeout(5_000),
      });
      expect(res.status).toBe(204);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('webhookMiddleware rate-limits its set-up warnings on an inherited clock', async () => {
    let now = 0;
    const warned: string[] = [];
    const app = express();
    // express.json() first: each call is a set-up mistake (the body is gone), answered 500 and warned of.
    app.post('/hooks', express.json(), webhookMiddleware(SECRET, inherited({ logger: { warn: (m: string) => warned.push(m) }, clock: () => now })), (_req, res) => void res.sendStatus(204));
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const parsedFirst = async () => {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: await signWebhook(BODY, SECRET) },
        body: BODY,
        signal: AbortSignal.timeout(5_000),
      });
      expect([res.status, await res.text()]).toEqual([500, 'body_already_read']);
    };
    try {
      await parsedFirst();
      await parsedFirst();
      expect(warned).toHaveLength(1);
      now += 60_000;
      await parsedFirst();
      expect(warned).toHaveLength(2);
      expect(warned[1]).toMatch(/1 more since the last/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('createWebhookHandler verifies with an inherited toleranceSeconds and caps with an inherited maxBodyBytes', async () => {
    const handle = createWebhookHandler(SECRET, () => new Response(null, { status: 204 }), inherited({ toleranceSeconds: 3_600 }));
    const request = () => hourAgo().then((header) => new Request('http://127.0.0.1/hooks', { method: 'POST', headers: { [SIGNATURE_HEADER]: header }, body: BODY }));
    expect((await handle(await request())).status).toBe(204);
    const capped = createWebhookHandler(SECRET, () => new Response(null, { status: 204 }), inherited({ toleranceSeconds: 3_600, maxBodyBytes: 10 }));
    expect((await capped(await request())).status).toBe(413);
  });
});

// A logger with no `warn` (or a clock that is no function) lost every warning in silence: a
// warning never fails a call's answer, so the receivers refuse them when they are made.
describe('logger and clock', () => {
  const makers = {
    webhookMiddleware: (options: object) => webhookMiddleware(SECRET, options),
    createWebhookVerifier: (options: object) => createWebhookVerifier(SECRET, options),
    createWebhookHandler: (options: object) => createWebhookHandler(SECRET, () => {}, options),
  };

  it.each(Object.entries(makers))('%s refuses a logger with no warn function and a clock that is no function', (caller, make) => {
    for (const [logger, got] of [[{}, 'object'], [{ warn: 'loud' }, 'object'], [console.warn, 'function'], ['console', 'console']] as const) {
      expect(() => make({ logger })).toThrow(new TypeError(`${caller}: \`logger\` must have a \`warn\` function, got ${got}.`));
    }
    for (const [clock, got] of [[1_800_000_000_000, '1800000000000'], [{ now: Date.now }, 'object']] as const) {
      expect(() => make({ clock })).toThrow(new TypeError(`${caller}: \`clock\` must be a function, got ${got}.`));
    }
    expect(() => make({ logger: { warn() {} }, clock: () => 0 })).not.toThrow();
    expect(() => make({ logger: undefined, clock: undefined })).not.toThrow();
    expect(() => make({ logger: null, clock: null })).not.toThrow(); // console and Date.now, as for the client
  });
});
