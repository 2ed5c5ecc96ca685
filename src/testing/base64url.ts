/**
 * base64url with the web's `btoa`/`atob` rather than Node's `Buffer`, so the in-memory mock runs in
 * a browser (msw in front-end tests) as well as on Node.
 * @module
 */

/** `bytes` as base64url, unpadded. @internal */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of a base64url text; throws on text that is not base64url. @internal */
export function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  // A plain loop: `Uint8Array.from` with a map function takes seconds on a 10 MiB file.
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
