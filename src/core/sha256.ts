/**
 * SHA-256, synchronous and runtime-neutral (FIPS 180-4). The client hashes its API key once, when it
 * is built, to name the key to a coordinator without handing it the key. Web Crypto's `digest` would
 * do it too, but only asynchronously: the client's constructor, and the coordinator's key namespace
 * and same-key check, would then wait on a promise. Not for secrets' integrity: only a namespace.
 * @module
 */

/** The first 32 bits of the fractional part of `x`. */
const frac32 = (x: number): number => ((x - Math.floor(x)) * 0x100000000) >>> 0;
/** The first 64 primes. */
const PRIMES: number[] = [];
for (let n = 2; PRIMES.length < 64; n++) if (PRIMES.every((p) => n % p !== 0)) PRIMES.push(n);
// The standard's constants, as it defines them: from the cube roots of the first 64 primes, and the
// initial hash from the square roots of the first 8 (exact in double precision at these sizes).
const K = PRIMES.map((p) => frac32(Math.cbrt(p)));
const H0 = PRIMES.slice(0, 8).map((p) => frac32(Math.sqrt(p)));

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/**
 * The SHA-256 digest of `text` (UTF-8), as 64 lower-case hex digits.
 * @internal
 */
export function sha256Hex(text: string): string {
  const data = new TextEncoder().encode(text);
  // The message, a 1 bit, zeros, and its length in bits (64-bit big-endian), to a multiple of 64 bytes.
  const blocks = Math.ceil((data.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(data.length / 0x20000000));
  view.setUint32(padded.length - 4, (data.length * 8) >>> 0);
  const h = Uint32Array.from(H0);
  const w = new Uint32Array(64);
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + 4 * i);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      w[i] = w[i - 16]! + (rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3)) + w[i - 7]! + (rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10));
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    const next = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i++) h[i] = h[i]! + next[i]!;
  }
  return Array.from(h, (x) => x.toString(16).padStart(8, '0')).join('');
}
