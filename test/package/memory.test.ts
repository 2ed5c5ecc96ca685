// Iterating a list holds one page at a time: pages already walked are garbage, however long the list.
// Runs in a child process with --expose-gc, against a local server on 127.0.0.1.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

const script = `
import { createServer } from 'node:http';
import { ForecastingClient } from './dist/index.js';

const PAGES = 200, SIZE = 100;
const server = createServer((req, res) => {
  const cursor = Number(new URL(req.url, 'http://x').searchParams.get('cursor') ?? 0);
  const data = Array.from({ length: SIZE }, (_, i) => ({ id: 'q' + (cursor * SIZE + i), title: 'x'.repeat(2000) }));
  const hasMore = cursor + 1 < PAGES;
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'list', data, hasMore, nextCursor: hasMore ? String(cursor + 1) : null }));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const client = new ForecastingClient({ apiKey: 'pre_k', baseURL: 'http://127.0.0.1:' + server.address().port + '/api/v1/external' });

let first, items = 0, heapAt10 = 0;
let page = 0;
for await (const p of client.questions.list({ limit: SIZE }).iterPages()) {
  if (page === 0) first = new WeakRef(p);
  items += p.data.length;
  if (++page === 10) { globalThis.gc(); heapAt10 = process.memoryUsage().heapUsed; }
}
globalThis.gc();
const heapGrowth = process.memoryUsage().heapUsed - heapAt10;
server.close();
console.log(JSON.stringify({ items, firstPageCollected: first.deref() === undefined, heapGrowth }));
`;

it('holds one page at a time while iterating 20,000 items', () => {
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  const result = JSON.parse(out) as { items: number; firstPageCollected: boolean; heapGrowth: number };
  expect(result.items).toBe(20_000);
  expect(result.firstPageCollected).toBe(true);
  // 190 more pages of ~200 KB each would be ~38 MB if they were kept; the heap's own noise is ~2 MB.
  expect(result.heapGrowth).toBeLessThan(8 * 1024 * 1024);
}, 60_000);

// A walk keeps each cursor it followed, to notice a loop: a long one only as a digest. The pages come
// from a fetch of the test's own (Node's keeps up to a few hundred finished requests, their URLs
// included, whatever the client does).
const longCursors = `
import { ForecastingClient } from './dist/index.js';

const PAGES = 1000, CURSOR = 8192 - 8;
const fetch = async (input) => {
  const cursor = new URL(input.url ?? String(input)).searchParams.get('cursor');
  const n = cursor === null ? 0 : Number(cursor.slice(0, 8)) + 1;
  const hasMore = n + 1 < PAGES;
  const next = hasMore ? String(n).padStart(8, '0') + 'c'.repeat(CURSOR) : null;
  return new Response(JSON.stringify({ type: 'list', data: [{ id: 'q' + n }], hasMore, nextCursor: next }), { headers: { 'content-type': 'application/json' } });
};
const client = new ForecastingClient({ apiKey: 'pre_k', baseURL: 'http://127.0.0.1:9/api/v1/external', fetch });
let items = 0, heapAt5 = 0, page = 0;
// Collected for real: fetch's signals are let go by finalizers, which run in a task after a collection.
const settle = async () => { for (let k = 0; k < 5; k++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 20)); } };
for await (const p of client.questions.list().iterPages()) {
  items += p.data.length;
  if (++page === 5) { await settle(); heapAt5 = process.memoryUsage().heapUsed; }
}
await settle();
const heapGrowth = process.memoryUsage().heapUsed - heapAt5;
console.log(JSON.stringify({ items, heapGrowth }));
`;

// A longer cursor stops the walk (test/core/hostile-ids.test.ts): the longest it follows, page after page.
it('keeps no long cursor it followed: 1,000 pages, each with a new cursor of 8 KiB, the longest followed', () => {
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', longCursors], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  const result = JSON.parse(out) as { items: number; heapGrowth: number };
  expect(result.items).toBe(1000);
  // 995 more cursors of 8 KiB would be ~8 MB if they were kept (16 MB as the trail and its map kept them before).
  expect(result.heapGrowth).toBeLessThan(3 * 1024 * 1024);
}, 60_000);
