// The webhook verifier's small pieces: constant-time comparison, the key cache, the deduper's default
// memory, and what a refusal says about the value it was given.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { _forceWebCrypto, constantTimeEqual } from '../../src/webhooks/crypto.js';
import { createDeliveryDeduper, signWebhook, verifyWebhook, WebhookVerificationError } from '../../src/webhooks/index.js';

const NOW = 1_700_000_000;
const BODY = JSON.stringify({ createdAt: '2023-11-14T22:13:20.000Z', data: { test: true, webhookId: 'w1' }, id: 'evt:webhook.test:d1', type: 'webhook.test' });

afterEach(() => {
  _forceWebCrypto(false);
  vi.restoreAllMocks();
});

describe('constantTimeEqual', () => {
  it('is true for equal bytes only, and false for different lengths', () => {
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true);
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array([9, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 3]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array([]), new Uint8Array([]))).toBe(true);
  });
});

describe('Web Crypto keys', () => {
  it('keeps the keys of the 16 latest secrets and imports an older one again', async () => {
    _forceWebCrypto(true);
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    const secrets = Array.from({ length: 17 }, (_, i) => `whsec_cache_${i}`);
    const verify = async (secret: string) => {
      const header = await signWebhook(BODY, secret, { timestamp: NOW });
      await verifyWebhook(BODY, { 'x-service-signature': header }, secret, { now: NOW });
    };
    for (const s of secrets.slice(0, 16)) await verify(s);
    expect(importKey).toHaveBeenCalledTimes(16);
    await verify(secrets[15]!);
    expect(importKey).toHaveBeenCalledTimes(16);
    await verify(secrets[16]!); // drops secret 0
    expect(importKey).toHaveBeenCalledTimes(17);
    await verify(secrets[1]!);
    expect(importKey).toHaveBeenCalledTimes(17);
    await verify(secrets[0]!);
    expect(importKey).toHaveBeenCalledTimes(18);
    expect(importKey.mock.calls[0]!.slice(2)).toEqual([{ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']]);
  });
});

describe('createDeliveryDeduper', () => {
  it('remembers an id for 24 hours by default', () => {
    let now = 0;
    const deduper = createDeliveryDeduper({ now: () => now });
    deduper.seen('d1');
    now = 24 * 60 * 60 * 1000 - 1;
    expect(deduper.seen('d1')).toBe(true);
    now = 24 * 60 * 60 * 1000;
    expect(deduper.seen('d1')).toBe(false);
  });

  it('forgets expired ids as time passes, keeping the others', () => {
    let now = 0;
    const deduper = createDeliveryDeduper({ ttlMs: 100, maxEntries: 2, now: () => now });
    deduper.seen('a');
    now = 50;
    deduper.seen('b');
    now = 100; // a expires, b does not
    deduper.seen('c'); // with a gone, b and c fit in 2
    expect(deduper.seen('b')).toBe(true);
    expect(deduper.seen('c')).toBe(true);
  });

  it('keeps 10,000 ids by default', () => {
    const deduper = createDeliveryDeduper({ now: () => 0 });
    for (let i = 0; i <= 10_000; i++) deduper.seen(`d${i}`);
    expect(deduper.seen('d1')).toBe(true);
    expect(deduper.seen('d0')).toBe(false);
  });

  it.each([
    [{ maxEntries: Number.NaN }, 'NaN, 86400000 and function'], // kept every id for good
    [{ maxEntries: 0 }, '0, 86400000 and function'], // remembered none
    [{ maxEntries: '100' }, '100, 86400000 and function'],
    [{ ttlMs: '60000' }, '10000, 60000 and function'], // `t + ttl` in text never expired
    [{ ttlMs: -1 }, '10000, -1 and function'],
    [{ ttlMs: Number.NaN }, '10000, NaN and function'],
    [{ now: 1_700_000_000_000 }, '10000, 86400000 and 1700000000000'], // `Date.now()` where `Date.now` was meant
    [{ maxEntries: null }, 'null, 86400000 and function'],
  ])('refuses %j with a TypeError naming the options and the values given', (options, got) => {
    const make = () => createDeliveryDeduper(options as never);
    expect(make).toThrow(TypeError);
    expect(make).toThrow('createDeliveryDeduper: `maxEntries` must be a number >= 1, `ttlMs` a number > 0 and `now` a function, got ');
    expect(make).toThrow(got);
  });

  it('takes no options, null for them, and Infinity for no cap or no expiry', () => {
    for (const deduper of [createDeliveryDeduper(null as never), createDeliveryDeduper({ maxEntries: Infinity, ttlMs: Infinity, now: () => 0 })]) {
      deduper.seen('a');
      expect(deduper.seen('a')).toBe(true);
    }
    const forever = createDeliveryDeduper({ ttlMs: Infinity, maxEntries: 1, now: () => 1e15 });
    forever.seen('a');
    expect(forever.seen('a')).toBe(true);
    forever.seen('b'); // the cap forgets a
    expect(forever.seen('a')).toBe(false);
  });
});

describe('what a refusal says about the value given', () => {
  it.each([
    [null, 'not null'],
    [undefined, 'not undefined'],
    [42, 'not a number'],
    [[1], 'not an array'],
    [{ a: 1 }, 'not an object'],
  ])('describes the payload %j', async (payload, words) => {
    const err = (await verifyWebhook(payload as never, {}, 'whsec_x').catch((e: unknown) => e)) as WebhookVerificationError;
    expect(err.code).toBe('malformed_payload');
    expect(err.message).toContain(`(string, Buffer or Uint8Array), ${words}: the signature covers the exact bytes sent, which re-serialized JSON does not reproduce.`);
  });

  it('names the function and the secret it was given', async () => {
    await expect(verifyWebhook(BODY, {}, undefined as never)).rejects.toThrow(
      'verifyWebhook: `secret` must be a non-empty string (the "whsec_…" signing secret) or an array of them, got undefined. Is its environment variable set?',
    );
    await expect(verifyWebhook(BODY, {}, ['whsec_a', 3] as never)).rejects.toThrow('got an array holding another value');
    await expect(signWebhook(BODY, 7 as never)).rejects.toThrow('signWebhook: `secret` must be a non-empty string');
  });

  it('hints at the whsec_ prefix when any secret given lacks it, and only then', async () => {
    const header = await signWebhook(BODY, 'whsec_right', { timestamp: NOW });
    const message = async (secrets: string[]) =>
      ((await verifyWebhook(BODY, { 'x-service-signature': header }, secrets, { now: NOW }).catch((e: unknown) => e)) as Error).message;
    expect(await message(['whsec_wrong', 'no_prefix'])).toContain(' (a secret given lacks it)');
    expect(await message(['whsec_wrong', 'whsec_other'])).not.toContain('lacks it');
  });

  it('says the header is missing when no headers are given at all', async () => {
    const err = (await verifyWebhook(BODY, null as never, 'whsec_x').catch((e: unknown) => e)) as WebhookVerificationError;
    expect(err.code).toBe('missing_header');
  });

  it('stops at the first secret that matches', async () => {
    const header = await signWebhook(BODY, 'whsec_first', { timestamp: NOW });
    const hmac = vi.spyOn(crypto.subtle, 'sign');
    _forceWebCrypto(true);
    await verifyWebhook(BODY, { 'x-service-signature': header }, ['whsec_first', 'whsec_second'], { now: NOW });
    expect(hmac).toHaveBeenCalledTimes(1);
  });
});

describe('choosing the crypto backend', () => {
  /** A fresh copy of the crypto module, with process.getBuiltinModule answering `builtin`. */
  async function freshBackend(builtin: () => unknown) {
    vi.resetModules();
    vi.spyOn(process, 'getBuiltinModule').mockImplementation(builtin as never);
    const mod = await import('../../src/webhooks/crypto.js');
    return { backend: mod.cryptoBackend(), web: mod.webBackend };
  }
  const nodeCrypto = process.getBuiltinModule('node:crypto');

  it("uses Node's crypto when the runtime offers it, comparing different lengths as unequal", async () => {
    const { backend, web } = await freshBackend(() => nodeCrypto);
    expect(backend).not.toBe(web);
    expect(backend.equal(new Uint8Array(32), new Uint8Array(31))).toBe(false);
    expect(backend.equal(new Uint8Array(32), new Uint8Array(32))).toBe(true);
  });

  it.each([
    ['no builtin modules', () => undefined],
    ['no createHmac', () => ({ ...nodeCrypto, createHmac: undefined })],
    ['no createSecretKey', () => ({ ...nodeCrypto, createSecretKey: undefined })],
    ['no timingSafeEqual', () => ({ ...nodeCrypto, timingSafeEqual: undefined })],
    ['a lookup that throws', () => {
      throw new Error('not allowed');
    }],
  ])('falls back to Web Crypto with %s', async (_, builtin) => {
    const { backend, web } = await freshBackend(builtin);
    expect(backend).toBe(web);
  });
});
