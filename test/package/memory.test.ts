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
