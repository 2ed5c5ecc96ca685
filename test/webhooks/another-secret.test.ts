// How a receiver tells a call signed with another secret (a missed rotation: a well-formed v1 and a
// fresh t) from a missing, garbled or old signature, on the function itself.
import { describe, expect, it } from 'vitest';
import { looksSignedWithAnotherSecret } from '../../src/webhooks/verify.js';
import { SIGNATURE_HEADER, signWebhook } from '../../src/webhooks/index.js';

const NOW = 1_700_000_000;
const OTHER = 'whsec_b3RoZXItc2VjcmV0LWZvci10ZXN0cw';
const signed = (timestamp = NOW) => signWebhook('{"id":"e1"}', OTHER, { timestamp });

describe('a call that looks signed with another secret', () => {
  it('has a well-formed v1 and a t within the tolerance, spaces around it or not', async () => {
    const header = await signed();
    expect(looksSignedWithAnotherSecret({ [SIGNATURE_HEADER]: header }, { now: NOW + 10 })).toBe(true);
    expect(looksSignedWithAnotherSecret({ [SIGNATURE_HEADER]: `  ${header}  ` }, { now: NOW - 10 })).toBe(true);
  });

  it('is not one whose t is beyond the tolerance, the default or the one given', async () => {
    const header = { [SIGNATURE_HEADER]: await signed() };
    expect(looksSignedWithAnotherSecret(header, { now: NOW + 301 })).toBe(false);
    expect(looksSignedWithAnotherSecret(header, { now: NOW + 301, toleranceSeconds: 400 })).toBe(true);
    expect(looksSignedWithAnotherSecret(header, { now: NOW + 20, toleranceSeconds: 10 })).toBe(false);
  });

  it.each([
    ['no signature header', {}],
    ['a garbled header', { [SIGNATURE_HEADER]: 'garbage' }],
    ['a t with no v1', { [SIGNATURE_HEADER]: `t=${NOW}` }],
    ['a v1 that is not hex', { [SIGNATURE_HEADER]: `t=${NOW},v1=zz` }],
  ])('is not one with %s', (_, headers) => {
    expect(looksSignedWithAnotherSecret(headers, { now: NOW })).toBe(false);
  });
});
