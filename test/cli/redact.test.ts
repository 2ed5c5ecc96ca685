// The CLI's one redaction of secrets in error lines (src/cli/report.ts): the whole secret anywhere,
// and a secret's start of 8 characters or more where a clipped message ends, in linear time.
import { describe, expect, it } from 'vitest';
import { addSecret, redact } from '../../src/cli/report.js';

const KEY = 'pre_live_0123456789abcdef';
addSecret(KEY);

describe('redact', () => {
  it('replaces the secret wherever it is', () => {
    expect(redact(`bad key ${KEY} (and ${KEY})`)).toBe('bad key [redacted] (and [redacted])');
  });

  it('replaces a secret cut short where the message was clipped: at the end, or before the clipping mark', () => {
    expect(redact(`key pre_live_0123`)).toBe('key [redacted]');
    expect(redact(`key pre_live_0123…`)).toBe('key [redacted]…');
    expect(redact(`key pre_live_01234 … (120 more characters)`)).toBe('key [redacted] … (120 more characters)');
    expect(redact(`key pre_live_01234 (1 more character)`)).toBe('key [redacted] (1 more character)');
  });

  it('leaves a start shorter than 8 characters, or one followed by more text, as it is', () => {
    expect(redact('key pre_liv')).toBe('key pre_liv');
    expect(redact('key pre_live_0123 and more')).toBe('key pre_live_0123 and more');
  });

  it('reads a long gap after a secret’s start in linear time (64,000 spaces took seconds before)', () => {
    const text = `pre_live_0${' '.repeat(64_000)}x`;
    const started = performance.now();
    expect(redact(text)).toBe(text);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
