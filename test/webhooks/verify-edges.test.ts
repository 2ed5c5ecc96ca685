// verifyWebhook at the edges: each header or body rule broken on its own, so no other check hides it.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER, WebhookVerificationError, createDeliveryDeduper, signWebhook, verifyWebhook } from '../../src/webhooks/index.js';

const SECRET = 'whsec_ZWRnZXMtb2YtdmVyaWZpY2F0aW9u';
const NOW = 1_700_000_000;
const EVENT = {
  createdAt: '2023-11-14T22:13:20.000Z',
  data: { forecastId: null, forecastUrl: 'https://app.example.com/forecasts/t_1', questionId: 'q_1', taskId: 't_1' },
  id: 'svc:forecast.started:t_1',
  type: 'forecast.started',
};
const BODY = JSON.stringify(EVENT);

const hmacHex = (t: number | string, body: string, secret = SECRET) => createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');

/** Verifies `body` under the header `header`, at NOW. */
const verify = (header: string, body = BODY, options: { now?: number; toleranceSeconds?: number } = {}) =>
  verifyWebhook(body, { [SIGNATURE_HEADER]: header }, SECRET, { now: NOW, ...options });

async function refusal(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WebhookVerificationError);
  return err as WebhookVerificationError;
}

describe('the signature header is read strictly', () => {
  const good = hmacHex(NOW, BODY);

  it.each([
    ['a trailing comma', `t=${NOW},v1=${good},`],
    ['a junk entry after v1', `t=${NOW},v1=${good},junk`],
    ['a junk entry before t', `junk,t=${NOW},v1=${good}`],
    ['a junk entry between t and v1', `t=${NOW},junk,v1=${good}`],
    ['a leading comma', `,t=${NOW},v1=${good}`],
  ])('refuses a header with %s as malformed_header, though its v1 matches', async (_, header) => {
    expect((await refusal(verify(header))).code).toBe('malformed_header');
  });

  it('names what is wrong in the malformed_header message', async () => {
    expect((await refusal(verify(`t=${NOW},v1=${good},`))).message).toBe(
      'Malformed X-Service-Signature header: an entry is not of the form key=value; expected "t=<unix seconds>,v1=<hex>".',
    );
    expect((await refusal(verify(`v1=${good}`))).message).toContain('it has no t (timestamp)');
    expect((await refusal(verify(`t=${NOW},t=${NOW},v1=${good}`))).message).toContain('it has more than one t');
    expect((await refusal(verify(`t=1.5,v1=${good}`))).message).toContain('t is not a whole number of seconds');
  });

  it('takes a t of up to 15 digits and refuses 16 as malformed', async () => {
    const far = '9'.repeat(15);
    expect((await refusal(verify(`t=${far},v1=${hmacHex(far, BODY)}`))).code).toBe('timestamp_out_of_range');
    const tooLong = '9'.repeat(16);
    expect((await refusal(verify(`t=${tooLong},v1=${hmacHex(tooLong, BODY)}`))).code).toBe('malformed_header');
  });

  it('signs the timestamp text exactly as sent, leading zeros included', async () => {
    const t = `0${NOW}`;
    await expect(verify(`t=${t},v1=${hmacHex(t, BODY)}`)).resolves.toEqual(EVENT);
    expect((await refusal(verify(`t=${t},v1=${good}`))).code).toBe('no_matching_signature');
  });

  it('refuses a v1 with a character that is not hex in place of a digit, even where the byte would match', async () => {
    // The first byte whose high digit is f: a lenient decoder would read a bad digit as all ones.
    const at = [...good].findIndex((c, i) => i % 2 === 0 && c === 'f');
    expect(at).toBeGreaterThanOrEqual(0);
    for (const bad of ['g', 'G', 'x', ':', '/', '@', '`', ' ']) {
      const v1 = good.slice(0, at) + bad + good.slice(at + 1);
      expect((await refusal(verify(`t=${NOW},v1=${v1}`))).code, bad).toBe('no_matching_signature');
    }
    // The low digit of a byte 0xff, read the same way.
    const ff = [...good].findIndex((c, i) => i % 2 === 0 && c === 'f' && good[i + 1] === 'f');
    if (ff >= 0) {
      const v1 = `${good.slice(0, ff + 1)}z${good.slice(ff + 2)}`;
      expect((await refusal(verify(`t=${NOW},v1=${v1}`))).code).toBe('no_matching_signature');
    }
  });

  it('reads a v1 with spaces around its value', async () => {
    await expect(verify(`t=${NOW}, v1= ${good} `)).resolves.toEqual(EVENT);
  });

  it('refuses a v1 with a letter beyond f in place of any digit', async () => {
    // Whatever value a lenient decoder gave a bad digit, some signature digit has that value.
    for (const digit of '0123456789abcdef') {
      const at = [...good].findIndex((c) => c === digit);
      if (at < 0) continue;
      const v1 = `${good.slice(0, at)}q${good.slice(at + 1)}`;
      expect((await refusal(verify(`t=${NOW},v1=${v1}`))).code, digit).toBe('no_matching_signature');
    }
  });

  it('accepts every hex digit in either case', async () => {
    for (const t of [NOW, NOW + 1, NOW + 2, NOW + 3]) {
      const hex = hmacHex(t, BODY);
      await expect(verify(`t=${t},v1=${hex.toUpperCase()}`, BODY, { now: t })).resolves.toEqual(EVENT);
    }
    // Together these signatures hold every digit 0-9 and a-f.
    const digits = new Set([NOW, NOW + 1, NOW + 2, NOW + 3].flatMap((t) => [...hmacHex(t, BODY)]));
    expect([...digits].sort().join('')).toBe('0123456789abcdef');
  });

  it('accepts the matching v1 wherever it stands among others', async () => {
    const other = hmacHex(NOW, BODY, 'whsec_other');
    await expect(verify(`t=${NOW},v1=${other},v1=${good}`)).resolves.toEqual(EVENT);
    await expect(verify(`t=${NOW},v1=${good},v1=${other}`)).resolves.toEqual(EVENT);
    await expect(verify(`t=${NOW},v1=zz,v1=${good}`)).resolves.toEqual(EVENT);
  });

  it('says no_matching_signature, with the hints, when no v1 matches', async () => {
    const err = await refusal(verify(`t=${NOW},v1=${hmacHex(NOW, BODY, 'whsec_other')}`));
    expect(err.code).toBe('no_matching_signature');
    expect(err.message).toBe(
      'No v1 signature in the X-Service-Signature header matches: pass the raw body as received (not re-serialized JSON) and the whole signing secret, "whsec_" included; during a rotation, pass both secrets in an array.',
    );
  });
});

describe('the signed body must be an event', () => {
  const signedBody = (value: unknown) => {
    const body = JSON.stringify(value);
    return verify(`t=${NOW},v1=${hmacHex(NOW, body)}`, body);
  };
  const without = (key: keyof typeof EVENT) => Object.fromEntries(Object.entries(EVENT).filter(([k]) => k !== key));

  it.each([
    ['without id', without('id')],
    ['without type', without('type')],
    ['without createdAt', without('createdAt')],
    ['without data', without('data')],
    ['with a numeric id', { ...EVENT, id: 7 }],
    ['with a null type', { ...EVENT, type: null }],
    ['with a numeric createdAt', { ...EVENT, createdAt: 1_700_000_000 }],
    ['with data that is text', { ...EVENT, data: 't_1' }],
    ['with data that is null', { ...EVENT, data: null }],
    ['with data that is an array', { ...EVENT, data: [] }],
    ['that is an array', [EVENT]],
    ['that is null', null],
    ['that is a string', 'forecast.started'],
  ])('refuses a correctly signed body %s as malformed_payload', async (_, value) => {
    const err = await refusal(signedBody(value));
    expect(err.code).toBe('malformed_payload');
    expect(err.message).toBe('The webhook payload is correctly signed but is not a JSON event object.');
  });

  it('refuses a correctly signed body that is not JSON as malformed_payload', async () => {
    const body = '{"id":';
    expect((await refusal(verify(`t=${NOW},v1=${hmacHex(NOW, body)}`, body))).code).toBe('malformed_payload');
  });

  it('returns an event whose data is empty', async () => {
    await expect(signedBody({ ...EVENT, data: {} })).resolves.toEqual({ ...EVENT, data: {} });
  });
});

describe('the timestamp', () => {
  const at = (t: number) => `t=${t},v1=${hmacHex(t, BODY)}`;

  it('says how far in the past or the future the timestamp is, and the tolerance', async () => {
    expect((await refusal(verify(at(NOW - 400)))).message).toBe(
      `Signature timestamp t=${NOW - 400} is 400 s in the past, beyond the 300 s tolerance: an old or replayed call, or a skewed clock.`,
    );
    expect((await refusal(verify(at(NOW + 400)))).message).toContain('is 400 s in the future, beyond the 300 s tolerance');
  });

  it('turns the check off with an infinite tolerance', async () => {
    await expect(verify(at(1), BODY, { toleranceSeconds: Infinity })).resolves.toEqual(EVENT);
  });

  it('accepts a call signed at the receiver’s second', async () => {
    await expect(verify(at(NOW))).resolves.toEqual(EVENT);
    await expect(verify(at(NOW), BODY, { toleranceSeconds: 0 })).resolves.toEqual(EVENT);
  });
});

describe('signWebhook', () => {
  it('writes t and one v1 of 64 lowercase hex digits', async () => {
    const header = await signWebhook(BODY, SECRET, { timestamp: NOW });
    expect(header).toBe(`t=${NOW},v1=${hmacHex(NOW, BODY)}`);
  });

  it('accepts the timestamp 0 and refuses a negative one', async () => {
    await expect(signWebhook(BODY, SECRET, { timestamp: 0 })).resolves.toBe(`t=0,v1=${hmacHex(0, BODY)}`);
    await expect(signWebhook(BODY, SECRET, { timestamp: -1 })).rejects.toThrow('signWebhook: `timestamp` must be whole Unix seconds (not milliseconds).');
  });

  // `Date.now()` where seconds go made a signature no receiver could ever verify; the CLI refused it already.
  it('refuses milliseconds (past 1e11, the year 5138) and takes the seconds up to there', async () => {
    await expect(signWebhook(BODY, SECRET, { timestamp: 1_796_141_709_798 })).rejects.toThrow('signWebhook: `timestamp` must be whole Unix seconds (not milliseconds).');
    await expect(signWebhook(BODY, SECRET, { timestamp: 1e11 })).resolves.toMatch(/^t=100000000000,v1=/);
  });

  it('refuses a payload that is not a string or bytes', async () => {
    await expect(signWebhook({} as unknown as string, SECRET)).rejects.toThrow('signWebhook: `payload` must be a string or bytes.');
  });
});

describe('createDeliveryDeduper', () => {
  it('remembers an id for exactly ttlMs', () => {
    let now = 0;
    const deduper = createDeliveryDeduper({ ttlMs: 1000, now: () => now });
    expect(deduper.seen('d1')).toBe(false);
    now = 999;
    expect(deduper.seen('d1')).toBe(true);
    now = 1000;
    expect(deduper.seen('d1')).toBe(false);
  });

  it('keeps exactly maxEntries ids', () => {
    const deduper = createDeliveryDeduper({ maxEntries: 2, now: () => 0 });
    deduper.seen('a');
    deduper.seen('b');
    expect(deduper.seen('a')).toBe(true);
    expect(deduper.seen('b')).toBe(true);
    deduper.seen('c');
    expect(deduper.seen('b')).toBe(true);
    expect(deduper.seen('a')).toBe(false);
  });
});
