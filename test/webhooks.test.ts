import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { ForecastingError, WebhookVerificationError as CoreWebhookVerificationError } from '../src/core/errors.js';
import { _forceWebCrypto } from '../src/webhooks/crypto.js';
import {
  DELIVERY_ID_HEADER,
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  SIGNATURE_HEADER,
  WebhookVerificationError,
  createDeliveryDeduper,
  isKnownWebhookEvent,
  signWebhook,
  verifyWebhook,
  type WebhookEvent,
  type WebhookHeaders,
} from '../src/webhooks/index.js';

const SECRET = 'whsec_c2VjcmV0LW9uZS1mb3ItdGVzdHM';
const OLD_SECRET = 'whsec_b2xkLXNlY3JldC1mb3ItdGVzdHM';
const OTHER_SECRET = 'whsec_b3RoZXItc2VjcmV0LWZvci10ZXN0cw';
const NOW = 1_700_000_000;

/** A body as the service writes it: keys in alphabetical order, no spaces. */
const EVENT = {
  createdAt: '2023-11-14T22:13:20.000Z',
  data: {
    forecastId: 'fc_1',
    forecastUrl: 'https://app.example.com/forecasts/task_1',
    questionId: 'q_1',
    taskId: 'task_1',
  },
  id: 'svc:forecast.completed:fc_1',
  type: 'forecast.completed',
};
const BODY = JSON.stringify(EVENT);

/** The reference signature, computed independently of the SDK. */
const hmacHex = (secret: string, t: number | string, body: string | Uint8Array) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
const sigHeader = (t: number | string, ...v1: string[]) => [`t=${t}`, ...v1.map((s) => `v1=${s}`)].join(',');
const signed = (body: string | Uint8Array = BODY, t: number = NOW, secret = SECRET) => ({
  [SIGNATURE_HEADER]: sigHeader(t, hmacHex(secret, t, body)),
});

/** The rejection of `promise`, asserting it is a WebhookVerificationError. */
async function rejection(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const outcome = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(WebhookVerificationError);
  return outcome as WebhookVerificationError;
}
const codeOf = async (promise: Promise<unknown>) => (await rejection(promise)).code;

for (const backend of ['node', 'web'] as const) {
  describe(`verifyWebhook with ${backend === 'node' ? "Node's crypto" : 'Web Crypto'}`, () => {
    beforeAll(() => _forceWebCrypto(backend === 'web'));
    afterAll(() => _forceWebCrypto(false));

    it('returns the event of a validly signed call', async () => {
      const event = await verifyWebhook(BODY, new Headers(signed()), SECRET, { now: NOW });
      expect(event).toEqual(EVENT);
    });

    it('refuses a tampered body', async () => {
      const tampered = BODY.replace('task_1', 'task_2');
      expect(await codeOf(verifyWebhook(tampered, signed(), SECRET, { now: NOW }))).toBe('no_matching_signature');
    });

    it('refuses a call signed with another secret', async () => {
      expect(await codeOf(verifyWebhook(BODY, signed(BODY, NOW, OTHER_SECRET), SECRET, { now: NOW }))).toBe(
        'no_matching_signature',
      );
    });

    it('refuses a signature made with the secret minus its whsec_ prefix', async () => {
      const headers = signed(BODY, NOW, SECRET.slice('whsec_'.length));
      expect(await codeOf(verifyWebhook(BODY, headers, SECRET, { now: NOW }))).toBe('no_matching_signature');
    });

    it('accepts either signature after a rotation (two v1 values)', async () => {
      const headers = { [SIGNATURE_HEADER]: sigHeader(NOW, hmacHex(OLD_SECRET, NOW, BODY), hmacHex(SECRET, NOW, BODY)) };
      await expect(verifyWebhook(BODY, headers, SECRET, { now: NOW })).resolves.toEqual(EVENT);
      await expect(verifyWebhook(BODY, headers, OLD_SECRET, { now: NOW })).resolves.toEqual(EVENT);
      expect(await codeOf(verifyWebhook(BODY, headers, OTHER_SECRET, { now: NOW }))).toBe('no_matching_signature');
    });

    it('accepts when any of an array of secrets matches any v1', async () => {
      await expect(verifyWebhook(BODY, signed(), [OLD_SECRET, SECRET], { now: NOW })).resolves.toEqual(EVENT);
      await expect(verifyWebhook(BODY, signed(BODY, NOW, OLD_SECRET), [OLD_SECRET, SECRET], { now: NOW })).resolves.toEqual(
        EVENT,
      );
      expect(await codeOf(verifyWebhook(BODY, signed(), [OLD_SECRET, OTHER_SECRET], { now: NOW }))).toBe(
        'no_matching_signature',
      );
    });

    it('verifies a body whose bytes are not valid UTF-8, hashing them as received', async () => {
      const bytes = Buffer.concat([
        Buffer.from('{"createdAt":"2023-11-14T22:13:20.000Z","data":{"note":"caf'),
        Buffer.from([0xe9, 0xff]), // Latin-1 é and a byte that is never UTF-8
        Buffer.from('"},"id":"evt_1","type":"forecast.completed"}'),
      ]);
      // Decoding and re-encoding would change the bytes, and so the signature.
      const reencoded = Buffer.from(bytes.toString('utf8'), 'utf8');
      expect(hmacHex(SECRET, NOW, reencoded)).not.toBe(hmacHex(SECRET, NOW, bytes));

      const event = await verifyWebhook(bytes, signed(bytes), SECRET, { now: NOW });
      expect(event.id).toBe('evt_1');
      expect((event.data as Record<string, unknown>)['note']).toBe('caf\uFFFD\uFFFD');
    });

    it('takes the body as a string, Buffer, Uint8Array (a view into a larger buffer) or ArrayBuffer', async () => {
      const bytes = new TextEncoder().encode(BODY);
      const padded = new Uint8Array(bytes.length + 8);
      padded.set(bytes, 4);
      const view = padded.subarray(4, 4 + bytes.length);
      const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      for (const payload of [BODY, Buffer.from(BODY), bytes, view, arrayBuffer]) {
        await expect(verifyWebhook(payload, signed(), SECRET, { now: NOW })).resolves.toEqual(EVENT);
      }
    });

    it('refuses a signed body that is not a JSON event object', async () => {
      for (const body of ['[1]', '"x"', 'null', '42', 'not json', '{"id":"evt_1"}', '{"id":"e","type":"t","createdAt":"c","data":[]}']) {
        const err = await rejection(verifyWebhook(body, signed(body), SECRET, { now: NOW }));
        expect(err.code, body).toBe('malformed_payload');
        expect(err.message).toMatch(/correctly signed/);
      }
    });

    it('returns an event of a kind this SDK does not know', async () => {
      const body = JSON.stringify({ createdAt: EVENT.createdAt, data: { planId: 'p_1' }, id: 'svc:plan.renewed:p_1', type: 'plan.renewed' });
      const event = await verifyWebhook(body, signed(body), SECRET, { now: NOW });
      expect(event).toMatchObject({ type: 'plan.renewed', data: { planId: 'p_1' } });
      expect(isKnownWebhookEvent(event)).toBe(false);
    });

    it('signWebhook produces the reference signature, and verifyWebhook accepts it', async () => {
      const header = await signWebhook(BODY, SECRET, { timestamp: NOW });
      expect(header).toBe(`t=${NOW},v1=${hmacHex(SECRET, NOW, BODY)}`);
      await expect(verifyWebhook(BODY, { 'X-Service-Signature': header }, SECRET, { now: NOW })).resolves.toEqual(EVENT);

      const bytes = Buffer.from([0x7b, 0x7d, 0xe9]);
      expect(await signWebhook(bytes, SECRET, { timestamp: NOW })).toBe(`t=${NOW},v1=${hmacHex(SECRET, NOW, bytes)}`);
    });
  });
}

describe('verifyWebhook: which crypto runs', () => {
  afterEach(() => {
    _forceWebCrypto(false);
    vi.restoreAllMocks();
  });

  it("uses Node's crypto where it exists, and Web Crypto when forced", async () => {
    const sign = vi.spyOn(crypto.subtle, 'sign');
    await verifyWebhook(BODY, signed(), SECRET, { now: NOW });
    expect(sign).not.toHaveBeenCalled();

    _forceWebCrypto(true);
    await verifyWebhook(BODY, signed(), SECRET, { now: NOW });
    expect(sign).toHaveBeenCalledTimes(1);
  });

  it('imports a Web Crypto key once per secret', async () => {
    _forceWebCrypto(true);
    const secret = 'whsec_imported-once';
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    for (let i = 0; i < 3; i++) await verifyWebhook(BODY, signed(BODY, NOW, secret), secret, { now: NOW });
    expect(importKey).toHaveBeenCalledTimes(1);
  });
});

describe('verifyWebhook: timestamps', () => {
  const at = (t: number, options?: { toleranceSeconds?: number }) =>
    verifyWebhook(BODY, signed(BODY, t), SECRET, { now: NOW, ...options });

  it('refuses an old timestamp and a future one', async () => {
    const old = await rejection(at(NOW - 3600));
    expect(old.code).toBe('timestamp_out_of_range');
    expect(old.message).toMatch(/3600 s in the past/);
    const future = await rejection(at(NOW + 3600));
    expect(future.code).toBe('timestamp_out_of_range');
    expect(future.message).toMatch(/in the future/);
  });

  it('accepts a timestamp exactly 300 s away and refuses 301 s, both ways', async () => {
    await expect(at(NOW - 300)).resolves.toEqual(EVENT);
    await expect(at(NOW + 300)).resolves.toEqual(EVENT);
    expect(await codeOf(at(NOW - 301))).toBe('timestamp_out_of_range');
    expect(await codeOf(at(NOW + 301))).toBe('timestamp_out_of_range');
  });

  it('takes a custom tolerance', async () => {
    await expect(at(NOW - 60, { toleranceSeconds: 60 })).resolves.toEqual(EVENT);
    expect(await codeOf(at(NOW - 61, { toleranceSeconds: 60 }))).toBe('timestamp_out_of_range');
    await expect(at(NOW - 3600, { toleranceSeconds: 7200 })).resolves.toEqual(EVENT);
    await expect(at(0, { toleranceSeconds: Infinity })).resolves.toEqual(EVENT);
  });

  it('fails closed on a tolerance that is not a number: a TypeError, never an event (test/webhooks/tolerance-option.test.ts)', async () => {
    await expect(at(NOW, { toleranceSeconds: Number('not a number') })).rejects.toThrow(/^verifyWebhook: `toleranceSeconds` must be a number of seconds >= 0, got NaN\.$/);
  });

  it('checks the signature before the timestamp', async () => {
    const headers = signed(BODY, NOW - 3600);
    expect(await codeOf(verifyWebhook(`${BODY} `, headers, SECRET, { now: NOW }))).toBe('no_matching_signature');
  });

  it('uses the system clock by default', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(verifyWebhook(BODY, signed(BODY, now), SECRET)).resolves.toEqual(EVENT);
  });
});

describe('verifyWebhook: the signature header', () => {
  const good = hmacHex(SECRET, NOW, BODY);
  const withHeader = (value: string) => verifyWebhook(BODY, { [SIGNATURE_HEADER]: value }, SECRET, { now: NOW });

  it('ignores v0 and unknown entries, and spaces around entries', async () => {
    await expect(withHeader(`t=${NOW},v0=deadbeef,v1=${good},scheme=x`)).resolves.toEqual(EVENT);
    await expect(withHeader(`v0=${'0'.repeat(64)}, t=${NOW} , v1=${good}`)).resolves.toEqual(EVENT);
  });

  it('does not take a v0 for a v1', async () => {
    expect(await codeOf(withHeader(`t=${NOW},v0=${good}`))).toBe('no_matching_signature');
  });

  it('reads a Fetch Headers, a Node-style record with a string[] value, and any casing', async () => {
    const value = sigHeader(NOW, good);
    const forms: WebhookHeaders[] = [
      new Headers({ 'X-Service-Signature': value }),
      { 'content-type': 'application/json', 'x-service-signature': [value] },
      { 'x-service-signature': [`t=${NOW}`, `v1=${good}`] }, // one header sent twice, as Node keeps it
      { 'X-SERVICE-Signature': value },
      { 'X-Service-Signature': value, 'x-other': undefined },
    ];
    for (const headers of forms) await expect(verifyWebhook(BODY, headers, SECRET, { now: NOW })).resolves.toEqual(EVENT);
  });

  it('accepts the IncomingHttpHeaders of node:http as they are', async () => {
    const headers: IncomingHttpHeaders = { 'content-type': 'application/json', 'x-service-signature': sigHeader(NOW, good) };
    await expect(verifyWebhook(BODY, headers, SECRET, { now: NOW })).resolves.toEqual(EVENT);
  });

  it('refuses a missing or empty header with missing_header', async () => {
    const forms: WebhookHeaders[] = [
      {},
      new Headers(),
      { 'x-service-signature': '' },
      { 'x-service-signature': '   ' },
      { 'x-service-signature': [] },
      { 'x-service-signature': undefined },
      new Headers({ 'x-service-signature': '' }),
    ];
    for (const headers of forms) {
      const err = await rejection(verifyWebhook(BODY, headers, SECRET, { now: NOW }));
      expect(err.code).toBe('missing_header');
      expect(err.message).toMatch(/X-Service-Signature header is missing/);
    }
  });

  it('treats a non-string value from a custom get() as no header (missing_header), never a bare TypeError', async () => {
    for (const value of [42, {}, ['t=1,v1=ab'], true, Symbol('x')]) {
      const headers = { get: () => value } as unknown as WebhookHeaders;
      const err = await verifyWebhook(BODY, headers, SECRET, { now: NOW }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WebhookVerificationError);
      expect((err as WebhookVerificationError).code).toBe('missing_header');
    }
  });

  it.each([
    ['no t', `v1=${good}`],
    ['a non-integer t', `t=${NOW}.5,v1=${good}`],
    ['a t that is not a number', `t=soon,v1=${good}`],
    ['a negative t', `t=-${NOW},v1=${good}`],
    ['an empty t', `t=,v1=${good}`],
    ['two t', `t=${NOW},t=${NOW},v1=${good}`],
    ['text without key=value', 'garbage'],
    ['an entry without a key', `t=${NOW},=${good}`],
    ['an empty entry', `t=${NOW},,v1=${good}`],
  ])('refuses a header with %s as malformed_header', async (_, value) => {
    const err = await rejection(withHeader(value));
    expect(err.code).toBe('malformed_header');
    expect(err.message).toMatch(/t=<unix seconds>,v1=<hex>/);
  });

  it('refuses a header with no v1, or with v1 values that are not 64 hex digits, as no_matching_signature', async () => {
    const noV1 = await rejection(withHeader(`t=${NOW}`));
    expect(noV1.code).toBe('no_matching_signature');
    expect(noV1.message).toMatch(/no v1 signature/);
    for (const v1 of ['', 'zz', good.slice(0, 62), `${good}00`, `${good.slice(0, 63)}g`]) {
      expect(await codeOf(withHeader(sigHeader(NOW, v1))), v1).toBe('no_matching_signature');
    }
  });

  it('accepts a v1 written in uppercase hex (same bytes)', async () => {
    await expect(withHeader(sigHeader(NOW, good.toUpperCase()))).resolves.toEqual(EVENT);
  });
});

describe('verifyWebhook: payloads and errors', () => {
  it('refuses a parsed object and explains how to get the raw body', async () => {
    const err = await rejection(verifyWebhook(EVENT as unknown as string, signed(), SECRET, { now: NOW }));
    expect(err.code).toBe('malformed_payload');
    expect(err.message).toContain("express.raw({ type: 'application/json' })");
    expect(err.message).toContain('await request.text()');
    expect(err.message).toContain('not an object');
  });

  it('refuses other values that are not a raw body', async () => {
    for (const payload of [null, undefined, 42, [1, 2], new Map()]) {
      expect(await codeOf(verifyWebhook(payload as unknown as string, signed(), SECRET, { now: NOW }))).toBe(
        'malformed_payload',
      );
    }
  });

  it('rejects a missing secret with a TypeError whatever the payload, even one it would refuse (a bug in the receiver comes first)', async () => {
    const err: unknown = await verifyWebhook({ parsed: true } as unknown as string, signed(), undefined as unknown as string, { now: NOW }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
  });

  it('rejects a missing secret with a TypeError that says what to pass', async () => {
    for (const secret of [undefined, '', [], ['whsec_x', ''], [42]]) {
      const err: unknown = await verifyWebhook(BODY, signed(), secret as unknown as string, { now: NOW }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TypeError);
      expect((err as Error).message).toMatch(/secret/);
    }
  });

  it('says "got an empty string" for an empty secret, and what else was given otherwise', async () => {
    const said = async (secret: unknown) => ((await verifyWebhook('{}', new Headers(), secret as string).catch((e: unknown) => e)) as Error).message;
    expect(await said('')).toMatch(/must be a non-empty string .*, got an empty string\./);
    expect(await said('')).not.toMatch(/a string\./);
    expect(await said(undefined)).toMatch(/got undefined\./);
    expect(await said([])).toMatch(/got an empty array\./);
    expect(await said(['whsec_x', ''])).toMatch(/got an array holding an empty string\./);
    expect(await said([42])).toMatch(/got an array holding another value\./);
  });

  it('rejects instead of throwing, whatever the failure', async () => {
    const calls: Array<() => Promise<unknown>> = [
      () => verifyWebhook({} as unknown as string, signed(), SECRET),
      () => verifyWebhook(BODY, {}, SECRET),
      () => verifyWebhook(BODY, { 'x-service-signature': 'garbage' }, SECRET),
      () => verifyWebhook(BODY, signed(), OTHER_SECRET, { now: NOW }),
      () => verifyWebhook(BODY, signed(), SECRET, { now: NOW + 10_000 }),
      () => verifyWebhook(BODY, signed(), undefined as unknown as string),
      () => verifyWebhook(BODY, null as unknown as WebhookHeaders, SECRET),
      () => signWebhook(BODY, SECRET, { timestamp: 1.5 }),
      () => signWebhook({} as unknown as string, SECRET),
      () => signWebhook(BODY, ''),
    ];
    for (const call of calls) {
      let promise: Promise<unknown> | undefined;
      expect(() => {
        promise = call();
      }).not.toThrow();
      await expect(promise).rejects.toBeInstanceOf(Error);
    }
  });

  it('never puts a secret in an error message', async () => {
    const secrets = [SECRET, OLD_SECRET];
    const failures: Array<Promise<unknown>> = [
      verifyWebhook(EVENT as unknown as string, signed(), secrets),
      verifyWebhook(BODY, {}, secrets),
      verifyWebhook(BODY, { 'x-service-signature': `v1=${SECRET}` }, secrets),
      verifyWebhook(BODY, { 'x-service-signature': `t=${NOW}` }, secrets, { now: NOW }),
      verifyWebhook(BODY, signed(BODY, NOW, OTHER_SECRET), secrets, { now: NOW }),
      verifyWebhook(BODY, signed(BODY, NOW, OTHER_SECRET), ['no-prefix-secret'], { now: NOW }),
      verifyWebhook(BODY, signed(), secrets, { now: NOW + 10_000 }),
      verifyWebhook('[1]', signed('[1]'), secrets, { now: NOW }),
      verifyWebhook(BODY, signed(), [SECRET, ''], { now: NOW }),
    ];
    const messages = await Promise.all(failures.map((p) => p.then(() => '', (e: Error) => `${e.message} ${e.stack}`)));
    expect(messages.every(Boolean)).toBe(true);
    for (const message of messages) {
      for (const secret of [...secrets, 'no-prefix-secret']) expect(message).not.toContain(secret);
      expect(message).not.toContain('c2VjcmV0'); // nor a piece of one
    }
  });

  it('hints at the whsec_ prefix when a secret lacks it', async () => {
    const err = await rejection(verifyWebhook(BODY, signed(), SECRET.slice(6), { now: NOW }));
    expect(err.message).toMatch(/lacks it/);
  });

  it('rejects with the one WebhookVerificationError class of the SDK', async () => {
    const err = await rejection(verifyWebhook(BODY, {}, SECRET));
    expect(WebhookVerificationError).toBe(CoreWebhookVerificationError);
    expect(err).toBeInstanceOf(ForecastingError);
    expect(err.name).toBe('WebhookVerificationError');
  });
});

describe('isKnownWebhookEvent', () => {
  it('tells the kinds of the spec from later ones, and narrows the type', async () => {
    const body = JSON.stringify({
      createdAt: EVENT.createdAt,
      data: { ...EVENT.data, reportStatus: 'failed' },
      id: 'svc:forecast.report.completed:fc_1',
      type: 'forecast.report.completed',
    });
    const event = await verifyWebhook(body, signed(body), SECRET, { now: NOW });
    expect(isKnownWebhookEvent(event)).toBe(true);
    if (isKnownWebhookEvent(event) && event.type === 'forecast.report.completed') {
      expectTypeOf(event.data.reportStatus).toEqualTypeOf<'completed' | 'failed'>();
      expectTypeOf(event.data.forecastId).toEqualTypeOf<string>();
      expect(event.data.reportStatus).toBe('failed');
    }
    const test = { createdAt: '', data: { test: true, webhookId: 'wh_1' }, id: 'x', type: 'webhook.test' } as WebhookEvent;
    expect(isKnownWebhookEvent(test)).toBe(true);
    expect(isKnownWebhookEvent({ ...test, type: 'constructor' })).toBe(false);
    expect(isKnownWebhookEvent({ ...test, type: 'toString' })).toBe(false);
  });

  it('types forecastId as null on started, failed and cancelled events', () => {
    const check = (event: WebhookEvent) => {
      if (!isKnownWebhookEvent(event)) return;
      switch (event.type) {
        case 'forecast.started':
        case 'forecast.failed':
        case 'forecast.cancelled':
          expectTypeOf(event.data.forecastId).toEqualTypeOf<null>();
          break;
        case 'forecast.completed':
          expectTypeOf(event.data.forecastId).toEqualTypeOf<string>();
          break;
        case 'webhook.test':
          expectTypeOf(event.data.test).toEqualTypeOf<true>();
          expectTypeOf(event.data.webhookId).toEqualTypeOf<string>();
          break;
      }
    };
    expect(check).toBeTypeOf('function');
  });
});

describe('signWebhook', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('signs with the current time by default', async () => {
    vi.useFakeTimers({ now: NOW * 1000 + 999 });
    expect(await signWebhook(BODY, SECRET)).toBe(`t=${NOW},v1=${hmacHex(SECRET, NOW, BODY)}`);
  });

  it('writes one v1 per secret, as the service does during a rotation', async () => {
    const header = await signWebhook(BODY, [OLD_SECRET, SECRET], { timestamp: NOW });
    expect(header).toBe(sigHeader(NOW, hmacHex(OLD_SECRET, NOW, BODY), hmacHex(SECRET, NOW, BODY)));
    await expect(verifyWebhook(BODY, { [SIGNATURE_HEADER]: header }, OLD_SECRET, { now: NOW })).resolves.toEqual(EVENT);
  });

  it('refuses a timestamp that is not whole Unix seconds', async () => {
    await expect(signWebhook(BODY, SECRET, { timestamp: Date.now() + 0.5 })).rejects.toBeInstanceOf(TypeError);
    await expect(signWebhook(BODY, SECRET, { timestamp: -1 })).rejects.toBeInstanceOf(TypeError);
  });
});

describe('createDeliveryDeduper', () => {
  it('reports a delivery id as seen the second time only', () => {
    const deduper = createDeliveryDeduper();
    expect(deduper.seen('dlv_1')).toBe(false);
    expect(deduper.seen('dlv_1')).toBe(true);
    expect(deduper.seen('dlv_2')).toBe(false);
    expect(deduper.seen('dlv_1')).toBe(true);
  });

  it('forgets ids after ttlMs', () => {
    let now = 0;
    const deduper = createDeliveryDeduper({ ttlMs: 1000, now: () => now });
    deduper.seen('dlv_1');
    now = 999;
    expect(deduper.seen('dlv_1')).toBe(true);
    now = 1000;
    expect(deduper.seen('dlv_1')).toBe(false);
    expect(deduper.seen('dlv_1')).toBe(true);
  });

  it('keeps at most maxEntries ids, forgetting the oldest first', () => {
    const deduper = createDeliveryDeduper({ maxEntries: 2 });
    deduper.seen('a');
    deduper.seen('b');
    deduper.seen('c');
    expect(deduper.seen('b')).toBe(true);
    expect(deduper.seen('c')).toBe(true);
    expect(deduper.seen('a')).toBe(false);
  });

  it('forgets an id on request, so a delivery whose handling failed is processed on retry', () => {
    const deduper = createDeliveryDeduper();
    deduper.seen('dlv_1');
    deduper.forget('dlv_1');
    expect(deduper.seen('dlv_1')).toBe(false);
  });
});

describe('the forecasting-sdk/webhooks entry', () => {
  it('names the headers of a webhook call', () => {
    expect([SIGNATURE_HEADER, DELIVERY_ID_HEADER, EVENT_ID_HEADER, EVENT_TYPE_HEADER]).toEqual([
      'x-service-signature',
      'x-service-delivery-id',
      'x-service-event-id',
      'x-service-event-type',
    ]);
  });

  it('has no Node-only import and loads no zod at run time', () => {
    const dir = new URL('../src/webhooks/', import.meta.url);
    for (const file of readdirSync(dir)) {
      const source = readFileSync(new URL(file, dir), 'utf8');
      expect(source, file).not.toMatch(/from\s+['"]node:/);
      expect(source, file).not.toMatch(/import\s+(?!type\b)[^;]*from\s+['"](zod[^'"]*|\.\.\/schemas\/[^'"]*)['"]/);
    }
  });
});
