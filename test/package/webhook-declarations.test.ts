// The published declarations of the webhook entries stand alone: a receiver compiles them without
// zod, and they reach only the webhook's own types (the events, the headers, verification and its
// error), never the chunk of declarations the client shares with the mock.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const ENTRIES = ['webhooks/index', 'webhooks/express', 'webhooks/fetch'];

/** The declaration file and every file it imports, transitively, with their text. */
function closure(file: string): Map<string, string> {
  const seen = new Map<string, string>();
  const stack = [join(dist, file)];
  for (let path = stack.pop(); path !== undefined; path = stack.pop()) {
    if (seen.has(path)) continue;
    const text = readFileSync(path, 'utf8');
    seen.set(path, text);
    for (const [, spec] of text.matchAll(/(?:\bfrom|^import)\s*['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      // `../verify-X.js` is declared by `../verify-X.d.ts`, `.cjs` by `.d.cts`.
      stack.push(join(dirname(path), spec!.replace(/\.js$/, '.d.ts').replace(/\.cjs$/, '.d.cts')));
    }
  }
  return seen;
}

describe.each(['d.ts', 'd.cts'])('the declarations of the webhook entries (%s)', (ext) => {
  it.each(ENTRIES)('%s, and every chunk it imports, never mention zod', (entry) => {
    const files = closure(`${entry}.${ext}`);
    expect(files.size).toBeGreaterThan(1); // the walk follows the chunks
    for (const [path, text] of files) expect(text, path).not.toMatch(/zod/i);
  });

  it.each(ENTRIES)('%s reaches only the webhook types: no client class, under 26 KB in all', (entry) => {
    const files = closure(`${entry}.${ext}`);
    const all = [...files.values()].join('\n');
    expect(all).toMatch(/declare class WebhookVerificationError extends ForecastingError/);
    // A class the webhook entries never use: its presence means they pull the client's shared chunk.
    expect(all).not.toMatch(/declare class (APIError|NotFoundError|ValidationError)\b/);
    expect(all).not.toMatch(/\binterface Question\b/);
    // About 31 KB today (express: 9 KB of its own, documented; the event coordination its `coordinator`
    // option names, kept in a file of its own so the client's coordination types stay out); the chunk it
    // once shared with the client was 29 KB alone.
    expect(Buffer.byteLength(all)).toBeLessThan(33 * 1024);
  });
});
