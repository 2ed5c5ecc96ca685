// An upload keeps none of what it has sent: a 64 MiB stream, and a 10 MiB file from disk as a Blob (the
// most a file may weigh), go through the built SDK with the heap's array buffers staying small. Runs in a child process with
// --expose-gc, against a local server on 127.0.0.1 that reads and drops what it gets.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

const script = `
import { createServer } from 'node:http';
import { mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ForecastingClient } from './dist/index.js';

const MiB = 1024 * 1024, CHUNKS = 64;
const server = createServer((req, res) => {
  let n = 0;
  req.on('data', (c) => { n += c.length; });
  req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'f1', status: 'processing', sizeBytes: n })));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const client = new ForecastingClient({ apiKey: 'pre_k', baseURL: 'http://127.0.0.1:' + server.address().port + '/api/v1/external' });

/** The most array-buffer memory held, after a full collection, while the upload runs. */
async function peakWhile(run) {
  let peak = 0, done = false;
  const base = (globalThis.gc(), process.memoryUsage().arrayBuffers);
  const sample = (async () => { while (!done) { globalThis.gc(); peak = Math.max(peak, process.memoryUsage().arrayBuffers - base); await new Promise((r) => setTimeout(r, 5)); } })();
  const result = await run();
  done = true;
  await sample;
  return { peak, result };
}

async function* chunks() { for (let i = 0; i < CHUNKS; i++) yield new Uint8Array(MiB).fill(i); }
const streamed = await peakWhile(() => client.questions.files.upload('q1', { file: chunks(), filename: 'big.bin' }));

const dir = mkdtempSync(join(tmpdir(), 'upload-memory-'));
writeFileSync(join(dir, 'big.bin'), new Uint8Array(10 * MiB));
const blob = await openAsBlob(join(dir, 'big.bin'));
const fromDisk = await peakWhile(() => client.questions.files.upload('q1', { file: blob, filename: 'big.bin' }));
rmSync(dir, { recursive: true, force: true });
server.close();
console.log(JSON.stringify({ streamed: { peak: streamed.peak, size: streamed.result.sizeBytes }, fromDisk: { peak: fromDisk.peak, size: fromDisk.result.sizeBytes } }));
`;

it('keeps none of what an upload has sent: a 64 MiB stream or a 10 MiB file never sits in memory whole', () => {
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  const { streamed, fromDisk } = JSON.parse(out) as Record<'streamed' | 'fromDisk', { peak: number; size: number }>;
  // Both bodies reached the server whole (the form's head and tail on top of the 64 MiB).
  expect(streamed.size).toBeGreaterThan(64 * 1024 * 1024);
  expect(fromDisk.size).toBeGreaterThan(10 * 1024 * 1024);
  // Kept whole they would hold 64 and 10 MiB (as Node's fetch does unless redirects are an error); sent
  // as read, a few chunks are in flight at a time.
  expect(streamed.peak).toBeLessThan(24 * 1024 * 1024);
  // Under 8 MiB: less than the file, with room for the chunks a busy machine has in flight (5-7 MiB seen).
  expect(fromDisk.peak).toBeLessThan(8 * 1024 * 1024);
}, 120_000);
